"""`score --project` while another process stores the run's predictions anew (`runs --add` of the run's folder gone on,
a Propose session going on): the prediction stored anew dropped its page's score in its own transaction, and the score
of the prediction as it was read must not be put back as if current. Such pages are scored again from what the run
holds then; a page stored anew at every try keeps no score, and the run reads stale until it is scored again.

Real SQLite files, the other writer a real second process, started from a hook at the moment a page is scored (the
run's predictions already read)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from recordlens.core.records.score import PageScore
from recordlens.core.store import scoring
from recordlens.core.store.importer import import_paths, import_run_folder
from recordlens.core.store.project import Project, init_project, open_project
from recordlens.core.store.scoring import score_stored_run
from tests.core.shop_runs import dataset, run_folder

# Page 2's true records (`shop_runs.dataset`): a prediction of them scores F1 1, where no prediction scores 0
TRUTH_OF_2 = [["/body[1]/ul[1]/li[1]"], ["/body[1]/ul[1]/li[2]", "/body[1]/ul[1]/li[3]"]]

# The other process: `runs --add` of the folder, as `recordlens runs --project P --add RUN` stores it
ADD_THE_FOLDER = """
import sys
from pathlib import Path
from recordlens.core.store.importer import import_run_folder
from recordlens.core.store.project import open_project
with open_project(sys.argv[1]) as project:
    import_run_folder(project, Path(sys.argv[2]))
"""

# The other process: a Propose session storing page 1's prediction anew (a record more each time)
STORE_PAGE_1_ANEW = """
import sys
from recordlens.core.store.project import open_project
with open_project(sys.argv[1]) as project:
    records = project.runs.predictions(1)["1"]
    project.runs.add_predictions(1, {"1": [*records, ["/body[1]/h1[1]"]]})
