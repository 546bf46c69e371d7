"""Make the annotator's pictures in docs/: labelling, review with its four categories, two annotators' agreement.

All three come from the demo project (built afresh in a temporary folder) and what ships with RecordLens:
- `annotator-labelling.png`: demo page 2 with record 3 selected and the pointer on one of its elements (the
  hover tip, the badges, the scroll-bar marks);
- `annotator-review.png`: the demo's MDR run on page 3, which has all four categories (matched, partial,
  missed, spurious);
- `annotator-agreement.png`: a second annotator, "bea", whose labels of the demo pages are the demo's ground
  truth with three deliberate differences (below), imported with `import --annotator bea` and reviewed against
  the project's labels; `docs/agreement.txt` is `recordlens agreement --between project bea` on the same project.

Run from the repository root, on a machine without a display too:
    xvfb-run -a .venv/bin/python docs/annotator_screenshots.py     (or QT_QPA_PLATFORM=offscreen)
"""

from __future__ import annotations

import contextlib
import io
import json
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
SIZE = (1530, 920)


def bea_dataset(demo: Path, out: Path) -> Path:
    """The demo dataset as a second annotator labelled it: page 1 without its first record, page 3 with its first
    record cut to its headline and date, and an extra record (the page's heading)."""
    (out / "html").mkdir(parents=True)
    (out / "gt").mkdir()
    for page in sorted((demo / "gt").glob("*.json")):
        shutil.copy(demo / "html" / f"{page.stem}.html", out / "html")
        records = json.loads(page.read_text(encoding="utf-8"))
        if page.stem == "1":
            records = records[1:]
        if page.stem == "3":
            first = "/body[1]/div[1]/main[1]/section[1]/article[1]/div[1]"
            records = [[f"{first}/h2[1]", f"{first}/time[1]"], *records[1:], ["/body[1]/div[1]/main[1]/h1[1]"]]
        (out / "gt" / page.name).write_text(json.dumps(records), encoding="utf-8")
    return out


def main() -> None:
    from recordlens.annotator.qt import env as qt_env

    app = qt_env.create_application([sys.argv[0]])
    from recordlens.annotator.labelling.demo_project import demo_dataset, open_demo_project
    from recordlens.annotator.labelling.main_window import MainWindow
    from recordlens.annotator.qt.event_loop import spin
    from recordlens.annotator.settings import SessionKeyStore, Settings
    from recordlens.core.cli.command import main as recordlens
    from recordlens.core.store import import_paths

    with tempfile.TemporaryDirectory(prefix="recordlens-docs-") as tmp:
        project = open_demo_project(Path(tmp) / "demo")
        report = import_paths(project, [bea_dataset(demo_dataset(), Path(tmp) / "bea")], annotator="bea")
        assert not report.problems, report.problems
        window = MainWindow(project, settings=Settings(annotator="ana"), settings_file=Path(tmp) / "settings.json",
                            key_store=SessionKeyStore())
        try:
            window.resize(*SIZE)
            window.show()

            window.open_page("2")
            window.wait_until_drawn()
            third = window.labels[2]
            window.select_records([third.id])
            window.wait_until_drawn()
            spin(600)
            target = third.xpaths[0]
            window.page_view.offline.run_js(f"""(() => {{
                const el = __recordlens.resolve({json.dumps(target)});
                const inner = el.querySelector("a, h3, h2, span, b, td") || el;
                const r = inner.getBoundingClientRect();
                inner.dispatchEvent(new MouseEvent("mousemove", {{bubbles: true, clientX: r.left + 4,
                                                                   clientY: r.top + 4}}));
            }})()""")
            spin(400)
            save(window, DOCS / "annotator-labelling.png")

            window.open_page("3")
            mdr = max(run.id for run in project.runs.all() if run.method == "mdr")
            window.start_review(mdr)
            window.wait_until_drawn()
            spin(400)
            save(window, DOCS / "annotator-review.png")

            window.start_review("annotator:bea")
            window.wait_until_drawn()
            for _ in range(200):  # the comparison of every page runs in the background
                if "bea" in window.reviewing.agreements and window.job is None:
                    break
                spin(50)
            spin(400)
            save(window, DOCS / "annotator-agreement.png")
        finally:
            window.close()
            window.shutdown()
        text = io.StringIO()
        with contextlib.redirect_stdout(text):
            recordlens(["agreement", "--project", str(Path(tmp) / "demo"), "--between", "project", "bea", "-q"])
        (DOCS / "agreement.txt").write_text(text.getvalue().replace(tmp, "DEMO"), encoding="utf-8")
    del app


def save(window, path: Path) -> None:  # noqa: ANN001 - a MainWindow
    if not window.snapshot().save(str(path), "PNG"):
        raise OSError(f"could not write {path}")
    print(f"wrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
