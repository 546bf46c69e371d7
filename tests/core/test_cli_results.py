"""What commands give back to a script: an unfinished dataset's figures exit 1 (partial), `runs --add --json` the
run it stored, `--out -` stdout, and an unknown option the command's own usage line."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from recordlens.core.page.dataset import UNFINISHED_EXPORT
from recordlens.core.resource_files import resource_path
from tests.core.cli_runs import run

DEMO = resource_path("demo", "dataset")


def _unfinished_export(tmp_path: Path) -> Path:
    dataset = tmp_path / "export"
    shutil.copytree(DEMO, dataset)
    (dataset / UNFINISHED_EXPORT).write_text("export stopped\n", encoding="utf-8")
    return dataset


def test_scores_and_label_checks_of_an_unfinished_export_exit_1(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    dataset = _unfinished_export(tmp_path)
    pages, gt = str(dataset / "html"), str(dataset / "gt")
    assert run(capsys, "extract", "--method", "mdr", "--pages", pages, "--out", str(tmp_path / "run"), "-q")[0] == 0
    code, out, err = run(capsys, "score", "--pred", str(tmp_path / "run"), "--gt", gt, "--pages", pages, "-q")
    assert code == 1 and out.startswith("page ")  # the figures first
    assert "an export that did not finish" in err and "the figures are of the pages it holds (exit status 1)" in err
    assert err.count(UNFINISHED_EXPORT) == 1
    code, out, err = run(capsys, "score", "--pred", str(tmp_path / "run"), "--gt", gt, "--pages", pages, "-q",
                         "--json")
    assert code == 1 and json.loads(out)["pages"]
    code, _, err = run(capsys, "labels", "check", "--pages", pages, "--gt", gt)
    assert code == 1 and "the findings are of the pages it holds (exit status 1)" in err
    code, _, err = run(capsys, "score", "--pred", str(tmp_path / "run"), "--gt", str(DEMO / "gt"), "--pages",
                       str(DEMO / "html"), "-q")
    assert code == 0 and "exit status 1" not in err


def test_train_on_an_unfinished_export_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                               quick_fits: None) -> None:
    dataset = _unfinished_export(tmp_path)
    code, _, err = run(capsys, "train", "--pages", str(dataset / "html"), "--gt", str(dataset / "gt"), "--out",
                       str(tmp_path / "model.json"), "-q", "--workers", "1")
    assert code == 0 and "an export that did not finish" in err and "the model is trained on the pages it holds" in err


def test_runs_add_json_gives_the_run_added(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project, folder = tmp_path / "P", tmp_path / "run"
    assert run(capsys, "project", "init", str(project))[0] == 0
    assert run(capsys, "import", str(DEMO), "--project", str(project), "-q")[0] == 0
    for method in ("mdr", "repeats"):
        assert run(capsys, "extract", "--method", method, "--pages", str(DEMO / "html"), "--out",
                   str(tmp_path / method), "-q")[0] == 0
    assert run(capsys, "runs", "--project", str(project), "--add", str(tmp_path / "mdr"))[0] == 0
    shutil.copytree(tmp_path / "repeats", folder)
    code, out, _ = run(capsys, "runs", "--project", str(project), "--add", str(folder), "--json")
    added = json.loads(out)
    assert code == 0 and [(r["id"], r["method"], r["stored_now"]) for r in added] == [(2, "repeats", True)]
    code, out, _ = run(capsys, "runs", "--project", str(project), "--add", str(folder), "--json")
    assert [(r["id"], r["stored_now"]) for r in json.loads(out)] == [(2, False)]  # stored already: the same run
    code, out, _ = run(capsys, "runs", "--project", str(project), "--json")
    assert [r["id"] for r in json.loads(out)] == [1, 2] and "stored_now" not in out


def test_represent_out_dash_is_stdout(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "represent", str(DEMO / "html" / "2.html"), "-f", "slim", "--out", "-")
    assert code == 0 and out.startswith("<html><head>") and err == ""
    assert not (tmp_path / "-").exists()


@pytest.mark.parametrize("argv", [["score", "--bogus"], ["labels", "check", "--bogus"]])
def test_an_unknown_option_prints_the_command_s_usage_line(argv: list[str],
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        run(capsys, *argv)
    err = capsys.readouterr().err
    assert stopped.value.code == 2
    assert err.startswith(f"usage: recordlens {' '.join(argv[:-1])} [-h]")
    assert err.rstrip().endswith("error: unrecognized arguments: --bogus")
