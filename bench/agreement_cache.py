"""The annotator comparison, cold and warm: a team project of N synthetic pages (default 1,625, as the project the
app was measured on) labelled by the project and by an imported annotator who differs from it on some pages; the
comparison the app's Review starts (`project_agreement(annotator, project)`, as `recordlens agreement --between`
makes it) timed on an empty comparison cache (cold), then again with nothing changed (warm), then once more after
one page's labels changed (one page made again). Prints the seconds of each and the cold / warm ratio.

    python bench/agreement_cache.py [--pages N] [--filler N] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path

from recordlens.core.store.agreement import project_agreement
from recordlens.core.store.comparison_cache import TABLE
from recordlens.core.store.importer import import_paths
from recordlens.core.store.project import Provenance, init_project, open_project

PAGES = 1625
FILLER = 150  # paragraphs of text around each page's list, so a page is parsed as a page of some size is
ANNOTATOR = "bea"
WORDS = ("camera", "lens", "tripod", "price", "stock", "review", "order", "colour", "size", "ship", "café", "über")


def page_html(draw: random.Random, records: int, filler: int) -> str:
    """A page of `records` list items (a name and a price each) among `filler` paragraphs."""
    text = lambda n: " ".join(draw.choice(WORDS) for _ in range(n))  # noqa: E731
    items = "".join(f"<li><span>{text(3)}</span><b>${draw.randint(1, 999)}</b><i>{text(5)}</i></li>"
                    for _ in range(records))
    before = "".join(f"<p>{text(12)}</p>" for _ in range(filler // 2))
    after = "".join(f"<p>{text(12)}</p>" for _ in range(filler - filler // 2))
    return f"<html><head><title>{text(2)}</title></head><body>{before}<ul>{items}</ul>{after}</body></html>"


def records_of(count: int, ul: int) -> list[list[str]]:
    """The list's items as records, each its three elements' XPaths."""
    return [[f"/body[1]/ul[{ul}]/li[{k}]/{tag}[1]" for tag in ("span", "b", "i")] for k in range(1, count + 1)]


def theirs(draw: random.Random, records: list[list[str]]) -> list[list[str]]:
    """The annotator's: one page in four differs (a record left out, or one labelled in part)."""
    roll = draw.random()
    if roll < 0.125:
        return records[1:]
    if roll < 0.25:
        return [records[0][:1], *records[1:]]
    return records


def build(root: Path, pages: int, filler: int) -> Path:
    """A project in `root/p` of `pages` pages, its labels and the annotator's label set imported."""
    draw = random.Random(7)
    for side in ("ours", "theirs"):
        (root / side / "html").mkdir(parents=True)
        (root / side / "gt").mkdir()
    for n in range(1, pages + 1):
        count = draw.randint(4, 30)
        html = page_html(draw, count, filler)
        ours = records_of(count, 1)
        for side, records in (("ours", ours), ("theirs", theirs(draw, ours))):
            (root / side / "html" / f"{n}.html").write_text(html, encoding="utf-8")
            (root / side / "gt" / f"{n}.json").write_text(json.dumps(records), encoding="utf-8")
    with init_project(root / "p") as project:
        import_paths(project, [root / "ours"])
        import_paths(project, [root / "theirs"], annotator=ANNOTATOR)
    return root / "p"


def timed(folder: Path) -> tuple[float, object]:
    """The seconds of one comparison in a project opened for it (as the app's background job opens one)."""
    with open_project(folder) as project:
        start = time.perf_counter()
        result = project_agreement(project, ANNOTATOR, "project")
        return time.perf_counter() - start, result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pages", type=int, default=PAGES)
    parser.add_argument("--filler", type=int, default=FILLER, help="paragraphs of text on each page")
    parser.add_argument("--keep", type=Path, help="build the project in this folder and keep it (reused if there)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = args.keep or Path(tmp)
        start = time.perf_counter()
        folder = root / "p" if (root / "p" / "project.db").is_file() else build(root, args.pages, args.filler)
        print(f"project of {args.pages} pages ready in {time.perf_counter() - start:.1f} s", file=sys.stderr)
        with open_project(folder) as project, project.writing() as db:
            db.execute(f"DROP TABLE IF EXISTS {TABLE}")  # cold: nothing remembered
        cold, first = timed(folder)
        warm, second = timed(folder)
        if second != first:
            print("the warm comparison differs from the cold one", file=sys.stderr)
            return 1
        with open_project(folder) as project:  # one page's labels changed, as an edit in the app changes them
            page = first.pages[len(first.pages) // 2].page
            project.delete(project.labels(page)[0].id, Provenance.person("bench"))
        one, _ = timed(folder)
        print(f"comparison of {len(first.pages)} pages: cold {cold:.2f} s, warm {warm:.2f} s, "
              f"ratio {cold / warm:.1f}; after one page's labels changed {one:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
