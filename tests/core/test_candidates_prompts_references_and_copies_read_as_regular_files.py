"""Every file a command is given to read goes through the one guarded reader (`file_kinds.read_regular_file`), as
the tasks and records files do: a candidates file (`agent tasks export | review | filter | report`), a categories
file (`agent tasks generate --categories`), a prompt file (`extract --prompt-file`), a reference trajectory of
--references (`agent tasks report`, `agent run`), the copy given to `project restore-page`, the recorded answers of
`extract --method replay` (index.json and an answer), and a model file given to `inspect`.

A FIFO given as one of them was waited on for ever (a read of it waits for a writer); a folder was said in
Python's words ("[Errno 21] Is a directory"), or not at all (a traceback); and a hard link to a project's database
open in this process was opened and closed, which drops this process's SQLite locks on it. Each is now said at once,
naming the file and what it is; the command exits non-zero, and nothing is written nor asked of the model, nor the
database's locks dropped."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from recordlens.core.resource_files import resource_path
from tests.core.cli_runs import DEMO, run
from tests.core.held_database import locks_held_on
from tests.fake_gemini import FakeGemini, answer

ROOT = Path(__file__).resolve().parents[2]
CHILD_SECONDS = 120  # a child that reads a FIFO waits for ever: this long is "for ever" on a busy machine
CLI_CHILD = "import sys\nfrom recordlens.core.cli.command import main\nsys.exit(main(sys.argv[1:]))\n"
SITE = resource_path("agent", "demo-site")
TASKS = resource_path("agent", "demo-tasks.jsonl")
KEY = "test-key-not-real"

pytestmark = [pytest.mark.skipif(not hasattr(os, "mkfifo") or not Path("/proc/locks").is_file(),
                                 reason="FIFOs as on POSIX, locks read from Linux's /proc/locks"),
              pytest.mark.timeout(600)]


@dataclass(frozen=True)
class Given:
    """A command given a file to read: where the file is (`path`, under the test's folder), the command line (of the
    folder, the file and the fake model's URL), what the file is called in its refusal ("candidates file": "a
    folder, not a candidates file"), how the refusal reads (of the file and what it is), its exit status, and
    what is made ready first (the other files the command reads). Exit status 2: refused, nothing written; 1: the
    one page whose file it is failed, said as a page that failed."""

    path: str
    argv: Callable[[Path, Path, str], list[str]]
    what: str
    said: Callable[[Path, str], str]
    code: int = 2
    ready: Callable[[Path], None] = lambda folder: None


def _candidates_said(given: Path, kind: str) -> str:
    return f"recordlens: error: cannot read the candidates file {given}: {kind}"


def _a_project(folder: Path) -> None:
    from recordlens.core.store.project import init_project

    with init_project(folder / "p"):
        pass


def _answers(folder: Path) -> None:
    """Recorded answers of page 1 (samples/llm/sample1_flat_content.json), index.json beside the folder (the one
    of them given is then put in place of its file)."""
    (folder / "samples" / "llm").mkdir(parents=True)
    (folder / "samples" / "index.json").write_text(json.dumps({"sample1": "1"}), encoding="utf-8")
    (folder / "samples" / "llm" / "sample1_flat_content.json").write_text("[]", encoding="utf-8")


AGENT_RUN = ("agent", "run", "--site", "{site}", "--tasks", str(TASKS), "--task", "lookup-1", "--runs", "1",
             "--browser", "text", "--step-budget", "2")

GIVEN = {
    "agent tasks export": Given(
        "c/candidates.jsonl", lambda f, g, url: ["agent", "tasks", "export", "--candidates", str(g), "--out",
                                                  str(f / "tasks.jsonl")],
        "candidates file", _candidates_said),
    "agent tasks review": Given(
        "c/candidates.jsonl", lambda f, g, url: ["agent", "tasks", "review", "--candidates", str(g), "--id", "gen-1",
                                                  "--status", "accepted"],
        "candidates file", _candidates_said),
    "agent tasks filter": Given(
        "c/candidates.jsonl", lambda f, g, url: ["agent", "tasks", "filter", "--candidates", str(g), "--out",
                                                  str(f / "filtered.jsonl")],
        "candidates file", _candidates_said),
    "agent tasks report --candidates": Given(
        "c/candidates.jsonl", lambda f, g, url: ["agent", "tasks", "report", "--candidates", str(g)],
        "candidates file", _candidates_said),
    "agent tasks generate --categories": Given(
        "c/categories.json", lambda f, g, url: ["agent", "tasks", "generate", "--site", str(SITE), "--seeds",
                                                 str(TASKS), "--model", "fake-model", "--out",
                                                 str(f / "candidates.jsonl"), "--base-url", url, "--categories",
                                                 str(g)],
        "categories file", lambda g, kind: f"recordlens: error: cannot read the categories file {g}: {kind}"),
    "extract --prompt-file": Given(
        "c/prompt.txt", lambda f, g, url: ["extract", "--method", "gemini", "--pages", str(DEMO / "html"), "--out",
                                            str(f / "run"), "--base-url", url, "--prompt-file", str(g), "-q"],
        "prompt file", lambda g, kind: f"cannot read the prompt file {g}: {kind}"),
    "agent tasks report --references": Given(
        "refs/lookup-1.json", lambda f, g, url: ["agent", "tasks", "report", "--tasks", str(TASKS), "--references",
                                                  str(g.parent)],
        "reference trajectory file",
        lambda g, kind: f"recordlens: error: cannot read the reference trajectory {g}: {kind}"),
    "agent run --references": Given(
        "refs/lookup-1.json", lambda f, g, url: [*(a.format(site=SITE) for a in AGENT_RUN), "--project",
                                                  str(f / "p"), "--base-url", url, "--references", str(g.parent)],
        "reference trajectory file",
        lambda g, kind: f"recordlens: error: cannot read the reference trajectory {g}: {kind}"),
    "project restore-page": Given(
        "removed/1-1.json", lambda f, g, url: ["project", "restore-page", str(g), "--project", str(f / "p")],
        "copy of a removed page", lambda g, kind: f"recordlens: error: {g}: {kind}", ready=_a_project),
    "extract --method replay (index.json)": Given(
        "samples/index.json", lambda f, g, url: ["extract", "--method", "replay", "--answers",
                                                  str(f / "samples" / "llm"), "--pages", str(DEMO / "html"), "--out",
                                                  str(f / "run"), "-q"],
        "page index", lambda g, kind: f"{g}: {kind}", ready=_answers),
    "extract --method replay (an answer)": Given(
        "samples/llm/sample1_flat_content.json",
        lambda f, g, url: ["extract", "--method", "replay", "--answers", str(g.parent), "--pages",
                           str(DEMO / "html"), "--out", str(f / "run"), "-q"],
        "recorded answer", lambda g, kind: f"warning: page 1 failed: {g}: {kind}", code=1, ready=_answers),
    "inspect": Given(
        "m/model.json", lambda f, g, url: ["inspect", str(g)], "selector model",
        lambda g, kind: f"error: {g}: cannot read the model ({kind})"),
}


@pytest.fixture
def model() -> Iterator[FakeGemini]:
    """A fake model: what it answers is not asked for (every command here stops before asking), only counted."""
    with FakeGemini(default=answer("Action: Scroll [WINDOW]; down")) as server:
        yield server


@pytest.fixture(autouse=True)
def key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", KEY)


def _files(folder: Path, given: Path) -> dict[str, tuple[int, int] | None]:
    """Every file under `folder` but the one given, by its size and time, and every folder (a writer's lock taken
    and let go in one is no change), asked of the system: nothing is opened (a read of the held database's file
    would drop its locks), and the same again means nothing was written."""
    return {str(path.relative_to(folder)): None if path.is_dir() else (path.lstat().st_size, path.lstat().st_mtime_ns)
            for path in sorted(folder.rglob("*")) if path != given and "held" not in path.parts}


def _in_a_child(argv: list[str]) -> tuple[int, str, str]:
    """`recordlens ARGV` run by another Python process (a blocking read of a FIFO would hang this one)."""
    done = subprocess.run([sys.executable, "-c", CLI_CHILD, *argv], cwd=ROOT, capture_output=True, text=True,
                          timeout=CHILD_SECONDS, env={**os.environ, "GEMINI_API_KEY": KEY}, check=False)
    return done.returncode, done.stdout, done.stderr


def _prepared(tmp_path: Path, given: Given) -> Path:
    """Where the file given goes, its folder made, nothing there: the other files the command reads made ready."""
    given.ready(tmp_path)
    path = tmp_path / given.path
    path.parent.mkdir(parents=True, exist_ok=True)
    path.unlink(missing_ok=True)
    return path


def _check(tmp_path: Path, given: Given, path: Path, before: dict[str, tuple[int, int] | None],
           done: tuple[int, str, str],
           kind: str, requests: int) -> None:
    code, out, err = done
    said = given.said(path, kind)
    assert code == given.code and said in out + err, out + err
    assert requests == 0  # nothing asked of the model
    if given.code == 2:  # refused: nothing written (a page whose answer is refused fails alone, as one missing does)
        assert _files(tmp_path, path) == before


@pytest.mark.parametrize("command", list(GIVEN))
def test_a_fifo_given_is_said_at_once(command: str, tmp_path: Path, model: FakeGemini) -> None:
    given = GIVEN[command]
    path = _prepared(tmp_path, given)
    os.mkfifo(path)
    before = _files(tmp_path, path)
    done = _in_a_child(given.argv(tmp_path, path, model.url))
    _check(tmp_path, given, path, before, done, "a FIFO (named pipe), not a regular file", len(model.requests))


@pytest.mark.parametrize("command", list(GIVEN))
def test_a_folder_given_is_said_as_a_folder(command: str, tmp_path: Path, model: FakeGemini,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    given = GIVEN[command]
    path = _prepared(tmp_path, given)
    path.mkdir()
    before = _files(tmp_path, path)
    done = run(capsys, *given.argv(tmp_path, path, model.url))
    _check(tmp_path, given, path, before, done, f"a folder, not a {given.what}",
           len(model.requests))


@pytest.mark.parametrize("command", list(GIVEN))
def test_a_hard_link_to_an_open_project_database_is_refused_unopened(command: str, tmp_path: Path,
                                                                     held_database: Path, model: FakeGemini,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    given = GIVEN[command]
    path = _prepared(tmp_path, given)
    os.link(held_database, path)
    locks = locks_held_on(held_database)
    before = _files(tmp_path, path)
    done = run(capsys, *given.argv(tmp_path, path, model.url))
    kind = (f"another name (a hard link) of {held_database}, a database in use (SQLite's project.db-wal is beside "
            f"it), not a {given.what}")
    _check(tmp_path, given, path, before, done, kind, len(model.requests))
    assert locks and locks_held_on(held_database) == locks  # never opened: no lock of the open database dropped
