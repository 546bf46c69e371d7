"""A page file that is a symbolic link to a file no longer there is said as such, with where it points, as every
other reader of a user's file says it (`file_kinds.link_to_nothing`): "the file does not exist" of a name the user
sees listed reads as wrong. A name with nothing there at all is said as before."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.core.cli_runs import run


@pytest.mark.parametrize("command", ["represent", "inspect"])
def test_a_page_linked_to_nothing_names_where_the_link_points(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                              command: str) -> None:
    page = tmp_path / "7.html"
    page.symlink_to(Path("..") / "moved" / "7.html")
    code, out, err = run(capsys, command, str(page))
    assert code == 2 and out == "", err
    assert err == (f"recordlens: error: Cannot read {page}: it is a symbolic link to a file that does not exist "
                   "(../moved/7.html).\n")


def test_a_page_not_there_is_said_as_before(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "represent", str(tmp_path / "7.html"))
    assert code == 2 and err == f"recordlens: error: Cannot read {tmp_path / '7.html'}: the file does not exist.\n"
