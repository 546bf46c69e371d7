"""The agent loop: observe, prompt, call the model, read its action, act; until an answer or the step budget.

Nothing the model writes can crash an episode: an answer with no readable action, a number that is not on the
page, an action the page refuses, each becomes a failed step that keeps the raw answer and the error, and the
episode goes on. It ends at ANSWER, at the step budget (failed steps count), after `max_failures` failed steps
in a row, when the model budget is used up ("model budget") or when the model endpoint fails for good after its
retries ("model error"). The last two *cut* the episode: it says nothing about the agent, and `run_agent` stops
the run (a failing endpoint raises ModelEndpointError, after the cut episode is handed to `on_trajectory`).
Every step, with when it was taken (`at`) and the seconds it took, and every raw model call is kept in the
trajectory, with when the episode began (`started_at`: before its start page opened). After each model call, before
its action is carried out, and again once that step is done (its action carried out, the page after it seen),
`on_call` (when given) sees the episode as it stands, cut as INTERRUPTED: a caller that stores it there keeps every
answer it paid for, and read, and every step taken, though its process is killed (SIGKILL) before the episode ends:
killed while the model answers step 2, the episode kept says the step 1 it took.
A password typed into a password field is a secret of the episode (actions.masked_step): once a Type reaches such a
field, its text is masked in every step and stored call of the episode, those before it (a failed attempt,
`Type [7]; pw` on a number the page has not) as well as those after it (a thought that says it again), so no later
prompt shows it. A Type that fails before its field is known (a number the page has not) cannot tell whether it
aimed at a password field: its text is kept as typed until the same text reaches a password field in the episode; a
prompt already sent with it in its memory is then masked as stored, though the model did see it.

Each run index of `run_agent` is an independent draw: run r calls the model with seed `seed + r`.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import NamedTuple, Protocol

from ..errors import AgentError, RecordLensError
from ..llm.gemini import Answer, BudgetExceededError, GeminiError
from ..moments import now
from ..resource_files import read_resource
from ..wording import counted
from .actions import ActionParseError, Step, masked_all, masked_step, parse_action
from .answers import is_correct
from .axtree import format_axtree
from .memory import Memory, WindowMemory, render
from .model import MAX_PAGE_TEXT, TEXT_PER_SCREEN, Browser, ModelCall, Observation, Task, Trajectory
from .targets import Target, find_target, folded

DEFAULT_STEP_BUDGET = 15
DEFAULT_MAX_FAILURES = 3
# What an agent can observe besides the numbered elements (`--observation`, combinable).
OBSERVATIONS = ("screenshot", "axtree", "text")

# What the loop and its browsers do that a run records with its settings (beside max_failures), so that runs made
# before a rule came, whose settings lack its key, can be told apart: an episode fails a window Scroll that moves
# nothing, and a GoBack that moves nothing (no earlier page); a refused or cut-off answer is a failed step, never
# acted on; a browser that numbers the view only has its prompt say so, with how many elements lie above and below
# it; a label names a field it wraps by its own text alone (not the field's content: a list's options).
# A password typed is kept masked, in the episode's every step and stored call, before and after, and so later
# prompts show its bullets (actions.masked_step); agreement with a reference compares a masked Type by its field
# and its length, not by its bullets (evaluate.steps_match); the text
# browser leaves invisible text (visibility: hidden) out of the page's text, and numbers the summary of a closed
# <details> but nothing else in it, as the Qt browser does; the prompt offers "Type [n]; text (no Enter)", which
# fills a field without sending its form (the words are not typed), so an agent can fill a form of several fields.
LOOP_RULES = {"fails_unmoved_scroll": True, "fails_unmoved_go_back": True, "fails_incomplete_answer": True,
              "counts_elements_out_of_view": True, "omits_labelled_field_from_label": True,
              "masks_typed_passwords": True, "text_leaves_invisible_out": True, "numbers_closed_details_summary": True,
              "types_without_enter_when_said": True}

# An episode as it stands after a model call or a step, before it ends (`on_call`): stored so, it is one whose run was
# stopped, or killed, part way; a resume runs it again.
INTERRUPTED = "interrupted"
# Stops that cut an episode short for reasons outside the agent: such an episode is not a result.
CUT_STOPS = ("model budget", "model error", INTERRUPTED)


class ModelEndpointError(AgentError):
    """The model endpoint failed (unreachable, refusing, erroring after retries): the run fails, it is not
    scored as the agent's failures."""

    @classmethod
    def cutting(cls, trajectory: Trajectory) -> ModelEndpointError:
        """The failure that cut this episode (its last call's error), naming its run and task."""
        said = next((c.error for c in reversed(trajectory.calls) if c.error), "the model call failed")
        return cls(f"the model endpoint failed in run {trajectory.run}, task {trajectory.task_id}: {said}")


