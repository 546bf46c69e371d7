"""The trajectory viewer: a timeline of steps, the screenshots before and after the chosen one with its target
boxed, what the step was (action, URL, target identities, thought, time), and "replay on the site".

Screenshots come from the trajectory itself (a fresh recording keeps its PNGs) or from a lookup by hash (a
stored trajectory: the project's screenshot files). Replay runs `replay.replay` on a browser the window gives
(`set_replay_browser`); the step being replayed is selected as it runs, and the first step whose target cannot
be found is marked in the timeline with the reason.

`StoredTrajectoryPicker` lists the trajectories a project holds (people's references, then each agent run's
episodes by task and run index) and gives back the one chosen, to be shown here with the project's screenshots.
A task id is a site's own (as `agent eval` takes it): references are grouped by site and task, and a project of
several sites lists each site's references under its own header. The reference agents are compared with is the one
`choose_references` gives (as `agent eval` and the tasks report take it): the task's newest of its current version
that ends with an answer. One recorded for an earlier version of the task (changed since: `agent run
--replace-tasks`, or saved again here) or without an answer (■ Stop before ANSWER) is never used, and its row says
so; an earlier version's is not judged against the task's gold answer of now (it answered another question). Times
are local; a tip names the zone.
An episode is named by its run index as `agent eval` names it (run 0 first), and one that `agent eval` never counts
says so: a *cut* one (stopped by the model budget or a failing model endpoint: not the agent's doing, so not
"wrong") and one a resumed run ran again (`latest_episodes`: the last uncut one of a task and run index counts).
"""

from __future__ import annotations

import html
import struct
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QRectF, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QImage, QKeySequence, QPainter, QPalette, QPen, QPixmap, QShortcut
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QSizePolicy,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ...core.agent import (
    CUT_STOPS,
    Browser,
    Reference,
    Step,
    Trajectory,
    choose_references,
    ends_with_answer,
    latest_episodes,
)
from ..qt.contrast import (
    GRAPHICS,
    ink_cell,
    keep_readable,
    readable_on,
    show_readable,
    tint_cell,
    when_the_palette_changes,
)
from ..qt.local_time import local_time
from ..qt.screen_fit import resize_to_fit
from ..qt.signals import emit
from ..qt.widgets import button, column, side_by_side
from .trajectory_replay import ReplayResult, describe, replay

# The colours are chosen on white; each is drawn in the shade of its hue that reads on the theme in use (text at
# 4.5:1, the page's edge at 3:1), and a row's tint laid on the theme's rows as it lies on white (contrast.py).
HIGHLIGHT = QColor("#e03131")  # the target's box, drawn on the page's own colours (the screenshot), as it is
FAILED_BACKGROUND = QColor("#ffe3e3")  # the tint of the step a replay could not carry out
REPLAYED_BACKGROUND = QColor("#e6fcf5")  # the tint of a step replayed
NOT_COUNTED = QColor("#868e96")  # grey: an episode agent eval does not count, a detail's name, a missing picture
FAILED_RED = "#c92a2a"  # a failed step, a wrong answer, a replay that failed
PASSED_GREEN = "#2b8a3e"  # a correct answer, a replay that went through
PAGE_EDGE = "#adb5bd"  # the screenshot's edge, where a page as light as the window meets it
ScreenshotLookup = Callable[[str], bytes | None]
# Why an episode was cut, by its stop (loop.CUT_STOPS), as a tooltip says it.
CUT_WHY = {"model budget": "the model budget (--max-requests) ran out",
           "model error": "the model endpoint failed for good (unreachable, or an error after the retries)",
           "interrupted": "its run was stopped or killed during this episode; a resume runs it again"}


def is_cut(trajectory: Trajectory) -> bool:
    """An agent's episode stopped from outside the agent (model budget, failing endpoint): not a result."""
    return trajectory.run is not None and trajectory.stop in CUT_STOPS


def step_line(index: int, step: Step) -> str:
    """The timeline's text for a step: number, action in the grammar, then URL and time on a second line."""
    timing = f" · {step.seconds:.1f} s" if step.seconds is not None else ""
    head = f"{index + 1}. {describe(step)}" + ("  ✗" if step.failed else "")
    return f"{head}\n    {step.url or '(no URL)'}{timing}"


