"""`score`, `runs --add` and a resume read the prompt hash of a `--prompt-file` run written by an older RecordLens
one way (`run_files.prompt_as_recorded_now`): such a run's pages hold the SHA-256 of the prompt's texts, and a resume
with the same file (recorded since with the file's own SHA-256) does not extract them again, so `score` does not
name them as made with other settings either; pages made with another prompt are named by both. Against the
loopback fake in tests/fake_gemini.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.core.extract.gemini import prompt_from_file
from recordlens.core.resource_files import resource_path
from recordlens.core.runs.run_files import META_DIR, pages_of_other_settings
from tests.core.cli_runs import demo_project, run
from tests.fake_gemini import FakeGemini, answer

DEMO = resource_path("demo", "dataset")  # pages 1 to 4
KEY = "test-key-not-real-older-hash"
PROMPT = b"Find the records.\r\n\r\n{input}\r\n"


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", KEY)


def extract(run_dir: Path, prompt: Path, server: FakeGemini, *more: str) -> tuple[str, ...]:
    return ("extract", "--method", "gemini", "--pages", str(DEMO / "html"), "--out", str(run_dir), "--prompt-file",
            str(prompt), "--base-url", server.url, "-q", *more)


def score(run_dir: Path) -> tuple[str, ...]:
    return "score", "--pred", str(run_dir), "--gt", str(DEMO / "gt"), "--pages", str(DEMO / "html"), "-q"


def as_an_older_recordlens_wrote(run_dir: Path, texts_sha256: str, *files: str) -> None:
    """The run's files with the prompt recorded by its texts' SHA-256, as RecordLens did before the file's own."""
    for name in files:
        path = run_dir / META_DIR / name
        described = json.loads(path.read_text(encoding="utf-8"))
        described["parameters"]["prompt_sha256"] = texts_sha256
        path.write_text(json.dumps(described), encoding="utf-8")


def test_pages_of_an_older_run_with_the_same_prompt_file_are_neither_extracted_again_nor_warned_of(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    prompt, run_dir = tmp_path / "p.md", tmp_path / "run"
    prompt.write_bytes(PROMPT)
    with FakeGemini(default=answer("[]")) as server:
        assert run(capsys, *extract(run_dir, prompt, server, "--max-requests", "1"))[0] == 3  # page 1 only
        as_an_older_recordlens_wrote(run_dir, prompt_from_file(prompt).text_sha256, "run.json", "1.json")
        assert run(capsys, *extract(run_dir, prompt, server))[0] == 0  # pages 2 to 4, run.json by the file's hash
        _, _, err = run(capsys, *score(run_dir))
        assert "earlier run" not in err, err
        assert not pages_of_other_settings(run_dir)
        asked = len(server.requests)
        code, printed, err = run(capsys, *extract(run_dir, prompt, server))
        assert code == 0 and len(server.requests) == asked, err  # nothing extracted again
    assert "0 extracted, 4 already there" in printed
    project = demo_project(capsys, tmp_path / "p")  # nor does `runs --add` refuse them
    code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(run_dir))
    assert code == 0 and f"stored {run_dir} as run 1" in err, err


