"""Peak memory of `export --format jsonl|csv` as the project grows, against a bare read of the same rows.

For each size, a project of N labelled pages (the 80 development pages, copied with a comment appended until there
are N: each copy a page of its own, parsed for its texts as any other) is exported in a process of its own, and its
peak resident memory is shown beside that of a process that only reads the same rows (each page's records with
their texts, as the export reads them) and lets each page's go. A streamed export stays near the bare read
whatever N; one that held every row, then the whole file, grew with N (759 MB for 1,960 pages, 86 MB of JSONL).
With --project, an existing project is measured instead (exported into a temporary folder).

Usage: python bench/export_memory.py [--pages N ...] [--format jsonl|csv] [--project P]"""

from __future__ import annotations

import argparse
import contextlib
import io
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from dev_data import development_sets

from recordlens.core.cli.command import main

# A child process that runs one piece of Python and says its peak resident memory (kB) on its last line. VmHWM,
# not ru_maxrss: Linux carries ru_maxrss over from the parent through fork and exec. (As bench/parse_memory.py.)
PEAK = ("import sys; exec(sys.argv[1]); "
        "print(next(line.split()[1] for line in open('/proc/self/status') if line.startswith('VmHWM')))")
# argv: PEAK's code, then the project, the format and the output folder
# (opened as `export` opens it: only read where it cannot be written)
OPEN = "from recordlens.core.store.project_copy import open_to_read\n"
EXPORT = (OPEN + "from recordlens.core.store.exporter import export_project\n"
          "with open_to_read(sys.argv[2]) as project: export_project(project, sys.argv[3], sys.argv[4])")
BARE_READ = (OPEN + "from recordlens.core.store import exporter\n"
             "with open_to_read(sys.argv[2]) as project:\n"
             "    for info in project.pages(): exporter._page_rows(project, info, [])")


def peak_kb(code: str, project: Path, fmt: str, out: Path) -> int:
    done = subprocess.run([sys.executable, "-c", PEAK, code, str(project), fmt, str(out)],
                          capture_output=True, text=True, check=True)
    return int(done.stdout.split()[-1])


def dataset_of(pages: int, folder: Path) -> Path:
    """`pages` development pages with their labels, in copies that differ by a comment appended."""
    sources = [(html, gt / f"{html.stem}.json") for html_dir, gt in development_sets()
               for html in sorted(html_dir.glob("*.html"))]
    (folder / "html").mkdir(parents=True)
    (folder / "gt").mkdir()
    for number in range(pages):
        html, truth = sources[number % len(sources)]
        copy = number // len(sources)
        name = f"{copy}_{number % len(sources) + 1}"  # the two sets share page names
        (folder / "html" / f"{name}.html").write_bytes(html.read_bytes() + f"<!-- copy {copy} -->".encode())
        shutil.copyfile(truth, folder / "gt" / f"{name}.json")
    return folder


def project_of(pages: int, work: Path) -> Path:
    project = work / f"P{pages}"
    said = io.StringIO()  # the import's label check, a line per page: said only if the import fails
    with contextlib.redirect_stdout(said), contextlib.redirect_stderr(said):
        failed = main(["project", "init", str(project)]) or main(
            ["import", str(dataset_of(pages, work / f"ds{pages}")), "--project", str(project), "-q"])
    if failed:
        sys.exit(f"could not build the {pages}-page project in {work}:\n{said.getvalue()}")
    return project


def measure(project: Path, fmt: str, work: Path, what: str) -> None:
    out = work / f"out-{project.name}"
    bare = peak_kb(BARE_READ, project, fmt, out)
    export = peak_kb(EXPORT, project, fmt, out)
    size = (out / f"labels.{fmt}").stat().st_size
    print(f"{what}: export --format {fmt} peaks at {export / 1024:.0f} MB, a bare read of its rows at "
          f"{bare / 1024:.0f} MB ({export / bare:.2f}x); file {size / 1e6:.1f} MB", flush=True)


def main_bench() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, nargs="+", default=[80, 400], help="project sizes to build (pages)")
    parser.add_argument("--format", choices=("jsonl", "csv"), default="jsonl")
    parser.add_argument("--project", type=Path, help="measure this project instead of building any")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="export-memory-") as temporary:
        work = Path(temporary)
        if args.project:
            measure(args.project, args.format, work, f"{args.project}")
            return
        for pages in args.pages:
            measure(project_of(pages, work), args.format, work, f"{pages} pages")


if __name__ == "__main__":
    main_bench()
