"""`agent run --references DIR` stored a reference's steps, naming screenshots by their hashes, but not the PNGs the
agent window saves beside the file (`NAME.screenshots/HASH.png`): the project named pictures it did not hold. They
are stored with the steps now; a PNG whose content is not its name's hash is left out, and said."""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.store.project import open_project
from tests.demo_agent import REFERENCES, SITE_DIR, TASKS_FILE, respond
from tests.fake_gemini import FakeGemini, answer_with

TASK = "lookup-2"


def png(seed: int) -> bytes:
    """Bytes standing for a screenshot (the store keeps them by their hash, whatever they hold)."""
    return b"\x89PNG\r\n\x1a\n" + bytes([seed]) * 64


@pytest.fixture(autouse=True)
def fake_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real")


def test_a_files_reference_is_stored_with_the_screenshots_beside_it(tmp_path: Path, capsys) -> None:
    shots = [png(n) for n in range(3)]
    digests = [hashlib.sha256(s).hexdigest() for s in shots]
    reference = REFERENCES[TASK]
    steps = [replace(step, screenshot_before=digests[i % 3], screenshot_after=digests[(i + 1) % 3])
             for i, step in enumerate(reference.steps)]
    folder = tmp_path / "refs"
    (folder / f"{TASK}.screenshots").mkdir(parents=True)
    (folder / f"{TASK}.json").write_text(replace(reference, steps=steps, actor="person:file").to_json(), "utf-8")
    for digest, data in zip(digests[:2], shots[:2], strict=True):
        (folder / f"{TASK}.screenshots" / f"{digest}.png").write_bytes(data)
    (folder / f"{TASK}.screenshots" / f"{digests[2]}.png").write_bytes(b"not the picture named")
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text("".join(line + "\n" for line in TASKS_FILE.read_text("utf-8").splitlines()
                             if line and json.loads(line)["id"] == TASK), "utf-8")
    with FakeGemini(default=answer_with(respond)) as server:
        assert main(["agent", "run", "--project", str(tmp_path / "p"), "--site", str(SITE_DIR), "--tasks",
                     str(tasks), "--runs", "1", "--seed", "0", "--browser", "text", "--base-url", server.url,
                     "--references", str(folder)]) == 0
    said = capsys.readouterr().err
    assert f"1 screenshot whose content is not the hash in its name, not stored: {digests[2]}.png" in said
    with open_project(tmp_path / "p") as project:
        (_, stored), = project.agent.trajectories(reference=True)
        assert stored.steps[0].screenshot_before == digests[0]
        for digest, data in zip(digests[:2], shots[:2], strict=True):
            path = project.agent.screenshot_file(digest)
            assert path is not None and path.read_bytes() == data
        assert project.agent.screenshot_file(digests[2]) is None