def highlighted(png: bytes | None, bbox: tuple[float, ...] | None, edge: str | QColor = PAGE_EDGE) -> QPixmap | None:
    """The screenshot with the target's box drawn on it (box in the screenshot's CSS pixels), and its edge in
    `edge`."""
    if not png:
        return None
    image = QImage.fromData(png, "PNG")
    if image.isNull():
        return None
    pixmap = QPixmap.fromImage(image)
    painter = QPainter(pixmap)
    painter.setPen(QPen(QColor(edge), 2))
    painter.drawRect(QRectF(1, 1, pixmap.width() - 2, pixmap.height() - 2))  # where a page as light as the window ends
    if bbox is not None and len(bbox) == 4:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(HIGHLIGHT, 4))
        fill = QColor(HIGHLIGHT)
        fill.setAlpha(40)
        painter.setBrush(QBrush(fill))
        x, y, w, h = bbox
        painter.drawRect(QRectF(x - 3, y - 3, w + 6, h + 6))
    painter.end()
    return pixmap


class _Picture(QLabel):
    """A screenshot scaled to the space it has, keeping its proportions; "no screenshot" where there is none. Once
    in its window (`follow_the_theme`) its words are grey and its edge a grey line, each in the shade that reads on
    the window (the words at 4.5:1, the edge at 3:1), for the theme in use."""

    def __init__(self, title: str) -> None:
        super().__init__()
        self.title = title
        self._png: bytes | None = None
        self._bbox: tuple[float, ...] | None = None
        self._pixmap: QPixmap | None = None
        self.setAlignment(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop)
        self.setMinimumSize(240, 160)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)
        self.set_picture(None)

    def follow_the_theme(self) -> None:
        """Grey words and edge in the shades that read on the widget it is drawn on (its parent: it is in it now),
        now and whenever the theme switches. Its own palette, styled, no longer follows the theme: its parent's
        does."""
        keep_readable(self, NOT_COUNTED)
        when_the_palette_changes(self.parentWidget(), _Picture._draw, owner=self)  # handed this picture
        self._draw()

    def set_picture(self, png: bytes | None, bbox: tuple[float, ...] | None = None) -> None:
        """The screenshot `png` (None: none to show) with the target's box `bbox` on it."""
        self._png, self._bbox = png, bbox
        self._draw()

    def _draw(self) -> None:
        window = (self.parentWidget() or self).palette().color(QPalette.ColorRole.Window)
        self._pixmap = highlighted(self._png, self._bbox, readable_on(PAGE_EDGE, window, GRAPHICS))
        self._rescale()

    def resizeEvent(self, event) -> None:  # noqa: ANN001, N802 (Qt override)
        super().resizeEvent(event)
        self._rescale()

    def _rescale(self) -> None:
        if self._pixmap is None:
            self.setPixmap(QPixmap())
            self.setText(f"no screenshot {self.title.lower()}")
            return
        self.setPixmap(self._pixmap.scaled(self.size(), Qt.AspectRatioMode.KeepAspectRatio,
                                           Qt.TransformationMode.SmoothTransformation))


STAND_IN_PX = 16  # a "screenshot" this small on both sides is a placeholder, never a picture of a page


def is_stand_in(png: bytes) -> bool:
    """Whether a PNG is a placeholder for a screenshot not taken (`--browser text` stores a 4×3 white one): its
    width and height, read from its header, both under STAND_IN_PX."""
    if len(png) < 24 or png[12:16] != b"IHDR":
        return False
    width, height = struct.unpack(">II", png[16:24])
    return width < STAND_IN_PX and height < STAND_IN_PX


