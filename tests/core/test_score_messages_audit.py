"""What `score` says beside its figures, as an audit found it wanting: a stored run's pages' warnings said as a
folder's are, true records that name nothing said to lower a page's figures only when they do, and the pages a
run left out on purpose (replay's pages without recorded answers) said so, not taken for pages a stop kept from
being extracted."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.records.score import PageScore
from recordlens.core.resource_files import resource_path
from recordlens.core.runs.evaluate import truth_naming_nothing

DEMO = resource_path("demo", "dataset")
STALE = "/body[1]/div[9]/text()"  # names no element on the demo pages: a record of it expands to nothing


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def warnings_of(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("warning: page ")]


def dataset(tmp_path: Path) -> tuple[Path, Path, Path]:
    """The demo dataset (pages and labels) and a run predicting the labels, under `tmp_path/data`."""
    data = tmp_path / "data"
    pages, gt, pred = data / "html", data / "gt", tmp_path / "run"
    shutil.copytree(DEMO / "html", pages)
    shutil.copytree(DEMO / "gt", gt)
    shutil.copytree(DEMO / "gt", pred)
    (pred / "_run").mkdir()
    (pred / "_run" / "run.json").write_text(json.dumps({"method": "the labels"}), encoding="utf-8")
    return pages, gt, pred


def add_records(path: Path, *records: list[str]) -> None:
    path.write_text(json.dumps([*json.loads(path.read_text(encoding="utf-8")), *records]), encoding="utf-8")


def stored(tmp_path: Path, capsys: pytest.CaptureFixture[str], pred: Path) -> Path:
    """A project of the dataset under `tmp_path/data`, with `pred` stored as its run 1."""
    project = tmp_path / "project"
    assert run(capsys, "project", "init", str(project))[0] == 0
    assert run(capsys, "import", "--project", str(project), str(tmp_path / "data"), "-q")[0] == 0
    assert run(capsys, "runs", "--project", str(project), "--add", str(pred))[0] == 0
    return project


def test_a_stored_run_says_its_pages_warnings_in_the_words_folders_do(tmp_path: Path, capsys) -> None:
    pages, gt, pred = dataset(tmp_path)
    add_records(gt / "2.json", [STALE])
    add_records(pred / "2.json", [STALE])  # an empty prediction matched to an empty true record
    add_records(pred / "3.json", ["/"])  # the reference expands "/" to every text entry of the page
    code, _, err = run(capsys, "score", "--pred", str(pred), "--gt", str(gt), "--pages", str(pages), "-q")
    folders = warnings_of(err)
    assert code == 0
    assert ("warning: page 2: 1 predicted record(s) that expand to nothing matched true record(s) expanding to "
            "nothing, for an overlap of 1 each (scored as perfect by the reference)") in folders
    assert ("warning: page 3: 1 predicted record(s) hold '', '/' or '/html', which the reference expands to every "
            "text entry of the page") in folders
    project = stored(tmp_path, capsys, pred)
    for scored_again in (False, True):  # the second keeps the stored scores, and their warnings
        code, _, err = run(capsys, "score", "--project", str(project), "--run", "1", "-q")
        assert code == 0 and warnings_of(err) == folders, scored_again


def test_true_records_naming_nothing_matched_to_empty_predictions_are_not_said_to_lower_the_figures(
        tmp_path: Path, capsys) -> None:
    pages, gt, pred = dataset(tmp_path)
    add_records(gt / "2.json", [STALE])
    add_records(pred / "2.json", [STALE])  # the run predicts the labels, this stale record too: F1 1
    (gt / "3.json").write_text("[[]]", encoding="utf-8")
    (pred / "3.json").write_text("[[]]", encoding="utf-8")  # the reference scores the pair 1
    add_records(gt / "4.json", [STALE], ["/body[1]/nav[7]"])
    add_records(pred / "4.json", [STALE])  # one of the two matched: the other lowers the figures
    code, out, err = run(capsys, "score", "--pred", str(pred), "--gt", str(gt), "--pages", str(pages), "-q",
                         "--json")
    figures = {page["page"]: page["f1"] for page in json.loads(out)["pages"]}
    assert code == 0 and figures["2"] == figures["3"] == 1.0 and figures["4"] < 1.0
    said = {line.removeprefix("warning: ").split(":")[0]: line for line in warnings_of(err)
            if "true record(s) name nothing" in line}
    for page in ("page 2", "page 3"):
        assert "so they lower" not in said[page]
        assert ("each matched a predicted record that names nothing too, a pair the reference scores as a perfect "
                "match (overlap 1), so they do not lower its figures; `recordlens labels check` lists them"
                ) in said[page]
    assert said["page 3"].startswith("warning: page 3: 1 of 1 true record(s) name nothing on the page")
    assert ("page 4: 2 of 14 true record(s) name nothing on the page (their XPaths name no element, or one without "
            "text): 1 of them matched a predicted record that names nothing too, a pair the reference scores as a "
            "perfect match (overlap 1); no predicted record with text can match the others, so they lower its "
            "figures") in said["page 4"]
    # a project's run says the same, from its stored scores too (which keep no matches)
    project = stored(tmp_path, capsys, pred)
    for scored_again in (False, True):
        code, _, err = run(capsys, "score", "--project", str(project), "--run", "1", "-q")
        assert code == 0 and [line for line in warnings_of(err) if "true record(s) name nothing" in line] == list(
            said.values()), scored_again


def test_what_is_said_of_true_records_naming_nothing_follows_the_empty_predictions_matched() -> None:
    def said(empty_true: int, empty_predicted: int) -> str | None:
        return truth_naming_nothing(PageScore("p", 0.5, 0.5, 0.5, 3, 3, [], empty_predicted, empty_true))

    assert said(0, 2) is None
    assert said(2, 0).endswith("no predicted record with text can match them, so they lower its figures; "
                               "`recordlens labels check` lists them")
    assert "each matched" in said(2, 2) and "each matched" in said(1, 3) and "lower its figures" in said(1, 3)
    assert "so they do not lower" in said(1, 3) and "1 of them matched" in said(2, 1)


def replay_of_two_pages(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, Path, Path]:
    """The README's replay example on the demo pages, with answers recorded for pages 1 and 2 only (the labels)."""
    pages, gt, _ = dataset(tmp_path)
    answers = tmp_path / "samples" / "llm"
    answers.mkdir(parents=True)
    for page in ("1", "2"):
        shutil.copy(gt / f"{page}.json", answers / f"sample{page}_flat_content.json")
    (answers.parent / "index.json").write_text(json.dumps({"sample1": 1, "sample2": 2}), encoding="utf-8")
    out = tmp_path / "replay"
    code, _, err = run(capsys, "extract", "--method", "replay", "--answers", str(answers), "--format", "flat",
                       "--pages", str(pages), "--out", str(out), "-q")
    assert code == 0 and "2 page(s) of" in err and "left out (3, 4)" in err
    return pages, gt, out


