"""A folder that is there, given without the option by which a command writes its output, is advised with what the
command will do with it (`core/cli/argument_advice.py`): every folder was told `give it as --out DIR`, though
`extract` refuses a folder holding other files, `synth` one that is no earlier synth output and a nexteval `export`
one holding a dataset; the advice the user then followed failed in turn. Now the advice says whether the command
writes there (in an empty folder; resuming a run, replacing an earlier synth output, adding an export beside the
files there) or refuses it, and then what to type instead (a new folder, named). Each advice is checked against what
the command does when given so. A name not there, close to a folder that is, reads as the new output it names, not
as that folder misspelt (an output is no input to be corrected into one that is there)."""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.resource_files import resource_path
from tests.core.cli_runs import refused_line


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Path:
    """The current folder: a dataset `ds`, a project `P` holding its pages, a run `run1` of it, an earlier synth
    output `syn`, an empty folder `empty`, a folder of other files `full`, and one of labels `labels` (N.json, no
    run)."""
    monkeypatch.chdir(tmp_path)
    shutil.copytree(resource_path("demo", "dataset"), tmp_path / "ds")
    assert main(["project", "init", "P"]) == 0
    assert main(["import", "ds", "--project", "P", "--quiet"]) == 0
    assert main(["extract", "--pages", "ds/html", "--out", "run1", "--quiet"]) == 0
    assert main(["synth", "--pages", "ds/html", "--gt", "ds/gt", "--out", "syn", "--quiet"]) == 0
    (tmp_path / "empty").mkdir()
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "notes.txt").write_text("mine", encoding="utf-8")
    (tmp_path / "labels").mkdir()
    (tmp_path / "labels" / "1.json").write_text("[]", encoding="utf-8")
    capsys.readouterr()
    return tmp_path


