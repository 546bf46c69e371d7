"""A read error a page may not meet again (EIO on a flaky share, too many files open) stops `score`, as the rule of
an unreadable page says (`errors.FOR_A_MOMENT`): it is no page to leave out of the figures. The snapshot reader
turned every OSError into a page that cannot be read, so the rule never saw the errno: a project's saved copy, and a
dataset's page, were left out and the figures given over fewer pages (a reviewer's finding). A read error that stays
(permission refused) still leaves the page out."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from recordlens.core.page import snapshot
from recordlens.core.store.project import open_project
from tests.core.cli_runs import DEMO, run
from tests.core.test_runs_compare_leaves_out_pages_it_cannot_read import project  # noqa: F401 (a fixture)


def reading_fails(monkeypatch: pytest.MonkeyPatch, target: Path, code: int) -> None:
    real = snapshot.read_regular_file

    def flaky(path: Path, max_bytes: int | None = None) -> bytes:
        if Path(path) == target:
            raise OSError(code, "the read failed", str(path))
        return real(path, max_bytes)

    monkeypatch.setattr(snapshot, "read_regular_file", flaky)


def test_a_saved_copy_read_for_a_moment_stops_score_and_the_check(
        project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    with open_project(project) as opened:
        target = opened.snapshot_file("3")
    reading_fails(monkeypatch, target, errno.EIO)
    with open_project(project) as opened, pytest.raises(OSError):
        opened.saved_copy_problem("3")
    code, out, err = run(capsys, "score", "--project", str(project), "--run", "1")
    assert code not in (0, 1) and "the read failed" in err, (code, out, err)
    assert "left out" not in out


def test_a_saved_copy_refused_for_good_is_still_left_out(
        project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    with open_project(project) as opened:
        target = opened.snapshot_file("3")
    reading_fails(monkeypatch, target, errno.EACCES)
    with open_project(project) as opened:
        assert "the read failed" in str(opened.saved_copy_problem("3"))
    code, _, _ = run(capsys, "score", "--project", str(project), "--run", "1")
    assert code == 1


def test_a_dataset_page_read_for_a_moment_stops_score(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, _, err = run(capsys, "extract", "--method", "repeats", "--pages", str(DEMO / "html"), "--out",
                       str(tmp_path / "run"), "-q")
    assert code == 0, err
    page = sorted((DEMO / "html").iterdir())[0]
    reading_fails(monkeypatch, page, errno.EIO)
    code, out, err = run(capsys, "score", "--pred", str(tmp_path / "run"), "--gt", str(DEMO / "gt"), "--pages",
                         str(DEMO / "html"))
    assert code not in (0, 1) and "the read failed" in err, (code, out, err)
