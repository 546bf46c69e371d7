"""The agent-benchmark window: browse and record on a snapshot site, view and replay trajectories, edit tasks.

Three tabs. "Site": the site browser with the recording panel (task, Record/Stop, Wait, Answer, the steps as
they are recorded). "Trajectory": the viewer (timeline, before/after screenshots, replay). "Tasks": the task
editor. Replay drives the site browser, so the Site tab is shown while it runs: Chromium only lays out,
hit-tests and takes input in a widget on screen.

A finished recording goes to the viewer at once and, with a project open, into the project (its screenshots
too); without a project it can be saved as JSON with its PNGs beside it. "Open stored trajectory…" shows any
trajectory the project holds (references and agent-run episodes) with the project's screenshots.

"Save a page from the web…" is the one online action: it runs site_saver's process in the background (this
process stays offline), then shows the saved page in the site. Pages never go into the shipped demo site:
with the demo open, the page goes into a site folder the user chooses. "Save this page to the site" on the shipped
demo saves into the user's copy of it (demo_site.py), which is the site open from then on.

Given the app's settings, the window reopens on the site folder and tasks file last open (one that is gone, or a
folder no longer a site, gives the demo's, and a message); the title names both, so that a copy of the demo is
not taken for the shipped site; its review queue reopens the candidates file last reviewed.
Closing it with unsaved task edits, or an edit in the review queue not saved, asks Save / Discard / Cancel
(`may_close`, which the app asks before it quits); closed, it closes its review queue too.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

from PySide6.QtCore import QSignalBlocker, Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (
    QInputDialog,
    QMainWindow,
    QMessageBox,
    QProgressDialog,
    QTabWidget,
    QWidget,
)

from ...core import atomic
from ...core.agent import Task, TaskFileError, Trajectory, ends_with_answer
from ...core.command_hints import hint_path
from ...core.errors import AgentError, RecordLensError, os_error_said
from ...core.resource_files import is_shipped, never_changed
from ...core.wording import counted
from ..qt.file_dialogs import FileDialog as QFileDialog  # Qt's, never opening a file it lists (see there)
from ..qt.menu_bar import HOLDS_THE_KEYS, KeysMenuBar
from ..qt.message_bar import MessageBar
from ..qt.screen_fit import resize_to_fit
from ..qt.widgets import side_by_side
from ..settings import Settings
from .capture_panel import install as install_capture
from .demo_site import demo_site_folder, demo_tasks_file, is_the_demo
from .qt_browser import QtSiteBrowser
from .recorder import Recorder
from .recording_panel import RecordingPanel
from .site_browser import SiteBrowser
from .site_saver import SaveFromWeb
from .task_editor import TaskEditor
from .trajectory_viewer import StoredTrajectory, StoredTrajectoryPicker, TrajectoryViewer

SCREENSHOTS_SUFFIX = ".screenshots"  # folder beside a saved trajectory JSON, one PNG per hash
AGAIN = "record it again, ending with Answer"  # what makes a recording stopped without an answer a reference
# What a recording of a task changed since runs were scored on it can do here (the project keeps the task as scored)
CHANGED_TASK_ADVICE = ("give the changed task an id of its own on the Tasks tab, save the tasks file and record it "
                       "again")


def save_trajectory_file(trajectory: Trajectory, path: str | Path) -> Path:
    """The trajectory as JSON, and its PNGs in `NAME.screenshots/HASH.png` beside it."""
    target = Path(path)
    # Atomic, as every file written for the user: the PNGs first, so that the JSON that names them appears last.
    if trajectory.screenshots:
        folder = target.with_name(target.stem + SCREENSHOTS_SUFFIX)
        for digest, png in trajectory.screenshots.items():
            atomic.write_bytes(folder / f"{digest}.png", png)
    atomic.write_text(target, trajectory.to_json())
    return target


def load_trajectory_file(path: str | Path) -> Trajectory:
    source = Path(path)
    trajectory = Trajectory.from_json(source.read_text(encoding="utf-8"), source=hint_path(source))
    folder = source.with_name(source.stem + SCREENSHOTS_SUFFIX)
    if folder.is_dir():
        for png in folder.glob("*.png"):
            trajectory.screenshots[png.stem] = png.read_bytes()
    return trajectory


def remembered_files(settings: Settings) -> tuple[Path, Path | None, list[str]]:
    """The site folder and tasks file the window last had open, and what could not be reopened: a folder or file
    that is gone gives the demo's in its place (said, since the user expects their own)."""
    notes: list[str] = []
    site = Path(settings.agent_site) if settings.agent_site else demo_site_folder()
    if not site.is_dir():
        notes.append(f"the site last open, {hint_path(site)}, is gone: the shipped demo site is open")
        site = demo_site_folder()
    tasks: Path | None = Path(settings.agent_tasks) if settings.agent_tasks else None
    if tasks is not None and not tasks.is_file():
        notes.append(f"the tasks file last open, {hint_path(tasks)}, is gone: the demo tasks are open")
        tasks = None
    if tasks is None and (notes or is_the_demo(site)):
        tasks = demo_tasks_file()
    return site, tasks, notes