"""


def in_another_process(code: str, *args: Path) -> None:
    subprocess.run([sys.executable, "-c", code, *map(str, args)], check=True, timeout=120)


def when_scoring(monkeypatch: pytest.MonkeyPatch, page: str, act: Callable[[], None], *, times: int) -> list[str]:
    """`act` run as `page` is scored (the run's predictions read by then), its first `times` times; the pages
    scored, in order (a page the run predicts nothing for is scored unparsed: `score_without_prediction`)."""
    real, unread, scored = scoring.score_page, scoring.score_without_prediction, []

    def hooked(predicted, truth, keys, name: str) -> PageScore:  # noqa: ANN001 - score_page's own
        scored.append(name)
        if name == page and scored.count(page) <= times:
            act()
        return real(predicted, truth, keys, name)

    def hooked_unread(truth, naming_nothing, name: str) -> PageScore:  # noqa: ANN001 - score_without_prediction's
        scored.append(name)
        return unread(truth, naming_nothing, name)

    monkeypatch.setattr(scoring, "score_page", hooked)
    monkeypatch.setattr(scoring, "score_without_prediction", hooked_unread)
    return scored


def project_with_a_run_of_two_pages(tmp_path: Path) -> tuple[Path, Path]:
    """A project of three labelled pages, and its run 1 of pages 0 and 1, added from its folder (not scored)."""
    folder, run = tmp_path / "p", run_folder(tmp_path / "run", ["0", "1"])
    with init_project(folder) as project:
        import_paths(project, [dataset(tmp_path / "data", 3)])
        assert import_run_folder(project, run).run_id == 1
    return folder, run


def stored_f1(project: Project) -> dict[str, float]:
    return {s.page: round(s.f1, 4) for s in project.runs.scores(1)}


def test_a_page_the_runs_folder_brought_while_it_was_scored_is_scored_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The run's extract went on to page 2 (its folder holds it now); `runs --add` of the folder, in another
    terminal, commits while `score` scores: page 2 was read without a prediction (F1 0), and that score was stored
    as current after the add had dropped it."""
    folder, run = project_with_a_run_of_two_pages(tmp_path)
    (run / "2.json").write_text(json.dumps(TRUTH_OF_2), encoding="utf-8")
    scored = when_scoring(monkeypatch, "0", lambda: in_another_process(ADD_THE_FOLDER, folder, run), times=1)
    with open_project(folder) as project:
        result, warnings, left_out = score_stored_run(project, 1)
        assert "2" in project.runs.predictions(1)  # the other process's add committed
        assert {s.page: round(s.f1, 4) for s in result.pages}["2"] == 1.0
        assert stored_f1(project)["2"] == 1.0
        assert "2" not in left_out
        assert project.runs.stale_pages(1) == []
        assert "run 1's predictions of 1 page (2) were stored anew while it was scored" in warnings[0]
        assert "scored again as the run holds them now" in warnings[0]
        assert not any("page 2" in said and "no prediction" in said for said in warnings), warnings
        assert scored == ["0", "1", "2", "2"]  # only the page stored anew is scored again
    monkeypatch.undo()
    with init_project(tmp_path / "fresh") as fresh, open_project(folder) as project:  # the folder in a new project
        import_paths(fresh, [tmp_path / "data"])
        import_run_folder(fresh, run)
        score_stored_run(fresh, 1)
        assert stored_f1(project) == stored_f1(fresh)


def test_a_page_stored_anew_at_every_try_keeps_no_score_and_reads_stale(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Propose session storing page 1's prediction anew each time it is scored: after the last try its score
    of a prediction already replaced is not kept; the run's means wait for a score of page 1, and `runs` says why."""
    folder, _ = project_with_a_run_of_two_pages(tmp_path)
    with open_project(folder) as project:
        score_stored_run(project, 1)
        records = project.runs.predictions(1)["1"]
        project.runs.add_predictions(1, {"1": [*records, ["/body[1]/h1[1]"]]})  # page 1 to be scored again
    scored = when_scoring(monkeypatch, "1", lambda: in_another_process(STORE_PAGE_1_ANEW, folder), times=99)
    with open_project(folder) as project:
        _, warnings, _ = score_stored_run(project, 1)
        assert set(scored) == {"1"}  # the other pages' scores held: only page 1 was scored, at each try
        assert len(project.runs.predictions(1)["1"]) == len(records) + 1 + len(scored)  # stored anew each time
        assert "1" not in stored_f1(project)
        assert project.runs.stale_pages(1) == ["1"]
        assert "the run's predictions of 1 page changed since it was scored (1)" in project.runs.why_stale(1)
        assert project.runs.get(1).f1 is None  # no mean of the scores left alone
        assert f"at its last of {len(scored)} tries 1 page (1) was stored anew again: its figures here" in warnings[0]
        assert "not kept" in warnings[0]
    monkeypatch.undo()
    with open_project(folder) as project:  # a score once the session is over makes it
        score_stored_run(project, 1)
        assert project.runs.stale_pages(1) == []
        assert project.runs.get(1).f1 is not None


def test_a_score_nothing_stored_anew_meanwhile_says_nothing_of_it(tmp_path: Path) -> None:
    folder, _ = project_with_a_run_of_two_pages(tmp_path)
    with open_project(folder) as project:
        _, warnings, _ = score_stored_run(project, 1)
        assert not any("stored anew" in said for said in warnings), warnings
        assert sorted(stored_f1(project)) == ["0", "1", "2"]


# The other process: an unlabelled page taken out of the project (its predictions go with it, the run's top row
# among them), then a Propose session storing page 1 anew with its true records; SQLite gives the new row the id the
# removed page's row had, so the run's `predictions_stamp` reads as before
REMOVE_PAGE_3_AND_STORE_PAGE_1_ANEW = """
import sys
from recordlens.core.store import remove_page
from recordlens.core.store.project import open_project
with open_project(sys.argv[1]) as project:
    remove_page(project, "3")
    project.runs.add_predictions(1, {"1": TRUTH_OF_2})
""".replace("TRUTH_OF_2", repr(TRUTH_OF_2))


def test_a_page_stored_anew_is_found_when_the_runs_stamp_reads_the_same(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`_stored_anew` looked at the predictions only when the run's stamp (its highest row id) moved: after the run's
    top row went with a removed page, the prediction stored anew took that row id, and the score of page 1's
    prediction as it was read was stored as current, unsaid."""
    folder, run = tmp_path / "p", run_folder(tmp_path / "run", ["0", "1", "2", "3"])
    data = dataset(tmp_path / "data", 3)
    (data / "html" / "3.html").write_text("<html><body><h1>not labelled</h1></body></html>", encoding="utf-8")
    with init_project(folder) as project:
        import_paths(project, [data])
        assert import_run_folder(project, run).run_id == 1
        stamp = project.runs.get(1).predictions_stamp
    when_scoring(monkeypatch, "0", lambda: in_another_process(REMOVE_PAGE_3_AND_STORE_PAGE_1_ANEW, folder), times=1)
    with open_project(folder) as project:
        result, warnings, _ = score_stored_run(project, 1)
        assert project.runs.get(1).predictions_stamp == stamp  # what the shortcut went by: it reads the same
        assert project.runs.predictions(1)["1"] == TRUTH_OF_2  # the other process's store committed
        assert {s.page: round(s.f1, 4) for s in result.pages}["1"] == 1.0
        assert stored_f1(project)["1"] == 1.0
        assert project.runs.stale_pages(1) == []
        assert "run 1's predictions of 1 page (1) were stored anew while it was scored" in warnings[0], warnings
