"""`runs --compare A B`, `score --project P --run ID` and `labels check --project P` agree on which pages' saved
copies cannot be read (`Project.saved_copy_problem`, the one home of it): a copy emptied, or made into an archive cut
short (bytes that cannot be parsed), after both runs were scored is left out of the comparison as `score` leaves it
out, with `score`'s words, though neither run needs scoring again; a copy changed by hand that can still be read is
compared. With no page both runs scored that can be read, the refusal says so, not that no page with ground truth
can be scored."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.core.errors import RecordLensError
from recordlens.core.store.project import open_project
from recordlens.core.store.scoring import compare_stored_runs
from tests.core.cli_runs import run
from tests.core.test_runs_compare_leaves_out_pages_it_cannot_read import project  # noqa: F401 (fixture)

pytestmark = pytest.mark.timeout(300)

# an archive cut short: its header says MHTML, and no part follows
CUT_SHORT = b"MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary=x\r\n\r\nno part\r\n"
DAMAGE = {"emptied": b"", "an archive cut short": CUT_SHORT}


def score_both(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for run_id in ("1", "2"):
        assert run(capsys, "score", "--project", str(folder), "--run", run_id, "-q")[0] == 0


def saved_copy(folder: Path, page: str) -> Path:
    with open_project(folder) as opened:
        return opened.snapshot_file(page)


@pytest.mark.parametrize("damage", DAMAGE, ids=list(DAMAGE))
def test_a_copy_that_cannot_be_read_is_left_out_of_the_comparison_as_score_leaves_it_out(
        project: Path, damage: str, capsys: pytest.CaptureFixture[str]) -> None:  # noqa: F811
    score_both(project, capsys)
    saved_copy(project, "3").write_bytes(DAMAGE[damage])

    code, out, err = run(capsys, "runs", "--project", str(project), "--compare", "1", "2", "--json")
    assert code == 1, err
    assert "scored again" not in err  # neither run needed scoring again: the comparison itself found the copy
    compared = json.loads(out)
    assert sorted(page["page"] for page in compared["pages"]) == ["1", "2", "4"]
    assert list(compared["pages_not_read"]) == ["3"]

    code, out, err = run(capsys, "score", "--project", str(project), "--run", "1", "-q", "--json")
    assert code == 1, err
    assert json.loads(out)["pages_not_read"] == compared["pages_not_read"]  # the same page, in the same words

    code, out, _ = run(capsys, "labels", "check", "--project", str(project))
    assert code == 1
    assert f"page 3: cannot be checked: {compared['pages_not_read']['3']}" in out

    code, out, err = run(capsys, "runs", "--project", str(project), "--compare", "1", "2")
    assert code == 1, err
    assert "(the 3 pages both scored; pages 3 of 4: 1 left out, below)" in out
    assert "pages left out of the figures (1; their saved page or their labels cannot be read):" in out


def test_a_copy_changed_by_hand_that_can_be_read_is_compared(project: Path,  # noqa: F811
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    score_both(project, capsys)
    copy = saved_copy(project, "3")
    copy.write_bytes(copy.read_bytes() + b"\n<!-- changed by hand -->\n")
    code, out, err = run(capsys, "runs", "--project", str(project), "--compare", "1", "2", "--json")
    assert code == 0, err
    compared = json.loads(out)
    assert "pages_not_read" not in compared and compared["mean"]["pages"] == 4


def test_no_page_both_runs_scored_that_can_be_read_is_said_as_such(project: Path,  # noqa: F811
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """Page 3 cannot be read; pages 1 and 2 hold a score of run 1 only, page 4 of run 2 only (their other scores
    dropped): nothing to compare, though three of the four pages with ground truth can be read."""
    score_both(project, capsys)
    saved_copy(project, "3").write_bytes(b"")
    with open_project(project) as opened:
        opened.runs.drop_scores(2, ["1", "2"])
        opened.runs.drop_scores(1, ["4"])
        with pytest.raises(RecordLensError) as refused:
            compare_stored_runs(opened, 1, 2)
    said = " ".join(str(refused.value).split())
    assert "none of the 1 page with ground truth" not in said
    assert "no page both runs scored can be read" in said and "1 page cannot be read (3: " in said
    assert "3 pages only one of the runs has a score for: 1, 2, 4" in said, said
