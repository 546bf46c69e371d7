"""The memory the app keeps after its Proposes, as the app runs them (each Propose a job of its own,
`ProposeWorker`, a thread, each page read in a thread of its own): the job giving memory back as it ends
(`trimmed`: the C allocator's free pages given back) against as before (nothing given back), each way in fresh
processes of its own, the ways in turn, in the same run; with --with-collection, a third way: Learn's `given_back`
(a full collection first, then the allocator trimmed).

A project of the 80 development pages is made once. Each process then proposes one page per Propose (P on a page,
as a labelling session does): first the heaviest pages (the largest files and the pages with the most proposals,
each proposed --repeats times in turn), then --laps laps of all 80 pages. Said, as the growth of the process's
anonymous resident memory (RssAnon: what the heaps hold, not the code and libraries mapped) over its value before
the first Propose (the extractor's modules and model loaded):

- after the heaviest pages, after each lap, and at its peak (the most held once a Propose has ended); the last
  lap's own growth per Propose;
- the ratio of each way's growth to the growth as before (the median of the rounds);
- the seconds the call at the end of each job takes (median and max of every call, and the call on the largest
  heap: the most memory held before it), wall time and its thread's CPU. The call holds the interpreter: the
  window waits as long. This process has no window: the app's own objects make its full collection longer.

The proposals are counted, not stored (storing them is the window's work, on its thread, the same either way).

Usage: python bench/propose_memory.py [--heaviest N] [--repeats R] [--laps L] [--rounds K] [--with-collection]
(N: pages of each kind, the largest and those with the most proposals, default 3; R: default 3; L: laps of the
80 pages, default 2; K: fresh processes per way, default 2)"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from dev_data import development_sets

from recordlens.annotator.labelling import propose
from recordlens.annotator.labelling.propose import ProposeWorker
from recordlens.annotator.settings import Settings, extractor_params
from recordlens.core import extract
from recordlens.core.store import open_project
from recordlens.core.store.importer import import_paths
from recordlens.core.store.project import init_project

WAYS = ("before", "now")
METHOD = "selector"  # the offline extractor, Propose's default without a Gemini key


def rss_anon_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as status:
        return int(next(line.split()[1] for line in status if line.startswith("RssAnon"))) / 1024


def project_of_the_development_pages(folder: Path) -> Path:
    """A project of the 80 development pages with their labels, named by their set (the two sets share names)."""
    dataset = folder / "dataset"
    (dataset / "html").mkdir(parents=True)
    (dataset / "gt").mkdir()
    for html_dir, gt in development_sets():
        for html in sorted(html_dir.glob("*.html")):
            name = f"{html_dir.parent.name.rsplit('-', 1)[-1]}-{html.stem}"
            shutil.copyfile(html, dataset / "html" / f"{name}.html")
            shutil.copyfile(gt / f"{html.stem}.json", dataset / "gt" / f"{name}.json")
    root = folder / "project"
    with init_project(root) as project:
        report = import_paths(project, [dataset])
    if len(report.imported) != 80:
        sys.exit(f"the development pages did not all import: {report.problems}")
    return root


def heaviest_pages(root: Path, each: int) -> tuple[list[str], list[str], dict[str, tuple[int, int]]]:
    """The project's pages in order, the `each` largest and `each` with the most proposals (proposed here once,
    in this process, which measures nothing), and each page's (bytes, proposals)."""
    extractor = extract.create(METHOD)
    with open_project(root) as project:
        names = [info.name for info in project.pages()]
        weights = {name: (project.snapshot_file(name).stat().st_size,
                          len(extractor.extract(project.load(name).page).records)) for name in names}
    largest = sorted(names, key=lambda name: -weights[name][0])[:each]
    most = sorted(names, key=lambda name: -weights[name][1])[:each]
    return names, list(dict.fromkeys(largest + most)), weights


def as_the_app_proposes(way: str, root: str, heaviest: list[str], names: list[str], repeats: int,
                        laps: int) -> dict[str, object]:
    """In this process (a fresh one), a Propose job for each page in turn: the heaviest pages `repeats` times,
    then `laps` laps of `names`; RssAnon's growth (MB) after each part and at its peak, and each call's at the
    end of a job (seconds, seconds of its thread's CPU, MB held before it)."""
    from PySide6.QtCore import QCoreApplication

    app = QCoreApplication.instance() or QCoreApplication([])
    calls: list[tuple[float, float, float]] = []
    at_the_end = {"before": lambda: None, "now": propose.trimmed, "with collection": extract.given_back}[way]

    def timed() -> None:
        held = rss_anon_mb()
        started, cpu = time.perf_counter(), time.thread_time()
        at_the_end()
        calls.append((time.perf_counter() - started, time.thread_time() - cpu, held))

    propose.trimmed = timed  # the name the job calls as it ends
    extract.create(METHOD)  # its modules and model, as the first Propose reads them
    start = rss_anon_mb()
    held: list[float] = []
    records: list[int] = []
    grown: dict[str, object] = {}
    for _ in range(repeats):
        for name in heaviest:
            held.append(one_propose(app, Path(root), name, records) - start)
    grown["heaviest"] = held[-1]
    grown["laps"] = []
    for _ in range(laps):
        for name in names:
            held.append(one_propose(app, Path(root), name, records) - start)
        grown["laps"].append(held[-1])  # type: ignore[union-attr]
    return {**grown, "peak": max(held), "calls": calls, "records": sum(records)}


