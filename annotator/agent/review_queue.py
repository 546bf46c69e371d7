"""The review queue for candidate tasks: one candidate at a time, accepted (as is or edited), or marked similar,
unable to annotate or expired, with a reason; every verdict is saved to the candidates file at once.

A candidate is shown with its seeds (the expert tasks it was generated from, looked up by id among the tasks open
in the task editor, or in a seeds file opened with "Open seeds…") and its status in the file's words ("accepted",
with the funnel's "refined" beside it).

The gold answer is checked against the site (core's `SiteText`: does some saved page's text hold it?) and a
candidate whose answer no page holds is flagged; the check follows the answer as it is edited, and an Accept of an
answer no page holds is saved but stays on the candidate, saying so. Keys: A accept, S similar, U unable, E
expired, N next candidate not reviewed yet. "Add refined to tasks" hands the accepted tasks to the task editor.

An edit in the form is saved only by a verdict: one about to be dropped (the window closed, another candidate
chosen, another file opened) is asked about as the task editor asks, Save (the edit saved, the candidate keeping
its status: one not reviewed stays so) / Discard / Cancel. `last_file` (the agent window sets it from the app's
settings) is the candidates file reopened when the queue opens with none; `opened(path)` says each one opened.

The file is shared: the shell's `agent tasks review`, `agent tasks filter` or a second window may write it while
the queue is open. So a verdict never writes the queue's copy: it reads the file again, changes only the candidate
judged, writes that (atomically) and shows the file as written, saying what had changed there. It holds the file's
lock from that read to the write, as those commands do (core's `writing_candidates`), so that none writes between
the two; one holding it longer than a moment is named and nothing is written. A candidate judged elsewhere
meanwhile is asked about (replace that verdict, or keep it), with the lock let go while asked; one removed
meanwhile, or a file gone or unreadable, is said and nothing is written, the verdict staying in the form to be
given again. A file RecordLens ships (the demo tasks) is not opened here, as the commands refuse to write it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QCloseEvent, QColor, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ...core.agent import (
    STATUS_LABELS,
    Candidate,
    Site,
    SiteText,
    Task,
    load_candidates,
    load_tasks,
    refuse_shipped,
    save_candidates,
    writing_candidates,
)
from ...core.command_hints import hint_path
from ...core.errors import AgentError
from ..qt.contrast import tint_cell
from ..qt.file_dialogs import FileDialog as QFileDialog  # Qt's, never opening a file it lists (see there)
from ..qt.screen_fit import resize_to_fit
from ..qt.signals import emit
from ..qt.widgets import button

COLUMNS = ("id", "category", "status", "instruction")
FLAGGED = QColor("#fff1d6")  # amber: a flagged row's tint on white; on another theme's rows, as it tints white
VERDICTS = (("Accept", "accepted", "A"), ("Similar", "similar", "S"), ("Unable to annotate", "unable", "U"),
            ("Expired", "expired", "E"))
CHECK_MS = 250  # the answer is looked for on the site once typing pauses this long, not at every key
Answer = QMessageBox.StandardButton


@dataclass(frozen=True)
class _JudgedElsewhere:
    """The candidate shown was judged elsewhere since: `there`, its verdict in the file read (`on_disk`)."""

    there: Candidate
    on_disk: list[Candidate]


def ask_about_judged_elsewhere(parent: QWidget, ident: str, there: str, verdict: str) -> bool:
    """Whether `verdict` replaces what the file now says of candidate `ident` (`there`), changed elsewhere since the
    queue showed it."""
    box = QMessageBox(QMessageBox.Icon.Warning, "Candidate judged elsewhere",
                      f"{ident} has been changed in the file since it was shown here: it is now {there}.\n\n"
                      f"Replace it: {ident} is saved as {verdict}, with the text shown here.\nKeep that verdict: "
                      "nothing is saved, and the queue shows the candidate as the file has it.",
                      QMessageBox.StandardButton.NoButton, parent)
    replace_it = box.addButton("Replace it", QMessageBox.ButtonRole.DestructiveRole)
    box.setDefaultButton(box.addButton("Keep that verdict", QMessageBox.ButtonRole.RejectRole))
    box.exec()
    return box.clickedButton() is replace_it


def ask_about_unsaved_edit(parent: QWidget, ident: str, status: str, what: str) -> Answer:
    """Save, Discard or Cancel for an edit of candidate `ident` (now `status`) not saved yet, before `what` ("closing
    the review queue") drops it."""
    return QMessageBox.question(
        parent, "Unsaved edit", f"The edit of {ident} is not saved: a verdict saves it. Save it before {what}?\n\n"
        f"Save: the edit is saved into the candidates file, {ident} staying {status}.\nDiscard: the edit is dropped.",
        Answer.Save | Answer.Discard | Answer.Cancel, Answer.Save)


class ReviewQueue(QWidget):
    """Signals: `refined(tasks)` ("Add refined to tasks"), `changed()` after every saved verdict, `opened(path)` a
    candidates file opened. `ask_judged_elsewhere` is how a candidate changed in the file since it was shown is asked
    about, `ask_to_keep` an edit about to be dropped (tests answer them themselves)."""

    refined = Signal(object)
    changed = Signal()
    opened = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Review candidate tasks")
        self.path: Path | None = None
        self.start_folder: Path | None = None  # where "Open candidates…" starts before a file is open
        self.last_file: Path | None = None  # the candidates file last reviewed, reopened (`reopen_or_ask`)
        self.candidates: list[Candidate] = []
        self.ask_judged_elsewhere = ask_about_judged_elsewhere
        self.ask_to_keep = ask_about_unsaved_edit
        self.on_form: Candidate | None = None  # the candidate the form shows (its edits compared with it)
        self._leaving_for: str | None = None  # the candidate chosen while the form held an edit, until asked
        # The seed tasks by id, to show a candidate's seeds themselves: those of a seeds file opened here come
        # before the task editor's (which may be another file's tasks under the same ids)
        self._seeds: Callable[[], list[Task]] = list  # the task editor's tasks as they are now (`seeds_from`)
        self.seeds_file: dict[str, Task] = {}
        self.site: Site | None = None
        self._text: SiteText | None = None
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        self.table.currentCellChanged.connect(lambda row, *_: self._on_row(row))
        self.instruction = QPlainTextEdit()
        self.instruction.setMaximumHeight(90)
        self.answer = QLineEdit()
        self._check = QTimer(self, singleShot=True, interval=CHECK_MS)
        self._check.timeout.connect(self._show_evidence)
        self.answer.textChanged.connect(lambda _: self._check.start())
        self.reason = QLineEdit()
        self.reason.setPlaceholderText("why (for similar, unable, expired; or what was refined)")
        self.provenance = QLabel("")
        self.provenance.setWordWrap(True)
        self.seeds_view = QLabel("")
        self.seeds_view.setWordWrap(True)
        self.seeds_view.setTextFormat(Qt.TextFormat.PlainText)  # a task's text is no markup
        self.seeds_view.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.evidence = QLabel("")
        self.evidence.setWordWrap(True)
        form = QFormLayout()
        form.addRow("Instruction", self.instruction)
        form.addRow("Gold answer", self.answer)
        form.addRow("On the site", self.evidence)
        form.addRow("Seeds", self.seeds_view)
        form.addRow("From", self.provenance)
        form.addRow("Reason", self.reason)
        buttons = QHBoxLayout()
        for text, status, key in VERDICTS:
            buttons.addWidget(button(f"{text} ({key})", lambda _=False, s=status: self.judge(s)))
            QShortcut(QKeySequence(key), self, activated=lambda s=status: self.judge(s))
        QShortcut(QKeySequence("N"), self, activated=self.next_pending)
        buttons.addWidget(button("Next not reviewed (N)", self.next_pending))
        buttons.addStretch(1)
        files = QHBoxLayout()
        for text, slot in (("Open candidates…", self.open_dialog), ("Open seeds…", self.open_seeds_dialog),
                           ("Add refined to tasks", self.hand_refined)):
            files.addWidget(button(text, slot))
        files.addStretch(1)
        self.summary = QLabel("")
        self.summary.setWordWrap(True)  # a note on the file's changes comes before the counts
        layout = QVBoxLayout(self)
        layout.addLayout(files)
        layout.addWidget(self.table, 1)
        layout.addLayout(form)
        layout.addLayout(buttons)
        layout.addWidget(self.summary)
        resize_to_fit(self, 900, 640)

    # -- data -------------------------------------------------------------------------------------------------

    def set_site(self, site: Site | None) -> None:
        self.site = site
        self._text = SiteText(site) if site is not None else None

    def seeds_from(self, tasks: Callable[[], list[Task]]) -> None:
        """Where the tasks open in the task editor are read, whose text is shown for a candidate's seed of the same
        id (unless a seeds file opened here has that id): read each time a candidate's seeds are shown, so that
        edits made there and another tasks file opened there are followed."""
        self._seeds = tasks
        self.show_seeds_again()

    def show_seeds_again(self) -> None:
        """The shown candidate's seeds as the task editor now has them (another tasks file opened there); the rest
        of the form, which may hold an edit, as it is."""
        if self.on_form is not None:
            self.seeds_view.setText(self._seeds_text(self.on_form))

    def set_seeds(self, tasks: list[Task]) -> None:
        """Seeds that stay as given (`seeds_from` for tasks that change)."""
        held = list(tasks)
        self.seeds_from(lambda: held)

    def load_seeds(self, path: str | Path) -> list[Task]:
        """A seeds file ("Open seeds…"): its tasks are the seeds shown, before the task editor's."""
        tasks = load_tasks(path)
        self.seeds_file = {task.id: task for task in tasks}
        self.show_seeds_again()
        return tasks

    def load(self, path: str | Path) -> list[Candidate]:
        """The candidates of `path`, to review; a file RecordLens ships is refused (raises AgentError), as the
        shell's commands refuse it: each verdict is saved into the file at once, and that one is never changed."""
        refuse_shipped(path)
        self.candidates = load_candidates(path)
        self.path = Path(path)
        self._fill()
        self.next_pending()
        emit(self.opened, self.path)
        return self.candidates

    def reopen_or_ask(self) -> None:
        """The candidates file last reviewed (`last_file`) opened again; asked for ("Open candidates…") when there is
        none, or it is gone or cannot be opened (said)."""
        last = self.last_file
        if last is not None:
            try:
                if not last.is_file():
                    raise AgentError("it is gone")
                self.load(last)
                return
            except AgentError as error:
                self.summary.setText(f"the candidates file last reviewed, {hint_path(last)}, cannot be opened: {error}")
        self.open_dialog()

    def _fill(self) -> None:
        self.on_form = None  # rows of another list: the form is filled again from the row chosen next
        self.table.setRowCount(0)
        for candidate in self.candidates:
            row = self.table.rowCount()
            self.table.insertRow(row)
            self._set_row(row, candidate)
        self._summarise()

    def _set_row(self, row: int, candidate: Candidate) -> None:
        values = (candidate.id, candidate.task.category, status_shown(candidate.status), candidate.task.instruction)
        flagged = candidate.evidence == ""
        for column, value in enumerate(values):
            item = QTableWidgetItem(value)
            self.table.setItem(row, column, item)
            if flagged:  # the tint laid on the theme's rows, its text in the shade that reads on it
                item.setToolTip("the gold answer is in no saved page's text")
                tint_cell(self.table, self.table.indexFromItem(item), FLAGGED)

    def _summarise(self, note: str = "") -> None:
        counts = {status_shown(status): 0 for status in STATUS_LABELS}
        for candidate in self.candidates:
            counts[status_shown(candidate.status)] += 1
        said = f"{len(self.candidates)} generated · " + " · ".join(f"{n} {k}" for k, n in counts.items())
        self.summary.setText(f"{note}\n{said}" if note else said)

    def current(self) -> Candidate | None:
        row = self.table.currentRow()
        return self.candidates[row] if 0 <= row < len(self.candidates) else None

    def _on_row(self, row: int) -> None:
        """Another row chosen: shown, unless the form holds an edit of another candidate, which is asked about first
        (`_ask_before_leaving`, once the click or key that chose the row is done: going back to the candidate edited
        during it would leave the row clicked selected)."""
        if not 0 <= row < len(self.candidates):
            return
        if self.on_form is not None and self.candidates[row].id == self.on_form.id:
            return  # back on the candidate the form shows, with its edit (`_ask_before_leaving`)
        if self._edited():
            if self._leaving_for is None:
                QTimer.singleShot(0, self._ask_before_leaving)
            self._leaving_for = self.candidates[row].id
            return
        self._show(row)

    def _ask_before_leaving(self) -> None:
        """Back on the candidate edited, its edit asked about; then on to the candidate chosen, unless kept."""
        chosen, self._leaving_for = self._leaving_for, None
        shown = self.on_form
        if shown is not None:
            self._choose(shown.id)  # the form still holds its edit: only the table goes back
            if not self.may_leave("going to another candidate"):
                return
        if chosen is not None:
            self._choose(chosen)

    def _choose(self, ident: str) -> None:
        row = next((i for i, c in enumerate(self.candidates) if c.id == ident), None)
        if row is not None:
            self.table.setCurrentCell(row, 0)

    def _form(self) -> tuple[str, str, str]:
        """The form's instruction, answer and reason as a verdict saves them (spacing collapsed, ends trimmed)."""
        return " ".join(self.instruction.toPlainText().split()), self.answer.text().strip(), self.reason.text().strip()

    def _edited(self) -> bool:
        """Whether the form holds what a verdict would save differently from the candidate it shows."""
        shown = self.on_form
        return shown is not None and self._form() != (" ".join(shown.task.instruction.split()),
                                                       shown.task.answer.strip(), shown.reason.strip())

    def may_leave(self, what: str) -> bool:
        """True when the form's edit may go before `what` ("closing the review queue"): there is none, or it was
        saved (Save: the candidate's own status given again, with the edit) or dropped (Discard: the form shows the
        candidate again). False: kept (Cancel, or a save that failed, said why)."""
        shown = self.on_form
        if shown is None or not self._edited():
            return True
        answer = self.ask_to_keep(self, shown.id, status_shown(shown.status), what)
        if answer == Answer.Save:
            return self.judge(shown.status) is not None
        if answer == Answer.Discard:
            self._fill_form(shown)
            return True
        return False

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt's name
        if not self.may_leave("closing the review queue"):
            event.ignore()
            return
        super().closeEvent(event)

    def _show(self, row: int) -> None:
        if not 0 <= row < len(self.candidates):
            return
        candidate = self.candidates[row] = self._checked(self.candidates[row])
        self._fill_form(candidate)

    def _fill_form(self, candidate: Candidate) -> None:
        self.on_form = candidate
        self.instruction.setPlainText(candidate.task.instruction)
        self.answer.setText(candidate.task.answer)
        self.reason.setText(candidate.reason)
        self._check.stop()  # the answer set is the candidate's: its evidence is shown as it is
        self.evidence.setText(_evidence_text(candidate))
        similar = f"; similar to {candidate.similar_to} ({candidate.similarity:.3f})" if candidate.similar_to else ""
        self.seeds_view.setText(self._seeds_text(candidate))
        self.provenance.setText(f"{candidate.model or 'unknown'}{similar}; now {status_shown(candidate.status)}")

    def _checked(self, candidate: Candidate) -> Candidate:
        """`candidate` with the saved page that shows its gold answer, as the task scores it, and how many hold it
        (`SiteText.evidence_of`), when not known yet and a site is open (raises AgentError: a page unreadable)."""
        if candidate.evidence is not None or self._text is None:
            return candidate
        page, pages = self._text.evidence_of(candidate.task)
        return replace(candidate, evidence=page, evidence_pages=pages)

    def _show_evidence(self) -> None:
        """The "On the site" line for the answer as the form has it now: the site's text is read once, so each
        check is a search of it."""
        shown = self.on_form
        if shown is None:
            return
        answer = self.answer.text().strip()
        if answer == shown.task.answer.strip():
            self.evidence.setText(_evidence_text(shown))
            return
        try:
            edited = self._checked(replace(shown, task=replace(shown.task, answer=answer), evidence=None,
                                           evidence_pages=None))
        except AgentError as error:
            self.evidence.setText(f"not checked: {error}")
            return
        self.evidence.setText(_evidence_text(edited))

    def _seeds_text(self, candidate: Candidate) -> str:
        """Each seed on a line of its own: its instruction and answer, or its id alone and where its text is."""
        if not candidate.seeds:
            return "none recorded"
        lines = []
        editors = {task.id: task for task in self._seeds()}
        for ident in candidate.seeds:
            seed = self.seeds_file.get(ident) or editors.get(ident)
            lines.append(f"{ident}: {seed.instruction} → {seed.answer}" if seed is not None else
                         f"{ident} (not among the tasks open: “Open seeds…” opens the seeds file to show it)")
        return "\n".join(lines)

    # -- verdicts ---------------------------------------------------------------------------------------------

    def judge(self, status: str) -> Candidate | None:
        """The shown candidate gets `status`, with the edited instruction and answer, and is saved at once: into the
        file as it is now (module notes), which the list then shows, on the next candidate not reviewed (an accepted
        answer on no saved page stays shown, said). None when nothing was saved (said why)."""
        shown = self.on_form
        if shown is None:
            return None
        try:  # a verdict that cannot be given is said before the file is read (and the site's text read before
            # the file is held, not while)
            self._verdict(shown, status)
        except AgentError as error:
            self.summary.setText(f"not saved: {error}")
            return None
        if self.path is None:
            judged = self._judge_in_memory(shown, status)
        else:
            judged = self._judge_in_file(self.path, shown, status)
        if judged is not None:
            emit(self.changed)
            if not _unfounded(judged):
                self.next_pending()
        return judged

    def _judge_in_file(self, path: Path, shown: Candidate, status: str) -> Candidate | None:
        """`_write_verdict`, with a candidate judged elsewhere meanwhile asked about (module notes)."""
        replacing: tuple[object, ...] | None = None  # the file's verdict the reviewer chose to replace
        while True:
            outcome = self._judge_holding(path, shown, status, replacing)
            if not isinstance(outcome, _JudgedElsewhere):
                return outcome
            # asked with the file let go: a question left open keeps no other writer waiting
            there = outcome.there
            if not self.ask_judged_elsewhere(self, shown.id, _said(there), status):
                self._show_file(outcome.on_disk, shown.id, f"not saved: {shown.id} had been judged elsewhere "
                                                            f"meanwhile ({_said(there)}): that verdict kept")
                return None
            replacing = _verdict_fields(there)  # asked again only if it changes there once more

    def _judge_holding(self, path: Path, shown: Candidate, status: str,
                       replacing: tuple[object, ...] | None) -> Candidate | _JudgedElsewhere | None:
        """`_write_verdict` holding the file's lock (`writing_candidates`), so that no other writer comes between
        its read and its write; None when another holds it (said)."""
        try:
            with writing_candidates(path) as notes:
                return self._write_verdict(path, shown, status, replacing, notes)
        except AgentError as error:  # (the lock's alone: `_write_verdict` says its own)
            self.summary.setText(f"not saved: {error}; the verdict stays here")
            return None

    def _write_verdict(self, path: Path, shown: Candidate, status: str, replacing: tuple[object, ...] | None,
                       notes: list[str]) -> Candidate | _JudgedElsewhere | None:
        """The verdict written into `path` as it is now, and the list showing the file as written: the candidate
        saved; or the file's candidate when it was judged elsewhere since shown (a verdict neither shown nor
        `replacing`), to be asked about; or None when nothing was saved (said why)."""
        try:
            on_disk = self._read_again(path)
        except AgentError as error:
            self.summary.setText(f"not saved: {error}; the file is not written, and the verdict stays here: give it "
                                 "again once the file reads")
            return None
        index = next((i for i, c in enumerate(on_disk) if c.id == shown.id), None)
        if index is None:
            self._show_file(on_disk, None, f"not saved: {shown.id} is no longer in {hint_path(path)} (removed since it "
                                           f"was shown here); the list shows the file as it is now")
            return None
        there = on_disk[index]
        if _verdict_fields(there) not in (_verdict_fields(shown), replacing):
            return _JudgedElsewhere(there, on_disk)
        try:
            judged = self._verdict(_with_evidence_of(there, shown), status)
            written = [*on_disk[:index], judged, *on_disk[index + 1:]]
            save_candidates(path, written)
        except (AgentError, OSError) as error:
            self.summary.setText(f"not saved: {error}")
            return None
        changed = _changed_elsewhere(self.candidates, on_disk, judged.id)
        self._show_file(written, judged.id, "; ".join(note for note in (_warning(judged), changed, *notes) if note))
        return judged

    def _verdict(self, candidate: Candidate, status: str) -> Candidate:
        """`candidate` with `status` and the form's instruction, answer and reason (raises AgentError), the evidence of
        an edited answer looked for in the site's text, as the "On the site" line looks for it."""
        instruction, answer, reason = self._form()
        return self._checked(candidate.reviewed(status, reason, instruction=instruction, answer=answer))

    def _judge_in_memory(self, shown: Candidate, status: str) -> Candidate:
        """A queue given candidates but no file (none is open): the verdict is the list's alone."""
        judged = self._verdict(shown, status)
        row = next(i for i, c in enumerate(self.candidates) if c.id == shown.id)
        self.candidates[row] = judged
        self._set_row(row, judged)
        self._fill_form(judged)
        self._summarise(_warning(judged))
        return judged

    def _read_again(self, path: Path) -> list[Candidate]:
        """The candidates file as it is now (AgentError, said for a reviewer, when it is gone or cannot be read)."""
        if not path.exists():
            raise AgentError(f"{hint_path(path)} is no longer there (deleted or moved since it was opened here): put "
                             "it back, or open it where it now is with “Open candidates…”")
        return load_candidates(path)

    def _show_file(self, candidates: list[Candidate], current: str | None, note: str) -> None:
        """The list as the file now holds `candidates`, on candidate `current` (else the first not reviewed)."""
        self.candidates = candidates
        self._fill()
        row = next((i for i, c in enumerate(candidates) if c.id == current), None)
        if row is not None:
            self.table.setCurrentCell(row, 0)
        else:
            self.next_pending()
        self._summarise(note)

    def next_pending(self) -> None:
        start = self.table.currentRow()
        count = len(self.candidates)
        for step in range(1, count + 1):
            row = (start + step) % count if count else 0
            if self.candidates[row].status == "candidate":
                self.table.setCurrentCell(row, 0)
                return
        if count and self.table.currentRow() < 0:
            self.table.setCurrentCell(0, 0)

    def hand_refined(self) -> None:
        """The accepted tasks as the file has them now (accepted from a shell meanwhile too); the queue's own list
        when the file cannot be read, said. An edit in the form is asked about first: the list is read again."""
        if not self.may_leave("adding the refined tasks"):
            return
        note = ""
        if self.path is not None:
            current = self.current()
            try:
                on_disk = self._read_again(self.path)
            except AgentError as error:
                note = f"the accepted tasks as this window last showed them: {error}"
            else:
                self._show_file(on_disk, current.id if current is not None else None,
                                _changed_elsewhere(self.candidates, on_disk, ""))
        tasks = [c.task for c in self.candidates if c.status == "accepted"]
        emit(self.refined, tasks)
        if note:
            self._summarise(note)

    def open_seeds_dialog(self) -> None:
        name, _ = QFileDialog.getOpenFileName(self, "Open the seed tasks", str(self.start_folder or self.path or ""),
                                              "Tasks (*.jsonl);;All (*)")
        if name:
            try:
                self.load_seeds(name)
            except AgentError as error:
                self.summary.setText(str(error))

    def open_dialog(self) -> None:
        name, _ = QFileDialog.getOpenFileName(self, "Open candidate tasks", str(self.path or self.start_folder or ""),
                                              "Candidates (*.jsonl);;All (*)")
        if name and self.may_leave("opening another candidates file"):
            try:
                self.load(name)
            except AgentError as error:
                self.summary.setText(str(error))


def status_shown(status: str) -> str:
    """A status in the candidates file's word, with the funnel's where it says another ("accepted (refined)",
    "candidate (not reviewed)"; "unable to annotate" holds the file's "unable")."""
    label = STATUS_LABELS[status]
    return label if label.startswith(status) else f"{status} ({label})"


def _verdict_fields(candidate: Candidate) -> tuple[object, ...]:
    """What a review or the filter changes in a candidate: not the answer's evidence, which the queue fills in for
    the candidate it shows without writing it."""
    return (candidate.task, candidate.status, candidate.reason, candidate.original, candidate.similar_to,
            candidate.similarity, candidate.filter)


def _said(candidate: Candidate) -> str:
    """A candidate's verdict as the file has it, for a reviewer: "unable (no such rule)", "candidate (not reviewed)"."""
    edited = ", its text edited" if candidate.edited else ""
    return (f"{candidate.status} ({candidate.reason}){edited}" if candidate.reason else
            f"{status_shown(candidate.status)}{edited}")


def _with_evidence_of(there: Candidate, shown: Candidate) -> Candidate:
    """The file's candidate with the evidence the queue found for it while it was shown (the same answer)."""
    if there.evidence is not None or shown.evidence is None or there.task.answer != shown.task.answer:
        return there
    return replace(there, evidence=shown.evidence, evidence_pages=shown.evidence_pages)


def _changed_elsewhere(before: list[Candidate], now: list[Candidate], judged: str) -> str:
    """What the file's writers other than this queue changed since it was read here, or "" (nothing)."""
    held = {c.id: _verdict_fields(c) for c in before}
    there = {c.id: _verdict_fields(c) for c in now}
    changed = sum(held[i] != fields for i, fields in there.items() if i in held and i != judged)
    added = len(there.keys() - held.keys())
    removed = len(held.keys() - there.keys())
    parts = [f"{n} {what}" for n, what in ((changed, "candidate(s) judged or edited elsewhere kept as they are there"),
                                           (added, "added there"), (removed, "removed there")) if n]
    return f"the file had changed on disk since it was read here: {', '.join(parts)}" if parts else ""


def _unfounded(candidate: Candidate) -> bool:
    """An accepted task whose gold answer the site was searched for and no saved page holds."""
    return candidate.status == "accepted" and candidate.evidence == ""


def _warning(judged: Candidate) -> str:
    """What a reviewer is told of a verdict just saved before going on: an accepted answer on no saved page."""
    if not _unfounded(judged):
        return ""
    return (f"⚠ {judged.id} saved as accepted, but its gold answer is in no saved page's text: check the answer, or "
            "give another verdict; N goes on to the next one not reviewed")


def _evidence_text(candidate: Candidate) -> str:
    if candidate.evidence is None:
        return "not checked (no site open)"
    if candidate.evidence == "":
        return "⚠ the gold answer is in no saved page's text: check it, refine it, or mark the task"
    return f"found on {candidate.evidence_said}"
