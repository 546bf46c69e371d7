"""How a command stops and says so: a second SIGTERM during the clean-up is ignored, a closed stdout met part way
is a stop like Ctrl+C (what was kept and how to go on said on stderr, the cost of an agent run recorded), a
broken pipe under `sys.stdout.buffer` is a reader gone (141) and not a disk's failure, a stopped `--restart`
says what it wrote and how to go on, stopped imports and exports say what is true of what they left, a run
folder locked from a host that is down says how to free it, and an agent run's stored cost never goes down."""

from __future__ import annotations

import errno
import io
import json
import os
import signal
from pathlib import Path

import pytest

from recordlens.core import owner_files
from recordlens.core.agent.model import Task, Trajectory
from recordlens.core.cli import agent as agent_cli
from recordlens.core.cli import project as project_cli
from recordlens.core.cli.command import Terminated, _sigterm_as_interruption, main
from recordlens.core.cli.output import OutputLost
from recordlens.core.llm.shared_budget import CountsAsked
from recordlens.core.runs import run_files
from recordlens.core.runs.engines import ClusterLostError, EngineError
from recordlens.core.runs.run_files import META_DIR
from recordlens.core.runs.runner import LOCK_FILE
from recordlens.core.store.project import init_project, open_project
from tests.core.cli_runs import DEMO, EXTRACT, run
from tests.demo_agent import agent_run, respond
from tests.fake_gemini import FakeGemini, answer_with

# --- a second SIGTERM -------------------------------------------------------------------------------------------

def test_a_second_sigterm_is_ignored_until_the_command_ends() -> None:
    before = signal.getsignal(signal.SIGTERM)
    cleaned = []
    with _sigterm_as_interruption():
        try:
            os.kill(os.getpid(), signal.SIGTERM)
            pytest.fail("the first SIGTERM stops the command")
        except Terminated:
            os.kill(os.getpid(), signal.SIGTERM)  # meanwhile, in the clean-up
            cleaned.append("lock released")
    assert cleaned == ["lock released"]
    assert signal.getsignal(signal.SIGTERM) is before


# --- a closed stdout --------------------------------------------------------------------------------------------

def _lost() -> OutputLost:
    return OutputLost(OSError(errno.EPIPE, "Broken pipe"))


@pytest.fixture
def endpoint(monkeypatch: pytest.MonkeyPatch) -> FakeGemini:
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real")
    with FakeGemini(default=answer_with(respond)) as server:
        yield server


def _episode(task: str = "rules-1") -> Trajectory:
    return Trajectory(task, "agent:m", [], answer="x", run=0, stop="answer")


