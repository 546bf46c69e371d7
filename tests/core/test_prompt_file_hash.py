"""A run made with `--prompt-file` records the file's own SHA-256 (what `sha256sum FILE` prints), so that a
researcher can tell which prompt made it; a run recorded before, which holds the SHA-256 of the prompt's texts,
is still read as made with that same file. Against the loopback fake in tests/fake_gemini.py."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from recordlens.core.extract.gemini import GeminiExtractor, prompt_from_file
from recordlens.core.resource_files import resource_path
from recordlens.core.runs.run_files import description_differences, prompt_as_recorded_now
from recordlens.core.runs.runner import method_of
from tests.core.cli_runs import run
from tests.fake_gemini import FakeGemini, answer

DEMO = resource_path("demo", "dataset")
KEY = "test-key-not-real-321"
PROMPT = b"Find the records.\r\n\r\n{input}\r\n\r\nAnswer JSON.\r\n"  # Windows line ends: the bytes, not the text


def test_the_run_records_the_prompt_file_s_own_sha256(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", KEY)
    prompt = tmp_path / "p.md"
    prompt.write_bytes(PROMPT)
    with FakeGemini(default=answer("[]")) as server:
        code, _, err = run(capsys, "extract", "--method", "gemini", "--pages", str(DEMO / "html"), "--out",
                           str(tmp_path / "run"), "--base-url", server.url, "--prompt-file", str(prompt), "-q")
        sent = server.requests[0].prompt_text
    assert code == 0, err
    parameters = json.loads((tmp_path / "run" / "_run" / "run.json").read_text(encoding="utf-8"))["parameters"]
    assert parameters["prompt_sha256"] == hashlib.sha256(PROMPT).hexdigest()
    assert sent.startswith("Find the records.\n\n") and "\r" not in sent  # the text sent is as before


def test_a_run_that_recorded_the_prompt_s_texts_hash_is_read_as_made_with_the_same_file(tmp_path: Path) -> None:
    prompt = tmp_path / "p.md"
    prompt.write_bytes(PROMPT)
    extractor = GeminiExtractor(api_key=KEY, prompt_file=prompt)
    now = method_of(extractor)
    earlier = prompt_from_file(prompt).text_sha256  # what a run recorded before the file's own hash
    assert earlier != now["parameters"]["prompt_sha256"]  # type: ignore[index]
    before = {**now, "parameters": {**now["parameters"], "prompt_sha256": earlier}}  # type: ignore[dict-item]
    assert description_differences(prompt_as_recorded_now(before, extractor.prompt), now) == []
    other = {**now, "parameters": {**now["parameters"], "prompt_sha256": "0" * 64}}  # type: ignore[dict-item]
    assert description_differences(prompt_as_recorded_now(other, extractor.prompt), now)  # another prompt stays another
    shipped = GeminiExtractor(api_key=KEY)  # the shipped prompt is recorded by its texts, as it always was
    assert shipped.parameters["prompt_sha256"] == shipped.prompt.text_sha256


def test_a_run_recorded_with_the_texts_hash_resumes_with_the_same_prompt_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", KEY)
    prompt, run_dir = tmp_path / "p.md", tmp_path / "run"
    prompt.write_bytes(PROMPT)
    extract = ("extract", "--method", "gemini", "--pages", str(DEMO / "html"), "--out", str(run_dir),
               "--prompt-file", str(prompt), "-q")
    with FakeGemini(default=answer("[]")) as server:
        assert run(capsys, *extract, "--base-url", server.url, "--max-requests", "1")[0] == 3  # page 1 only
    described = json.loads((run_dir / "_run" / "run.json").read_text(encoding="utf-8"))
    described["parameters"]["prompt_sha256"] = prompt_from_file(prompt).text_sha256  # as an earlier version wrote
    (run_dir / "_run" / "run.json").write_text(json.dumps(described), encoding="utf-8")
    with FakeGemini(default=answer("[]"), port=server.port) as server:
        code, _, err = run(capsys, *extract, "--base-url", server.url)
        asked = len(server.requests)
    assert code == 0 and asked == 3, err  # pages 2, 3, 4
    parameters = json.loads((run_dir / "_run" / "run.json").read_text(encoding="utf-8"))["parameters"]
    assert parameters["prompt_sha256"] == hashlib.sha256(PROMPT).hexdigest()
