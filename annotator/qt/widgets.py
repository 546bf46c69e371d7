"""Small builders for what the windows put together the same way: a push button wired to what it does, a
column of parts without margins, panes side by side in a splitter."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtWidgets import QLayout, QPushButton, QSplitter, QVBoxLayout, QWidget


def button(text: str, on_click: Callable[..., object]) -> QPushButton:
    """A push button connected to `on_click`."""
    made = QPushButton(text)
    made.clicked.connect(on_click)
    return made


def column(*parts: QWidget | QLayout | tuple[QWidget, int]) -> QWidget:
    """A widget holding `parts` top to bottom, without margins; a (widget, stretch) pair takes that share of
    the height left over."""
    holder = QWidget()
    layout = QVBoxLayout(holder)
    layout.setContentsMargins(0, 0, 0, 0)
    for part in parts:
        if isinstance(part, QLayout):
            layout.addLayout(part)
        elif isinstance(part, tuple):
            layout.addWidget(*part)
        else:
            layout.addWidget(part)
    return holder


def side_by_side(*panes: QWidget, sizes: Sequence[int], stretch: int) -> QSplitter:
    """`panes` left to right in a splitter, `sizes` pixels wide at first; the pane at index `stretch` takes
    what the window grows by."""
    splitter = QSplitter()
    for pane in panes:
        splitter.addWidget(pane)
    splitter.setStretchFactor(stretch, 1)
    splitter.setSizes(list(sizes))
    return splitter