# Why no site opens while a replay goes on: it drives this browser, and the trajectory it replays would go
_REPLAY_BEFORE_A_SITE = "a replay is going on: let it end before opening a site"


class AgentWindow(QMainWindow):
    """The window; `project` (a core Project) is where recordings go. Call `shutdown()` before the QApplication
    goes away (closing the window does it). With `settings` and `settings_file` (the app's), it reopens the site
    and tasks file last open when none is given, and remembers each one opened."""

    def __init__(self, project=None, *, site: str | Path | None = None,  # noqa: ANN001 - a core Project
                 tasks: str | Path | None = None, person: str | None = None,
                 settings: Settings | None = None, settings_file: Path | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setStatusBar(MessageBar())  # a long message ends in "…" rather than under the size grip
        self.project = project
        self.person = person
        self.settings = settings if settings_file is not None else None  # remembered only where it is saved
        self.settings_file = settings_file
        self.setWindowTitle("RecordLens — agent benchmarks")
        self.browser = SiteBrowser()
        self.recorder = Recorder(self.browser, actor=self._actor())
        self.panel = RecordingPanel(self.recorder)
        self.viewer = TrajectoryViewer()
        self.task_editor = TaskEditor()
        self.replayer = QtSiteBrowser(browser=self.browser)
        self.viewer.set_replay_browser(self.replayer)
        self._closed = False
        # The site the trajectory on show belongs to (None: unknown): its name, and its folder for a recording just
        # made (None for one stored in the project, which knows sites by name; `_forget_the_old_site`)
        self._shown_site: tuple[str, Path | None] | None = None

        site_tab = side_by_side(self.browser, self.panel, sizes=(1100, 330), stretch=0)
        self.tabs = QTabWidget()
        self.tabs.addTab(site_tab, "Site")
        self.tabs.addTab(self.viewer, "Trajectory")
        self.tabs.addTab(self.task_editor, "Tasks")
        self.setCentralWidget(self.tabs)
        self._build_menu()
        install_capture(self)  # "Capture a site from the web…" and the captured-page view (capture_panel.py)
        self.browser.message.connect(lambda text: self.statusBar().showMessage(text, 8000))
        # A page saved on the shipped demo went into the user's copy, the site open from then on (title, settings)
        self.browser.site_copied.connect(lambda _: self._on_site_copied())
        # A page saved again: the stored parts beside it say what they are now (their meta says it was re-saved)
        self.browser.page_saved.connect(
            lambda _: self.captured_view.show_page(self.browser.site, self.browser.url))
        # The page's refused refresh, if any, is said with its blocked count in one line (page_note), and for as
        # long as the refusal alone is (8 s, as `message` above): each blocked request says the line again, and a
        # bare count's 4 s would cut the refusal short. A bare count is a passing note, so it goes sooner.
        self.browser.blocked_count_changed.connect(
            lambda _: self.statusBar().showMessage(self.browser.page_note(), 8000 if self.browser.stayed else 4000))
        self.recorder.finished.connect(self._on_recorded)
        # Every step the panel says was recorded is in the project at once, the recording marked unfinished until
        # it ends: a killed app loses none of them (`_keep_recording`)
        self._kept_row: int | None = None  # the recording going on, as stored so far
        self.recorder.recording_changed.connect(self._on_recording_changed)
        self.recorder.step_recorded.connect(lambda _index: self._keep_recording())
        self.recorder.steps_changed.connect(self._keep_recording)
        self.panel.save_button.clicked.connect(self.save_trajectory_dialog)
        self.task_editor.task_chosen.connect(self._record_task)
        self.task_editor.loaded.connect(self._on_tasks_file)
        self.task_editor.saved.connect(self._on_tasks_file)
        self.task_editor.modified_changed.connect(self.setWindowModified)
        self.task_editor.review_made.connect(self._follow_review)
        # Not on the button's press: the tab switch hid the button before its release, so the click never came
        self.viewer.replay_started.connect(lambda: self.tabs.setCurrentIndex(0))
        self.viewer.replay_finished.connect(lambda _: self.tabs.setCurrentWidget(self.viewer))
        self.web_saver = SaveFromWeb(self)
        self.web_saver.progress.connect(self._on_save_progress)
        self.web_saver.finished.connect(self._on_saved_from_web)
        self.save_progress: QProgressDialog | None = None
        self.save_result: QMessageBox | None = None  # the last failure's message box
        resize_to_fit(self, 1440, 900)
        notes: list[str] = []
        remembered = site is None and tasks is None and self.settings is not None
        if remembered:
            site, tasks, notes = remembered_files(self.settings)
        failed = self.open_site(site or demo_site_folder(),
                                tasks if tasks else (None if site else demo_tasks_file()))
        if failed and remembered and site is not None and Path(site).resolve() != demo_site_folder().resolve():
            # A folder that is there but no longer a site (emptied): left so, the window had no site and no
            # tasks, and each later open tried the same path again. The demo's open, which forgets the path
            notes.append(f"the site last open, {hint_path(site)}, cannot be opened ({failed}): the shipped demo site "
                         "is open")
            self.open_site(demo_site_folder(), demo_tasks_file())
        notes.extend(self._unfinished_recordings())
        if notes:  # after open_site's own message, which would hide them
            self.statusBar().showMessage("; ".join(notes), 15000)

    def _actor(self) -> str:
        return f"person:{self.person or 'me'}"

    def _build_menu(self) -> None:
        menu_bar = KeysMenuBar()
        self.setMenuBar(menu_bar)
        menu_bar.holds_the_keys.connect(lambda: self.statusBar().showMessage(HOLDS_THE_KEYS, 15000))
        menu = menu_bar.addMenu("&Agent")
        # Access letters, each once in the menu (capture_panel adds "Capture a site from the &web…")
        for text, slot in (("Open &site…", self.open_site_dialog), ("Open &tasks…", self.task_editor.open_dialog),
                           ("Save a &page from the web…", self.save_from_web_dialog),
                           ("Open stored t&rajectory…", self.open_stored_trajectory_dialog),
                           ("Open trajectory &file…", self.open_trajectory_dialog),
                           ("Sa&ve trajectory…", self.save_trajectory_dialog), ("&Close", self.close)):
            action = menu.addAction(text)
            action.triggered.connect(slot)
            if slot == self.open_stored_trajectory_dialog:
                action.setEnabled(self.project is not None)
            if slot == self.close:
                action.setShortcut(QKeySequence(QKeySequence.StandardKey.Close))  # Ctrl+W, as a window closes

    # -- site and tasks ---------------------------------------------------------------------------------------

    def open_site(self, folder: str | Path, tasks: str | Path | None = None) -> str | None:
        """Open the site in `folder` (and `tasks`, when given); None when the site opened, else why not (said in
        the status bar too; the site open before stays). Another site than the one open clears what belonged to
        the old one (`_forget_the_old_site`); one is not opened while a recording goes on (its steps would mix
        two sites), nor while a replay goes on (it drives this browser, and the trajectory it replays would go)."""
        before = self.browser.site.root.resolve() if self.browser.site is not None else None
        reason = (_REPLAY_BEFORE_A_SITE if self.viewer.replaying
                  else "a recording is going on: stop it (■ Stop) before opening another site"
                  if self.recorder.recording and before != Path(folder).resolve() else None)
        if reason is not None:
            self.statusBar().showMessage(reason, 10000)
            return reason
        try:
            site = self.browser.set_site(folder)
        except RecordLensError as error:
            self.statusBar().showMessage(str(error), 10000)
            return str(error)
        if before is not None and site.root.resolve() != before:
            self._forget_the_old_site(site.name, site.root.resolve())
        self.task_editor.site = site.name
        message = f"opened the site {site.name}: {counted(len(site.pages), 'page')} ({hint_path(site.root)})"
        if tasks is not None:
            try:
                with QSignalBlocker(self.task_editor):  # what `loaded` brings about follows below, once
                    loaded = self.task_editor.load(tasks)
                message += f"; {counted(len(loaded), 'task')} from {hint_path(tasks)}"
            except (TaskFileError, AgentError) as error:
                message += f"; tasks not opened: {error}"
        self._show_tasks()
        self._remember()
        self.setWindowTitle(self.title())
        self.statusBar().showMessage(message, 10000)
        start = self.browser.start_page()
        task = self.panel.current_task()
        self.browser.open((task.start_url if task and task.start_url else None) or start or "", fresh=True)
        return None

    def _forget_the_old_site(self, opened: str, root: Path) -> None:
        """Another site, named `opened`, in folder `root`, is open: the last recording's steps and status belonged
        to the old one, and so did the trajectory on show (its replay starts on the old site's pages, and "Save
        trajectory…" would save it) unless it belongs to the site opened: one picked from the project, whose site
        the user opens to replay it (as `show_stored` suggests; the project knows a site by its name), or one just
        recorded on this very folder (another folder of the same name is another site)."""
        shown = self._shown_site
        if shown is None or shown[0] != opened or shown[1] not in (None, root):
            self.show_trajectory(None)
        self.panel.steps.clear()
        self.panel.status.setText(" ")

    def title(self) -> str:
        """Which site folder and tasks file are open ("[*]" shows unsaved task edits): a copy of the demo site
        has the demo's name, so the folder tells them apart."""
        site, path = self.browser.site, self.task_editor.path
        where = ("no site" if site is None else f"site {site.name} (shipped demo)" if self._is_demo_site()
                 else f"site {site.name} in {hint_path(site.root)}")
        tasks = ("no tasks file" if path is None else f"tasks {path.name} (shipped demo)" if is_shipped(path)
                 else f"tasks {hint_path(path.name)}")
        return f"RecordLens — agent benchmarks — {where} — {tasks}[*]"

    def _on_site_copied(self) -> None:
        """A save made the user's copy of the shipped demo site the site open (the same site, page and history: the
        recording and the trajectory on show stay): the title names its folder, and the window reopens on it."""
        self._remember()
        self.setWindowTitle(self.title())

    def _on_tasks_file(self, path: Path) -> None:
        """A tasks file opened or saved (perhaps under another name): title, settings and panel follow it."""
        self._show_tasks()
        self._remember()
        self.setWindowTitle(self.title())
        count = self.task_editor.table.rowCount()
        self.statusBar().showMessage(f"{counted(count, 'task')}: {hint_path(path)}", 10000)

    def _remember(self) -> None:
        """The site and tasks file open now, in the app's settings (the shipped demo's as ""), for the next
        time the window opens; a convenience, so a settings file that cannot be written is no error."""
        if self.settings is None or self.settings_file is None:
            return
        site, path = self.browser.site, self.task_editor.path
        self.settings.remember_agent_files(None if site is None or self._is_demo_site() else site.root,
                                           None if path is None or is_shipped(path) else path)
        with contextlib.suppress(OSError):
            self.settings.save(self.settings_file)

    def _follow_review(self, queue) -> None:  # noqa: ANN001 - a ReviewQueue
        """The review queue reopens the candidates file last reviewed, and each one opened is remembered (the app's
        settings, as the site and tasks file are)."""
        if self.settings is None or self.settings_file is None:
            return
        queue.last_file = Path(self.settings.agent_candidates) if self.settings.agent_candidates else None
        queue.opened.connect(self._remember_candidates)

    def _remember_candidates(self, path: Path) -> None:
        self.settings.agent_candidates = str(path.resolve())
        with contextlib.suppress(OSError):  # a convenience, as `_remember`
            self.settings.save(self.settings_file)

    def _show_tasks(self) -> None:
        """The tasks that start on a page of the open site, in the recording panel: another site's (the demo's,
        still in the editor when another site is opened) would start on a page this site does not hold."""
        site = self.browser.site
        tasks = self.task_editor.tasks()[0]
        self.panel.set_tasks([t for t in tasks if site is None or not t.start_url or site.page(t.start_url)])

    def open_site_dialog(self) -> None:
        if self.viewer.replaying:  # said before a folder is chosen, not after
            self.statusBar().showMessage(_REPLAY_BEFORE_A_SITE, 10000)
            return
        folder = QFileDialog.getExistingDirectory(self, "Open a snapshot site", str(self.browser.site.root
                                                                                    if self.browser.site else ""))
        if folder:
            self.open_site(folder)

    def _is_demo_site(self) -> bool:
        site = self.browser.site
        return site is not None and site.root.resolve() == demo_site_folder().resolve()

    # -- saving pages from the web ----------------------------------------------------------------------------

    def save_from_web_dialog(self) -> None:
        url, ok = QInputDialog.getText(self, "Save a page from the web",
                                       "Address of the page (it is loaded from the network, in a separate "
                                       "process; this window stays offline):", text="https://")
        if not ok or not url.strip() or url.strip() == "https://":
            return
        folder = None
        if self.browser.site is None or self._is_demo_site():
            folder = QFileDialog.getExistingDirectory(self, "The site folder to save the page into "
                                                      "(the demo site is never changed)")
            if not folder:
                return
        self.save_from_web(url.strip(), folder)

    def save_from_web(self, url: str, folder: str | Path | None = None) -> bool:
        """Start saving `url` into `folder` (by default the open site); False when it cannot start."""
        target = Path(folder) if folder else (self.browser.site.root if self.browser.site else None)
        if target is None:
            self.statusBar().showMessage("open a site, or choose a folder, to save a page into", 10000)
            return False
        if is_shipped(target):  # the demo site, chosen as the folder: the saver would write inside the install
            self.statusBar().showMessage(f"not saved: {never_changed(target)}: choose another folder", 15000)
            return False
        if self.web_saver.running:
            self.statusBar().showMessage("a page is being saved already", 6000)
            return False
        self.save_progress = QProgressDialog(f"Saving {url}…", "Cancel", 0, 0, self)
        self.save_progress.setWindowTitle("Save a page from the web")
        self.save_progress.setWindowModality(Qt.WindowModality.WindowModal)
        self.save_progress.setMinimumDuration(0)
        self.save_progress.canceled.connect(self.web_saver.cancel)  # a no-op once the saver is done
        self.save_progress.show()
        self.web_saver.start(url, target)
        return True

    def _on_save_progress(self, text: str) -> None:
        if self.save_progress is not None:
            self.save_progress.setLabelText(text)
        self.statusBar().showMessage(text)

    def _on_saved_from_web(self, result: dict[str, object]) -> None:
        if self.save_progress is not None:
            self.save_progress.close()
            self.save_progress.deleteLater()
            self.save_progress = None
        message = str(result.get("message") or "")
        if not result.get("ok"):
            self.statusBar().showMessage(f"not saved: {message}", 15000)
            self.save_result = QMessageBox(QMessageBox.Icon.Warning, "Page not saved", message,
                                           QMessageBox.StandardButton.Ok, self)
            self.save_result.open()
            return
        folder, url = Path(str(result["site"])), str(result["url"])
        refused = None
        if self.browser.site is not None and self.browser.site.root.resolve() == folder.resolve():
            self.browser.reload_site()
        else:
            refused = self.open_site(folder)
        busy = "a recording" if self.recorder.recording else "a replay" if self.viewer.replaying else None
        if refused is not None:  # its folder's site did not open (a recording or a replay goes on, or no site)
            message += f" (not shown: its site is not opened: {refused})"
        elif busy is not None:  # the page would land among the recorded steps, or in the middle of the replay
            message += f" (not shown: {busy} is going on)"
        else:
            self.browser.open(url)
            self.tabs.setCurrentIndex(0)
        self.statusBar().showMessage(message, 15000)

    def _record_task(self, task: Task) -> None:
        self.panel.choose(task)
        self.tabs.setCurrentIndex(0)

    # -- trajectories -----------------------------------------------------------------------------------------

    def show_trajectory(self, trajectory: Trajectory | None, start_url: str | None = None, *,
                        site: str | None = None, root: Path | None = None) -> None:
        """Show `trajectory` (None: none) in the viewer; `site` is the name of the site it belongs to, when known
        (it stays on show when that site is opened), `root` its folder, when that is known too (a recording just
        made: it stays on show when that folder is opened, not another of the same name)."""
        lookup = self.project.agent.screenshot_file if self.project is not None else None
        self._shown_site = (site, root) if trajectory is not None and site is not None else None
        self.viewer.set_trajectory(trajectory, start_url=start_url,
                                   screenshots=(lambda d: _read(lookup(d))) if lookup else None)

    def _unfinished_recordings(self) -> list[str]:
        """What is said at the start of recordings the app ended during (killed, crashed): kept, never lost. Each is
        said at the first start after it (the settings keep which were said, where they are saved): said again at
        every start, it read as if the app had just ended another."""
        found = self.project.agent.unfinished_recordings() if self.project is not None else []
        project = str(self.project.root.resolve()) if self.project is not None else ""
        said = self.settings.unfinished_recordings_said(project) if self.settings is not None else set()
        new = [row for row in found if row not in said]
        if self.settings is not None and self.settings_file is not None and set(found) != said:
            self.settings.remember_unfinished_recordings_said(project, found)
            with contextlib.suppress(OSError):  # a convenience, as the site and tasks file remembered are
                self.settings.save(self.settings_file)
        if not new:
            return []
        return [f"{counted(len(new), 'recording')} ended with the app, unfinished: the steps recorded are kept in "
                "the project, without an answer (Agent → Open stored trajectory…, “unfinished recording”)"]

    def _on_recording_changed(self, on: bool) -> None:
        if on:
            self._kept_row = None  # a new recording: stored as a new trajectory at its first step

    def _store_recording(self, trajectory: Trajectory, *, unfinished: bool) -> int | str | None:
        """Store the recording under the chosen task (over what was stored of it so far): its row id, why it could
        not be stored, or None without a project, a task or a site to store it under."""
        task = self.panel.current_task()
        site = self.browser.site
        if self.project is None or task is None or site is None:
            return None
        try:
            site_id = self.project.agent.site_id(site.name, str(site.root.resolve()))
            row = self.project.agent.save_task(site_id, task)
            self._kept_row = self.project.agent.add_trajectory(row, trajectory, replacing=self._kept_row,
                                                               unfinished=unfinished)
        except RecordLensError as error:
            # A task changed since agent runs were scored on it (core's ChangedTaskError): its advice names the
            # command line's --replace-tasks, which this window has no counterpart of
            changed = getattr(error, "changed", None)
            return f"{changed}: {CHANGED_TASK_ADVICE}" if isinstance(changed, str) else str(error)
        return self._kept_row

    def _keep_recording(self) -> None:
        """The recording as it stands goes into the project, marked unfinished until it ends."""
        trajectory = self.recorder.trajectory
        if not self.recorder.recording or trajectory is None or (not trajectory.steps and self._kept_row is None):
            return
        stored = self._store_recording(trajectory, unfinished=True)
        if isinstance(stored, str):
            self.panel.status.setText(f"recording, but not saved in the project: {stored}; “Save trajectory…” "
                                      "keeps it in a file")

    def _on_recorded(self, trajectory: Trajectory | None) -> None:
        if trajectory is None or not trajectory.steps:
            if self._kept_row is not None and self.project is not None:  # every step stored so far was deleted
                self.project.agent.delete_trajectory(self._kept_row)
            self._kept_row = None
            return
        # Stopped (■ Stop) before an Answer: kept, but a reference is a finished one, so it is said to be none
        answered = ends_with_answer(trajectory)
        site = self.browser.site
        self.show_trajectory(trajectory, site=site.name if site is not None else None,
                             root=site.root.resolve() if site is not None else None)
        stored = self._store_recording(trajectory, unfinished=False)
        self._kept_row = None
        if isinstance(stored, int):
            self.panel.status.setText(f"{counted(len(trajectory.steps), 'step')} recorded and saved in the project"
                                      + ("" if answered else ", without an answer: not used as the task's "
                                         f"reference ({AGAIN})"))
        elif stored is not None:
            self.panel.status.setText(f"recorded, but not saved in the project: {stored}; “Save trajectory…” keeps "
                                      "it in a file")
        else:
            self.panel.status.setText(f"{counted(len(trajectory.steps), 'step')} recorded"
                                      + ("" if answered else f", without an answer: no reference ({AGAIN})")
                                      + "; save them with “Save trajectory…”")

    def open_stored_trajectory_dialog(self) -> StoredTrajectoryPicker | None:
        """The picker of the project's trajectories, shown without blocking; the chosen one opens on accept."""
        if self._replay_goes_on():  # said before one is chosen (and again if a replay begins while it is open)
            return None
        if self.project is None:
            self.statusBar().showMessage("no project is open: trajectories are stored in a project", 8000)
            return None
        try:
            picker = StoredTrajectoryPicker(self.project, self)
        except RecordLensError as error:
            self.statusBar().showMessage(f"cannot read the project's trajectories: {error}", 10000)
            return None
        picker.accepted.connect(lambda: self.show_stored(picker.chosen()))
        picker.finished.connect(picker.deleteLater)
        picker.open()
        return picker

    def show_stored(self, entry: StoredTrajectory | None) -> None:
        """Show a stored trajectory, with the project's screenshots and its task's start page for replay."""
        if entry is None or self._replay_goes_on() or self.project is None:
            return
        trajectory = entry.trajectory
        # A task id is a site's own: the entry's site's task (a run that recorded no site: any site's, as before)
        task = next((t for t in self.project.agent.tasks(site=entry.site) if t.id == trajectory.task_id), None)
        self.show_trajectory(trajectory, start_url=task.start_url if task and task.start_url else None,
                             site=entry.site or (task.site if task else None))
        self.tabs.setCurrentWidget(self.viewer)
        site = self.browser.site
        if task is not None and site is not None and task.site and task.site != site.name:
            self.statusBar().showMessage(f"{trajectory.task_id} belongs to the site {task.site}; the site open "
                                         f"here is {site.name}, so a replay may not find its pages", 10000)

    def open_trajectory_dialog(self) -> None:
        if self._replay_goes_on():
            return
        name, _ = QFileDialog.getOpenFileName(self, "Open a trajectory", "", "Trajectory (*.json)")
        if name and not self._replay_goes_on():
            try:
                self.show_trajectory(load_trajectory_file(name))
            except (AgentError, OSError, json.JSONDecodeError) as error:
                self.statusBar().showMessage(str(error), 10000)
                return
            self.tabs.setCurrentWidget(self.viewer)

    def _replay_goes_on(self) -> bool:
        """Whether a replay goes on, said when it does: the trajectory it replays stays on show until it ends (its
        steps are counted and its result marked on the timeline on show)."""
        if self.viewer.replaying:
            self.statusBar().showMessage("a replay is going on: let it end before opening another trajectory", 10000)
        return self.viewer.replaying

    def save_trajectory_dialog(self) -> None:
        """Save the recording going on, else the trajectory on show (a finished recording is on show: one of a
        site opened before is not)."""
        # A stored trajectory on show holds none of its screenshots itself: they are gathered for the file
        trajectory = self.recorder.trajectory if self.recorder.recording else self.viewer.with_screenshots()
        if trajectory is None:
            self.statusBar().showMessage("nothing recorded yet", 6000)
            return
        name, _ = QFileDialog.getSaveFileName(self, "Save the trajectory", f"{trajectory.task_id or 'trajectory'}.json",
                                              "Trajectory (*.json)")
        if name:
            try:
                save_trajectory_file(trajectory, name)
            except OSError as error:
                self.statusBar().showMessage(f"not saved: {os_error_said(error)}", 10000)

    # -- lifetime ---------------------------------------------------------------------------------------------

    @property
    def closed(self) -> bool:
        return self._closed

    def shutdown(self) -> None:
        """Stop recording and release the browser (before the QApplication goes away). Idempotent."""
        if self._closed:
            return
        self._closed = True
        if self.recorder.recording:
            self.recorder.stop()
        self.browser.dispose()

    def may_close(self) -> bool:
        """False when the user keeps unsaved task edits, or an edit in the review queue (Cancel, or a Save that did
        not happen)."""
        review = self.task_editor.review
        return self._closed or (self.task_editor.may_discard("closing the agent window")
                                and (review is None or review.may_leave("closing the agent window")))

    def closeEvent(self, event) -> None:  # noqa: ANN001, N802 (Qt override)
        # The review queue is a window of its own: it goes with this one, and a close it refuses keeps both
        if not (self.may_close() and self.task_editor.close_review()):
            event.ignore()
            return
        self.shutdown()
        super().closeEvent(event)


def _read(path: Path | None) -> bytes | None:
    return path.read_bytes() if path is not None else None