class TrajectoryViewer(QWidget):
    """Signals: `step_chosen(index)`, `replay_started()`, `replay_finished(result)` (a ReplayResult). `replaying`
    is True while a replay runs: it spins the event loop, so the window's menus still work meanwhile."""

    step_chosen = Signal(int)
    replay_started = Signal()  # the window shows its browser, where the steps run
    replay_finished = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.trajectory: Trajectory | None = None
        self._lookup: ScreenshotLookup | None = None
        self._browser: Browser | None = None
        self._start_url: str | None = None
        self._replaying = False

        self.title = QLabel("No trajectory")
        self.title.setWordWrap(True)
        self.title.setTextFormat(Qt.TextFormat.RichText)
        self.timeline = QListWidget()
        self.timeline.setWordWrap(True)
        self.timeline.setAlternatingRowColors(True)
        self.timeline.setAccessibleName("steps of the trajectory")
        self.timeline.currentRowChanged.connect(self._on_row)
        self.replay_button = button("Replay on the site", self.replay)
        self.replay_button.setEnabled(False)
        self.status = QLabel(" ")
        self.status.setWordWrap(True)
        self.status.setTextFormat(Qt.TextFormat.RichText)
        self.before = _Picture("Before")
        self.after = _Picture("After")
        self.details = QLabel()
        self.details.setWordWrap(True)
        self.details.setTextFormat(Qt.TextFormat.RichText)
        self.details.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self._build()

    def _build(self) -> None:
        buttons = QHBoxLayout()
        buttons.addWidget(self.replay_button)
        buttons.addStretch(1)
        left = column(self.title, (self.timeline, 1), self.details, buttons, self.status)

        right = QWidget()
        grid = QGridLayout(right)
        grid.setContentsMargins(0, 0, 0, 0)
        for col, (name, picture) in enumerate((("Before", self.before), ("After", self.after))):
            caption = QLabel(f"<b>{name}</b>")
            grid.addWidget(caption, 0, col)
            grid.addWidget(picture, 1, col)
            picture.follow_the_theme()
        grid.setRowStretch(1, 1)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(side_by_side(left, right, sizes=(400, 1000), stretch=1))

    # -- content ----------------------------------------------------------------------------------------------

    def set_trajectory(self, trajectory: Trajectory | None, *, screenshots: ScreenshotLookup | None = None,
                       start_url: str | None = None, title: str | None = None) -> None:
        """Show `trajectory`; PNGs by hash from its own `screenshots`, else from `screenshots(hash)`."""
        self.trajectory = trajectory
        self._lookup = screenshots
        self._start_url = start_url
        self.timeline.clear()
        self.status.setText(" ")
        if trajectory is None:
            self.title.setText("No trajectory")
            self._show_step(None)
            self._update_buttons()
            return
        answer = html.escape(trajectory.answer or "—")
        words = ("correct", "wrong") if trajectory.run is not None else \
            ("matches the gold answer", "does NOT match the gold answer")  # a person's reference is not scored
        verdict = {True: f" · <span style='color:{PASSED_GREEN}'>{words[0]}</span>",
                   False: f" · <span style='color:{FAILED_RED}'>{words[1]}</span>"}.get(trajectory.success, "")
        if is_cut(trajectory):  # stopped from outside the agent: agent eval scores it neither way
            verdict = f" · <span style='color:{NOT_COUNTED.name()}'>cut ({html.escape(trajectory.stop or '')}): " \
                      "not scored</span>"
        run = f" · run {trajectory.run}" if trajectory.run is not None else ""
        show_readable(self.title, title or f"<b>{html.escape(trajectory.task_id or 'trajectory')}</b>{run} by "
                                           f"{html.escape(trajectory.actor)} · {len(trajectory.steps)} steps · "
                                           f"answer <i>{answer}</i>{verdict}")
        for index, step in enumerate(trajectory.steps):
            item = QListWidgetItem(step_line(index, step))
            if step.thought:
                item.setToolTip(step.thought)
            self.timeline.addItem(item)
            if step.failed:
                ink_cell(self.timeline, self.timeline.indexFromItem(item), FAILED_RED)
        self._update_buttons()
        if trajectory.steps:
            self.timeline.setCurrentRow(0)

    def set_replay_browser(self, browser: Browser | None) -> None:
        """The browser "replay on the site" drives (the window's site browser)."""
        self._browser = browser
        self._update_buttons()

    @property
    def replaying(self) -> bool:
        """A replay is driving the replay browser (the window opens no other site meanwhile)."""
        return self._replaying

    def _update_buttons(self) -> None:
        self.replay_button.setEnabled(self._browser is not None and bool(self.trajectory and self.trajectory.steps))

    def screenshot(self, digest: str | None) -> bytes | None:
        """The PNG of `digest`, or None where there is none to show: also the stand-in a text-browser episode
        stores for every step (a few white pixels), which scaled up looked like a grey page."""
        if not digest or self.trajectory is None:
            return None
        png = self.trajectory.screenshots.get(digest)
        if png is None and self._lookup is not None:
            png = self._lookup(digest)
        return None if png is None or is_stand_in(png) else png

    def with_screenshots(self) -> Trajectory | None:
        """The trajectory on show holding every screenshot its steps name (one stored in the project shows them
        from there, and held none of them itself), as Save trajectory… writes it beside the JSON."""
        if self.trajectory is None:
            return None
        digests = {d for s in self.trajectory.steps for d in (s.screenshot_before, s.screenshot_after) if d}
        for digest in sorted(digests - set(self.trajectory.screenshots)):
            png = self._lookup(digest) if self._lookup is not None else None
            if png is not None:
                self.trajectory.screenshots[digest] = png
        return self.trajectory

    def select_step(self, index: int) -> None:
        self.timeline.setCurrentRow(index)

    def _on_row(self, row: int) -> None:
        steps = self.trajectory.steps if self.trajectory else []
        self._show_step(steps[row] if 0 <= row < len(steps) else None)
        if row >= 0:
            emit(self.step_chosen, row)

    def _show_step(self, step: Step | None) -> None:
        if step is None:
            self.before.set_picture(None)
            self.after.set_picture(None)
            self.details.setText("")
            return
        bbox = step.target.bbox if step.target is not None else None
        self.before.set_picture(self.screenshot(step.screenshot_before), bbox)
        self.after.set_picture(self.screenshot(step.screenshot_after))
        show_readable(self.details, self._details_html(step))

    def _details_html(self, step: Step) -> str:
        rows = [("Action", f"<code>{html.escape(describe(step))}</code>"), ("URL", html.escape(step.url or "—"))]
        if step.target is not None:
            target = step.target
            identity = [f"label {target.label}" if target.label is not None else "no label"]
            if target.role or target.name:
                identity.append(f"{html.escape(target.role or '?')} “{html.escape(target.name)}”")
            if target.text and target.text != target.name:
                identity.append(f"text “{html.escape(target.text[:120])}”")
            rows.append(("Target", " · ".join(identity)))
            if target.xpath:
                rows.append(("XPath", f"<code>{html.escape(target.xpath)}</code>"))
            if target.bbox:
                rows.append(("Box", ", ".join(f"{v:.0f}" for v in target.bbox)))
        if step.thought:
            rows.append(("Thought", html.escape(step.thought)))
        if step.seconds is not None:
            when = f" · {html.escape(local_time(step.at, zone=True))}" if step.at else ""
            rows.append(("Time", f"{step.seconds:.2f} s{when}"))
        if step.error:
            rows.append(("Error", f"<span style='color:{FAILED_RED}'>{html.escape(step.error)}</span>"))
        if step.raw and step.raw.strip() != describe(step):
            rows.append(("Model said", html.escape(step.raw[:400])))
        cells = "".join(f"<tr><td style='color:{NOT_COUNTED.name()};padding-right:10px'>{k}</td><td>{v}</td></tr>"
                        for k, v in rows)
        return f"<table>{cells}</table>"

    # -- replay -----------------------------------------------------------------------------------------------

    def replay(self) -> ReplayResult | None:
        """Re-execute the trajectory on the replay browser, step by step; the result is also shown."""
        if self._browser is None or self.trajectory is None:
            return None
        self._clear_marks()
        self.replay_button.setEnabled(False)
        self.status.setText("replaying…")

        def on_step(index: int, _step: Step) -> None:
            self.select_step(index)
            self.status.setText(f"replaying step {index + 1} of {len(self.trajectory.steps)}…")

        self._replaying = True
        try:
            emit(self.replay_started)
            result = replay(self.trajectory, self._browser, self._start_url, on_step=on_step)
        finally:
            self._replaying = False
            self._update_buttons()
        self._show_result(result)
        emit(self.replay_finished, result)
        return result

    def _mark(self, row: int, tint: QColor | None) -> None:
        """Step `row`'s row tinted (`tint` on white, laid on the theme's rows), or not (None)."""
        tint_cell(self.timeline, self.timeline.model().index(row, 0), tint)

    def _clear_marks(self) -> None:
        for row in range(self.timeline.count()):
            self._mark(row, None)

    def _show_result(self, result: ReplayResult) -> None:
        for row in range(min(result.reached, self.timeline.count())):
            if row not in result.skipped:  # a failed step skipped keeps its own colour: it was not replayed
                self._mark(row, REPLAYED_BACKGROUND)
        if result.ok:
            moved = f"; {len(result.url_changes)} step(s) began on another URL than recorded" \
                if result.url_changes else ""
            show_readable(self.status, f"<span style='color:{PASSED_GREEN}'>✓ {html.escape(result.message)}{moved}"
                                       "</span>")
            return
        if result.failed_step is not None and result.failed_step < self.timeline.count():
            self._mark(result.failed_step, FAILED_BACKGROUND)
            self.select_step(result.failed_step)
        show_readable(self.status, f"<span style='color:{FAILED_RED}'>✗ {html.escape(result.message)}</span>")


