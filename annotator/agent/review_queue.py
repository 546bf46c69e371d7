"""The review queue for candidate tasks: one candidate at a time, accepted (as is or edited), or marked similar,
unable to annotate or expired, with a reason; every verdict is saved to the candidates file at once.

A candidate is shown with its seeds (the expert tasks it was generated from, looked up by id among the tasks open
in the task editor, or in a seeds file opened with "Open seeds…") and its status in the file's words ("accepted",
with the funnel's "refined" beside it).

The gold answer is checked against the site (core's `SiteText`: does some saved page's text hold it?) and a
candidate whose answer no page holds is flagged. Keys: A accept, S similar, U unable, E expired, N next
candidate not reviewed yet. "Add refined to tasks" hands the accepted tasks to the task editor.

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

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QKeySequence, QShortcut
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


class ReviewQueue(QWidget):
    """Signals: `refined(tasks)` ("Add refined to tasks"), `changed()` after every saved verdict. `ask_judged_elsewhere`
    is how a candidate changed in the file since it was shown is asked about (tests answer it themselves)."""

    refined = Signal(object)
    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Review candidate tasks")
        self.path: Path | None = None
        self.start_folder: Path | None = None  # where "Open candidates…" starts before a file is open
        self.candidates: list[Candidate] = []
        self.ask_judged_elsewhere = ask_about_judged_elsewhere
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
        self.table.currentCellChanged.connect(lambda row, *_: self._show(row))
        self.instruction = QPlainTextEdit()
        self.instruction.setMaximumHeight(90)
        self.answer = QLineEdit()
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
        self._show(self.table.currentRow())

    def show_seeds_again(self) -> None:
        """The shown candidate's seeds as the task editor now has them (another tasks file opened there)."""
        candidate = self.current()
        if candidate is not None:
            self.seeds_view.setText(self._seeds_text(candidate))

    def set_seeds(self, tasks: list[Task]) -> None:
        """Seeds that stay as given (`seeds_from` for tasks that change)."""
        held = list(tasks)
        self.seeds_from(lambda: held)

    def load_seeds(self, path: str | Path) -> list[Task]:
        """A seeds file ("Open seeds…"): its tasks are the seeds shown, before the task editor's."""
        tasks = load_tasks(path)
        self.seeds_file = {task.id: task for task in tasks}
        self._show(self.table.currentRow())
        return tasks

    def load(self, path: str | Path) -> list[Candidate]:
        """The candidates of `path`, to review; a file RecordLens ships is refused (raises AgentError), as the
        shell's commands refuse it: each verdict is saved into the file at once, and that one is never changed."""
        refuse_shipped(path)
        self.candidates = load_candidates(path)
        self.path = Path(path)
        self._fill()
        self.next_pending()
        return self.candidates

    def _fill(self) -> None:
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

    def _show(self, row: int) -> None:
        if not 0 <= row < len(self.candidates):
            return
        candidate = self.candidates[row]
        if candidate.evidence is None and self._text is not None:
            candidate = self.candidates[row] = replace(candidate, evidence=self._text.evidence(candidate.task))
        self.instruction.setPlainText(candidate.task.instruction)
        self.answer.setText(candidate.task.answer)
        self.reason.setText(candidate.reason)
        self.evidence.setText(_evidence_text(candidate))
        similar = f"; similar to {candidate.similar_to} ({candidate.similarity:.3f})" if candidate.similar_to else ""
        self.seeds_view.setText(self._seeds_text(candidate))
        self.provenance.setText(f"{candidate.model or 'unknown'}{similar}; now {status_shown(candidate.status)}")

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
        file as it is now (module notes), which the list then shows. None when nothing was saved (said why)."""
        shown = self.current()
        if shown is None:
            return None
        try:  # a verdict that cannot be given is said before the file is read (and the site's text read before
            # the file is held, not while)
            self._verdict(shown, status)
        except AgentError as error:
            self.summary.setText(f"not saved: {error}")
            return None
        if self.path is None:
            return self._judge_in_memory(shown, status)
        replacing: tuple[object, ...] | None = None  # the file's verdict the reviewer chose to replace
        while True:
            outcome = self._judge_in_file(self.path, shown, status, replacing)
            if not isinstance(outcome, _JudgedElsewhere):
                break
            # asked with the file let go: a question left open keeps no other writer waiting
            there = outcome.there
            if not self.ask_judged_elsewhere(self, shown.id, _said(there), status):
                self._show_file(outcome.on_disk, shown.id, f"not saved: {shown.id} had been judged elsewhere "
                                                            f"meanwhile ({_said(there)}): that verdict kept")
                return None
            replacing = _verdict_fields(there)  # asked again only if it changes there once more
        if outcome is not None:
            emit(self.changed)
            self.next_pending()
        return outcome

    def _judge_in_file(self, path: Path, shown: Candidate, status: str,
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
        self._show_file(written, judged.id, "; ".join(note for note in (changed, *notes) if note))
        return judged

    def _reviewed(self, candidate: Candidate, status: str) -> Candidate:
        """`candidate` with `status` and the form's reason, instruction and answer (raises AgentError)."""
        return candidate.reviewed(status, self.reason.text().strip(),
                                  instruction=" ".join(self.instruction.toPlainText().split()),
                                  answer=self.answer.text().strip())

    def _verdict(self, candidate: Candidate, status: str) -> Candidate:
        """`_reviewed`, with the evidence of an edited answer looked for in the site's text (a search of every saved
        page: done once a verdict is given, not to check whether it can be)."""
        judged = self._reviewed(candidate, status)
        if judged.evidence is None and self._text is not None:
            judged = replace(judged, evidence=self._text.find(judged.task.answer))
        return judged

    def _judge_in_memory(self, shown: Candidate, status: str) -> Candidate:
        """A queue given candidates but no file (none is open): the verdict is the list's alone."""
        judged = self._verdict(shown, status)
        row = self.table.currentRow()
        self.candidates[row] = judged
        self._set_row(row, judged)
        self._summarise()
        emit(self.changed)
        self.next_pending()
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
        when the file cannot be read, said."""
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
        if name:
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


def _evidence_text(candidate: Candidate) -> str:
    if candidate.evidence is None:
        return "not checked (no site open)"
    if candidate.evidence == "":
        return "⚠ the gold answer is in no saved page's text: check it, refine it, or mark the task"
    return f"found on {candidate.evidence_said}"
