"""A saved copy changed by hand since a run was scored (its bytes edited, still a page that reads) leaves the run's
stored score of that page stale (`Runs.stale_pages`), said as such (`Runs.why_stale`): `runs` marks the run's
figures out of date with why, and `runs --compare` scores it again, as the copy is now, saying why, rather than
compare a score of the copy as it was. Once scored again the score holds; a copy written again with the very bytes
it was stored as (a project copied without its files' times) is no change."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from recordlens.core.store.project import open_project
from recordlens.core.store.scoring import score_stored_run
from tests.core.cli_runs import DEMO, demo_project, run

pytestmark = pytest.mark.timeout(300)

CARD = b'<div class="product-card" data-record="16">'
WHY = "1 page whose saved copy was changed by hand since it was scored (1)"


@pytest.fixture
def project(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """The demo's 4 labelled pages; run 1 holds page 1's true records but its last product card's name alone for
    its 16th record (an F1 below 1 there), run 2 holds page 1's true records; both scored."""
    folder = demo_project(capsys, tmp_path / "project")
    truth = json.loads((DEMO / "gt" / "1.json").read_text(encoding="utf-8"))
    for name, records in (("partial", [*truth[:15], [f"{truth[15][0]}/h3[1]"]]), ("right", truth)):
        (tmp_path / name).mkdir()
        (tmp_path / name / "1.json").write_text(json.dumps(records), encoding="utf-8")
        assert run(capsys, "runs", "--project", str(folder), "--add", str(tmp_path / name),
                   "--method", "oracle")[0] == 0
    for run_id in ("1", "2"):
        assert run(capsys, "score", "--project", str(folder), "--run", run_id, "-q")[0] == 0
    return folder


def saved_copy(folder: Path, page: str) -> Path:
    with open_project(folder) as opened:
        return opened.snapshot_file(page)


def cut_the_last_card_to_its_name(folder: Path) -> None:
    """Page 1's saved copy edited by hand, still a page that reads: its last product card holds its name alone, the
    very texts run 1's record of it names (which now matches the true record whole)."""
    copy = saved_copy(folder, "1")
    data = copy.read_bytes()
    start = data.index(CARD)
    end = data.index(b"</div>", data.index(b"Add to basket</button>", start)) + len(b"</div>")
    name = re.search(rb"<h3.*?</h3>", data[start:end], re.S)
    assert name is not None
    copy.chmod(0o644)  # stored read-only
    copy.write_bytes(data[:start] + CARD + name.group(0) + b"</div>" + data[end:])


def page_f1(compared: dict, page: str) -> list[float]:
    return next(row["f1"] for row in compared["pages"] if row["page"] == page)


def test_a_copy_changed_by_hand_since_the_score_is_stale_until_scored_again(
        project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with open_project(project) as opened:
        assert opened.runs.stale_pages(1) == []
    cut_the_last_card_to_its_name(project)
    with open_project(project) as opened:
        assert opened.runs.stale_pages(1) == ["1"] == opened.runs.stale_pages(2)
        assert opened.runs.why_stale(1) == WHY
        assert opened.runs.relabelled_since_scored(1) == []  # no label changed: not said as such

    code, out, err = run(capsys, "runs", "--project", str(project))
    assert code == 0, err
    assert f"run 1's figures are out of date: {WHY};" in " ".join(out.split())

    assert run(capsys, "score", "--project", str(project), "--run", "1", "-q")[0] == 0
    with open_project(project) as opened:
        assert opened.runs.stale_pages(1) == []  # scored as the copy is now
        assert opened.runs.stale_pages(2) == ["1"]
        assert next(s.f1 for s in opened.runs.scores(1) if s.page == "1") == 1.0


def test_runs_compare_scores_again_a_copy_changed_by_hand_and_says_why(
        project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "runs", "--project", str(project), "--compare", "1", "2", "--json")
    assert code == 0, err
    assert page_f1(json.loads(out), "1")[0] < 1.0

    cut_the_last_card_to_its_name(project)
    code, out, err = run(capsys, "runs", "--project", str(project), "--compare", "1", "2", "--json")
    assert code == 0, err
    assert page_f1(json.loads(out), "1") == [1.0, 1.0]  # the copy as it is now, not the score of it as it was
    said = " ".join(err.split())
    for run_id in (1, 2):
        assert f"run {run_id} (oracle, from {'partial' if run_id == 1 else 'right'}): {WHY}: scored again" in said

    code, out, err = run(capsys, "runs", "--project", str(project), "--compare", "1", "2", "--json")
    assert code == 0 and "scored again" not in err  # the scores hold now


def test_a_copy_written_again_with_its_own_bytes_is_no_change(project: Path) -> None:
    copy = saved_copy(project, "1")
    data = copy.read_bytes()
    copy.chmod(0o644)
    copy.write_bytes(data)  # as a copy of the project made without its files' times
    os.utime(copy)
    with open_project(project) as opened:
        assert opened.runs.stale_pages(1) == []
        assert opened.runs.why_stale(1) == ""


def test_a_copy_changed_again_after_its_score_is_stale_again_in_the_same_open_project(project: Path) -> None:
    """What an open project (the app's) judged of a copy is judged again once its file changes."""
    with open_project(project) as opened:
        assert opened.runs.stale_pages(1) == []
        cut_the_last_card_to_its_name(project)
        assert opened.runs.stale_pages(1) == ["1"]
        score_stored_run(opened, 1)
        assert opened.runs.stale_pages(1) == []
        copy = opened.snapshot_file("1")
        copy.write_bytes(copy.read_bytes() + b"\n<!-- changed by hand again -->\n")
        assert opened.runs.stale_pages(1) == ["1"]


def test_a_copy_that_cannot_be_read_is_not_stale_but_said_by_saved_copy_problem(project: Path) -> None:
    copy = saved_copy(project, "1")
    copy.chmod(0o644)
    copy.write_bytes(b"")
    with open_project(project) as opened:
        assert opened.runs.stale_pages(1) == []
        assert opened.saved_copy_problem("1") is not None