# -- trajectories stored in a project ----------------------------------------------------------------------------


REFERENCES = "Reference trajectories"
NOTE = ("The reference agents are compared with (agreement) is the newest of the task's current version that ends "
        "with an answer; “Result” says whether a reference's answer matches the task's gold answer.")
EARLIER_NOTE = (" A reference recorded for an earlier version of its task (changed since) is not used: record the "
                "task again.")
UNANSWERED_NOTE = (" A reference recorded without an answer (stopped before ANSWER) is kept but not used: the "
                   "task's newest that ends with an answer is.")
UNFINISHED_NOTE = (" An unfinished recording (the app ended during it) keeps every step it said was recorded, but "
                   "is not used.")
CUT_NOTE = (" A cut episode (stopped by the model budget or a failing model endpoint) is not the agent's failure: "
            "agent eval never counts it, nor one a resumed run ran again (“not counted”).")


@dataclass(frozen=True)
class StoredTrajectory:
    row_id: int
    group: str                 # REFERENCES (and its site, in a project of several), or the agent run it belongs to
    agent_run: int | None      # None for a reference
    trajectory: Trajectory
    recorded: str = ""         # when it began, ISO time
    # A reference: whether it is the one agents are compared with (`choose_references`: the newest of its task's
    # current version that ends with an answer)
    counts: bool = True
    several: bool = False      # a reference: whether its task (on its site) has other references
    earlier_version: bool = False  # a reference recorded for an earlier version of its task: never used
    newest: bool = True        # a reference: whether it is its task's newest (on its site)
    run_again: bool = False    # an episode its resumed run ran again: the later one counts (`latest_episodes`)
    site: str | None = None    # its task's site (an episode of a run that did not record its site: None)
    group_tip: str = ""        # its group header's tip (a run's: when it started and ended, with the zone)
    # A reference stored step by step whose recording never ended (the app was killed during it): its steps up to
    # the last one acknowledged, never used
    unfinished: bool = False

    @property
    def cut(self) -> bool:
        return self.agent_run is not None and is_cut(self.trajectory)

    @property
    def label(self) -> str:
        """Task, run index (as agent eval names it) and, where it matters, whether it counts."""
        if self.agent_run is None:
            used = (" · newest: counts" if self.newest else " · counts") if self.counts else " · older: not used"
            if self.earlier_version:
                used = " · recorded for an earlier version: not used"
            elif self.unfinished:
                used = " · unfinished recording: not used"
            elif self.unanswered:
                used = " · no answer: not used"
            elif not self.several:
                used = ""
            return f"{self.trajectory.task_id}{used}"
        why = ", ".join(["cut"] * self.cut + ["run again"] * self.run_again)
        return f"{self.trajectory.task_id} · run {self.trajectory.run}" + (f" · {why}: not counted" if why else "")

    @property
    def unanswered(self) -> bool:
        """A reference recorded without an answer (stopped before ANSWER): kept, never used."""
        return self.agent_run is None and not ends_with_answer(self.trajectory)

    @property
    def result(self) -> str:
        """A reference's answer against the gold answer (not one of an earlier version's: it answered another
        question, so the gold answer of now says nothing of it); an episode's verdict (a cut one has none: why)."""
        if self.agent_run is None:
            if self.earlier_version:
                return "—"
            return {True: "answer matches", False: "answer does NOT match"}.get(self.trajectory.success, "—")
        if self.cut:
            return f"cut ({self.trajectory.stop})"
        return {True: "correct", False: "wrong"}.get(self.trajectory.success, "—")

    @property
    def explanation(self) -> str:
        """What a row's tooltip says of an episode agent eval does not count, or of a reference recorded for an
        earlier version of its task ("" for the others)."""
        if self.agent_run is None and self.earlier_version:
            return (f"Recorded for an earlier version of task {self.trajectory.task_id}: the task was changed since "
                    "(its instruction, gold answer, rules or start page). Agents are not compared with it, and the "
                    "tasks report does not count it: record the task again.")
        if self.unfinished:
            return (f"An unfinished recording: the app ended while it went on (or it goes on in an agent window "
                    f"now). Every step it said was recorded is kept, but it has no answer: agents are not compared "
                    f"with it. Record task {self.trajectory.task_id} again, ending with Answer.")
        if self.unanswered:
            return (f"Recorded without an answer: stopped before ANSWER. It is kept, but agents are not compared "
                    f"with it and the tasks report does not count it: the newest reference of task "
                    f"{self.trajectory.task_id} that ends with an answer is used instead, if there is one. Record "
                    "the task again to its answer.")
        if self.agent_run is None or not (self.cut or self.run_again):
            return ""
        parts = []
        if self.cut:
            why = CUT_WHY.get(self.trajectory.stop or "", self.trajectory.stop or "")
            parts.append(f"Cut: {why} during this episode. A cut episode says nothing about the agent: agent eval "
                         "never counts it.")
        if self.run_again:
            parts.append(f"Task {self.trajectory.task_id} was run again in run {self.trajectory.run}: the later "
                         "episode counts.")
        else:  # a cut episode not run again yet: its run index stays incomplete
            parts.append(f"Run {self.trajectory.run} stays incomplete until agent run {self.agent_run} is resumed "
                         f"(recordlens agent run ... --resume {self.agent_run}).")
        return " ".join(parts)


