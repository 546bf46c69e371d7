"""What a command says of a project that it cannot change, or that another process is changing: on a read-only
mount, every command that only reads reads a project of this schema where it is (`runs`, `agreement`, `train --out`
elsewhere, `agent eval`, `agent tasks report`, as export, labels check and copy read it), one that writes is refused
at once with the way to a copy (even where a killed import left its write-ahead log, which SQLite would open for
reading alone, without a word), and an import stopped part way is said with where it can be finished (a copy, or the
project mounted writable), not "run it again", which cannot write there; while another process imports into the
project, `score`, `labels check`, `runs --compare`, `export` and `agreement` say that what they give is of the pages
imported so far (the run is found stale once the rest come in, as before)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.core.cli_runs import DEMO, EXTRACT, demo_project, run
from tests.core.test_runs_cli_delete_compare import predictions
from tests.core.test_safety_project_files import run_on_read_only
from tests.demo_agent import TASKS_FILE, agent_run_of_two_tasks
from tests.stalled_imports import a_folder_of_pages, import_killed_part_way, import_stalled

pytestmark = pytest.mark.timeout(600)


def project_with_a_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """The demo project with run 1 (mdr) of its four pages, scored."""
    project = demo_project(capsys, tmp_path / "P")
    assert run(capsys, *EXTRACT, str(tmp_path / "run"), "-q")[0] == 0
    assert run(capsys, "runs", "--project", str(project), "--add", str(tmp_path / "run"))[0] == 0
    assert run(capsys, "score", "--project", str(project), "--run", "1", "-q")[0] == 0
    return project


def test_runs_lists_a_project_of_this_schema_on_a_read_only_mount(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    project = project_with_a_run(tmp_path, capsys)
    _, listed, _ = run(capsys, "runs", "--project", str(project))
    before = (project / "project.db").read_bytes()

    read_only = run_on_read_only(project, ["runs", "--project", str(project)])
    assert read_only.returncode == 0, read_only.stderr
    assert read_only.stdout == listed and "  1 mdr " in listed  # as where it can be written
    as_json = run_on_read_only(project, ["runs", "--project", str(project), "--json"])
    assert as_json.returncode == 0 and '"method": "mdr"' in as_json.stdout, as_json.stderr
    # a command that writes is refused there, with the way to a copy, as before
    deleted = run_on_read_only(project, ["runs", "--project", str(project), "--delete", "1"])
    assert deleted.returncode == 2 and f"`recordlens project copy {project} NEW`" in deleted.stderr
    assert (project / "project.db").read_bytes() == before


def test_an_import_stopped_part_way_on_a_read_only_mount_is_said_with_where_it_can_be_finished(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = tmp_path / "P"
    assert run(capsys, "project", "init", str(project))[0] == 0
    folder = a_folder_of_pages(tmp_path / "big", 6)
    pid = import_killed_part_way(project, folder, 2)

    listed = run_on_read_only(project, ["runs", "--project", str(project)])
    assert listed.returncode == 0, listed.stderr
    (line,) = [line for line in listed.stderr.splitlines() if "stopped part way" in line]
    assert line == (f"recordlens: an import of {folder} into {project} was stopped part way (begun "
                    f"{line.split('(begun ')[1].split(' by ')[0]} by process {pid}): 2 of its 6 pages are in the "
                    f"project; the project cannot be changed here (its folder or database is read-only), so the "
                    f"import cannot be finished where it is: `recordlens project copy {project} NEW` copies the "
                    f"project to a folder you can write to, where `recordlens import {folder} --project NEW` finishes "
                    f"it; or, once {project} is mounted writable, `recordlens import {folder} --project {project}`")
    assert "running the same import again" not in listed.stderr
    # where it can be written, the notice is the one it was: run the same import again
    _, _, err = run(capsys, "runs", "--project", str(project))
    assert "running the same import again finishes it" in err and "cannot be changed here" not in err

    # the copy it names is the project to finish it in
    copied = run_on_read_only(project, ["project", "copy", str(project), str(tmp_path / "NEW")])
    assert copied.returncode == 0, copied.stderr
    code, out, _ = run(capsys, "import", str(folder), "--project", str(tmp_path / "NEW"), "-q")
    assert code == 0 and out.startswith("imported 4 page(s) with 0 label(s); 2 already in the project"), out


def labelled_halves(tmp_path: Path) -> tuple[Path, Path]:
    """The demo dataset whole, and a dataset of its first two pages and their labels."""
    whole, half = tmp_path / "data", tmp_path / "half"
    shutil.copytree(DEMO, whole)
    for kind, suffix in (("html", ".html"), ("gt", ".json")):
        (half / kind).mkdir(parents=True)
        for name in ("1", "2"):
            shutil.copy(DEMO / kind / f"{name}{suffix}", half / kind)
    return whole, half


def test_score_and_labels_check_say_an_import_under_way_in_another_process(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    whole, half = labelled_halves(tmp_path)
    project = tmp_path / "P"
    assert run(capsys, "project", "init", str(project))[0] == 0
    assert run(capsys, "import", str(half), "--project", str(project), "-q")[0] == 0
    assert run(capsys, *EXTRACT, str(tmp_path / "run"), "-q")[0] == 0
    # its predictions of pages 3 and 4 are left out (exit 1): the project lacks them yet
    assert run(capsys, "runs", "--project", str(project), "--add", str(tmp_path / "run"))[0] == 1
    under_way = f"warning: an import of {whole} into {project} is under way (begun "

    with import_stalled(project, whole, 1) as pid:  # page 3 in, with its labels; page 4 not yet
        code, out, err = run(capsys, "score", "--project", str(project), "--run", "1", "-q")
        assert code == 0 and "pages 3" in out
        (line,) = [line for line in err.splitlines() if line.startswith(under_way)]
        assert f"by process {pid}, 4 pages in all)" in line
        assert line.endswith("): the figures are of the pages it has imported so far, not of all its pages: run "
                             "this again once it has finished"), line
        _, _, err = run(capsys, "score", "--project", str(project), "--run", "1", "--ceiling", "-q")
        assert err.count(under_way) == 1, err  # the ceiling's label check is of the same pages: said once
        code, out, err = run(capsys, "labels", "check", "--project", str(project))
        assert code == 0 and out.startswith("3 pages: 0 with label problems")
        assert under_way in err and "the findings are of the pages it has imported so far" in err
        _, _, err = run(capsys, "labels", "check", "--project", str(project), "--json")
        assert under_way in err
        _, _, err = run(capsys, "runs", "--project", str(project))
        assert under_way not in err  # a list of runs gives no figure of the labels now

    _, _, err = run(capsys, "score", "--project", str(project), "--run", "1", "-q")
    assert under_way not in err and "was stopped part way" in err  # killed: stopped now, no longer under way
    assert run(capsys, "import", str(whole), "--project", str(project), "-q")[0] == 0
    _, out, _ = run(capsys, "runs", "--project", str(project))
    assert "run 1's figures are out of date: 1 page labelled, changed or unmarked since it was scored (4)" in out


def test_every_command_that_only_reads_reads_a_project_on_a_read_only_mount(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = project_with_a_run(tmp_path, capsys)
    assert run(capsys, "import", str(DEMO), "--project", str(project), "--annotator", "alice", "-q")[0] == 0
    between = ["agreement", "--project", str(project), "--between", "project", "alice", "-q"]
    _, compared, _ = run(capsys, *between)
    before = (project / "project.db").read_bytes()

    agreed = run_on_read_only(project, between)
    assert agreed.returncode == 0 and agreed.stdout == compared, agreed.stderr
    every_pair = run_on_read_only(project, ["agreement", "--project", str(project), "--all", "-q"])
    assert every_pair.returncode == 0 and "project – alice     4  1.000" in every_pair.stdout, every_pair.stderr
    model = tmp_path / "model.json"  # elsewhere than the project: it is only read
    trained = run_on_read_only(project, ["train", "--project", str(project), "--out", str(model), "-q"])
    assert trained.returncode == 0 and model.is_file(), trained.stderr
    reported = run_on_read_only(project, ["agent", "tasks", "report", "--project", str(project), "--json"])
    assert reported.returncode == 0 and '"category"' in reported.stdout, reported.stderr
    # the project's own model is written into the project: refused there, with the way to a copy
    refused = run_on_read_only(project, ["train", "--project", str(project), "-q"])
    assert refused.returncode == 2 and "the folder is read-only" in refused.stderr
    assert f"`recordlens project copy {project} NEW`" in refused.stderr
    assert (project / "project.db").read_bytes() == before


def test_agent_eval_reads_a_project_on_a_read_only_mount(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real")
    project = tmp_path / "p"
    assert agent_run_of_two_tasks(project, TASKS_FILE) == 0
    capsys.readouterr()
    _, evaluated, _ = run(capsys, "agent", "eval", "--project", str(project), "--json")
    before = (project / "project.db").read_bytes()

    read_only = run_on_read_only(project, ["agent", "eval", "--project", str(project), "--json"])
    assert read_only.returncode == 0, read_only.stderr
    assert read_only.stdout == evaluated and '"success_rate": 1.0' in evaluated
    assert (project / "project.db").read_bytes() == before


def test_a_command_that_writes_is_refused_at_once_on_a_read_only_mount_after_a_killed_import(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = tmp_path / "P"
    assert run(capsys, "project", "init", str(project))[0] == 0
    folder = a_folder_of_pages(tmp_path / "big", 6)
    import_killed_part_way(project, folder, 2)
    assert (project / "project.db-wal").is_file()  # which SQLite opens read-only without a word
    before = {path.name: path.read_bytes() for path in project.iterdir() if path.is_file()}

    again = run_on_read_only(project, ["import", str(folder), "--project", str(project)])
    assert again.returncode == 2, again.stderr
    assert again.stderr == (f"recordlens: error: {project / 'project.db'}: cannot open the project database for "
                            "changes: the folder is read-only, and the project opens for changes only where SQLite "
                            f"can write its lock files beside the database: `recordlens project copy {project} NEW` "
                            "copies the project to a folder you can write to (copy reads it where it is, and so does "
                            "every command that only reads it, as export and labels check)\n")
    other = run_on_read_only(project, ["import", str(DEMO), "--project", str(project), "-q"])
    assert other.returncode == 2 and "not imported" not in other.stderr, other.stderr
    assert "cannot open the project database for changes" in other.stderr
    assert "the import cannot be finished where it is" in other.stderr  # the stopped one, said as it begins
    assert {path.name: path.read_bytes() for path in project.iterdir() if path.is_file()} == before


def test_runs_compare_export_and_agreement_say_an_import_under_way_in_another_process(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    whole, half = labelled_halves(tmp_path)
    project = tmp_path / "P"
    assert run(capsys, "project", "init", str(project))[0] == 0
    assert run(capsys, "import", str(half), "--project", str(project), "-q")[0] == 0
    assert run(capsys, "import", str(half), "--project", str(project), "--annotator", "alice", "-q")[0] == 0
    for name, right in (("a", True), ("b", False)):
        folder = predictions(tmp_path / name, {"1": True, "2": right})
        assert run(capsys, "runs", "--project", str(project), "--add", str(folder), "--method", "oracle")[0] == 0
    under_way = f"warning: an import of {whole} into {project} is under way (begun "
    said = {("runs", "--project", str(project), "--compare", "1", "2"): "the comparison is",
            ("export", "--project", str(project), "--format", "jsonl", "--out", str(tmp_path / "out"), "-q"):
                "the export is",
            ("agreement", "--project", str(project), "--between", "project", "alice", "-q"): "the agreement is"}

    with import_stalled(project, whole, 1) as pid:  # page 3 in, with its labels; page 4 not yet
        for argv, what in said.items():
            code, _, err = run(capsys, *argv)
            assert code == 0, err
            (line,) = [line for line in err.splitlines() if line.startswith(under_way)]
            assert line.endswith(f"by process {pid}, 4 pages in all): {what} of the pages it has imported so far, "
                                 "not of all its pages: run this again once it has finished"), line

    for argv in said:  # killed: no longer under way
        assert under_way not in run(capsys, *argv)[2]
