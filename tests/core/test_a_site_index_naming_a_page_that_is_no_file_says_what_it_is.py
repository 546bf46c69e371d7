"""A site whose index (site.json) names a page file that is there but is no file to read, a FIFO or a folder, is
refused with what that page file is, in the words of every reader of a file (`file_kinds.unreadable_kind`): it was
said "not in the folder", which sent the user looking for a file that is there. A page file gone is said gone, and a
link to nothing where it points. Nothing is opened: a FIFO is not waited on."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from recordlens.core.agent.sites import SiteError, build_site, load_site
from tests.demo_agent import SITE_DIR

pytestmark = pytest.mark.timeout(120)  # a FIFO opened for reading would be waited on for ever


def _site(tmp_path: Path) -> tuple[Path, list[str]]:
    """A copy of the demo site with its index, and the page files the index names, in its order."""
    import shutil

    folder = tmp_path / "site"
    shutil.copytree(SITE_DIR, folder)
    return folder, [page.file for page in build_site(folder).pages]


def _refusal(folder: Path) -> str:
    with pytest.raises(SiteError) as refused:
        load_site(folder)
    return str(refused.value)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs as on POSIX")
def test_a_fifo_and_a_folder_in_the_place_of_pages_are_said_as_what_they_are(tmp_path: Path) -> None:
    folder, files = _site(tmp_path)
    (folder / files[0]).unlink()
    os.mkfifo(folder / files[0])
    (folder / files[1]).unlink()
    (folder / files[1]).mkdir()
    assert _refusal(folder) == (
        f"{folder / 'site.json'} lists page files that cannot be read ({files[0]}: a FIFO (named pipe), not a "
        f"regular file; {files[1]}: a folder, not a page file); rebuild it with `recordlens site build {folder}`")


def test_a_page_gone_or_a_link_to_nothing_is_said_so(tmp_path: Path) -> None:
    folder, files = _site(tmp_path)
    (folder / files[0]).unlink()
    (folder / files[1]).unlink()
    (folder / files[1]).symlink_to("moved.html")
    assert _refusal(folder) == (
        f"{folder / 'site.json'} lists page files that cannot be read ({files[0]}: no such file or folder; "
        f"{files[1]}: a symbolic link to a file that does not exist (moved.html)); rebuild it with "
        f"`recordlens site build {folder}`")