def advice(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """What `recordlens ARGV` advised as argparse refused it (exit 2): its last line, after argparse's words."""
    return refused_line(capsys, *argv).split("; ", 1)[1]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    """`recordlens ARGV` run: its exit status, and what it said (stdout and stderr)."""
    code = main(list(argv))
    said = capsys.readouterr()
    return code, said.out + said.err


def advised(said: str) -> list[str]:
    """The option and value the advice says to give (`as --out full-2`), as the shell reads them."""
    found = re.search(r"give (?:it|a new one,) as (--\S+ (?:'[^']*'|[^\s;,()]+))", said)  # to the clause's end
    assert found is not None, said
    return shlex.split(found.group(1))


def test_extract_says_it_refuses_a_folder_of_other_files_and_names_a_new_one(
        here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for folder, holds in (("full", "notes.txt"), ("labels", "1.json")):
        said = advice(capsys, "extract", "--pages", "ds/html", folder)
        assert said == (f"{folder} is a folder extract refuses as --out: it holds files but no run (_run/run.json), "
                        "and a run is written into a new or empty folder, or resumed in its own; give a new one, as "
                        f"--out {folder}-2"), said
        assert "give it as --out" not in said
        code, err = run(capsys, "extract", "--pages", "ds/html", "--out", folder, "--quiet")  # refused indeed
        assert code == 2 and f"{folder} holds files ({holds}) but no run" in err
        assert run(capsys, "extract", "--pages", "ds/html", *advised(said), "--quiet")[0] == 0  # the new one is taken
        assert (here / f"{folder}-2" / "1.json").is_file()


def test_extract_says_it_resumes_a_run_and_writes_in_an_empty_folder(
        here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    said = advice(capsys, "extract", "--pages", "ds/html", "run1")
    assert said == ("run1 is a folder: give it as --out run1 (extract then resumes the run it holds, if of the same "
                    "method: pages already written are skipped, and --restart extracts every page again)"), said
    code, err = run(capsys, "extract", "--pages", "ds/html", *advised(said), "--quiet")
    assert code == 0 and "0 extracted, 4 already there" in err
    said = advice(capsys, "extract", "--pages", "ds/html", "empty")
    assert said == "empty is a folder: give it as --out empty (extract then writes its run in it)", said


def test_synth_says_it_replaces_its_own_output_and_refuses_other_folders(
        here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    said = advice(capsys, "synth", "--pages", "ds/html", "--gt", "ds/gt", "syn")
    assert said == ("syn is a folder: give it as --out syn (synth then replaces the synthetic dataset it holds whole, "
                    "an earlier synth output as its synth.json says)"), said
    assert run(capsys, "synth", "--pages", "ds/html", "--gt", "ds/gt", *advised(said), "--quiet")[0] == 0
    said = advice(capsys, "synth", "--pages", "ds/html", "--gt", "ds/gt", "full")
    assert said == ("full is a folder synth refuses as --out: it is not empty and holds no synth.json, and synth "
                    "writes into a new or empty folder, or replaces an earlier synth output whole; give a new one, as "
                    "--out full-2"), said
    assert run(capsys, "synth", "--pages", "ds/html", "--gt", "ds/gt", "--out", "full", "--quiet")[0] == 2
    # the dataset read: the input is never the output
    said = advice(capsys, "synth", "--pages", "ds/html", "--gt", "ds/gt", "ds")
    assert said.startswith("ds is a folder synth refuses as --out: it holds the input folder ds/html"), said
    assert run(capsys, "synth", "--pages", "ds/html", "--gt", "ds/gt", "--out", "ds", "--quiet")[0] == 2


def test_export_says_it_adds_beside_what_a_folder_holds_and_refuses_a_dataset(
        here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    said = advice(capsys, "export", "--project", "P", "--format", "nexteval", "full")
    assert said == ("full is a folder: give it as --out full (export then writes the dataset's html/ and gt/ in it, "
                    "beside the files it holds)"), said
    assert run(capsys, "export", "--project", "P", "--format", "nexteval", *advised(said), "--all-pages",
               "--quiet")[0] == 0
    assert sorted(path.name for path in (here / "full").iterdir()) == ["gt", "html", "notes.txt"]
    said = advice(capsys, "export", "--project", "P", "--format", "nexteval", "ds")
    assert said == ("ds is a folder export refuses as --out: it holds a dataset already (html/, gt/), and a dataset "
                    "is exported into a folder that holds none; give a new one, as --out ds-2"), said
    assert run(capsys, "export", "--project", "P", "--format", "nexteval", "--out", "ds", "--quiet")[0] == 2
    assert run(capsys, "export", "--project", "P", "--format", "nexteval", *advised(said), "--quiet")[0] == 0
    # jsonl: one file in the folder, an earlier one replaced
    said = advice(capsys, "export", "--project", "P", "--format", "jsonl", "full")
    assert said == ("full is a folder: give it as --out full (export then writes full/labels.jsonl in it, beside "
                    "the files it holds)"), said
    assert run(capsys, "export", "--project", "P", "--format", "jsonl", "--out", "full", "--quiet")[0] == 0
    said = advice(capsys, "export", "--project", "P", "--format", "jsonl", "full")
    assert said.endswith("(export then writes full/labels.jsonl in it, replacing the one there)"), said


def test_a_name_beside_an_output_folder_is_a_new_output_not_that_folder_misspelt(
        here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # `fulll`: advised as `did you mean full? ... --out full`, which adds into the folder there
    said = advice(capsys, "export", "--project", "P", "--format", "nexteval", "fulll")
    assert said == "fulll is not there yet: the folder export writes is given as --out fulll", said
    said = advice(capsys, "synth", "--pages", "ds/html", "--gt", "ds/gt", "synn")
    assert said == "synn is not there yet: the folder synth writes is given as --out synn", said
    # an input misspelt is still the input there
    said = advice(capsys, "extract", "ds/htlm", "--out", "run2")
    assert said == "ds/htlm: did you mean ds/html? it is a folder: give it as --pages ds/html", said