def one_propose(app: object, root: Path, name: str, records: list[int]) -> float:
    """One Propose of page `name` as the window runs it (its job started, waited for, let go), and RssAnon after."""
    from PySide6.QtCore import QCoreApplication, QEvent, QEventLoop

    worker = ProposeWorker(root, [name], METHOD, extractor_params(METHOD, Settings(), None))
    failures: list[str] = []
    worker.proposed.connect(lambda proposal: records.append(len(proposal.records)))
    worker.done.connect(lambda _cancelled, failure: failures.append(failure))
    loop = QEventLoop()
    worker.done.connect(loop.quit)
    worker.start()
    loop.exec()
    QCoreApplication.processEvents()  # the proposals on their way, as the window's event loop takes them
    worker.wait()
    worker.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    del worker, loop
    if any(failures):
        sys.exit(f"page {name}: {failures}")
    return rss_anon_mb()


def in_fresh_process(way: str, *arguments: object) -> dict[str, object]:
    code = (f"import sys, json; sys.path.insert(0, {str(Path(__file__).parent)!r}); import propose_memory; "
            "print(json.dumps(propose_memory.as_the_app_proposes(*json.loads(sys.argv[1]))))")
    done = subprocess.run([sys.executable, "-c", code, json.dumps([way, *arguments])], capture_output=True,
                          text=True, check=False)
    if done.returncode:
        sys.exit(f"the child failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.splitlines()[-1])


def said(figures: dict[str, object]) -> str:
    laps = ", ".join(f"{mb:+.1f}" for mb in figures["laps"])  # type: ignore[attr-defined]
    return f"heaviest {figures['heaviest']:+.1f}, laps {laps}, peak {figures['peak']:+.1f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--heaviest", type=int, default=3, help="the largest pages, and as many with the most "
                        "proposals, proposed first (default 3 of each)")
    parser.add_argument("--repeats", type=int, default=3, help="Proposes of each heaviest page (default 3)")
    parser.add_argument("--laps", type=int, default=2, help="laps of all 80 pages after them (default 2)")
    parser.add_argument("--rounds", type=int, default=2, help="fresh processes per way, in turn (default 2)")
    parser.add_argument("--with-collection", action="store_true", help="a third way: Learn's `given_back` at the "
                        "end of each job (a full collection, then the allocator trimmed)")
    args = parser.parse_args()
    ways = (*WAYS, "with collection") if args.with_collection else WAYS
    with tempfile.TemporaryDirectory() as tmp:
        root = project_of_the_development_pages(Path(tmp))
        names, heaviest, weights = heaviest_pages(root, args.heaviest)
        print("heaviest pages: " + ", ".join(f"{name} ({weights[name][0] / 1e6:.1f} MB, {weights[name][1]} "
                                             f"proposals)" for name in heaviest), flush=True)
        runs: dict[str, list[dict[str, object]]] = {way: [] for way in ways}
        for round_number in range(1, args.rounds + 1):
            for way in ways:
                figures = in_fresh_process(way, str(root), heaviest, names, args.repeats, args.laps)
                runs[way].append(figures)
                print(f"round {round_number}, {way:>15}: RssAnon growth MB {said(figures)}", flush=True)
    report(runs, len(heaviest) * args.repeats, len(names))
    return 0


def report(runs: dict[str, list[dict[str, object]]], heavy_proposes: int, pages: int) -> None:
    def median(way: str, key: str) -> float:
        return statistics.median(figures[key] if key != "last lap" else figures["laps"][-1]  # type: ignore[index]
                                 for figures in runs[way])

    for way in runs:
        lap = statistics.median(f["laps"][-1] - (f["laps"][-2] if len(f["laps"]) > 1 else f["heaviest"])  # type: ignore[index]
                                for f in runs[way])
        print(f"{way:>15} (median of {len(runs[way])}): after {heavy_proposes} Proposes of the heaviest pages "
              f"{median(way, 'heaviest'):+.1f} MB, after the last lap of {pages} {median(way, 'last lap'):+.1f} MB "
              f"(that lap {lap / pages:+.2f} MB per Propose), peak {median(way, 'peak'):+.1f} MB")
    for way in runs:
        if way == "before":
            continue
        print(f"{way} / before: {median(way, 'heaviest') / median('before', 'heaviest'):.2f} of the growth after "
              f"the heaviest pages, {median(way, 'last lap') / median('before', 'last lap'):.2f} after the last lap, "
              f"{median(way, 'peak') / median('before', 'peak'):.2f} of the peak")
    for way in runs:
        if way != "before":
            print(f"{way}: {called(runs[way])}")


def called(runs: list[dict[str, object]]) -> str:
    """What the call at the end of each job took: wall time, and its thread's CPU beside it (on a busy machine the
    wall time is mostly waiting for a core)."""
    calls = [call for figures in runs for call in figures["calls"]]  # type: ignore[attr-defined]
    wall, cpu = ([call[i] * 1e3 for call in calls] for i in (0, 1))
    largest = max(calls, key=lambda call: call[2])
    return (f"the call at the end of each Propose ({len(calls)} calls), ms of wall time (of its thread's CPU): "
            f"median {statistics.median(wall):.1f} ({statistics.median(cpu):.1f}), max {max(wall):.1f} "
            f"({max(cpu):.1f}); on the largest heap ({largest[2]:.0f} MB RssAnon held) {largest[0] * 1e3:.1f} "
            f"({largest[1] * 1e3:.1f})")


if __name__ == "__main__":
    raise SystemExit(main())
