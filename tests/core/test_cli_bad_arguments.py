"""Output paths and option values a user can get wrong: every command says so in one line (exit 2) before it
does any work, and leaves what was there as it was. Found by following the README's tour of the command line."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from recordlens.core import atomic
from recordlens.core.cli.command import main
from recordlens.core.resource_files import resource_path
from tests.core.cli_runs import run

DEMO = resource_path("demo", "dataset")


def one_line_error(err: str, said: str) -> None:
    lines = [line for line in err.splitlines() if line.startswith("recordlens: error:")]
    assert lines and said in lines[-1], err
    assert "Traceback" not in err


@pytest.fixture
def a_file(tmp_path: Path) -> Path:
    path = tmp_path / "a_file"
    path.write_text("kept", encoding="utf-8")
    return path


@pytest.fixture
def project(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    folder = tmp_path / "project"
    assert main(["project", "init", str(folder)]) == 0
    assert main(["import", "--project", str(folder), "-q", str(DEMO)]) == 0
    capsys.readouterr()
    return folder


def test_a_file_where_an_output_folder_goes_is_refused_and_left_alone(
        tmp_path: Path, a_file: Path, project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "extract", "--pages", str(DEMO / "html"), "--out", str(a_file), "-q")
    assert code == 2
    one_line_error(err, "is a file, not a folder")
    for fmt in ("nexteval", "csv", "jsonl"):
        code, _, err = run(capsys, "export", "--project", str(project), "--format", fmt, "--out", str(a_file), "-q")
        assert code == 2
        one_line_error(err, "is a file, not a folder")
    code, _, err = run(capsys, "extract", "--pages", str(DEMO / "html"), "--out", str(a_file / "run"), "-q")
    assert code == 2
    one_line_error(err, f"{a_file} is a file, not a folder")
    assert a_file.read_text(encoding="utf-8") == "kept"


def test_a_folder_where_an_output_file_goes_is_refused_before_the_work(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "folder"
    folder.mkdir()
    code, out, err = run(capsys, "represent", str(DEMO / "html" / "1.html"), "--out", str(folder))
    assert code == 2 and out == ""
    one_line_error(err, "is a folder")
    # bench would have run every method on every page, then lost it all on the chart.
    code, out, err = run(capsys, "bench", "--pages", str(DEMO / "html"), "--gt", str(DEMO / "gt"), "--methods",
                         "mdr", "--chart", str(folder), "-q")
    assert code == 2 and out == ""
    one_line_error(err, "is a folder")
    code, out, err = run(capsys, "bench", "--pages", str(DEMO / "html"), "--gt", str(DEMO / "gt"), "--methods",
                         "mdr", "--no-chart", "--json", str(folder), "-q")
    assert code == 2 and out == ""
    one_line_error(err, "is a folder")
    assert list(folder.iterdir()) == []


def test_represent_makes_the_folders_of_its_output_as_the_other_commands_do(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "new" / "deeper" / "flat.json"
    code, _, _ = run(capsys, "represent", str(DEMO / "html" / "1.html"), "-f", "flat", "--out", str(target))
    assert code == 0 and json.loads(target.read_text(encoding="utf-8"))


def test_a_capture_with_a_wrong_address_or_folder_stops_before_the_browser_starts(
        tmp_path: Path, a_file: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from recordlens.core.cli import capture

    def no_browser():  # noqa: ANN202 - the runner must not even be asked for
        raise AssertionError("the capture started")

    monkeypatch.setattr(capture, "capture_runner", no_browser)
    code, _, err = run(capsys, "site", "capture", "ftp://127.0.0.1/", "--site", str(tmp_path / "site"))
    assert code == 2
    one_line_error(err, "is not a web address")
    assert not (tmp_path / "site").exists()
    code, _, err = run(capsys, "site", "capture", "http://127.0.0.1:9/", "--site", str(a_file))
    assert code == 2
    one_line_error(err, "is a file, not a folder")
    assert a_file.read_text(encoding="utf-8") == "kept"


def test_the_agreement_threshold_is_an_overlap(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for threshold in ("7", "-1", "0"):
        code, out, err = run(capsys, "agreement", "--project", str(project), "--between", "project", "bea",
                             "--threshold", threshold, "-q")
        assert code == 2 and out == ""
        one_line_error(err, "the threshold is an overlap, above 0 and at most 1")


@pytest.mark.parametrize(("param", "said"), [
    ("K=10", "method 'mdr' has no parameter 'K'; it takes k, t, similarity"),
    ("repeats:k=10", "method 'repeats' has no parameter 'k'; it takes similarity, signature_depth, "),
    ("k=abc", "K must be a whole number of at least 1 (got 'abc')"),
    ("k=2.5", "K must be a whole number of at least 1 (got 2.5)"),
    ("k=0", "K must be a whole number of at least 1 (got 0)"),
    ("t=abc", "T must be a number in [0, 1] (got 'abc')"),
    ("t=true", "T must be a number in [0, 1] (got True)"),
])
def test_a_wrong_method_parameter_is_said_before_any_page(tmp_path: Path, param: str, said: str,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    method, _, param = param.rpartition(":")
    code, _, err = run(capsys, "extract", "--method", method or "mdr", "--param", param, "--pages",
                       str(DEMO / "html"), "--out", str(tmp_path / "run"), "-q")
    assert code == 2
    one_line_error(err, said)
    assert not (tmp_path / "run").exists()


def test_adding_a_run_needs_a_folder_with_predictions_for_the_project(
        tmp_path: Path, a_file: Path, project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(tmp_path / "nope"))
    assert code == 2
    one_line_error(err, "no such folder of predictions")
    assert len(err.splitlines()) == 1, err  # and no word of a lock it could not take in a folder that is not there
    code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(a_file), "--method", "mdr")
    assert code == 2
    one_line_error(err, "is a file; predictions are read from a folder of N.json")
    assert len(err.splitlines()) == 1, err
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shutil.copy(DEMO / "gt" / "1.json", elsewhere / "77.json")  # a page the project does not have
    code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(elsewhere), "--method", "mdr")
    assert code == 2
    one_line_error(err, "none of its 1 prediction(s) is for a page of the project; nothing stored")
    with sqlite3.connect(project / "project.db") as db:
        assert db.execute("select count(*) from runs").fetchone() == (0,)


def test_a_write_that_fails_anyway_is_one_line_not_a_traceback(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    def disk_full(written: Path, into: Path, **kwargs: object) -> None:
        raise OSError(28, "No space left on device", str(written), None, str(into))  # a rename names both files

    monkeypatch.setattr(atomic, "move_into_place", disk_full)  # represent --out writes atomically
    code, out, err = run(capsys, "represent", str(DEMO / "html" / "1.html"), "--out", str(tmp_path / "x.json"))
    assert code == 2 and out == ""
    one_line_error(err, f"{tmp_path / 'x.json'}: No space left on device")


def test_a_project_another_process_is_writing_to_is_said_in_one_line_and_its_runs_stay_whole(
        tmp_path: Path, project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import sqlite3

    from recordlens.core.store import db

    monkeypatch.setattr(db, "BUSY_TIMEOUT_SECONDS", 0.2)  # a test need not wait the 30 s a person would
    run_dir = tmp_path / "run"
    assert main(["extract", "--pages", str(DEMO / "html"), "--out", str(run_dir), "-q"]) == 0
    capsys.readouterr()  # extract's closing line
    holder = sqlite3.connect(project / "project.db", isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another process's write, in progress
    try:
        code, out, err = run(capsys, "runs", "--project", str(project), "--add", str(run_dir))
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert code == 2 and out == ""
    one_line_error(err, "the project's database: database is locked; another process (the app, or another "
                        "command) is writing to the project: run this again when it is done")
    code, out, _ = run(capsys, "runs", "--project", str(project))
    assert code == 0 and "(no runs yet)" in out  # nothing half stored


def test_a_command_that_waits_for_another_process_s_write_says_so_then_does_its_work(
        tmp_path: Path, project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import sqlite3
    import threading
    import time

    from recordlens.core.cli import command

    holder = sqlite3.connect(project / "project.db", isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")  # another process's write, until the command has said that it waits for it
    # Let go once said, not after a fixed second: on a busy machine the command could reach its write after that
    # second, find the lock free and have nothing to say
    said_waiting = threading.Event()
    say_waiting = command._say_waiting

    def said() -> None:
        say_waiting()
        said_waiting.set()

    def let_go_once_said() -> None:
        said_waiting.wait(120)
        time.sleep(0.5)  # a moment more, which the command waits through (its length is not the point)
        holder.execute("ROLLBACK")

    monkeypatch.setattr(command, "_say_waiting", said)
    released = threading.Thread(target=let_go_once_said)
    released.start()
    try:
        code, out, err = run(capsys, "project", "remove-page", "1", "--project", str(project))
    finally:
        said_waiting.set()  # never said: let go all the same, for the test to end
        released.join(120)
        holder.close()
    assert code == 0 and out.startswith("removed page 1")
    assert err.count("waiting for the project's database: another process") == 1


@pytest.mark.parametrize("argv", [
    ["agent", "eval", "--project", "{project}", "--chart", "{folder}"],
    ["agent", "tasks", "export", "--candidates", "{missing}", "--out", "{folder}"],
    ["agent", "tasks", "filter", "--candidates", "{missing}", "--out", "{folder}"],
    ["agent", "tasks", "report", "--candidates", "{missing}", "--chart", "{folder}"],
    ["demo", "--chart", "{folder}"],
])
def test_every_chart_and_output_file_is_checked_first(tmp_path: Path, argv: list[str],
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "folder"
    folder.mkdir()
    places = {"project": str(tmp_path / "no-project"), "folder": str(folder), "missing": str(tmp_path / "none")}
    code, _, err = run(capsys, *[a.format(**places) for a in argv])
    assert code == 2
    one_line_error(err, "is a folder")


def test_synth_refuses_a_file_as_its_dataset_folder(a_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "synth", "--pages", str(DEMO / "html"), "--gt", str(DEMO / "gt"), "--out", str(a_file))
    assert code == 2
    one_line_error(err, "is a file, not a folder")
    assert a_file.read_text(encoding="utf-8") == "kept"


def test_an_agent_run_without_a_key_makes_no_project(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("GEMINI_API_KEY", "GOOGLE_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    code, _, err = run(capsys, "agent", "run", "--project", str(tmp_path / "new"), "--site",
                       str(resource_path("agent", "demo-site")), "--tasks",
                       str(resource_path("agent", "demo-tasks.jsonl")), "--browser", "text")
    assert code == 2
    one_line_error(err, "no Gemini key")
    assert not (tmp_path / "new").exists()
    # What the command line gets wrong is said first: a key would not make it run.
    demo = ["agent", "run", "--project", str(tmp_path / "new"), "--site", str(resource_path("agent", "demo-site")),
            "--tasks", str(resource_path("agent", "demo-tasks.jsonl")), "--browser", "text"]
    for wrong, said in ((["--runs", "0"], "--runs must be at least 1 (got 0)"),
                        (["--observation", "axtree"], "axtree")):
        code, _, err = run(capsys, *demo, *wrong)
        assert code == 2 and "no Gemini key" not in err and said in err, err
    elsewhere = tmp_path / "elsewhere.jsonl"
    elsewhere.write_text(json.dumps({"id": "x", "category": "lookup", "instruction": "Who?", "answer": "Ana",
                                     "answer_kind": "name", "normalise": [],
                                     "start_url": "https://nowhere.example/"}) + "\n", encoding="utf-8")
    code, _, err = run(capsys, *demo[:7], str(elsewhere), "--browser", "text")
    assert code == 2
    one_line_error(err, "task(s) x start on a page the site")


def test_extract_reads_pages_whatever_the_case_of_their_suffix_and_says_what_it_skips(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pages = tmp_path / "pages"
    pages.mkdir()
    shutil.copy(DEMO / "html" / "1.html", pages / "1.HTM")
    shutil.copy(DEMO / "html" / "2.html", pages / "2.html")
    shutil.copy(DEMO / "html" / "2.html", pages / "2.mhtml")  # not MHTML inside: read as what it is
    (pages / "7.html").mkdir()
    code, printed, err = run(capsys, "extract", "--method", "repeats", "--pages", str(pages), "--out",
                             str(tmp_path / "run"), "-q")
    assert code == 1  # page 7 left undone (README: a command that leaves work undone exits 1)
    assert sorted(p.name for p in (tmp_path / "run").glob("*.json")) == ["1.json", "2.json"]
    assert f"{pages / '7.html'}: a folder, not a page file; not read as the page" in err
    assert "1 not extracted" in printed  # the closing line, on stdout
    assert "page 2: both 2.html and 2.mhtml" in err and "2.mhtml is used" in err


def test_extract_on_a_dataset_folder_points_to_its_pages(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "extract", "--pages", str(DEMO), "--out", str(tmp_path / "run"), "-q")
    assert code == 2 and not (tmp_path / "run").exists()  # a run of nothing is refused before the folder is made
    one_line_error(err, f"no page (N.html or N.mhtml) to extract in {DEMO} (a dataset? its pages are in "
                        f"{DEMO / 'html'})")
    (tmp_path / "empty").mkdir()
    code, _, err = run(capsys, "extract", "--pages", str(tmp_path / "empty"), "--out", str(tmp_path / "run"), "-q")
    assert code == 2 and not (tmp_path / "run").exists()
    code, _, err = run(capsys, "extract", "--pages", str(DEMO / "html" / "1.html"), "--out", str(tmp_path / "run"),
                       "-q")
    assert code == 2
    one_line_error(err, "is a file; pages are read from a folder of N.html / N.mhtml")


def test_a_run_written_elsewhere_is_listed_with_its_time_in_the_projects_form(
        tmp_path: Path, project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "theirs"
    (folder / "_run").mkdir(parents=True)
    (folder / "_run" / "run.json").write_text(json.dumps({"method": "theirs", "written": "2026-12-04T16:46:28+01:00"}),
                                              encoding="utf-8")
    shutil.copy(DEMO / "gt" / "1.json", folder / "1.json")
    code, out, _ = run(capsys, "runs", "--project", str(project), "--add", str(folder), "--json")
    assert code == 0
    assert [r["started_at"] for r in json.loads(out)] == ["2026-12-04T15:46:28.000Z"]  # as the project's own
    code, out, err = run(capsys, "runs", "--project", str(project), "--add", str(folder), "--json")
    assert code == 0 and len(json.loads(out)) == 1  # added twice: stored once, and said
    assert f"{folder} is stored already, as run 1 (same method, parameters and predictions); nothing stored" in err
    code, out, _ = run(capsys, "runs", "--project", str(project))
    assert code == 0 and out.splitlines()[-1] == (
        f"(F1 -: not scored yet; `recordlens score --project {project} --run 1` scores a run against the project's "
        "labels, as the app's Review does)")
    assert run(capsys, "score", "--project", str(project), "--run", "1")[0] == 0
    code, out, _ = run(capsys, "runs", "--project", str(project))
    assert "not scored yet" not in out and out.splitlines()[-1].split()[-1] != "-"


def test_replay_of_a_format_that_was_never_recorded_is_refused_once(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    answers = tmp_path / "samples" / "llm"
    answers.mkdir(parents=True)
    (answers / "sample1_flat_content.json").write_text("[]", encoding="utf-8")
    (answers.parent / "index.json").write_text(json.dumps({"sample1": "1"}), encoding="utf-8")
    code, _, err = run(capsys, "extract", "--method", "replay", "--answers", str(answers), "--format", "outline",
                       "--pages", str(DEMO / "html"), "--out", str(tmp_path / "run"), "-q")
    assert code == 2
    one_line_error(err, "holds no recorded answers in the outline format (it has: flat)")
    assert err.count("error") == 1
    # Answers for page 1 only: the folder's other pages are said to be left out, not skipped silently.
    code, _, err = run(capsys, "extract", "--method", "replay", "--answers", str(answers), "--format", "flat",
                       "--pages", str(DEMO / "html"), "--out", str(tmp_path / "run"), "-q")
    others = sorted(p.stem for p in (DEMO / "html").iterdir() if p.stem != "1")
    assert code == 0 and f"{len(others)} page(s) of {DEMO / 'html'} are not among the pages this method has " \
                         f"answers for; left out ({', '.join(others)})" in err
    from recordlens.core.errors import DatasetError
    from recordlens.core.extract import create
    from recordlens.core.runs.runner import run_extractor

    with pytest.raises(DatasetError, match="none of the"):  # answers for no page of the folder: an error
        run_extractor(create("replay", answers=answers, input_format="flat"), DEMO / "html", tmp_path / "r2",
                      names=["77"])


def test_a_page_is_found_by_name_as_the_folder_listing_finds_it(tmp_path: Path) -> None:
    from recordlens.core.page.dataset import find_page_file, page_files

    for name in ("1.Html", "2.html", "2.MHTML", "3.htm"):
        (tmp_path / name).write_text("<p>x</p>", encoding="utf-8")
    listed = page_files(tmp_path)
    assert {n: p.name for n, p in listed.items()} == {"1": "1.Html", "2": "2.MHTML", "3": "3.htm"}
    assert all(find_page_file(tmp_path, n) == p for n, p in listed.items())
    assert find_page_file(tmp_path, "4") is None


def test_a_failed_rename_names_the_file_asked_for_not_the_temporary_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    def disk_full(source: object, target: object) -> None:
        raise OSError(28, "No space left on device", str(source), None, str(target))

    monkeypatch.setattr(os, "replace", disk_full)
    target = tmp_path / "figures.json"
    code, _, err = run(capsys, "bench", "--pages", str(DEMO / "html"), "--gt", str(DEMO / "gt"), "--methods", "mdr",
                       "--no-chart", "--json", str(target), "-q")
    assert code == 2
    one_line_error(err, f"{target}: No space left on device")


def test_extract_into_a_folder_of_labels_is_refused_and_leaves_them_as_they_were(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import shutil

    labels = tmp_path / "gt"
    shutil.copytree(DEMO / "gt", labels)
    before = {p.name: p.read_bytes() for p in labels.iterdir()}
    for extra in ([], ["--restart"]):
        code, _, err = run(capsys, "extract", "--pages", str(DEMO / "html"), "--out", str(labels), "-q", *extra)
        assert code == 2
        one_line_error(err, f"{labels} holds files (")
        assert "but no run (_run/run.json)" in err
        assert {p.name: p.read_bytes() for p in labels.iterdir()} == before  # nothing written, nothing replaced
    hidden = tmp_path / "hidden"
    hidden.mkdir()
    (hidden / ".DS_Store").write_bytes(b"\0")  # no one's work: the folder is as good as empty
    code, _, _ = run(capsys, "extract", "--pages", str(DEMO / "html"), "--out", str(hidden), "-q")
    assert code == 0 and (hidden / "_run" / "run.json").is_file()


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="a folder that takes no file whoever asks: Linux's /proc")
@pytest.mark.parametrize("argv", [
    ["train", "--pages", str(DEMO / "html"), "--gt", str(DEMO / "gt"), "--out", "/proc/recordlens-model.json"],
    ["bench", "--pages", str(DEMO / "html"), "--gt", str(DEMO / "gt"), "--methods", "repeats", "--chart",
     "/proc/recordlens-chart.png"],
    ["extract", "--pages", str(DEMO / "html"), "--out", "/proc/recordlens-run"],
    ["represent", str(DEMO / "html" / "1.html"), "--out", "/proc/recordlens.json"],
])
def test_a_place_nothing_can_be_written_in_is_refused_before_any_work(
        argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """Permission bits do not tell root (nor a read-only mount) that a write will fail: the folder is asked."""
    code, out, err = run(capsys, *argv, "-q") if argv[0] in ("extract", "bench") else run(capsys, *argv)
    assert code == 2 and out == ""
    one_line_error(err, "nothing can be written in /proc")


def test_the_check_that_a_folder_takes_files_leaves_nothing_behind(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    code, _, _ = run(capsys, "represent", str(DEMO / "html" / "1.html"), "--out", str(tmp_path / "doc.json"))
    assert code == 0 and [p.name for p in tmp_path.iterdir()] == ["doc.json"]


def test_options_another_method_would_ignore_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "extract", "--method", "repeats", "--seed", "3", "--max-requests", "3",
                       "--temperature", "0.2", "--pages", str(DEMO / "html"), "--out", str(tmp_path / "run"))
    assert code == 2 and not (tmp_path / "run").exists()
    one_line_error(err, "--temperature, --max-requests, --seed are for gemini, not 'repeats'")
    with pytest.raises(SystemExit) as stopped:  # argparse's own refusal, as for any bad option
        main(["bench", "--pages", str(DEMO / "html"), "--gt", str(DEMO / "gt"), "--chart", str(tmp_path / "c.png"),
              "--no-chart"])
    assert stopped.value.code == 2 and "not allowed with argument --chart" in capsys.readouterr().err


def test_labels_check_and_synth_refuse_a_pages_folder_that_is_not_there_as_every_command_does(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for command in (["labels", "check"], ["synth", "--out", str(tmp_path / "s")]):
        code, _, err = run(capsys, *command, "--pages", str(tmp_path / "nope"), "--gt", str(DEMO / "gt"))
        assert code == 2
        one_line_error(err, f"{tmp_path / 'nope'}: no such folder of pages")
        code, _, err = run(capsys, *command, "--pages", str(DEMO / "gt" / "1.json"), "--gt", str(DEMO / "gt"))
        assert code == 2
        one_line_error(err, "1.json is a file; pages are read from a folder of N.html / N.mhtml")


def test_a_file_given_for_a_folder_of_records_or_a_site_is_called_a_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    one = DEMO / "gt" / "1.json"
    code, _, err = run(capsys, "score", "--pred", str(one), "--gt", str(DEMO / "gt"), "--pages", str(DEMO / "html"))
    assert code == 2
    one_line_error(err, f"{one} is a file; predictions are read from a folder of N.json")
    code, _, err = run(capsys, "score", "--pred", str(DEMO / "gt"), "--gt", str(one), "--pages", str(DEMO / "html"))
    assert code == 2
    one_line_error(err, f"{one} is a file; records are read from a folder of N.json")
    code, _, err = run(capsys, "site", "build", str(one))
    assert code == 2
    one_line_error(err, f"{one} is a file: a snapshot site is a folder of saved pages")


@pytest.mark.parametrize(("extra", "said"), [
    (["--seeds", "0"], "--seeds 0: a run needs at least one seed"),
    (["--seeds", "-2"], "--seeds -2: a run needs at least one seed"),
    (["--base-url", "127.0.0.1:18765"], "is not an http:// or https:// address"),
    (["--base-url", "ftp://127.0.0.1/"], "is not an http:// or https:// address"),
    (["--temperature", "-5"], "--temperature -5 is outside Gemini's range, 0 to 2"),
    (["--timeout-s", "0"], "--timeout-s must be more than 0"),
])
def test_gemini_settings_that_cannot_work_are_refused_before_any_page(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        extra: list[str], said: str) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real")
    code, _out, err = run(capsys, "extract", "--method", "gemini", "--pages", str(DEMO / "html"), "--out",
                          str(tmp_path / "run"), *extra)
    assert code == 2
    one_line_error(err, said)
    assert not any((tmp_path / "run").glob("*.json"))


def test_a_param_recordlens_sets_itself_is_refused_with_the_option_to_use(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = run(capsys, "extract", "--method", "gemini", "--param", "caller=x", "--pages",
                          str(DEMO / "html"), "--out", str(tmp_path / "run"))
    assert code == 2
    one_line_error(err, "--param caller: set by RecordLens, not a parameter; give --base-url, --timeout-s instead")


@pytest.mark.parametrize("extra", [["--ship-content"], ["--workers", "2"], ["--requests-per-minute", "30"],
                                   ["--ray-address", "127.0.0.1:6379"]])
def test_ray_options_without_the_ray_engine_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                        extra: list[str]) -> None:
    code, _out, err = run(capsys, "extract", "--method", "repeats", "--pages", str(DEMO / "html"), "--out",
                          str(tmp_path / "run"), *extra)
    assert code == 2
    one_line_error(err, f"{extra[0]} is for --engine ray")
    assert not (tmp_path / "run").exists() or not any((tmp_path / "run").glob("*.json"))


def test_settings_a_call_cannot_work_with_are_refused_for_agents_and_params_alike(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real")
    site, tasks = resource_path("agent", "demo-site"), resource_path("agent", "demo-tasks.jsonl")
    code, _out, err = run(capsys, "agent", "run", "--project", str(tmp_path / "p"), "--site", str(site),
                          "--tasks", str(tasks), "--browser", "text", "--max-requests", "-1")
    assert code == 2
    one_line_error(err, "--max-requests must be 0 or more")
    code, _out, err = run(capsys, "extract", "--method", "gemini", "--param", "max_attempts=0", "--pages",
                          str(DEMO / "html"), "--out", str(tmp_path / "run"))
    assert code == 2
    one_line_error(err, "max_attempts 0: a call needs at least one attempt")
    code, _out, err = run(capsys, "extract", "--method", "gemini", "--param", "nope=1", "--pages",
                          str(DEMO / "html"), "--out", str(tmp_path / "run"))
    assert code == 2 and "it takes input_format" in err and "caller" not in err.split("it takes")[1]


@pytest.mark.parametrize("option", ["--requests-per-minute", "--ship-content"])
def test_score_does_not_offer_engine_options_it_has_no_use_for(capsys: pytest.CaptureFixture[str],
                                                              option: str) -> None:
    with pytest.raises(SystemExit):
        main(["score", "--help"])
    assert option not in capsys.readouterr().out


def test_ctrl_c_while_the_commands_load_is_an_interruption_not_a_traceback(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from recordlens.core.cli import command

    def interrupted() -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(command, "build_parser", interrupted)
    assert main(["inspect", "x.html"]) == 130
    assert capsys.readouterr().err == "recordlens: interrupted\n"


def test_an_output_path_that_names_another_kind_of_file_does_not_destroy_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A mistyped --out / --chart must not write a model over a project's database or the labels just read."""
    assert main(["project", "init", str(tmp_path / "p")]) == 0
    database = tmp_path / "p" / "project.db"
    labels = tmp_path / "gt.json"
    labels.write_text('[["/body[1]/div[1]"]]', encoding="utf-8")
    kept = {path: path.read_bytes() for path in (database, labels)}
    capsys.readouterr()
    for argv, message in (
            (["train", "--pages", str(DEMO / "html"), "--gt", str(DEMO / "gt"), "--out", str(database)],
             "is a database"),
            (["train", "--pages", str(DEMO / "html"), "--gt", str(DEMO / "gt"), "--out", str(labels)],
             "exists and is not a selector model, so it is not replaced"),
            (["demo", "--chart", str(labels)], "exists and is not a chart, so it is not replaced"),
            (["bench", "--pages", str(DEMO / "html"), "--gt", str(DEMO / "gt"), "--methods", "repeats", "--json",
              str(database)], "is a database"),
            (["bench", "--pages", str(DEMO / "html"), "--gt", str(DEMO / "gt"), "--methods", "repeats", "--json",
              str(labels)], "exists and is not a report, so it is not replaced"),
            (["bench", "--pages", str(DEMO / "html"), "--gt", str(DEMO / "gt"), "--methods", "repeats", "--chart",
              str(labels)], "exists and is not a chart, so it is not replaced")):
        code, out, err = run(capsys, *argv, "-q") if argv[0] in ("train", "bench") else run(capsys, *argv)
        assert code == 2, err
        one_line_error(err, message)
    assert {path: path.read_bytes() for path in kept} == kept
    model = tmp_path / "m.json"  # a model trained before is what train replaces
    assert main(["train", "--pages", str(DEMO / "html"), "--gt", str(DEMO / "gt"), "--out", str(model), "-q"]) == 0
    assert main(["train", "--pages", str(DEMO / "html"), "--gt", str(DEMO / "gt"), "--out", str(model), "-q"]) == 0


def test_extract_with_gemini_and_no_key_says_so_before_an_engine_starts(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from recordlens.core.cli import extraction

    for name in ("GEMINI_API_KEY", "GOOGLE_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    started: list[object] = []
    monkeypatch.setattr(extraction, "engine_for", lambda args: started.append(args))  # a Ray instance takes seconds
    code, _, err = run(capsys, "extract", "--method", "gemini", "--pages", str(DEMO / "html"), "--out",
                       str(tmp_path / "run"), "-q")
    assert code == 2 and started == []
    one_line_error(err, "no Gemini key")
