"""`agent eval` (its lines and --json `episodes`) and `agent run`'s episode lines say why an episode ended: a
refusal, prose with no action, a click on a missing element, the step budget, each told apart, from what the
episode's failed steps stored; the figures stay as they were."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.core.agent.actions import Step
from recordlens.core.agent.evaluate import why_it_ended
from recordlens.core.agent.model import Trajectory
from recordlens.core.agent.targets import Target
from recordlens.core.cli.command import main
from tests.demo_agent import INSTRUCTIONS, SITE_DIR, TASK_IDS, TASKS_FILE
from tests.fake_gemini import FakeGemini, answer_with, refused
from tests.fake_gemini import Step as Scripted

PROSE = "I cannot answer; the page does not say."


def misbehave(body: dict) -> str | Scripted:
    """lookup-1: refused (SAFETY); rules-1: a refusal in prose; lookup-2: a click on an element not there."""
    prompt = body["contents"][0]["parts"][0]["text"]
    task = next(t for t in TASK_IDS if INSTRUCTIONS[t] in prompt)
    return {"lookup-1": refused("SAFETY"), "rules-1": PROSE, "lookup-2": "Action: Click [999]"}[task]


def test_eval_says_why_each_episode_failed_and_its_figures_stay(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real")
    project = tmp_path / "p"
    with FakeGemini(default=answer_with(misbehave)) as server:
        assert main(["agent", "run", "--project", str(project), "--site", str(SITE_DIR), "--tasks", str(TASKS_FILE),
                     *[a for t in TASK_IDS for a in ("--task", t)], "--runs", "1", "--browser", "text",
                     "--base-url", server.url]) == 0
    said = capsys.readouterr().err
    refusal = ("3 failed steps in a row; 3 refused by the model (SAFETY); last: the model did not finish "
               "(finishReason SAFETY): its answer is not acted on")
    assert f"run 0 lookup-1: wrong in 3 steps (failures); no answer — {refusal}" in said

    assert main(["agent", "eval", "--project", str(project), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    reasons = {e["task"]: (e["reason"], e["failed_steps"], e["refusals"]) for e in report["episodes"]}
    assert reasons == {
        "lookup-1": (refusal, 3, 3),
        "rules-1": (f"3 failed steps in a row; last: no action in the model's answer {PROSE!r}", 3, 0),
        "lookup-2": ("3 failed steps in a row; last: no element [999] on this page", 3, 0),
    }
    assert [(e["success"], e["stop"], e["steps"]) for e in report["episodes"]] == [(False, "failures", 3)] * 3
    assert report["overall"]["success_rate"] == 0.0 and report["overall"]["average_steps"] == 3.0

    assert main(["agent", "eval", "--project", str(project)]) == 0
    lines = capsys.readouterr().out.splitlines()
    start = lines.index("why the 3 episodes not answered right ended (`reason` in --json):")
    assert lines[start + 1:] == [  # in the run's order, the tasks file's
        f"  run 0 lookup-1: wrong in 3 steps — {refusal}",
        "  run 0 lookup-2: wrong in 3 steps — 3 failed steps in a row; last: no element [999] on this page",
        f"  run 0 rules-1: wrong in 3 steps — 3 failed steps in a row; last: no action in the model's answer "
        f"{PROSE!r}",
    ]


def episode(*steps: Step, stop: str, answer: str | None = None) -> Trajectory:
    return Trajectory("t", "agent:m", list(steps), answer=answer, run=0, stop=stop)


WAIT = Step("wait", url="https://s/")
BLOCKED = Step("", url="https://s/", error="no candidates in the answer (prompt blocked: SAFETY): its answer is not "
                                           "acted on")
CUT_OFF = Step("", url="https://s/", raw="ANSWER; Harb",
               error="the model did not finish (finishReason MAX_TOKENS): its answer is not acted on")
UNREADABLE = Step("", url="https://s/", raw="hmm", error="no action in the model's answer 'hmm'; expected one of: "
                  "Click [n], Type [n]; text, Scroll [WINDOW]; up|down, Wait, GoBack, ANSWER; text")


@pytest.mark.parametrize(("trajectory", "success", "reason"), [
    (episode(Step("answer", None, "12", "https://s/"), stop="answer", answer="12"), True, "answered right"),
    (episode(UNREADABLE, Step("answer", None, "11", "https://s/"), stop="answer", answer="11"), False,
     "answered otherwise than the gold answer; 1 failed step in all; last: no action in the model's answer 'hmm'"),
    (episode(WAIT, WAIT, WAIT, stop="budget"), False, "the step budget ran out (3 steps; the last: Wait)"),
    (episode(BLOCKED, WAIT, CUT_OFF, stop="budget"), False,
     "the step budget ran out (3 steps); 2 failed steps in all; 1 refused by the model (SAFETY); last: the model "
     "did not finish (finishReason MAX_TOKENS): its answer is not acted on"),  # a cut-off answer is no refusal
    (episode(UNREADABLE, WAIT, UNREADABLE, UNREADABLE, stop="failures"), False,
     "2 failed steps in a row; 3 failed steps in all; last: no action in the model's answer 'hmm'"),
    (episode(Step("click", Target(label=2), url="https://s/", error="no element [2] on this page"),
             Step("", url="https://s/", error="the model call failed: HTTP 500"), stop="model error"), False,
     "cut (model error): not scored; 2 failed steps in all; last: the model call failed: HTTP 500"),
])
def test_why_an_episode_ended(trajectory: Trajectory, success: bool, reason: str) -> None:
    assert why_it_ended(trajectory, success) == reason


def test_a_long_error_is_cut_in_the_reason() -> None:
    long = Step("", url="https://s/", error="x" * 500)
    reason = why_it_ended(episode(long, stop="failures"), False)
    assert reason.startswith("1 failed step in a row; last: xxx") and reason.endswith("…") and len(reason) < 200


def test_an_answer_with_no_candidates_counts_as_refused() -> None:
    assert "1 refused by the model (SAFETY)" in why_it_ended(episode(BLOCKED, stop="failures"), False)
    unblocked = Step("", url="https://s/", error="no candidates in the answer: its answer is not acted on")
    assert "1 refused by the model (no candidates)" in why_it_ended(episode(unblocked, stop="failures"), False)
