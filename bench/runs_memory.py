"""Peak memory of `runs --add` and `runs --compare` on a large run, against loading the run's bytes.

A project of N labelled pages (the development pages, copied with a comment appended until there are N, as
bench/export_memory.py builds it) gets two MDR runs (`extract --method mdr`, then the same with k=5), each made
large by repeating every page's records and the regions its `_run/N.json` keeps until the run folder holds about
--mb megabytes: many pages, many records each. In a process of its own each time, this measures the peak resident
memory (VmHWM) of

- `runs --add A` into a project that holds no run;
- `runs --compare A B` on a project that holds both runs, neither scored (the comparison scores both first);
- the baseline: the same modules imported and every file of run A read into memory at once (its bytes only, no
  record parsed): what any command that held the whole run would start from;
- the floor: the same modules imported and the project opened, no run file read.

A command that reads a run page by page stays near the floor whatever the run's size, well below the baseline
(ratio < 1); one that held every page's records grew with the run (about 3x its bytes). With --scales, runs of
several sizes are measured, each of a fraction of the pages (the first ones), every page as large as in the whole
run: what a command holds of one page stays the same, and only what it holds of the whole run can grow.

With --checkout DIR (a checkout of another version, `git worktree add DIR COMMIT`), the measured processes run that
version's core instead (the project and runs are made by this one): the figures of the code before a change, beside
those after it.

Usage: python bench/runs_memory.py [--pages N] [--mb MB] [--scales F ...] [--checkout DIR]"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from export_memory import project_of

from recordlens.core.cli.command import main
from recordlens.core.page.dataset import record_files

# A child process that runs one piece of Python and says its peak resident memory (kB) on its last line. VmHWM,
# not ru_maxrss: Linux carries ru_maxrss over from the parent through fork and exec. (As bench/parse_memory.py.)
PEAK = ("import sys; exec(sys.argv[1]); "
        "print(next(line.split()[1] for line in open('/proc/self/status') if line.startswith('VmHWM')))")
# argv: PEAK's code, then the command's arguments as JSON; its output goes to /dev/null (only its peak is shown)
COMMAND = ("import contextlib, json, os\n"
           "from recordlens.core.cli.command import main\n"
           "with open(os.devnull, 'w') as null, contextlib.redirect_stdout(null), contextlib.redirect_stderr(null):\n"
           "    status = main(json.loads(sys.argv[2]))\n"
           "assert status in (0, 1), status\n")
# argv: PEAK's code, then the run folder: every file's bytes held at once, as a whole-run load starts from
BYTES = ("from pathlib import Path\n"
         "import recordlens.core.cli.command, recordlens.core.store.importer, recordlens.core.store.scoring\n"
         "held = [path.read_bytes() for path in sorted(Path(sys.argv[2]).rglob('*.json'))]\n")
# argv: PEAK's code, then the project: the modules imported and the project opened, nothing of a run read
FLOOR = ("import recordlens.core.cli.command, recordlens.core.store.importer, recordlens.core.store.scoring\n"
         "from recordlens.core.store.project_copy import open_to_read\n"
         "with open_to_read(sys.argv[2]) as project: project.runs.all()\n")


# The measured processes' environment: the version of core they import (`--checkout`), or this one's
CHILD_ENV = dict(os.environ)


def peak_mb(code: str, argument: str) -> float:
    done = subprocess.run([sys.executable, "-c", PEAK, code, argument], capture_output=True, text=True,
                          env=CHILD_ENV)
    if done.returncode:
        sys.exit(f"the measured process failed:\n{done.stderr[-3000:]}")
    return int(done.stdout.split()[-1]) / 1024


def quietly(argv: list[str]) -> None:
    said = io.StringIO()
    with contextlib.redirect_stdout(said), contextlib.redirect_stderr(said):
        status = main(argv)
    if status not in (0, 1):
        sys.exit(f"`recordlens {' '.join(argv)}` failed:\n{said.getvalue()[-3000:]}")


def folder_bytes(folder: Path) -> int:
    return sum(path.stat().st_size for path in folder.rglob("*.json"))


def inflated(run: Path, out: Path, times: int, pages: list[str]) -> Path:
    """A copy of run folder `run` holding `pages` alone, each page's records repeated `times` times, and the regions
    and orphans its `_run/N.json` keeps (MDR's `raw`) repeated alike."""
    (out / "_run").mkdir(parents=True)
    shutil.copyfile(run / "_run" / "run.json", out / "_run" / "run.json")
    for name in pages:
        records = json.loads((run / f"{name}.json").read_text(encoding="utf-8"))
        (out / f"{name}.json").write_text(json.dumps(records * times, indent=1), encoding="utf-8")
        path = out / "_run" / f"{name}.json"
        record = json.loads((run / "_run" / f"{name}.json").read_text(encoding="utf-8"))
        raw = record.get("raw")
        if isinstance(raw, dict):
            raw["regions"] = {f"{parent}#{copy}" if copy else parent: regions
                              for copy in range(times) for parent, regions in raw.get("regions", {}).items()}
            raw["orphans"] = list(raw.get("orphans", [])) * times
        path.write_text(json.dumps(record, indent=1), encoding="utf-8")
    return out


def measure(project: Path, runs: tuple[Path, Path], work: Path, what: str) -> None:
    first, second = runs
    empty = work / f"{project.name}-add"
    shutil.rmtree(empty, ignore_errors=True)
    shutil.copytree(project, empty)
    floor = peak_mb(FLOOR, str(empty))
    held = peak_mb(BYTES, str(first))
    added = peak_mb(COMMAND, json.dumps(["runs", "--project", str(empty), "--add", str(first)]))
    quietly(["runs", "--project", str(empty), "--add", str(second)])  # both held, neither scored
    compared = peak_mb(COMMAND, json.dumps(["runs", "--project", str(empty), "--compare", "1", "2"]))
    size = folder_bytes(first) / 1e6
    print(f"{what}: run of {size:.0f} MB ({len(list(first.glob('*.json')))} pages); floor (modules, project "
          f"open) {floor:.0f} MB; its bytes held {held:.0f} MB; runs --add {added:.0f} MB "
          f"({added / held:.2f}x the bytes held, +{added - floor:.0f} MB over the floor); runs --compare "
          f"{compared:.0f} MB ({compared / held:.2f}x, +{compared - floor:.0f} MB)", flush=True)
    shutil.rmtree(empty, ignore_errors=True)


def main_bench() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=120, help="labelled pages in the project (default 120)")
    parser.add_argument("--mb", type=float, default=160, help="the size of each whole run folder, MB (default 160)")
    parser.add_argument("--scales", type=float, nargs="+", default=[0.25, 1.0],
                        help="measure runs of these fractions of the pages (default: 0.25 and 1)")
    parser.add_argument("--checkout", type=Path, help="measure the core of this checkout of RecordLens instead")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="runs-memory-") as temporary:
        work = Path(temporary)
        if args.checkout:  # `recordlens.core` found there first (a namespace package: its other parts stay found)
            package = work / "checkout" / "recordlens"
            package.mkdir(parents=True)
            (package / "core").symlink_to((args.checkout / "core").resolve())
            CHILD_ENV["PYTHONPATH"] = os.pathsep.join(filter(None, [str(package.parent), os.environ.get("PYTHONPATH")]))
        project = project_of(args.pages, work)
        pages = work / f"ds{args.pages}" / "html"
        made = (work / "mdr", work / "mdr-k5")
        quietly(["extract", "-m", "mdr", "--pages", str(pages), "--out", str(made[0]), "-q"])
        quietly(["extract", "-m", "mdr", "--param", "k=5", "--pages", str(pages), "--out", str(made[1]), "-q"])
        times = max(1, math.ceil(args.mb * 1e6 / folder_bytes(made[0])))  # every page made this much larger
        names = list(record_files(made[0]))
        for scale in args.scales:
            pages = names[:max(1, round(len(names) * scale))]
            runs = tuple(inflated(run, work / f"{run.name}-x{scale}", times, pages) for run in made)
            measure(project, runs, work, f"{len(pages)} of {args.pages} pages")  # type: ignore[arg-type]
            for run in runs:
                shutil.rmtree(run)


if __name__ == "__main__":
    main_bench()