def run_seed(base: int | None, run: int) -> int | None:
    """The seed of run index `run`: base + run (None: the model's own randomness, unrecorded)."""
    return None if base is None else base + run


class Caller(Protocol):
    """What the loop needs of a model: `GeminiCaller` has it. `about` names the episode a call is for in what is
    said of its waits."""

    def generate(self, prompt: str, *, system: str | None = None, images: list[bytes] | None = None,
                 about: str | None = None) -> Answer: ...


@dataclass
class AgentSettings:
    memory: Memory = field(default_factory=lambda: WindowMemory(3))
    step_budget: int = DEFAULT_STEP_BUDGET
    max_failures: int = DEFAULT_MAX_FAILURES  # failed steps in a row that end an episode
    send_screenshot: bool = True
    actor: str = "agent"
    # None: the page text whenever the browser gives it (the screenshot as `send_screenshot` says). Otherwise
    # exactly these of OBSERVATIONS; "axtree" shows the page's stored accessibility tree (`axtree_for(url)`,
    # e.g. axtree.SiteTrees), numbered like the elements.
    observations: tuple[str, ...] | None = None
    axtree_for: Callable[[str], dict | None] | None = None

    def observes(self, kind: str) -> bool:
        if self.observations is None:
            return kind == "text" or (kind == "screenshot" and self.send_screenshot)
        return kind in self.observations


def run_agent(tasks: Sequence[Task], browser_factory: Callable[[Task], Browser], caller: Caller, *,
              runs: int = 3, settings: AgentSettings | None = None,
              on_trajectory: Callable[[Trajectory], None] | None = None,
              cancelled: Callable[[], bool] = lambda: False, seed: int | None = None,
              done_already: Callable[[Task, int], bool] = lambda task, run: False,
              on_call: Callable[[Trajectory], None] | None = None) -> list[Trajectory]:
    """Every task `runs` times (run-major: all tasks of run 0, then of run 1...). `on_trajectory` sees each
    finished episode at once (to store it), so an interrupted run keeps what it did, and `on_call` the episode in
    flight after each of its model calls and steps (`run_episode`); `done_already` skips the episodes a resumed run
    has. With a `seed`, run r sends seed + r (when the caller has settings to set)."""
    settings = settings or AgentSettings()
    done: list[Trajectory] = []
    for run in range(runs):
        seed_caller(caller, run_seed(seed, run), seed is not None)
        for task in tasks:
            if done_already(task, run):
                continue
            if cancelled():
                return done
            trajectory = run_episode(task, browser_factory(task), caller, settings, run=run, on_call=on_call)
            done.append(trajectory)
            if on_trajectory is not None:
                on_trajectory(trajectory)
            if trajectory.stop == "model budget":
                return done
            if trajectory.stop == "model error":
                raise ModelEndpointError.cutting(trajectory)
    return done


def seed_caller(caller: Caller, value: int | None, wanted: bool) -> None:
    """Make the caller send `value` as its seed (when it has call settings with one and a seed is wanted)."""
    call_settings = getattr(caller, "settings", None)
    if wanted and call_settings is not None and hasattr(call_settings, "seed"):
        call_settings.seed = value


