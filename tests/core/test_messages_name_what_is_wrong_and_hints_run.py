"""Small messages said as the others say them: `synth` names an entry named like a page that is no file for what it
is (as extract, import, labels check and score do), an error's closing full stop does not run into "; left out",
`--workers 0` names only --workers, and a command a message hands the user runs as printed, a project folder named
`-proj` too."""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.command_hints import hint_option, hint_path
from recordlens.core.wording import as_clause
from tests.core.cli_runs import DEMO, run


def test_synth_names_a_folder_named_like_a_page_for_what_it_is_and_an_empty_page_without_a_stray_stop(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "data"
    shutil.copytree(DEMO, data)
    (data / "html" / "99.mhtml").mkdir()
    (data / "html" / "98.html").write_bytes(b"")
    for name in ("98", "99"):
        shutil.copy(data / "gt" / "1.json", data / "gt" / f"{name}.json")
    code, _, err = run(capsys, "synth", "--pages", str(data / "html"), "--gt", str(data / "gt"),
                       "--out", str(tmp_path / "syn"), "-q")
    assert code == 1
    assert f"page 99: ground truth, but {data / 'html' / '99.mhtml'}: a folder, not a page file; not read as the " \
           "page" in err
    assert "no 99.html or 99.mhtml" not in err
    assert "the file is empty (or holds only blank space); left out" in err and ".;" not in err


def test_workers_below_1_names_only_workers(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "extract", "--method", "repeats", "--pages", str(DEMO / "html"), "--out",
                       str(tmp_path / "run"), "--engine", "ray", "--workers", "0", "-q")
    assert code == 2 and err == "recordlens: error: --workers must be at least 1 (got 0)\n"


def test_the_runs_hint_for_a_project_named_with_a_dash_runs_as_printed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["project", "init", "--", "-proj"]) == 0
    assert main(["import", str(DEMO), "--project=-proj", "-q"]) == 0
    shutil.copytree(DEMO / "gt", tmp_path / "pred")
    assert main(["runs", "--project=-proj", "--add", str(tmp_path / "pred"), "--method", "oracle"]) == 0
    capsys.readouterr()
    code, out, _ = run(capsys, "runs", "--project=-proj")
    hint = re.search(r"`(recordlens score [^`]*)`", out)
    assert code == 0 and hint is not None, out
    assert hint.group(1) == "recordlens score --project=-proj --run 1"
    assert main(shlex.split(hint.group(1))[1:] + ["-q"]) == 0


@pytest.mark.parametrize(("value", "option", "path"), [
    ("P", "--project P", "P"),
    ("-proj", "--project=-proj", "./-proj"),
    ("my p", "--project 'my p'", "'my p'"),
    ("-my p", "'--project=-my p'", "'./-my p'"),
])
def test_a_hint_writes_each_value_so_that_the_command_reads_it_as_given(value: str, option: str, path: str) -> None:
    assert hint_option("--project", value) == option and hint_path(value) == path
    assert shlex.split(option)[-1].removeprefix("--project=") == value


def test_an_error_s_closing_stop_is_dropped_where_a_sentence_goes_on() -> None:
    assert as_clause("Cannot read x: the file is empty.") == "Cannot read x: the file is empty"
    assert as_clause("a name that ends so...") == "a name that ends so..." and as_clause("no stop") == "no stop"
