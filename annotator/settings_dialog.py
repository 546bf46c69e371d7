"""The settings dialog: the Gemini key (keyring or session), the model, the default extractor, the annotator."""

from __future__ import annotations

import shlex
from collections.abc import Sequence

from PySide6.QtCore import QSize
from PySide6.QtGui import QResizeEvent, QShowEvent
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QWidget,
)

from ..core import extract
from ..core.llm import endpoint_problem, holds_credential, without_credential
from ..core.page import FORMATS
from ..core.store import PROJECT_SET
from ..core.text_forms import read_alike, written
from .qt.contrast import keep_as_warning
from .settings import (
    GEMINI,
    KeyStore,
    Settings,
    credential_left_out,
    key_in_use_said,
    key_mark_in,
    offline_default_method,
)

# Extractors that need more than a page (recorded answers) cannot propose.
_NOT_PROPOSERS = frozenset({"replay"})


def proposer_names() -> list[str]:
    return [name for name, _ in extract.available() if name not in _NOT_PROPOSERS]


class SettingsDialog(QDialog):
    def __init__(self, settings: Settings, keys: KeyStore, parent: QWidget | None = None,
                 annotators: Sequence[str] = ()) -> None:
        """`annotators`: the names of the label sets imported into the open project, which the person's name must
        not be (their records would read as the person's)."""
        super().__init__(parent)
        self.setWindowTitle("RecordLens settings")
        # The height the dialog grew for each note on show, given back when it goes (`_show_note`), and the size it
        # last gave itself: any other is the user's (`resizeEvent`)
        self._room: dict[QLabel, int] = {}
        self._asked = QSize()
        self._settings = settings
        self._keys = keys
        stored = keys.get()
        self.key = QLineEdit()
        self.key.setEchoMode(QLineEdit.EchoMode.Password)
        self.key.setPlaceholderText("stored key kept" if stored else "paste a Gemini API key")
        self.key_note = QLabel(f"The key is {keys.description}; it is never written to a project or a log.")
        self.key_note.setWordWrap(True)
        self.clear_key = QComboBox()
        self.clear_key.addItems(["keep the key as it is", "forget the stored key"])
        self.clear_key.setEnabled(bool(stored))
        self._stored = bool(stored)
        self.key_in_use = QLabel()  # a key in the environment: whether Propose sends it or the one given here
        self.key_in_use.setWordWrap(True)
        self.key_in_use.hide()
        self.key.textChanged.connect(self._say_key_in_use)
        self.clear_key.currentIndexChanged.connect(self._say_key_in_use)
        self.model = QLineEdit(settings.model)
        self.extractor = QComboBox()
        self.extractor.addItem(f"offline default ({offline_default_method()})", "")
        for name in proposer_names():
            self.extractor.addItem(name, name)
        self.extractor.setCurrentIndex(max(0, self.extractor.findData(settings.default_extractor)))
        self.gemini_format = QComboBox()
        self.gemini_format.addItems(list(FORMATS))
        self.gemini_format.setCurrentText(settings.gemini_format)
        self.endpoint = QLineEdit(settings.gemini_endpoint)
        self.endpoint.setPlaceholderText("empty: Google's; or a proxy's http(s):// address")
        self.endpoint.setMinimumWidth(380)
        self.endpoint_note = QLabel()  # a credential in the address: used this session, never saved
        self.endpoint_note.setWordWrap(True)
        self.endpoint_note.hide()
        self.endpoint.textChanged.connect(self._say_endpoint_credential)
        self.endpoint.textChanged.connect(self._say_refusal_again)
        self.extractor.currentIndexChanged.connect(self._say_refusal_again)  # the mark refused for Gemini only
        self.problem = QLabel()  # why OK did not close the dialog
        self.problem.setWordWrap(True)
        self.problem.hide()
        self.annotator = QLineEdit(settings.annotator)
        self.annotator.setPlaceholderText(settings.person)
        self._annotators = sorted(annotators)  # the first of several spellings named, the same each time
        self.name_clash = QLabel()  # the name is an imported annotator's, or the project's own labels'
        self.name_clash.setWordWrap(True)
        self.name_clash.hide()
        self.annotator.textChanged.connect(self._say_name_clash)
        form = QFormLayout(self)
        form.addRow("Gemini key", self.key)
        form.addRow("", self.clear_key)
        form.addRow("", self.key_note)
        form.addRow("", self.key_in_use)
        form.addRow("Gemini model", self.model)
        form.addRow("Gemini input format", self.gemini_format)
        form.addRow("Gemini endpoint", self.endpoint)
        form.addRow("", self.endpoint_note)
        form.addRow("Default extractor", self.extractor)
        form.addRow("Annotator name", self.annotator)
        form.addRow("", self.name_clash)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        form.addRow("", self.problem)
        buttons.accepted.connect(self._accept_if_valid)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        for warning in (self.problem, self.name_clash):  # red that reads on a dark theme too, and after a switch
            keep_as_warning(warning)
        self._say_name_clash()
        self._say_endpoint_credential()
        self._say_key_in_use()

    def _say_name_clash(self) -> None:
        """A warning, as the name is typed, when it is an imported annotator's or `project`: `recordlens agreement`
        takes that name for the label set, and needs `person:NAME` for the records made under it (core tells the
        two apart through the history; the names alone no longer do)."""
        name = self.annotator.text().strip() or self.annotator.placeholderText()
        person = shlex.quote(f"person:{name}")
        if name == PROJECT_SET:
            text = (f"“{PROJECT_SET}” names the project's own labels in `recordlens agreement`: `agreement` then "
                    f"needs `{person}` to mean you. Another name avoids that.")
        elif name in self._annotators:
            text = (f"{name} is also an imported annotator of this project: `recordlens agreement` then needs "
                    f"`{person}` to mean you (`--between {shlex.quote(name)}` means the imported labels). Another "
                    "name avoids that.")
        elif alike := [other for other in self._annotators if read_alike(other, name)]:
            # another Unicode form, other spaces: the same name to a reader, and to `agreement`
            text = (f"{written(name)} is another spelling of {written(alike[0])}, an imported annotator of this "
                    f"project: `recordlens agreement` reads it as the imported labels, and then needs `{person}` to "
                    "mean you. Another name avoids that.")
        else:
            text = ""
        self._show_note(self.name_clash, text)

    def _say_endpoint_credential(self) -> None:
        """A note, as the endpoint is typed, when it holds a credential (the settings file keeps none: it is used
        this session and saved as [key], or %5Bkey%5D before the host), or holds the mark where one was left out."""
        endpoint = self.endpoint.text().strip()
        if mark := key_mark_in(endpoint):  # the mark a credential was saved as, named as the address writes it
            text = (f"{mark} stands for the credential of this address, which the settings file does not keep: "
                    f"replace it with the credential to propose through this endpoint.")
        elif holds_credential(endpoint):
            text = (f"The credential in this address is used for this session only: the settings file keeps no "
                    f"secret, so it saves {without_credential(endpoint)} (give the credential again after a "
                    "restart).")
        else:
            text = ""
        self._show_note(self.endpoint_note, text)

    def _show_note(self, label: QLabel, text: str) -> None:
        """A note under the fields shown (`text`), or hidden (""): the dialog grows for it rather than clip it, and
        gives back what it grew once it goes (`_give_back_room`)."""
        label.setText(text)
        label.setVisible(bool(text))
        if not self.isVisible():
            if text:
                self.adjustSize()  # opened at the height its notes need (`showEvent` counts their room)
            return
        if text:
            self._make_room(label)
        else:
            self._give_back_room(label)

    def _height_needed(self) -> int:
        """The height the dialog's fields and notes need at its width: its notes wrap, so taller when narrower."""
        layout = self.layout()
        layout.activate()
        if layout.hasHeightForWidth():
            return layout.totalHeightForWidth(self.width())
        return layout.totalSizeHint().height()

    def _make_room(self, label: QLabel) -> None:
        """Grow to the height the note needs (never shrink: a dialog the user made larger keeps its size), and keep
        how much, to give it back."""
        before, needed = self.height(), self._height_needed()
        if needed > before:
            self._resize_to(needed)
        self._room[label] = self._room.get(label, 0) + self.height() - before

    def _give_back_room(self, label: QLabel) -> None:
        """The note gone: the height the dialog grew for it given back, no more (what its fields need is kept)."""
        room = self._room.pop(label, 0)
        if room > 0:
            self._resize_to(max(self.height() - room, self._height_needed()))

    def _resize_to(self, height: int) -> None:
        self._asked = QSize(self.width(), height)
        self.resize(self._asked)

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt's name
        """Opened with notes (`adjustSize`): the room each takes is what the dialog gives back when it goes."""
        super().showEvent(event)
        if not event.spontaneous():
            spacing = max(0, self.layout().spacing())
            self._room = {note: note.height() + spacing for note in self._notes() if not note.isHidden()}

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        """A size the user gave the dialog is theirs: no note gone later shrinks it (the room kept so far is
        forgotten)."""
        super().resizeEvent(event)
        if self.isVisible() and event.size() != self._asked and event.size().height() != event.oldSize().height():
            self._room.clear()

    def _notes(self) -> tuple[QLabel, ...]:
        return self.key_in_use, self.endpoint_note, self.problem, self.name_clash

    def _say_key_in_use(self) -> None:
        """Which key Propose sends, when the environment holds one: that one while none is given here, else the
        one given here (typed, or stored and not being forgotten), which wins."""
        stored = self._stored and self.clear_key.currentIndex() == 0
        self._show_note(self.key_in_use, key_in_use_said(typed=bool(self.key.text().strip()), stored=stored))

    def _endpoint_refusal(self) -> str | None:
        """Why OK cannot take the endpoint: no http(s) address (a bare host:port would fail every Propose after
        its retries), or, for Propose with Gemini, the mark of a credential the settings file left out (Propose
        would refuse every call); None when it can work."""
        endpoint = self.endpoint.text().strip()
        problem = endpoint_problem(endpoint) if endpoint else None
        left_out = credential_left_out(endpoint)
        if left_out and (problem or self.uses_gemini()):  # unparsed: the bracketed mark a previous version saved
            return f"The Gemini endpoint {left_out}: replace the mark with the credential to propose with Gemini."
        return f"The Gemini endpoint {problem}." if problem else None

    def _say_refusal_again(self) -> None:
        """A refusal on show follows the endpoint as it is edited (and the extractor chosen): gone once OK would
        take it, else what is wrong now, so that no red stays on a corrected address."""
        if not self.problem.isHidden():
            self._show_note(self.problem, self._endpoint_refusal() or "")

    def _accept_if_valid(self) -> None:
        """OK closes the dialog only on settings that can work (`_endpoint_refusal`): else it says why, in the
        dialog, with the endpoint's field focused, and nothing is saved."""
        refusal = self._endpoint_refusal()
        if refusal:
            self._show_note(self.problem, refusal)  # the dialog grows rather than clipping it and the note above
            self.endpoint.setFocus()
            return
        self.accept()

    def apply(self) -> None:
        """Write the dialog's choices into the settings and the key store (the caller saves the settings)."""
        entered = self.key.text().strip()
        if entered:
            self._keys.set(entered)
        elif self.clear_key.currentIndex() == 1:
            self._keys.set(None)
        self._settings.model = self.model.text().strip() or self._settings.model
        self._settings.default_extractor = str(self.extractor.currentData() or "")
        self._settings.gemini_format = self.gemini_format.currentText()
        self._settings.annotator = self.annotator.text().strip()
        self._settings.gemini_endpoint = self.endpoint.text().strip()

    def uses_gemini(self) -> bool:
        return self.extractor.currentData() == GEMINI