# What the agent observes, said the same way in the system prompt, the README and `observes()`: the request
# carries the screenshot as an image part exactly when the run sends screenshots, and the page text always
# (when the browser gives any; cut at MAX_PAGE_TEXT characters).
_OBSERVATION = {
    True: "a screenshot of the page in which every element you can use carries a number in a coloured box, "
          "the text of the page",
    False: "the text of the page (there is no screenshot)",
}
# Each of OBSERVATIONS as the system prompt describes it, for a run that names what it observes.
_DESCRIBED = {
    "screenshot": "a screenshot of the page in which every element you can use carries a number in a coloured box",
    "axtree": "the page's accessibility tree, its elements numbered as in the list below",
    "text": "the text of the page",
}


# How `observes` names each of OBSERVATIONS.
_OBSERVED = {"screenshot": "screenshot", "axtree": "accessibility tree", "text": "page text"}


def observes(send_screenshot: bool, observations: Sequence[str] | None = None) -> str:
    """What a run sends the model each step, in words (recorded with the run): the browser's default, or exactly
    the kinds `--observation` gave."""
    if observations is None:
        return "screenshot and page text" if send_screenshot else "page text"
    named = [_OBSERVED[kind] for kind in OBSERVATIONS if kind in observations]
    return ", ".join(named[:-1]) + " and " + named[-1] if len(named) > 1 else "".join(named)


def system_prompt(send_screenshot: bool, observations: Sequence[str] | None = None) -> str:
    """The agent's instructions, saying what it is shown each step: the browser's default (`send_screenshot`), or
    exactly the kinds `--observation` gave."""
    if observations is None:
        said = _OBSERVATION[send_screenshot]
    else:
        named = [_DESCRIBED[kind] for kind in OBSERVATIONS if kind in observations]
        said = ", ".join(named) + ("" if "screenshot" in observations else " (there is no screenshot)")
    return read_resource("prompts", "agent-system.md").replace("{observation}", said)


def run_episode(task: Task, browser: Browser, caller: Caller, settings: AgentSettings, *,
                run: int = 0, on_call: Callable[[Trajectory], None] | None = None) -> Trajectory:
    """One episode of `task`. `on_call` sees it as it stands after each model call, before the call's action is
    carried out, and after each step that does not end it (`stopped_now`: what a process killed there leaves)."""
    # Begun now, before its start page opens: it spans that page's loading and its steps (its first step's `seconds`
    # count from its first prompt on)
    trajectory = Trajectory(task_id=task.id, actor=settings.actor, run=run, started_at=now())
    system = system_prompt(settings.send_screenshot, settings.observations)
    template = read_resource("prompts", "agent-user.md")
    browser.open(task.start_url)
    failures = 0
    secrets: list[str] = []  # the passwords typed into password fields so far (module notes)
    observation = browser.observe()
    while True:
        if len(trajectory.steps) >= settings.step_budget:
            trajectory.stop = "budget"
            break
        started = time.monotonic()
        position = len(trajectory.steps) + 1
        before = _keep_screenshot(trajectory, observation)
        prompt = build_prompt(template, task, observation, trajectory.steps, settings, position)
        images = [observation.screenshot] if settings.observes("screenshot") and observation.screenshot else []
        kept = _Kept(len(trajectory.steps), len(trajectory.calls), len(secrets))
        step, stop = _take_step(caller, browser, prompt, system, images, observation, trajectory, position, secrets,
                                on_call)
        if stop is None and step.action != "answer":
            seen, observation = observation, browser.observe()
            step = _failed_if_unmoved(step, seen, observation)
        after = before if step.action == "answer" or stop else _keep_screenshot(trajectory, observation)
        # Taken now: its action carried out and the page after it seen, as a recording's step is when the action came
        step = replace(step, url=step.url or observation.url, screenshot_before=before, screenshot_after=after,
                       seconds=round(time.monotonic() - started, 3), at=now())
        trajectory.steps.append(step)
        _keep_secrets(trajectory, secrets, kept)
        step = trajectory.steps[-1]
        if stop is not None:
            trajectory.stop = stop
            break
        if step.action == "answer" and not step.failed:
            trajectory.answer = step.value
            trajectory.stop = "answer"
            break
        failures = failures + 1 if step.failed else 0
        if failures >= settings.max_failures:
            trajectory.stop = "failures"
            break
        if on_call is not None:  # the step is done: a process killed while the next call waits keeps it
            on_call(stopped_now(trajectory, secrets))
    trajectory.success = is_correct(task, trajectory.answer)
    return trajectory