def test_a_page_of_another_prompt_is_named_by_score_and_extracted_again_by_a_resume(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    prompt, run_dir = tmp_path / "p.md", tmp_path / "run"
    prompt.write_bytes(PROMPT)
    with FakeGemini(default=answer("[]")) as server:
        assert run(capsys, *extract(run_dir, prompt, server, "--max-requests", "1"))[0] == 3
        # page 1 made by an older RecordLens with another prompt
        as_an_older_recordlens_wrote(run_dir, prompt_from_file(prompt).text_sha256, "run.json")
        as_an_older_recordlens_wrote(run_dir, "0" * 64, "1.json")
        _, _, err = run(capsys, *score(run_dir))
        assert "1 page of the run (1) holds records an earlier run of the folder made with other settings" in err
        assert list(pages_of_other_settings(run_dir).made) == ["1"]
        asked = len(server.requests)
        code, _, err = run(capsys, *extract(run_dir, prompt, server))
        assert code == 0 and len(server.requests) == asked + 4, err  # page 1 again, and pages 2 to 4
    assert "1 page of the run in" in err and "extracted again with this run's" in err


@pytest.mark.timeout(60)  # a FIFO opened for reading would be waited on for ever
def test_a_prompt_file_the_run_names_that_is_a_fifo_is_not_read(tmp_path: Path) -> None:
    """The path a run records as its prompt file is read only when it is a regular file: `score` and `runs --add`
    follow a path of the run's, not one the user gave, and a FIFO there would hang them."""
    import os

    from recordlens.core.extract.gemini import PROMPT_SHA256, PROMPT_SOURCE
    from recordlens.core.runs.run_files import recorded_prompt

    fifo = tmp_path / "prompt.txt"
    os.mkfifo(fifo)
    assert recorded_prompt({"parameters": {PROMPT_SOURCE: str(fifo), PROMPT_SHA256: "0" * 64}}) is None


def test_an_older_run_whose_prompt_file_is_gone_is_said_unchecked_until_resumed_with_the_file_where_it_is(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Page 1 holds the older hash of the prompt's texts, the run the file's own; the file moved since, so nothing
    tells whether page 1 was made with the run's prompt: `score`, `runs --add` and `score --project` say so (the
    file gone, the prompt unchecked), not that other settings made it, nor name the gone path as the prompt. A
    resume given the file where it is now checks it, and the run names the file there from then on."""
    from recordlens.core.store.importer import import_run_folder
    from recordlens.core.store.project import open_project

    prompt, moved, run_dir = tmp_path / "p.md", tmp_path / "moved.md", tmp_path / "run"
    prompt.write_bytes(PROMPT)
    project = demo_project(capsys, tmp_path / "p")
    unchecked = (f"1 page of {{whose}} (1) records its prompt by another SHA-256 than the run's: the SHA-256 of the "
                 f"same prompt file's text, as RecordLens recorded a prompt file before it recorded the file's own, "
                 f"or another prompt's; the prompt file the run names, {prompt}, is gone (moved or deleted since), so "
                 "which it is cannot be checked: ")
    with FakeGemini(default=answer("[]")) as server:
        assert run(capsys, *extract(run_dir, prompt, server, "--max-requests", "1"))[0] == 3  # page 1 only
        as_an_older_recordlens_wrote(run_dir, prompt_from_file(prompt).text_sha256, "run.json", "1.json")
        assert run(capsys, *extract(run_dir, prompt, server))[0] == 0  # pages 2 to 4, run.json by the file's hash
        prompt.rename(moved)

        code, _, err = run(capsys, *score(run_dir))
        assert code == 0 and unchecked.format(whose="the run") + "scored as they are" in err, err
        assert "other settings" not in err and "--restart that stopped" not in err
        code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(run_dir))
        assert code == 2 and unchecked.format(whose=f"the run in {run_dir}") + "nothing stored" in err, err
        with open_project(project) as opened:
            run_id = import_run_folder(opened, run_dir).run_id  # as stored before `runs --add` checked
        code, _, err = run(capsys, "score", "--project", str(project), "--run", str(run_id), "-q")
        assert code == 2 and unchecked.format(whose=f"run {run_id} from {run_dir}") + "nothing scored" in err, err

        asked = len(server.requests)
        code, _, err = run(capsys, *extract(run_dir, moved, server))  # as told: the file where it is now
        assert code == 0 and len(server.requests) == asked, err  # page 1 is the run's: not extracted again
    described = json.loads((run_dir / META_DIR / "run.json").read_text(encoding="utf-8"))
    assert described["parameters"]["prompt"] == str(moved)  # the run names the file there from now on
    _, _, err = run(capsys, *score(run_dir))
    assert "SHA-256" not in err, err
    assert run(capsys, "runs", "--project", str(project), "--add", str(run_dir))[0] == 0
    code, _, err = run(capsys, "score", "--project", str(project), "--run", str(run_id), "-q")
    assert code == 0 and "SHA-256" not in err, err


def test_a_prompt_file_changed_since_is_said_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    prompt, run_dir = tmp_path / "p.md", tmp_path / "run"
    prompt.write_bytes(PROMPT)
    with FakeGemini(default=answer("[]")) as server:
        assert run(capsys, *extract(run_dir, prompt, server, "--max-requests", "1"))[0] == 3
        as_an_older_recordlens_wrote(run_dir, prompt_from_file(prompt).text_sha256, "run.json", "1.json")
        assert run(capsys, *extract(run_dir, prompt, server))[0] == 0
    prompt.write_bytes(b"Other words.\n{input}\n")
    _, _, err = run(capsys, *score(run_dir))
    assert (f"the prompt file the run names, {prompt}, holds other bytes since (SHA-256 "
            f"{prompt_from_file(prompt).file_sha256}), so which it is cannot be checked") in err, err
