"""Import never skips silently, never blocks and stores what it can open again: entries named like pages that
are not regular files are listed as not imported; HTML that does not start with '<' is stored as HTML; the
temporary files of a killed import are removed by the next one."""

from __future__ import annotations

import fcntl
import os
import time
from pathlib import Path

import pytest

from recordlens.core.page.dataset import load_page
from recordlens.core.store.exporter import export_project
from recordlens.core.store.files import SNAPSHOTS
from recordlens.core.store.importer import import_paths
from recordlens.core.store.project import init_project, open_project

PAGE = "<html><head><title>Shop</title></head><body><ul><li>a</li><li>b</li></ul></body></html>"


@pytest.mark.timeout(60, func_only=True)
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs and symlinks as on POSIX")
def test_folders_fifos_symlink_loops_and_dangling_links_are_listed_as_not_imported(tmp_path: Path) -> None:
    pages = tmp_path / "pages"
    pages.mkdir()
    (pages / "1.html").write_text(PAGE)
    (pages / "2.mhtml").mkdir()
    os.mkfifo(pages / "3.html")
    os.symlink(pages / "4.html", pages / "4.html")  # a loop: the link names itself
    os.symlink(tmp_path / "gone.html", pages / "5.mhtml")
    with init_project(tmp_path / "project") as project:
        report = import_paths(project, [pages, pages / "3.html"])
    assert report.imported == ["1"]
    reasons = {p.path.name: p.reason for p in report.problems}
    assert "folder" in reasons["2.mhtml"]
    assert "FIFO" in reasons["3.html"]
    assert "loop" in reasons["4.html"]
    assert "does not exist" in reasons["5.mhtml"]
    # A reason says why; the report's line says "not imported" before it (once: "not imported: …: not imported").
    assert not any(reason.startswith("not imported") for reason in reasons.values())


@pytest.mark.parametrize(("name", "data"), [
    ("utf16", PAGE.encode("utf-16")),                      # a UTF-16 byte order mark first
    ("utf16be", b"\xfe\xff" + PAGE.encode("utf-16-be")),
    ("text", ("Saved page follows\n" + PAGE).encode()),    # leading text before the markup
])
def test_html_that_does_not_start_with_a_bracket_is_stored_as_html_and_opens_again(
        tmp_path: Path, name: str, data: bytes) -> None:
    source = tmp_path / f"{name}.html"
    source.write_bytes(data)
    with init_project(tmp_path / "project") as project:
        report = import_paths(project, [source])
        assert report.imported == [name], report.problems
        info = project.page(name)
        assert info.suffix == ".html"
        stored = project.snapshot_file(name)
        assert stored.suffix == ".html"
        assert load_page(stored).snapshot.title == "Shop"
        export_project(project, "nexteval", tmp_path / "out", all_pages=True)  # the page is not labelled
    exported = tmp_path / "out" / "html" / f"{name}.html"
    assert exported.read_bytes() == data
    assert load_page(exported).snapshot.title == "Shop"


def test_an_mhtml_archive_is_still_stored_as_mhtml(tmp_path: Path) -> None:
    from recordlens.core.page.mhtml_writer import mhtml_bytes

    (tmp_path / "1.mhtml").write_bytes(mhtml_bytes(PAGE, url="https://shop.test/"))
    with init_project(tmp_path / "project") as project:
        import_paths(project, [tmp_path / "1.mhtml"])
        assert project.page("1").suffix == ".mhtml"


def test_the_next_import_removes_what_a_killed_import_left(tmp_path: Path) -> None:
    (tmp_path / "1.html").write_text(PAGE)
    with init_project(tmp_path / "project"):
        pass
    # What atomic.write_bytes leaves when the process is killed between mkstemp and the rename.
    folder = tmp_path / "project" / SNAPSHOTS / "ab"
    folder.mkdir(parents=True)
    stale = folder / ".ab12cd.mhtml.x1y2z3.tmp"
    stale.write_bytes(b"half a page")
    old = time.time() - 3600
    os.utime(stale, (old, old))
    fresh = folder / ".ab34ef.html.q9w8e7.tmp"  # another import is writing this one right now
    fresh.write_bytes(b"being written")
    writer = os.open(tmp_path / "project" / SNAPSHOTS, os.O_RDONLY)
    fcntl.flock(writer, fcntl.LOCK_SH)  # as a snapshot write holds it while it writes
    try:
        with open_project(tmp_path / "project") as project:
            report = import_paths(project, [tmp_path / "1.html"])
    finally:
        os.close(writer)
    assert report.imported == ["1"]
    assert not stale.exists() and fresh.exists()
    assert any("removed 1 temporary snapshot file" in w for w in report.warnings)