def stored_trajectories(project) -> list[StoredTrajectory]:  # noqa: ANN001 - a core Project
    """The project's trajectories: references first, then each agent run's, by task and run index."""
    dates = project.agent.trajectory_dates()
    return [*_references(project, dates), *_episodes(project, dates)]


def _references(project, dates: dict[int, str]) -> list[StoredTrajectory]:  # noqa: ANN001 - a core Project
    """People's references by site and task, oldest first: a task id is a site's own, so site A's t1 and site B's t1
    are two tasks, each with its own newest reference (eval takes the last stored of the run's site), which counts
    unless it was recorded for an earlier version of the task. One stored before answers were judged is judged here
    by its own site's task."""
    tasks = {(t.site, t.id): t for t in project.agent.tasks()}
    earlier = project.agent.earlier_versions()
    unfinished = set(project.agent.unfinished_recordings())
    versions = project.agent.recorded_versions()
    by_site = {site: sorted(found, key=lambda p: (p[1].task_id, p[0]))
               for site in sorted({site for site, _ in tasks})
               if (found := project.agent.trajectories(reference=True, site=site))}
    out = []
    for site, found in by_site.items():
        group = REFERENCES if len(by_site) == 1 else f"{REFERENCES} · {site}"
        newest = {t.task_id: row for row, t in sorted(found, key=lambda p: p[0])}
        per_task = Counter(t.task_id for _, t in found)
        choice = choose_references([t for (s, _), t in tasks.items() if s == site],
                                   sorted((Reference(t, versions.get(row), row) for row, t in found),
                                          key=lambda r: r.row or 0))
        for row, trajectory in found:
            task = tasks.get((site, trajectory.task_id))
            if row in earlier:  # it answered another question: the gold answer of now says nothing of it, here
                trajectory.success = None  # nor in the viewer's title
            elif trajectory.success is None and task is not None and trajectory.answer:
                trajectory.success = task.accepts(trajectory.answer)
            out.append(StoredTrajectory(row, group, None, trajectory, dates.get(row, ""),
                                        counts=choice.counts(Reference(trajectory, row=row)),
                                        several=per_task[trajectory.task_id] > 1, earlier_version=row in earlier,
                                        newest=newest[trajectory.task_id] == row, site=site,
                                        unfinished=row in unfinished))
    return out