def _failed_if_unmoved(step: Step, before: Observation, after: Observation) -> Step:
    """A Scroll of the window that moved nothing (the page is at its end or its top, or fits the screen), or a
    GoBack that moved nothing (the episode's first page: there is no earlier one), is a failed step that says so:
    else the agent sees the same page again, is told nothing, and tries again until its step budget is gone. Only
    when the browser reports where it is scrolled to (both browsers do; a Browser that does not never has such a
    step failed), and a page that grew in place (lazy loading) moved (`moved_since`)."""
    if step.failed or after.moved_since(before) is not False:
        return step
    if step.action == "go_back":
        # Said with the one case the loop cannot tell apart: an earlier page that is this very page, unchanged.
        return replace(step, error="the page did not change: there is no earlier page to go back to (or it is "
                                   "this same page)")
    if step.action != "scroll" or step.target is not None:
        return step
    direction = step.value or "down"
    where = "top" if direction == "up" else "end"
    return replace(step, error=f"the page did not move: it is already at its {where} (no more to scroll {direction})")


class _Kept(NamedTuple):
    """How much of an episode was kept, and masked, before a step: its steps, its calls and its secrets then."""

    steps: int
    calls: int
    secrets: int


def _keep_secrets(trajectory: Trajectory, secrets: Sequence[str], kept: _Kept) -> None:
    """Mask the episode's `secrets` in what the step after `kept` added (module notes); where that step found a new
    secret, in all the episode has kept, so that it is masked in the steps and calls before it too. What came
    before was masked with the secrets it knew, which a step that found none leaves the same."""
    if not secrets:
        return
    new_secret = len(secrets) > kept.secrets
    steps, calls = (0, 0) if new_secret else (kept.steps, kept.calls)
    trajectory.steps[steps:] = [masked_step(step, secrets) for step in trajectory.steps[steps:]]
    trajectory.calls[calls:] = [replace(call, prompt=masked_all(call.prompt, secrets) or "",
                                        answer=masked_all(call.answer, secrets), error=masked_all(call.error, secrets))
                                for call in trajectory.calls[calls:]]


def _take_step(caller: Caller, browser: Browser, prompt: str, system: str, images: list[bytes],
               observation: Observation, trajectory: Trajectory, position: int, secrets: list[str],
               on_call: Callable[[Trajectory], None] | None = None) -> tuple[Step, str | None]:
    """One model call and the action it asks for: (the step, why the episode must stop or None). A Type into a
    password field adds its text to `secrets`; the step comes back in clear, for run_episode to mask. `on_call` sees
    the episode once the call is kept and its secret known, before the action is carried out (`stopped_now`)."""
    step, stop = _asked_step(caller, prompt, system, images, observation, trajectory, position)
    acting = stop is None and not step.failed and step.action != "answer"
    if acting and types_a_password(browser, step) and step.value not in secrets:  # asked before Enter moves the page
        secrets.append(step.value or "")
    if on_call is not None:
        on_call(stopped_now(trajectory, secrets))
    if acting:
        try:
            browser.perform(step)
        except RecordLensError as error:  # the browser's refusals are RecordLensErrors; anything else is a bug
            step = replace(step, error=str(error))
    return step, stop


