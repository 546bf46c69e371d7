"""`agent tasks generate`: Ctrl+C or SIGTERM met while a category just answered (and paid for) is written to
`<out>.partial`. The interruption escaped the generation from inside that write: the write was rolled back (the
partial file kept the earlier categories only), and --out was never written, so the category was lost. Now the
write is held whole (`signals_held`) and the stop comes after it: the category is in both files, the command says
it stopped after it, exits as interrupted, and --resume asks only the categories after it."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

import pytest

from recordlens.core import atomic
from recordlens.core.agent.candidates import load_candidates
from recordlens.core.llm.gemini import GeminiCaller
from recordlens.core.signals_held import signals_held
from tests.core.generation_answers import category_of, generate_tasks, two_tasks
from tests.ctrl_c import ctrl_c_raises
from tests.fake_gemini import FakeGemini, answer_with


@pytest.fixture(autouse=True)
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real")
    monkeypatch.setattr(GeminiCaller, "_backoff", lambda self, attempt, error: 0.01)




@pytest.mark.parametrize(("signum", "status", "by"), [(signal.SIGINT, 130, "Ctrl+C"),
                                                      (signal.SIGTERM, 143, "SIGTERM")])
def test_a_stop_during_the_partial_files_write_keeps_the_category_just_answered(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        signum: int, status: int, by: str) -> None:
    out = tmp_path / "candidates.jsonl"
    partial = tmp_path / "candidates.jsonl.partial"
    write_text = atomic.write_text

    def signalled_mid_write(path: Path, text: str, **options: object) -> Path:
        if Path(path) == partial and '"rules"' in text:  # the second category's write: the stop comes in it
            os.kill(os.getpid(), signum)
        return write_text(path, text, **options)

    monkeypatch.setattr(atomic, "write_text", signalled_mid_write)
    with FakeGemini(default=answer_with(lambda body: two_tasks(category_of(body)))) as server, ctrl_c_raises():
        code, said, err = generate_tasks(capsys, server, out)
        asked = [category_of(r.body) for r in server.requests]
    assert code == status and asked == ["lookup", "rules"], err
    assert "2 of 6 categories answered" in said
    assert (f"warning: stopped after category 2 of 6 (interrupted by {by}; not asked: retrieval, filtered search, "
            "content extraction, comparison); the candidates of the categories answered are written") in err
    assert [c.task.category for c in load_candidates(out)] == ["lookup"] * 2 + ["rules"] * 2
    assert list(json.loads(partial.read_text(encoding="utf-8"))["categories"]) == ["lookup", "rules"]

    monkeypatch.setattr(atomic, "write_text", write_text)
    with FakeGemini(default=answer_with(lambda body: two_tasks(category_of(body)))) as server:
        code, said, err = generate_tasks(capsys, server, out, "--resume")
        asked = [category_of(r.body) for r in server.requests]
    assert code == 0, err
    assert asked == ["retrieval", "filtered search", "content extraction", "comparison"]  # rules: paid for once


def test_signals_held_raises_the_first_signal_met_once_the_block_is_done() -> None:
    done = []
    with ctrl_c_raises():
        with pytest.raises(KeyboardInterrupt), signals_held():
            os.kill(os.getpid(), signal.SIGINT)
            done.append("the work went on to its end")
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # the handler is as before
    assert done == ["the work went on to its end"]
