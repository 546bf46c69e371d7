"""The JSON Lines and CSV exports stream their lines, page by page, into a hidden file beside the target, renamed
over it at the end (`atomic.write_text_pieces`): memory stays that of one page however large the project
(bench/export_memory.py measures it), a stop part way, even a kill -9, leaves the earlier file or none, never
part of the new one, and the bytes are those the export wrote when it held the whole file in memory."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.store import open_project
from recordlens.core.store.exporter import export_file, export_project
from recordlens.core.store.project import PageInfo
from tests.core.cli_runs import DEMO, demo_project
from tests.core.stalled_exports import export_stalled_at_its_last_page

# Longer than a file's write buffer (a few KiB): each record's line reaches the hidden file as it is made
LONG_TEXT = "word " * 3000
PAGES = ("1", "2", "3", "4")
EARLIER = b"the earlier export\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """Four pages, each with one record whose text is LONG_TEXT (and a name of its own)."""
    ds = tmp_path / "ds"
    (ds / "html").mkdir(parents=True)
    (ds / "gt").mkdir()
    for name in PAGES:
        (ds / "html" / f"{name}.html").write_text(
            f"<html><body><h1>page {name}</h1><ul><li>{LONG_TEXT}</li></ul></body></html>", encoding="utf-8")
        (ds / "gt" / f"{name}.json").write_text(json.dumps([["/body[1]/ul[1]/li[1]"]]), encoding="utf-8")
    folder = tmp_path / "P"
    assert main(["project", "init", str(folder)]) == 0
    assert main(["import", str(ds), "--project", str(folder), "-q"]) == 0
    return folder


def hidden_files(target: Path) -> list[Path]:
    """The temporary files beside `target` that core/atomic writes it through (`.NAME.*.tmp`)."""
    return sorted(target.parent.glob(f".{target.name}.*.tmp"))


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_the_export_is_streamed_into_a_hidden_file_that_replaces_the_target_at_the_end(
        project: Path, tmp_path: Path, fmt: str) -> None:
    out = tmp_path / "out"
    target = export_file(out, fmt)
    out.mkdir()
    target.write_bytes(EARLIER)
    seen: dict[str, object] = {}

    def watching(pages: Sequence[PageInfo]) -> Iterator[PageInfo]:
        for number, info in enumerate(pages, 1):
            if number == len(pages):  # what the folder holds as the last page is about to be read
                seen["target"] = target.read_bytes()
                seen["hidden"] = [path.read_bytes() for path in hidden_files(target)]
            yield info

    with open_project(project) as opened:
        summary = export_project(opened, fmt, out, watching)
    assert summary.records == len(PAGES)
    assert seen["target"] == EARLIER  # the earlier file whole until the new one is
    [so_far] = seen["hidden"]
    written = target.read_bytes()
    assert LONG_TEXT.strip().encode() in so_far  # the earlier pages' lines, written before the last page was read
    assert written.startswith(so_far) and len(written) > len(so_far)
    assert [path.name for path in out.iterdir()] == [target.name]  # the hidden file became the target


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_an_export_stopped_part_way_removes_its_hidden_file_and_leaves_the_earlier_one(
        project: Path, tmp_path: Path, fmt: str) -> None:
    out = tmp_path / "out"
    target = export_file(out, fmt)
    out.mkdir()
    target.write_bytes(EARLIER)

    def stopped_at_the_third(pages: Sequence[PageInfo]) -> Iterator[PageInfo]:
        yield from pages[:2]
        raise KeyboardInterrupt  # Ctrl+C, or SIGTERM as the command takes it, with two pages' lines written

    with open_project(project) as opened, pytest.raises(KeyboardInterrupt):
        export_project(opened, fmt, out, stopped_at_the_third)
    assert [path.name for path in out.iterdir()] == [target.name]
    assert target.read_bytes() == EARLIER


@pytest.mark.parametrize(("fmt", "earlier"), [("jsonl", EARLIER), ("csv", None)])
def test_an_export_killed_part_way_leaves_the_earlier_file_or_none_never_part_of_the_new_one(
        project: Path, tmp_path: Path, fmt: str, earlier: bytes | None) -> None:
    out = tmp_path / "out"
    target = export_file(out, fmt)
    out.mkdir()
    if earlier is not None:
        target.write_bytes(earlier)
    with export_stalled_at_its_last_page(project, fmt, out):
        [unfinished] = hidden_files(target)
        assert unfinished.stat().st_size > 0  # the new file was under way: three pages' lines written
    if earlier is None:
        assert not target.exists()
    else:
        assert target.read_bytes() == earlier
    # Only the hidden file a kill -9 cannot remove is left beside it, under a name no reader takes for the export
    assert [path.name for path in out.iterdir() if not path.name.startswith(".")] == (
        [] if earlier is None else [target.name])


# The demo project's exports, written when the export held the whole file in memory (before it streamed), with
# what differs from one test run to the next put in words (the time labels were made, the dataset's folder).
# A change to a format made on purpose changes these: take the new digests from the assertion's message.
DIGESTS = {"jsonl": "f2c08ad4f8b999bad6fd838f27c66f5e600097acc84c9ea0ab73a6d265a80d90",
           "csv": "8d13c92897bcc776e592b6cd9c511c88ac1a6d13c4d6db407fa60d5982269d09"}
_TIME = re.compile(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z")


def steady_bytes(data: bytes) -> bytes:
    """`data` with the times and the demo dataset's folder, which change from one run to the next, in words."""
    return _TIME.sub(b"TIME", data).replace(str(DEMO).encode(), b"DEMO")


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_the_streamed_export_writes_the_bytes_it_wrote_whole(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], fmt: str) -> None:
    project = demo_project(capsys, tmp_path / "P")
    assert main(["export", "--project", str(project), "--format", fmt, "--out", str(tmp_path / "out"), "-q"]) == 0
    digest = hashlib.sha256(steady_bytes(export_file(tmp_path / "out", fmt).read_bytes())).hexdigest()
    assert digest == DIGESTS[fmt], f"{fmt}: {digest}"