def _episodes(project, dates: dict[int, str]) -> list[StoredTrajectory]:  # noqa: ANN001 - a core Project
    """Each run's episodes by task and run index; those agent eval never counts (cut, or run again) say so."""
    found = []
    for run in project.agent.runs():
        episodes = project.agent.trajectories(agent_run_id=run.id)
        chosen = {id(t) for t in latest_episodes([t for _, t in episodes])}
        episodes.sort(key=lambda p: (p[1].task_id, p[1].run if p[1].run is not None else -1, p[0]))
        cut = sum(is_cut(t) for _, t in episodes)
        group = _run_title(run, cut)
        site = run.parameters.get("site")
        found.extend(StoredTrajectory(row, group, run.id, t, dates.get(row, ""), run_again=id(t) not in chosen,
                                      site=str(site) if site else None, group_tip=_run_tip(run))
                     for row, t in episodes)
    return found


def _run_title(run, cut: int = 0) -> str:  # noqa: ANN001 - a core AgentRun
    shown = [str(run.parameters[k]) for k in ("memory", "browser", "site") if run.parameters.get(k)]
    started = local_time(run.started_at, seconds=False)
    return " · ".join([f"Agent run {run.id}", run.method, *shown, f"started {started}"]
                      + ([f"{cut} cut episode{'s' if cut > 1 else ''}, not counted"] if cut else []))


