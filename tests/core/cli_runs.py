"""The `recordlens` command as the core tests run it: in this process, its exit status and what it printed; the
demo dataset, with the command that extracts its pages; and a run folder's files as they are, to tell a command
left them untouched."""

from __future__ import annotations

import collections
import os
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from recordlens.core.cli.command import main
from recordlens.core.resource_files import resource_path

if TYPE_CHECKING:
    from tests.fake_gemini import FakeGemini

DEMO = resource_path("demo", "dataset")  # the demo's four pages and their labels
EXTRACT = ("extract", "--method", "mdr", "--pages", str(DEMO / "html"), "--out")  # the run folder to follow


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """`recordlens ARGV`: its exit status, stdout and stderr (read, so that the next call starts empty)."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def folder_files(run_dir: Path) -> dict[str, tuple[bytes, int]]:
    """Every file under the folder, by its relative path: its bytes and time (equal again: nothing written)."""
    return {str(path.relative_to(run_dir)): (path.read_bytes(), path.stat().st_mtime_ns)
            for path in sorted(run_dir.rglob("*")) if path.is_file()}


def demo_project(capsys: pytest.CaptureFixture[str], folder: Path) -> Path:
    """A new project at `folder` holding the demo dataset's pages and labels."""
    assert run(capsys, "project", "init", str(folder))[0] == 0
    assert run(capsys, "import", str(DEMO), "--project", str(folder), "-q")[0] == 0
    return folder


def dataset_of_odd_pages(data: Path, labelled: tuple[str, ...] = ("1", "2", "3")) -> Path:
    """A dataset folder `data` (html/, gt/) whose page 1 is the demo's page 1, page 2 a FIFO and page 3 a folder,
    each named like a page (POSIX: FIFOs), with the demo page's labels for the pages `labelled`."""
    (data / "html").mkdir(parents=True)
    (data / "gt").mkdir()
    shutil.copy(DEMO / "html" / "1.html", data / "html")
    for name in labelled:
        shutil.copy(DEMO / "gt" / "1.json", data / "gt" / f"{name}.json")
    os.mkfifo(data / "html" / "2.html")
    (data / "html" / "3.html").mkdir()
    return data


def gemini_extract(run_dir: Path, server: FakeGemini, *more: str, pages: Path = DEMO / "html") -> tuple[str, ...]:
    """`recordlens extract --method gemini` of the demo's pages (or `pages`) into `run_dir`, against the fake
    Gemini `server`, quiet, with `more` options."""
    return ("extract", "--method", "gemini", "--pages", str(pages), "--out", str(run_dir), "--base-url", server.url,
            "-q", *more)


def page_records_read(monkeypatch: pytest.MonkeyPatch) -> collections.Counter[str]:
    """The files of `_run/` read from now on, but run.json, each with the times it was read."""
    reads: collections.Counter[str] = collections.Counter()
    read_text = Path.read_text

    def counted(path: Path, *args: object, **kwargs: object) -> str:
        if path.parent.name == "_run" and path.name != "run.json":
            reads[path.name] += 1
        return read_text(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Path, "read_text", counted)
    return reads


def refused_line(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """The last line `recordlens ARGV` wrote as argparse refused it, with exit status 2 (its advice, if any)."""
    with pytest.raises(SystemExit) as stopped:
        main(list(argv))
    assert stopped.value.code == 2
    return capsys.readouterr().err.rstrip().splitlines()[-1]