def stopped_now(trajectory: Trajectory, secrets: Sequence[str]) -> Trajectory:
    """The episode as a stop now would leave it: its steps and calls so far, every secret known masked in them (module
    notes: the answer that types a password is masked before anything stores it), cut as INTERRUPTED."""
    now = replace(trajectory, steps=list(trajectory.steps), calls=list(trajectory.calls), stop=INTERRUPTED)
    _keep_secrets(now, secrets, _Kept(0, 0, 0))  # every secret is new to a copy: all of it masked
    return now


def _asked_step(caller: Caller, prompt: str, system: str, images: list[bytes], observation: Observation,
                trajectory: Trajectory, position: int) -> tuple[Step, str | None]:
    """One model call, kept in the trajectory, and the step it asks for, its target found on the page, not carried
    out: (the step, why the episode must stop or None)."""
    url = observation.url
    try:
        # `about` names the episode in what is said of a retry's wait, as extract names the page
        answer = caller.generate(prompt, system=system, images=images or None,
                                 about=f"run {trajectory.run}, task {trajectory.task_id}")
    except GeminiError as error:
        trajectory.calls.append(ModelCall(position, prompt, None, error=str(error), system=system,
                                          images=len(images)))
        # Either way the episode is cut: a call that failed after its retries is the endpoint's failure, and
        # counting it as the agent's would score an outage as a bad agent.
        stop = "model budget" if isinstance(error, BudgetExceededError) else "model error"
        return Step("", url=url, error=f"the model call failed: {error}"), stop
    # A refused or cut-off answer is the model's own (a failed step, not an outage); its reason is kept with it.
    incomplete = answer.incomplete
    trajectory.calls.append(ModelCall(position, prompt, answer.text, usage=dict(answer.usage),
                                      seconds=round(answer.seconds, 3), system=system, images=len(images),
                                      error=incomplete))
    if incomplete:  # a truncated "ANSWER; Harb" or a refusal is not what the model meant: never acted on
        return Step("", url=url, raw=answer.text, error=f"{incomplete}: its answer is not acted on"), None
    try:
        step = parse_action(answer.text)
    except ActionParseError as error:
        return Step("", url=url, raw=answer.text, error=str(error)), None
    step = replace(step, url=url)
    if step.target is not None:
        found = find_target(step.target, observation.elements)
        if found is None:
            return replace(step, error=f"no element [{step.target.label}] {numbered_where(observation)}"), None
        step = replace(step, target=found)
    return step, None


def types_a_password(browser: Browser, step: Step) -> bool:
    """Whether `step` types into a password field of the page on show, as the browser says (`is_password_field`,
    which both browsers have; a browser without it, a test's, cannot say: no)."""
    says = getattr(browser, "is_password_field", None)
    return step.action == "type" and step.target is not None and callable(says) and bool(says(step.target))


def build_prompt(template: str, task: Task, observation: Observation, steps: Sequence[Step],
                 settings: AgentSettings, position: int) -> str:
    values = {
        "instruction": task.instruction,
        "step": str(position),
        "budget": str(settings.step_budget),
        "title": observation.title or "(no title)",
        "url": observation.url,
        "elements_where": numbered_where(observation),
        "elements": describe_numbered(observation),
        "memory": render(settings.memory, steps, task.instruction, observation),
        "page_text": (_page_text(observation) if settings.observes("text") else "")
                     + (_axtree_text(observation, settings) if settings.observes("axtree") else ""),
    }
    prompt = template
    for key, value in values.items():
        prompt = prompt.replace("{" + key + "}", value)
    return prompt


def _page_text(observation: Observation) -> str:
    """The page's text when the browser gives it (sent in both modes; see _OBSERVATION): MAX_PAGE_TEXT characters
    from where the page is scrolled to, so that Scroll reads a long page on (text_window)."""
    text = observation.text.strip()
    if not text:
        return ""
    start, end = text_window(text, observation)
    before = f"[… {start:,} characters of page text above: Scroll up to read them]\n" if start else ""
    after = "\n[… the rest of the page text is cut: Scroll down to read on]" if end < len(text) else ""
    return f"\nText of the page:\n{before}{text[start:end]}{after}\n"


