"""Replaying a trajectory on its site, step by step, finding each target again by its identities.

The loop only needs core's `Browser` protocol; a browser that can also `locate(target)` beyond its latest
observation (QtSiteBrowser looks at the whole page) is asked that way, otherwise core's `find_target` on the
latest observation decides. Replay stops at the first step whose target none of its identities can find, or
that the page refuses, and says which step and why. A step to be taken on a page the site does not hold (the
"not in this snapshot" page: the page it was recorded on was not captured, or was removed since) fails too, as
does a replay whose steps all ran but end on such a page: the reference no longer holds on this site. A GoBack
there is the exception: it leaves the page, which the recording may have met too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from ...core.agent import (
    NOT_IN_SNAPSHOT_TITLE,
    Browser,
    Observation,
    Step,
    Target,
    Trajectory,
    find_target,
    said_action,
)
from ...core.errors import RecordLensError
from ...core.wording import counted


@dataclass
class ReplayResult:
    """How a replay went: `failed_step` is the 0-based index of the step that could not be carried out."""

    steps: int                      # steps in the trajectory
    done: int = 0                   # steps carried out
    skipped: list[int] = field(default_factory=list)  # an agent's failed steps: they did nothing, nor does replay
    failed_step: int | None = None
    message: str = ""
    url_changes: list[tuple[int, str, str]] = field(default_factory=list)  # (step, recorded URL, replayed URL)
    final_url: str = ""
    ended_outside: bool = False     # every step ran, but the last page is not in the snapshot

    @property
    def reached(self) -> int:
        """Steps replay went through: carried out, or skipped as failed."""
        return self.done + len(self.skipped)

    @property
    def ok(self) -> bool:
        return self.failed_step is None and self.reached == self.steps and not self.ended_outside

    @property
    def replayed(self) -> str:
        """How many steps ran: "all N steps replayed", or how many did and how many failed ones were skipped (an
        agent's failed step is no step replayed)."""
        if not self.skipped:
            return f"all {self.steps} steps replayed"
        return (f"{counted(self.done, 'step')} replayed, {counted(len(self.skipped), 'failed step')} of the agent "
                "skipped (they did nothing on the page)")


def describe(step: Step) -> str:
    """The step as the panel, the viewer and replay's messages show it: as its trajectory's JSON says it
    (`said_action`: a Type a person committed by leaving the field says it pressed no Enter), or its action alone
    where it names none of the grammar's."""
    try:
        return said_action(step)
    except RecordLensError:
        return step.action or "(no action)"


def identities(target: Target | None) -> str:
    if target is None:
        return "no target"
    parts = [f"{k}={v!r}" for k, v in target.as_dict().items() if k != "bbox"]
    return ", ".join(parts) or "no identity"


def replay(trajectory: Trajectory, browser: Browser, start_url: str | None = None, *,
           on_step: Callable[[int, Step], None] | None = None,
           cancelled: Callable[[], bool] = lambda: False) -> ReplayResult:
    """Open the start page (the first step's URL unless given) and carry out every step; `on_step(i, step)` is
    called before step i runs (the viewer highlights it)."""
    steps = trajectory.steps
    result = ReplayResult(steps=len(steps))
    first = start_url or next((s.url for s in steps if s.url), "")
    if not first:
        result.failed_step, result.message = 0, "the trajectory does not say which page it starts on"
        return result
    browser.open(first)
    for index, step in enumerate(steps):
        if cancelled():
            result.message = f"cancelled before step {index + 1}"
            break
        if on_step is not None:
            on_step(index, step)
        if step.url and step.url != browser.url:
            result.url_changes.append((index, step.url, browser.url))
        if step.failed or not step.action:
            result.skipped.append(index)  # a failed agent step did nothing on the page; replay does nothing either
            continue
        try:
            if step.action != "go_back" and shows_missing_page(browser):
                raise PageGone(f"the site holds no page for this URL (“not in this snapshot”), so the step cannot "
                               f"be taken on it{_recorded_on(step, browser.url)}")
            _carry_out(step, browser)
        except RecordLensError as error:
            result.failed_step = index
            result.message = f"step {index + 1} ({describe(step)}) failed on {browser.url}: {error}"
            break
        result.done += 1
    result.final_url = browser.url
    if result.failed_step is None and result.reached == result.steps and steps:
        result.ended_outside = shows_missing_page(browser)
    if result.ok:
        result.message = f"{result.replayed}; ended on {result.final_url}"
    elif result.ended_outside:
        result.message = (f"{result.replayed}, but they end on {result.final_url}, which is not in this snapshot")
    return result


def not_in_snapshot(observation: Observation) -> bool:
    """The page observed is the browser's "not in this snapshot" page (the site holds no page for its URL): the
    page every browser of a site shows for such a URL, under this title (a saved page of the site never has it:
    that page cannot be saved)."""
    return observation.title == NOT_IN_SNAPSHOT_TITLE


def shows_missing_page(browser: Browser) -> bool:
    """Whether `browser` shows its "not in this snapshot" page, told as cheaply as it can be: the app's browser
    says whether its page is one of the site's (`in_site`), where an observation numbers the page, draws the
    numbers and takes a screenshot, only for its title to be read. Another browser is observed."""
    shown = getattr(browser, "browser", browser)  # QtSiteBrowser drives a SiteBrowser, which knows
    in_site = getattr(shown, "in_site", None)
    if isinstance(in_site, bool):
        return not in_site
    return not_in_snapshot(browser.observe())


def _recorded_on(step: Step, url: str) -> str:
    """Where the step was recorded, when that is another URL than the page it was to be taken on now."""
    return f"; it was recorded on {step.url}" if step.url and step.url != url else ""


class TargetGone(RecordLensError):
    pass


class PageGone(RecordLensError):
    """The step is to be taken on a page the site does not hold."""


def _carry_out(step: Step, browser: Browser) -> None:
    """Carry out `step` on the page on show; only a step with a target observes the page, to find it there."""
    if step.target is not None and step.action in ("click", "type", "scroll"):
        observation = browser.observe()
        locate = getattr(browser, "locate", None)
        found = locate(step.target) if callable(locate) else find_target(step.target, observation.elements)
        if found is None:
            raise TargetGone(f"no element on the page matches the target by any of its identities "
                             f"({identities(step.target)})")
        step = replace(step, target=found)
    elif step.action in ("click", "type"):
        raise TargetGone("the step has no target")
    browser.perform(step)
