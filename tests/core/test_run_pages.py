"""A run's predictions belong to the pages they were made on: `_run/N.json` records each page's identity, and
`score` (both forms) and `runs --add` say when a page of the same name is another page now. A predictions file
that cannot be read is no prediction, in the folder form of `score` as in a stored run."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.resource_files import resource_path
from tests.core.cli_runs import run

DEMO = resource_path("demo", "dataset")


@pytest.fixture
def dataset(tmp_path: Path) -> Path:
    shutil.copytree(DEMO, tmp_path / "data")
    return tmp_path / "data"


def test_a_run_records_the_page_each_prediction_was_made_on(dataset: Path, tmp_path: Path) -> None:
    assert main(["extract", "--method", "repeats", "--pages", str(dataset / "html"), "--out", str(tmp_path / "r"),
                 "-q"]) == 0
    made_on = json.loads((tmp_path / "r" / "_run" / "1.json").read_text(encoding="utf-8"))["page"]
    assert set(made_on) == {"sha256", "texts"} and len(made_on["sha256"]) == 64


def test_a_run_scored_against_other_pages_of_the_same_names_says_so(dataset: Path, tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    html = dataset / "html"
    assert main(["extract", "--method", "repeats", "--pages", str(html), "--out", str(tmp_path / "r"), "-q"]) == 0
    folder = ["score", "--pred", str(tmp_path / "r"), "--gt", str(dataset / "gt"), "--pages", str(html), "-q"]
    code, _, err = run(capsys, *folder)
    assert code == 0 and "other pages" not in err
    # the same page saved again with other bytes (its texts unchanged) is the same page
    (html / "3.html").write_text((html / "3.html").read_text(encoding="utf-8") + "\n<!-- saved again -->\n",
                                 encoding="utf-8")
    code, _, err = run(capsys, *folder)
    assert code == 0 and "other pages" not in err
    # two pages swapped under each other's names: the run's predictions were made on the other page
    (html / "1.html").rename(html / "x.html")
    (html / "2.html").rename(html / "1.html")
    (html / "x.html").rename(html / "2.html")
    code, _, err = run(capsys, *folder)
    assert code == 0
    assert "2 pages of the run (1, 2) were predicted on other pages under the same names" in err

    assert main(["project", "init", str(tmp_path / "p")]) == 0
    assert main(["import", str(dataset), "--project", str(tmp_path / "p"), "-q"]) == 0
    capsys.readouterr()
    code, _, err = run(capsys, "runs", "--project", str(tmp_path / "p"), "--add", str(tmp_path / "r"))
    assert code == 0 and "2 pages of the run (1, 2) were predicted on other pages" in err
    shutil.rmtree(tmp_path / "r")  # the stored run remembers it without its folder
    code, _, err = run(capsys, "score", "--project", str(tmp_path / "p"), "--run", "1", "-q")
    assert code == 0 and "2 pages of the run (1, 2) were predicted on other pages" in err


def test_an_unreadable_predictions_file_is_no_prediction_in_both_forms_of_score(
        dataset: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["extract", "--method", "repeats", "--pages", str(dataset / "html"), "--out", str(tmp_path / "r"),
                 "-q"]) == 0
    capsys.readouterr()  # extract's closing line
    (tmp_path / "r" / "4.json").unlink()  # lost: said when the run is added, and left out of both scores alike
    (tmp_path / "r" / "2.json").write_text("{bad", encoding="utf-8")
    (tmp_path / "r" / "3.json").write_text('{"a": 1}', encoding="utf-8")
    code, out, _ = run(capsys, "score", "--pred", str(tmp_path / "r"), "--gt", str(dataset / "gt"), "--pages",
                       str(dataset / "html"), "--json", "-q")
    folder = json.loads(out)
    assert code == 1 and sorted(folder["failed_pages"]) == ["2", "3", "4"]  # 1: files of the run cannot be read
    assert sorted(folder["unreadable_pages"]) == ["2", "3"]
    assert "its predictions file cannot be read" in folder["failed_pages"]["2"]
    assert main(["project", "init", str(tmp_path / "p")]) == 0
    assert main(["import", str(dataset), "--project", str(tmp_path / "p"), "-q"]) == 0
    code, _, err = run(capsys, "runs", "--project", str(tmp_path / "p"), "--add", str(tmp_path / "r"))
    assert code == 1 and "2.json: not valid JSON" in err and "stored as a page the run failed on" in err
    assert "the run has no prediction for 1 labelled page of the project (4)" in err
    code, out, _ = run(capsys, "score", "--project", str(tmp_path / "p"), "--run", "1", "--json", "-q")
    stored = json.loads(out)
    assert sorted(stored["failed_pages"]) == ["2", "3", "4"]
    assert stored["without_failed"] == folder["without_failed"]  # the same run, the same figures either way


def test_score_reads_each_predictions_file_once(dataset: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """The pages left out of "without failed" for an unreadable predictions file are those the scoring could not
    read: no file is read a second time to find them."""
    from recordlens.core.runs import evaluate

    assert main(["extract", "--method", "repeats", "--pages", str(dataset / "html"), "--out", str(tmp_path / "r"),
                 "-q"]) == 0
    capsys.readouterr()  # extract's closing line
    (tmp_path / "r" / "2.json").write_text("{bad", encoding="utf-8")
    reads: list[Path] = []
    real = evaluate.load_records

    def counted(path, *args, **kwargs):  # noqa: ANN001, ANN202
        reads.append(Path(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(evaluate, "load_records", counted)
    code, out, _ = run(capsys, "score", "--pred", str(tmp_path / "r"), "--gt", str(dataset / "gt"), "--pages",
                       str(dataset / "html"), "--json", "-q")
    assert code == 1 and "its predictions file cannot be read" in json.loads(out)["failed_pages"]["2"]
    predictions = [path for path in reads if path.parent == tmp_path / "r"]
    assert predictions and len(predictions) == len(set(predictions)), predictions