def test_a_closed_stdout_ends_an_agent_run_as_an_interruption(tmp_path: Path, endpoint: FakeGemini,
                                                                capsys: pytest.CaptureFixture[str],
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    def stdout_gone(tasks: object, browser_for: object, caller, *, on_trajectory, **kwargs: object) -> list:  # noqa: ANN001
        caller.budget.requests, caller.budget.tokens = 2, 200
        on_trajectory(_episode())
        caller.budget.requests, caller.budget.tokens = 3, 300  # the episode cut short paid for a call too
        raise _lost()

    monkeypatch.setattr(agent_cli, "run_agent", stdout_gone)
    assert agent_run(tmp_path / "p", endpoint) == 141
    said = capsys.readouterr().err
    assert "agent run 1 interrupted; its finished episodes are kept: finish it with" in said and "--resume 1" in said
    with open_project(tmp_path / "p") as project:
        run_ = project.agent.runs()[-1]
        assert run_.ended_at is None and (run_.cost["requests"], run_.cost["tokens"]) == (3, 300)


def test_a_closed_stdout_stops_extract_import_and_export_with_their_lines(tmp_path: Path,
                                                                           capsys: pytest.CaptureFixture[str],
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    real = run_files.save_records
    saved: list[Path] = []

    def save_records(path: Path, records: object) -> None:
        if len(saved) == 2:
            raise _lost()
        real(path, records)
        saved.append(path)

    monkeypatch.setattr(run_files, "save_records", save_records)
    out = tmp_path / "run"
    code, _, err = run(capsys, *EXTRACT, str(out), "-q")
    assert code == 141
    assert f"{out}: 2 of 4 pages extracted; run the same command again for the rest" in err
    monkeypatch.setattr(run_files, "save_records", real)

    def stopping_after(count: int):  # noqa: ANN202 - a progress function
        def progress(items, **kwargs: object):  # noqa: ANN001, ANN202
            yield from list(items)[:count]
            raise _lost()
        return progress

    assert run(capsys, "project", "init", str(tmp_path / "p"))[0] == 0
    monkeypatch.setattr(project_cli, "progress", stopping_after(2))
    code, _, err = run(capsys, "import", str(DEMO), "--project", str(tmp_path / "p"))
    assert code == 141 and "import stopped after 2 of 4 pages; running the same command again" in err


# --- EPIPE under the stdout wrapper -----------------------------------------------------------------------------

def test_a_broken_pipe_met_on_stdout_buffer_is_a_reader_gone(monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    reading, writing = os.pipe()
    os.close(reading)  # the reader went away (`| head`)
    stdout = io.TextIOWrapper(io.BufferedWriter(io.FileIO(writing, "w")), encoding="utf-8")

    def write_bytes(args: object) -> int:
        import sys

        sys.stdout.buffer.write(b"x" * 100_000)
        sys.stdout.buffer.flush()
        return 0

    monkeypatch.setattr(agent_cli, "cmd_agent_tasks", write_bytes)
    with capsys.disabled():
        monkeypatch.setattr("sys.stdout", stdout)
        monkeypatch.setattr("sys.stderr", io.StringIO())
        import sys

        code = main(["agent", "tasks", "--rules"])
        said = sys.stderr.getvalue()
    assert code == 141, said
    assert "Broken pipe" not in said


# --- a stopped --restart ----------------------------------------------------------------------------------------

def _stop_before_the_third_save(monkeypatch: pytest.MonkeyPatch) -> None:
    real, saved = run_files.save_records, []

    def save_records(path: Path, records: object) -> None:
        if len(saved) == 2:
            raise KeyboardInterrupt
        real(path, records)
        saved.append(path)

    monkeypatch.setattr(run_files, "save_records", save_records)


def test_a_stopped_restart_counts_what_it_wrote_and_says_to_go_on_without_restart(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "run"
    assert run(capsys, *EXTRACT, str(out), "-q")[0] == 0
    with monkeypatch.context() as patch:
        _stop_before_the_third_save(patch)
        code, _, err = run(capsys, *EXTRACT, str(out), "-q", "--restart")
    assert code == 130
    assert (f"{out}: 2 of 4 pages extracted again by this --restart; to go on, run the same command without "
            "--restart: it extracts the pages not done yet") in err, err
    code, printed, err = run(capsys, *EXTRACT, str(out), "-q")  # resumes the new run, which then ends
    # the page the stop came between the two writes of is extracted again: its earlier records file went first
    assert code == 0 and "1 extracted, 3 already there" in printed, err
    assert run_files.STOPPED not in json.loads((out / META_DIR / "run.json").read_text(encoding="utf-8"))


def test_a_stopped_restart_over_a_run_of_other_settings_says_resuming_it_extracts_those_pages_again(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "run"
    assert run(capsys, *EXTRACT, str(out), "-q")[0] == 0
    for described in (out / META_DIR).glob("*.json"):  # the run, and each of its pages, made by an older mdr
        described.write_text(json.dumps(json.loads(described.read_text("utf-8")) | {"version": "0.1-old"}), "utf-8")
    with monkeypatch.context() as patch:
        _stop_before_the_third_save(patch)
        code, _, err = run(capsys, *EXTRACT, str(out), "-q", "--restart")
    assert code == 130
    assert f"{out}: 2 of 4 pages extracted again by this --restart; its other pages hold the earlier run's" in err
    assert "version: '0.1-old' -> " in err and "to go on, run the same command without --restart" in err
    assert "run the same command again for the rest" not in err
    code, printed, err = run(capsys, *EXTRACT, str(out), "-q")  # the older mdr's pages are not kept as this run's
    assert code == 0 and "2 extracted, 2 already there" in printed, err
    assert "0.1-old" not in {json.loads(page.read_text("utf-8"))["version"] for page in (out / META_DIR).glob("*.json")}


# --- stopped exports and imports ---------------------------------------------------------------------------------

def test_a_stop_after_the_last_page_counts_every_page_and_a_file_export_says_nothing_was_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    project = tmp_path / "p"
    assert run(capsys, "project", "init", str(project))[0] == 0
    assert run(capsys, "import", str(DEMO), "--project", str(project))[0] == 0
    out = tmp_path / "ex"
    assert run(capsys, "export", "--project", str(project), "--format", "jsonl", "--out", str(out))[0] == 0
    earlier = (out / "labels.jsonl").read_bytes()

    def every_page_then_stopped(items, **kwargs: object):  # noqa: ANN001, ANN202
        yield from list(items)
        raise KeyboardInterrupt  # as the loop asks for a page after the last

    monkeypatch.setattr(project_cli, "progress", every_page_then_stopped)
    code, _, err = run(capsys, "export", "--project", str(project), "--format", "jsonl", "--out", str(out))
    assert code == 130
    assert (f"export stopped after 4 of 4 pages; nothing was written (the file replaces the target only once "
            f"whole); the earlier {out / 'labels.jsonl'} is left as it was: run the same command again") in err, err
    assert (out / "labels.jsonl").read_bytes() == earlier


def test_a_stopped_annotator_import_says_none_of_the_labels_were_stored(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    project = tmp_path / "p"
    assert run(capsys, "project", "init", str(project))[0] == 0

    def two_then_stopped(items, **kwargs: object):  # noqa: ANN001, ANN202
        yield from list(items)[:2]
        raise KeyboardInterrupt

    monkeypatch.setattr(project_cli, "progress", two_then_stopped)
    code, _, err = run(capsys, "import", str(DEMO), "--project", str(project), "--annotator", "ana")
    assert code == 130
    assert "import stopped after 2 of 4 pages; none of ana's labels were stored" in err, err


# --- a run folder locked from a host that is down ----------------------------------------------------------------

def test_a_lock_held_from_another_host_says_to_delete_it_if_that_host_is_down(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    out.mkdir()
    lock = owner_files.take(out / LOCK_FILE)  # as a network folder's lock of a host that went down would stay
    try:
        (out / LOCK_FILE).write_text("gone-host 4242\n", encoding="utf-8")
        code, _, err = run(capsys, *EXTRACT, str(out), "-q")
        assert code == 2
        assert (f"if gone-host is down (a lock of a network folder can outlive its host), delete {out / LOCK_FILE}"
                in err), err
        (out / LOCK_FILE).unlink()
        code, printed, err = run(capsys, *EXTRACT, str(out), "-q")
        assert code == 0 and "4 extracted" in printed
    finally:
        owner_files.release(lock)


# --- an agent run's cost ----------------------------------------------------------------------------------------

class SharedCounts(CountsAsked):
    """A budget every worker shares, as the driver holds it on Ray: `counts()` is one question to its actor."""

    def __init__(self, *answers: tuple[int, int] | Exception) -> None:
        self.answers = list(answers)
        self.asked = 0

    def counts(self) -> tuple[int, int]:
        self.asked += 1
        answer = self.answers[min(self.asked, len(self.answers)) - 1]
        if isinstance(answer, Exception):
            raise answer
        return answer


def test_a_lost_cluster_keeps_the_cost_last_written_read_once_per_episode(
        tmp_path: Path, endpoint: FakeGemini, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    shared = SharedCounts((7, 700))

    def cluster_lost(tasks: object, browser_for: object, caller, *, on_trajectory, **kwargs: object) -> list:  # noqa: ANN001
        local = caller.budget
        caller.budget = shared
        on_trajectory(_episode())
        caller.budget = local  # as the engine leaves it: the lost cluster never gave its counts back
        raise ClusterLostError("10.0.0.7:6379", 1)

    monkeypatch.setattr(agent_cli, "run_agent", cluster_lost)
    assert agent_run(tmp_path / "p", endpoint) == 4
    assert shared.asked == 1
    with open_project(tmp_path / "p") as project:
        cost = project.agent.runs()[-1].cost
    assert (cost["requests"], cost["tokens"]) == (7, 700)


def test_a_shared_budget_that_cannot_be_read_is_said_and_the_last_cost_kept(
        tmp_path: Path, endpoint: FakeGemini, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    shared = SharedCounts((4, 400), EngineError("the run's shared model budget (a Ray actor) does not answer: "
                                                "ActorDiedError"))

    def actor_died(tasks: object, browser_for: object, caller, *, on_trajectory, **kwargs: object) -> list:  # noqa: ANN001
        local = caller.budget
        caller.budget = shared
        done = [_episode("rules-1"), _episode("lookup-1"), _episode("lookup-2")]
        for trajectory in done:
            on_trajectory(trajectory)
        caller.budget = local  # nothing copied back
        return done

    monkeypatch.setattr(agent_cli, "run_agent", actor_died)
    agent_run(tmp_path / "p", endpoint)
    said = capsys.readouterr().err
    assert said.count("does not answer: ActorDiedError; the run's recorded cost stays at the figures last read "
                      "(4 requests and 400 tokens this session)") == 1, said
    assert shared.asked == 2  # not asked again once it did not answer
    with open_project(tmp_path / "p") as project:
        cost = project.agent.runs()[-1].cost
    assert (cost["requests"], cost["tokens"]) == (4, 400)


# --- references of a task id on two sites -----------------------------------------------------------------------

def test_a_reference_of_a_task_on_one_site_does_not_stand_for_the_same_id_on_another(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from recordlens.core.agent.model import Step

    answer = [Step("answer", None, "Quay", "https://s/")]
    with init_project(tmp_path / "p") as project:
        rows = {}
        for site in ("site-a", "site-b"):
            rows[site] = project.agent.save_task(project.agent.site_id(site),
                                                 Task("t1", "Where?", "Quay", category="lookup", start_url="https://s/"))
        project.agent.add_trajectory(rows["site-a"], Trajectory("t1", "person:ana", answer, answer="Quay"))
        agent_cli._store_references(project, "site-b", {"t1": rows["site-b"]},
                                    {"t1": Trajectory("t1", "person:bo", answer, answer="Quay")})
        assert [t.actor for _, t in project.agent.trajectories(reference=True, site="site-b")] == ["person:bo"]


def test_the_tasks_report_counts_a_reference_of_the_tasks_own_site_only(tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    from recordlens.core.agent.model import Step

    answer = [Step("answer", None, "Quay", "https://s/")]
    with init_project(tmp_path / "p") as project:
        row = project.agent.save_task(project.agent.site_id("site-a"),
                                      Task("t1", "Where?", "Quay", category="lookup", start_url="https://s/"))
        project.agent.add_trajectory(row, Trajectory("t1", "person:ana", answer, answer="Quay"))
        project.agent.save_task(project.agent.site_id("site-c"),
                                Task("t1", "Where?", "Quay", category="lookup", start_url="https://s/"))
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text(json.dumps({"id": "t1", "instruction": "Where?", "answer": "Quay", "category": "lookup",
                                 "start_url": "https://s/", "site": "site-c", "answer_kind": "text",
                                 "normalise": []}) + "\n", encoding="utf-8")
    code, out, err = run(capsys, "agent", "tasks", "report", "--project", str(tmp_path / "p"), "--tasks", str(tasks),
                       "--json")
    assert code == 0, err
    assert json.loads(out)["without_reference_ids"] == ["t1"]  # site-c's t1 has no reference of its own