def test_the_pages_a_replay_leaves_out_are_recorded_and_scored_as_left_out(tmp_path: Path, capsys) -> None:
    pages, gt, out = replay_of_two_pages(tmp_path, capsys)
    described = json.loads((out / "_run" / "run.json").read_text(encoding="utf-8"))
    assert described["left_out"] == {"3": "the method has no answers for it", "4": "the method has no answers for it"}
    code, table, err = run(capsys, "score", "--pred", str(out), "--gt", str(gt), "--pages", str(pages), "-q")
    assert code == 0
    assert "run extract again" not in table and "not extracted" not in table and "stopped" not in table
    assert ("pages the run left out (2; counted above as empty predictions, as a page without a prediction is; the "
            "line below leaves them out):\n  3: left out by the run: the method has no answers for it\n"
            "  4: left out by the run: the method has no answers for it\n"
            "without failed  1.0000  1.0000  1.0000 (pages 2)") in table
    assert "mean          0.5000  0.5000  0.5000" in table  # every scored page counts, as README's F1 all
    assert ("warning: 2 pages left out by the run (3, 4; why, for each: the method has no answers for it): scored "
            "as empty predictions, and the figures without them are given apart") in err
    assert "no prediction" not in err
    code, document, _ = run(capsys, "score", "--pred", str(out), "--gt", str(gt), "--pages", str(pages), "-q",
                            "--json")
    document = json.loads(document)
    assert document["failed_pages"] == {"3": "left out by the run: the method has no answers for it",
                                        "4": "left out by the run: the method has no answers for it"}
    assert document["without_failed"]["f1"] == 1.0 and document["without_failed"]["pages"] == 2


def test_a_stored_replay_run_says_the_pages_it_left_out(tmp_path: Path, capsys) -> None:
    _, _, out = replay_of_two_pages(tmp_path, capsys)
    project = tmp_path / "project"
    assert run(capsys, "project", "init", str(project))[0] == 0
    assert run(capsys, "import", "--project", str(project), str(tmp_path / "data"), "-q")[0] == 0
    code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(out))
    assert code == 0 and "2 of them left out by the run on purpose" in err
    code, listing, _ = run(capsys, "runs", "--project", str(project), "--json")
    run_1 = json.loads(listing)[0]
    assert "left_out" not in run_1["parameters"] and set(run_1["cost"]["left_out"]) == {"3", "4"}
    code, table, said = run(capsys, "score", "--project", str(project), "--run", "1", "-q")
    assert code == 0 and "run extract again" not in table and "not extracted" not in table
    assert "  3: left out by the run: the method has no answers for it" in table
    assert "without failed  1.0000  1.0000  1.0000 (pages 2)" in table
    # said once for both, in the words `score` of the folder uses, not once per page as "no prediction"
    assert "no prediction in run" not in said
    assert "2 pages left out by the run (3, 4; why, for each: the method has no answers for it)" in said
    # `runs --delete` writes the run back as a folder: what it left out goes with it, and comes back with --add
    assert run(capsys, "runs", "--project", str(project), "--delete", "1")[0] == 0
    kept = next((project / "removed" / "runs").iterdir())
    assert set(json.loads((kept / "_run" / "run.json").read_text(encoding="utf-8"))["left_out"]) == {"3", "4"}


def test_a_run_that_left_out_every_scored_page_is_taken_for_a_run_of_other_pages(tmp_path: Path, capsys) -> None:
    pages, gt, out = replay_of_two_pages(tmp_path, capsys)
    for page in ("1", "2"):
        (gt / f"{page}.json").unlink()
    code, _, err = run(capsys, "score", "--pred", str(out), "--gt", str(gt), "--pages", str(pages), "-q")
    assert code == 2 and "holds no prediction for any of the 2 page(s) scored: a run of other pages?" in err