def text_window(text: str, observation: Observation) -> tuple[int, int]:
    """The part of a long page's text that is sent, starting at a line: where the page is scrolled to, as a share
    of how far it can scroll (`page_height`), applied to the text; a browser that gives no page height moves the
    text on by TEXT_PER_SCREEN characters a screen. At the page's end, the last whole window."""
    if len(text) <= MAX_PAGE_TEXT:
        return 0, len(text)
    height = (observation.viewport or (0.0, 0.0))[1] or 1080.0
    scrolled = max(0.0, (observation.scroll or (0.0, 0.0))[1])  # not reported: read as the page's top
    last = len(text) - MAX_PAGE_TEXT
    if observation.page_height is not None and observation.page_height > height:
        start = int(min(1.0, scrolled / (observation.page_height - height)) * last)
    else:
        start = int(scrolled / height * TEXT_PER_SCREEN)
    if start >= last:
        line = text.find("\n", last)
        return (line + 1 if 0 <= line - last <= 500 else last), len(text)
    if start > 0:
        line = text.rfind("\n", 0, start)
        start = line + 1 if line >= 0 and start - line <= 500 else start  # a line cut only when it is very long
    return start, min(len(text), start + MAX_PAGE_TEXT)


def _axtree_text(observation: Observation, settings: AgentSettings) -> str:
    """The page's stored accessibility tree, its nodes numbered as the elements are (by XPath)."""
    tree = settings.axtree_for(observation.url) if settings.axtree_for is not None else None
    if tree is None:
        return "\nAccessibility tree of the page: (none stored for this page)\n"
    labels = {e.xpath: e.label for e in observation.elements if e.xpath and e.label is not None}
    return f"\nAccessibility tree of the page ([n] = element n above):\n{format_axtree(tree, labels)}\n"


def numbered_where(observation: Observation) -> str:
    """Where the numbered elements are from, as the prompt and a missing number's error say it."""
    return "on this page" if observation.elements_out_of_view is None else "in view"


def describe_numbered(observation: Observation) -> str:
    """The numbered elements, one a line. A browser that numbers the view only (the Qt browser's set-of-mark) has
    them between how many more lie above and below the view, as the page text says what lies beyond its part: else
    an agent never learns that a Scroll reaches a link further down (the text browser numbers the whole page)."""
    if observation.elements_out_of_view is None:
        return describe_elements(observation.elements)
    above, below = observation.elements_out_of_view
    listed = describe_elements(observation.elements) if observation.elements else "(none in view)"
    return "\n".join(filter(None, (_out_of_view(above, "above", "up"), listed, _out_of_view(below, "below", "down"))))


def _out_of_view(count: int, where: str, direction: str) -> str:
    if count <= 0:
        return ""
    return (f"[… {counted(count, 'more element')} {where} the view, numbered once in view: Scroll {direction} to "
            f"reach {'it' if count == 1 else 'them'}]")


def describe_elements(elements: Sequence[Target]) -> str:
    if not elements:
        return "(none)"
    lines = []
    for element in elements:
        text = " ".join((element.text or element.name).split())
        if element.name and element.text and folded(element.name) != folded(element.text):
            text += f" (named \"{' '.join(element.name.split())}\")"
        lines.append(f"[{element.label}] {element.role or 'element'}: {text[:150] or '(no text)'}")
    return "\n".join(lines)



def _keep_screenshot(trajectory: Trajectory, observation: Observation) -> str | None:
    if not observation.screenshot:
        return None
    digest = hashlib.sha256(observation.screenshot).hexdigest()
    trajectory.screenshots.setdefault(digest, observation.screenshot)
    return digest