def _run_tip(run) -> str:  # noqa: ANN001 - a core AgentRun
    """When a run started and ended, to the second and with the zone's name (its header shows the minute only)."""
    ended = f", ended {local_time(run.ended_at, zone=True)}" if run.ended_at else " (no end time)"
    return f"Agent run {run.id}: started {local_time(run.started_at, zone=True)}{ended}"


def _date(iso: str, *, zone: bool = False) -> str:
    """When a trajectory was recorded, to the minute (with the zone's name: `zone`); "—" when not known."""
    return local_time(iso, seconds=False, zone=zone) if iso else "—"


def _date_tip(iso: str) -> str:
    """The Recorded column's tip: the time to the second, with the zone's name."""
    return f"Recorded {local_time(iso, zone=True)}" if iso else ""


class StoredTrajectoryPicker(QDialog):
    """Choose one of the project's trajectories: a tree of references and agent runs, one row per trajectory
    (task and run index, actor, steps, answer, verdict, date). `chosen()` is the one selected after `accept()`.
    A reference can be deleted here (Del, or the button), after a question."""

    COLUMNS = ("Trajectory", "Actor", "Steps", "Answer", "Result", "Recorded")

    def __init__(self, project, parent: QWidget | None = None) -> None:  # noqa: ANN001 - a core Project
        super().__init__(parent)
        self.setWindowTitle("Open a stored trajectory")
        self.project = project
        self.entries: list[StoredTrajectory] = []
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(list(self.COLUMNS))
        self.tree.setRootIsDecorated(True)
        self.tree.setUniformRowHeights(True)
        self.items: dict[int, QTreeWidgetItem] = {}  # row id -> its item
        self.tree.itemDoubleClicked.connect(lambda item, _column: self._accept_item(item))
        self.tree.currentItemChanged.connect(lambda *_: self._update_ok())
        delete = QShortcut(QKeySequence(QKeySequence.StandardKey.Delete), self.tree)
        delete.setContext(Qt.ShortcutContext.WidgetShortcut)
        delete.activated.connect(self.delete_chosen)
        self.empty = QLabel("This project holds no trajectory yet: record one on the Site tab, or run an agent "
                            "with <code>recordlens agent run --project …</code>.")
        self.empty.setWordWrap(True)
        self.note = QLabel(NOTE)
        self.note.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Open |
                                        QDialogButtonBox.StandardButton.Cancel)
        self.delete_button = self.buttons.addButton("Delete reference…", QDialogButtonBox.ButtonRole.ActionRole)
        self.delete_button.clicked.connect(self.delete_chosen)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.empty)
        layout.addWidget(self.tree, 1)
        layout.addWidget(self.note)
        layout.addWidget(self.buttons)
        resize_to_fit(self, 1000, 520)
        self._fill()

    def _fill(self, keep: int | None = None) -> None:
        """(Re)build the tree from the project; the row `keep` (else the first) is chosen."""
        self.entries = stored_trajectories(self.project)
        self.tree.clear()
        self.items.clear()
        groups: dict[str, QTreeWidgetItem] = {}
        for entry in self.entries:
            parent_item = groups.get(entry.group)
            if parent_item is None:
                parent_item = groups[entry.group] = QTreeWidgetItem(self.tree, [entry.group])
                parent_item.setToolTip(0, entry.group_tip)
                parent_item.setFirstColumnSpanned(True)
                parent_item.setExpanded(True)
            trajectory = entry.trajectory
            item = QTreeWidgetItem(parent_item, [entry.label, trajectory.actor, str(len(trajectory.steps)),
                                                 trajectory.answer or "—", entry.result, _date(entry.recorded)])
            item.setData(0, Qt.ItemDataRole.UserRole, entry.row_id)
            if entry.agent_run is None and trajectory.success is False:
                ink_cell(self.tree, self.tree.indexFromItem(item, self.COLUMNS.index("Result")), FAILED_RED)
            if entry.explanation:  # an episode agent eval never counts, an unused reference: greyed, and why
                for index in range(len(self.COLUMNS)):
                    ink_cell(self.tree, self.tree.indexFromItem(item, index), NOT_COUNTED)
                    item.setToolTip(index, entry.explanation)
            recorded = self.COLUMNS.index("Recorded")
            item.setToolTip(recorded, "\n\n".join(filter(None, (_date_tip(entry.recorded), entry.explanation))))
            self.items[entry.row_id] = item
        for index in range(len(self.COLUMNS)):
            self.tree.resizeColumnToContents(index)
        self.empty.setVisible(not self.entries)
        self.note.setText(NOTE + (EARLIER_NOTE if any(e.earlier_version for e in self.entries) else "")
                          + (UNANSWERED_NOTE if any(e.unanswered and not e.unfinished for e in self.entries) else "")
                          + (UNFINISHED_NOTE if any(e.unfinished for e in self.entries) else "")
                          + (CUT_NOTE if any(e.cut for e in self.entries) else ""))
        chosen = self.items.get(keep) if keep is not None else None
        chosen = chosen or next(iter(self.items.values()), None)
        if chosen is not None:
            self.tree.setCurrentItem(chosen)
        self._update_ok()

    def select(self, row_id: int) -> None:
        self.tree.setCurrentItem(self.items[row_id])

    def chosen(self) -> StoredTrajectory | None:
        item = self.tree.currentItem()
        row_id = item.data(0, Qt.ItemDataRole.UserRole) if item is not None else None
        return next((e for e in self.entries if e.row_id == row_id), None)

    def confirm_delete(self, entry: StoredTrajectory) -> bool:
        """Asked before a reference is deleted (its steps and their screenshots' links go with it)."""
        answer = QMessageBox.question(
            self, "Delete a reference",
            f"Delete the reference of {entry.trajectory.task_id}{f' (site {entry.site})' if entry.site else ''} "
            f"recorded {_date(entry.recorded, zone=True)} by "
            f"{entry.trajectory.actor} ({len(entry.trajectory.steps)} steps)? This cannot be undone.")
        return answer == QMessageBox.StandardButton.Yes

    def delete_chosen(self) -> bool:
        """Delete the chosen reference from the project (agent episodes belong to their run: never here)."""
        entry = self.chosen()
        if entry is None or entry.agent_run is not None or not self.confirm_delete(entry):
            return False
        self.project.agent.delete_trajectory(entry.row_id)
        rows = [e.row_id for e in self.entries]
        after = rows[rows.index(entry.row_id) + 1] if rows.index(entry.row_id) + 1 < len(rows) else None
        self._fill(keep=after)
        return True

    def _accept_item(self, item: QTreeWidgetItem) -> None:
        if item.data(0, Qt.ItemDataRole.UserRole) is not None:
            self.accept()

    def _update_ok(self) -> None:
        chosen = self.chosen()
        self.buttons.button(QDialogButtonBox.StandardButton.Open).setEnabled(chosen is not None)
        self.delete_button.setEnabled(chosen is not None and chosen.agent_run is None)
