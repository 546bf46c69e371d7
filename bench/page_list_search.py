"""The page list's search typed key by key: the labelling window's list of N pages (default 1,625, seeded names,
titles and URLs, some in other scripts and accented), built offscreen and shown, a search typed one key at a time,
and each key's seconds printed: the key itself, then the list brought to what the box says (the fill the search's
pause would run, forced at once) and painted. With `--old PATH` (a copy of page_list.py kept from before a change)
the same keys are typed into that module's list too, in the same rounds, and both columns are printed side by side.

    QT_QPA_PLATFORM=offscreen python bench/page_list_search.py [--pages N] [--old /tmp/page_list_old.py]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import random
import statistics
import sys
import time
from pathlib import Path
from types import ModuleType

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QCoreApplication  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from recordlens.annotator.labelling import page_list as new_module  # noqa: E402
from recordlens.core.store import PAGE_STATUSES, PageInfo  # noqa: E402

PAGES = 1625
ROUNDS = 3
# Typed one key at a time, then erased: a search narrowing to a few pages, widened again, and one in another script.
TYPED = ("shop", "\b" * 4, "café 1", "\b" * 6, "Straße")
WORDS = ("shop", "item", "café", "Straße", "résumé", "news", "Hà Nội", "שלום", "order", "list", "Ñandú", "über")


def pages(count: int, seed: int = 1) -> list[PageInfo]:
    draw = random.Random(seed)
    made = []
    for n in range(count):
        title = " ".join(draw.choice(WORDS) for _ in range(draw.randint(2, 8))) + f" {n}"
        made.append(
            PageInfo(
                name=f"page-{n:04d}",
                status=draw.choice(PAGE_STATUSES),
                url=f"https://{draw.choice(WORDS[:3])}.example.com/{n}/{draw.randint(0, 10**6)}",
                title=title,
                charset=None,
                snapshot="0" * 64,
                suffix=".html",
                source=None,
                warnings=(),
                imported_at="",
                updated_at="",
                true_labels=draw.randint(0, 9),
                proposed=draw.randint(0, 5),
            )
        )
    return made


def load_old(path: Path) -> ModuleType:
    """The module at `path` as a sibling of page_list.py, so its relative imports resolve as the original's."""
    spec = importlib.util.spec_from_file_location("recordlens.annotator.labelling._page_list_old", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def keys() -> list[str]:
    return [key for word in TYPED for key in word]


def type_key(widget, key: str) -> tuple[float, float]:  # noqa: ANN001 - either module's PageList
    """One key typed in the search box, then the list filled and painted: (the key's seconds, the fill's)."""
    start = time.perf_counter()
    if key == "\b":
        widget.search.backspace()
    else:
        widget.search.insert(key)
    QCoreApplication.processEvents()
    keyed = time.perf_counter()
    widget.names()  # the search's pause ended at once: the fill it would run
    QCoreApplication.processEvents()  # laid out and painted
    return keyed - start, time.perf_counter() - keyed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=PAGES)
    parser.add_argument("--old", type=Path, help="a copy of page_list.py from before a change, timed beside it")
    args = parser.parse_args()
    app = QApplication.instance() or QApplication([])
    modules = {"new": new_module}
    if args.old:
        modules = {"old": load_old(args.old), **modules}
    project = pages(args.pages)
    widgets = {}
    for name, module in modules.items():
        widget = module.PageList()
        widget.resize(360, 800)
        built = time.perf_counter()
        widget.set_pages(project, project[0].name)
        widget.show()
        QTest.qWaitForWindowExposed(widget)
        app.processEvents()
        print(f"{name}: {args.pages} pages listed in {time.perf_counter() - built:.3f} s")
        widgets[name] = widget
    typed = keys()
    times: dict[str, list[list[float]]] = {name: [[] for _ in typed] for name in widgets}  # per key, per round
    for _ in range(ROUNDS):
        for at, key in enumerate(typed):
            for name, widget in widgets.items():  # interleaved: a busy spell falls on both alike
                key_s, fill_s = type_key(widget, key)
                times[name][at].append(key_s + fill_s)
    shown = {name: widget.list.count() for name, widget in widgets.items()}
    if len(set(shown.values())) > 1:
        sys.exit(f"the lists differ at the end: {shown}")
    text = ""
    header = "  ".join(f"{name + ' ms':>9}" for name in widgets)
    print(f"{'search':<12} {header}  (median of {ROUNDS} rounds: the key, the fill, the paint)")
    for at, key in enumerate(typed):
        text = text[:-1] if key == "\b" else text + key
        cells = "  ".join(f"{1000 * statistics.median(times[name][at]):9.1f}" for name in widgets)
        print(f"{text!r:<12} {cells}")
    for name in widgets:
        per_key = [statistics.median(t) for t in times[name]]
        print(f"{name}: median {1000 * statistics.median(per_key):.1f} ms a key, worst {1000 * max(per_key):.1f} ms")
    for widget in widgets.values():
        widget.close()


if __name__ == "__main__":
    main()
