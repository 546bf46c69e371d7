"""`score --project` while `project remove-page` takes pages out in another terminal: the score scores the pages
still there and names, in one line, those removed meanwhile; it never fails as a whole ("no page named '6'").

Real SQLite files, the removal a real second process (the `recordlens project remove-page` command), started from a
hook at the moment a page is scored: mid-way (the pages' names and the run's predictions read by then), or at the last
page (before the scores are stored)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.records.score import PageScore
from recordlens.core.store import scoring
from recordlens.core.store.importer import import_paths, import_run_folder
from recordlens.core.store.project import init_project, open_project
from recordlens.core.store.scoring import score_stored_run
from tests.core.shop_runs import dataset, run_folder

PAGES = [str(k) for k in range(6)]


def remove_in_another_process(folder: Path, *names: str) -> Callable[[], None]:
    """The user's `recordlens project remove-page NAMES --project FOLDER`, run in another process."""
    code = "import sys; from recordlens.core.cli.command import main; sys.exit(main(sys.argv[1:]))"
    argv = ["project", "remove-page", *names, "--project", str(folder)]
    return lambda: subprocess.run([sys.executable, "-c", code, *argv], check=True, timeout=120,
                                  capture_output=True)


def when_scoring(monkeypatch: pytest.MonkeyPatch, page: str, act: Callable[[], None]) -> None:
    """`act` run once, as `page` is scored."""
    real, done = scoring.score_page, []

    def hooked(predicted, truth, keys, name: str) -> PageScore:  # noqa: ANN001 - score_page's own
        if name == page and not done:
            done.append(name)
            act()
        return real(predicted, truth, keys, name)

    monkeypatch.setattr(scoring, "score_page", hooked)


def project_with_a_run(tmp_path: Path) -> Path:
    """A project of six labelled pages, and its run 1 of them all, never scored."""
    folder = tmp_path / "p"
    with init_project(folder) as project:
        import_paths(project, [dataset(tmp_path / "data", len(PAGES))])
        assert import_run_folder(project, run_folder(tmp_path / "run", PAGES)).run_id == 1
    return folder


@pytest.mark.parametrize("leave_out_unread", [True, False], ids=["score", "review"])
@pytest.mark.parametrize("at", ["1", PAGES[-1]], ids=["mid-way", "at-the-last-page"])
def test_pages_removed_while_scored_are_named_and_the_others_scored(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, at: str, leave_out_unread: bool) -> None:
    """`leave_out_unread`: as `score` reads the pages (one that cannot be read left out), else as Review does."""
    folder = project_with_a_run(tmp_path)
    when_scoring(monkeypatch, at, remove_in_another_process(folder, "2", "4"))
    with open_project(folder) as project:
        result, warnings, _ = score_stored_run(project, 1, leave_out_unread=leave_out_unread)
        assert project.page_names() == ["0", "1", "3", "5"]  # the other process's removal committed
        assert [s.page for s in result.pages] == ["0", "1", "3", "5"]
        assert sorted(s.page for s in project.runs.scores(1)) == ["0", "1", "3", "5"]
        assert project.runs.stale_pages(1) == []
        said = [line for line in warnings if "removed" in line]
        assert len(said) == 1, warnings
        assert "2 pages (2, 4) were removed from the project while it was scored" in said[0]
        assert not result.not_read


def test_score_command_with_pages_removed_meanwhile_ends_well(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    folder = project_with_a_run(tmp_path)
    when_scoring(monkeypatch, "1", remove_in_another_process(folder, "2", "4"))
    assert main(["score", "--project", str(folder), "--run", "1"]) == 0
    out, err = capsys.readouterr()
    assert "no page named" not in out + err
    assert sum("were removed from the project while it was scored" in line for line in err.splitlines()) == 1, err
