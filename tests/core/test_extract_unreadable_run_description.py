"""A run folder whose `_run/run.json` is there but cannot be read (emptied, cut short, edited by hand) is resumed
only when its pages' own records (`_run/N.json`) say, all alike, that the method given made them: resumed by
another method, or when a page says nothing, it is refused, as a folder without run.json is, and nothing in it is
touched (a resume would mix two methods' records and describe them all as the second's)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.core.resource_files import resource_path
from tests.core.cli_runs import run

DEMO = resource_path("demo", "dataset")


def _extract(capsys: pytest.CaptureFixture[str], method: str, out: Path, *more: str) -> tuple[int, str]:
    code, out, err = run(capsys, "extract", "--method", method, "--pages", str(DEMO / "html"), "--out", str(out), "-q",
                       *more)
    return code, out + err  # what it said: its closing line on stdout, the rest on stderr


@pytest.fixture
def damaged(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A repeats run of the demo's four pages, its run.json emptied and page 2 to do again."""
    out = tmp_path / "e5"
    assert _extract(capsys, "repeats", out)[0] == 0
    (out / "_run" / "run.json").write_text("", encoding="utf-8")
    (out / "2.json").unlink()
    (out / "_run" / "2.json").unlink()
    return out


def test_another_method_is_refused_on_a_folder_whose_run_description_cannot_be_read(
        damaged: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = _extract(capsys, "mdr", damaged)
    assert code == 2, err
    assert (f"{damaged} holds a run of repeats, not mdr (as its pages' own records say: "
            f"{damaged / '_run' / 'run.json'} cannot be read: it is empty): resuming it with mdr would mix two "
            "methods' records: choose another --out, or give --method repeats to resume it") in err, err
    assert " -> " not in err  # the method alone, not each parameter by which the two differ
    assert (damaged / "_run" / "run.json").read_text(encoding="utf-8") == ""  # nothing touched
    assert not (damaged / "2.json").exists()


def test_the_same_method_resumes_it_as_its_pages_say_and_writes_its_description_again(
        damaged: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = _extract(capsys, "repeats", damaged)
    assert code == 0, err
    assert (f"warning: {damaged / '_run' / 'run.json'} cannot be read: it is empty; its pages' own records "
            "(_run/N.json) say they were made by repeats with the parameters given now: resumed, and its run.json "
            "written again") in err, err
    assert json.loads((damaged / "_run" / "run.json").read_text(encoding="utf-8"))["method"] == "repeats"
    assert (damaged / "2.json").is_file()


def test_a_page_whose_own_record_says_nothing_leaves_the_method_unknown_and_the_resume_refused(
        damaged: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (damaged / "_run" / "run.json").write_text('{"method": "repeats", ', encoding="utf-8")  # cut short
    (damaged / "_run" / "3.json").unlink()
    code, err = _extract(capsys, "repeats", damaged)
    assert code == 2, err
    assert (f"{damaged / '_run' / 'run.json'} cannot be read: Expecting property name enclosed in double quotes") in err
    assert ("and its pages' own records do not say which method made them (page 3 holds records but no readable "
            f"_run/3.json naming their method): resuming {damaged} with repeats could mix two methods' records: use "
            "--restart to extract every page again into it, or choose another --out") in err, err
    code, err = _extract(capsys, "mdr", damaged, "--restart")  # the way out it names
    assert code == 0 and "4 extracted, 0 already there" in err, err
    assert json.loads((damaged / "_run" / "run.json").read_text(encoding="utf-8"))["method"] == "mdr"


def test_a_description_that_is_no_object_is_judged_by_the_pages_too(
        damaged: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (damaged / "_run" / "run.json").write_text("[1, 2]", encoding="utf-8")
    code, err = _extract(capsys, "mdr", damaged)
    assert code == 2 and "it holds a list, not a run's description" in err, err
