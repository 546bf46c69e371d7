"""What the labelling window's controllers (record actions, review, jobs, tool windows, zoom, import) may use of
the window: a Protocol, so that each controller depends on this contract and not on `MainWindow` itself (the
window imports them)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from pathlib import Path

    from PySide6.QtGui import QAction, QUndoGroup
    from PySide6.QtWidgets import QTabWidget

    from ...core.store import Change, Label, Project, Provenance
    from ..settings import KeyStore, Settings
    from .messages_dialog import MessageLog
    from .page_list import PageList
    from .page_view import PageView
    from .record_panel import RecordPanel
    from .review_panel import ReviewPanel


@dataclass
class RecordsAt:
    """The records (by their numbers; rejected ones left out) that an element on the page touches."""

    holders: list[int] = field(default_factory=list)  # hold the element itself
    around: list[int] = field(default_factory=list)  # hold an ancestor of it: it lies inside them
    within: list[int] = field(default_factory=list)  # hold a descendant of it: it would hold them
    innermost: int | None = None  # of `around`, the record whose element is the element's nearest ancestor


class LabellingWindow(Protocol):
    project: Project
    closed: bool  # the window has shut down: its project is closed
    settings: Settings
    settings_file: Path
    keys: KeyStore
    page_name: str | None
    page_loaded: bool
    labels: list[Label]
    page_list: PageList
    page_view: PageView
    record_panel: RecordPanel
    review_panel: ReviewPanel
    tabs: QTabWidget
    undo_group: QUndoGroup
    actions_by_name: dict[str, QAction]
    messages: MessageLog
    # The controllers themselves, as each may reach another through the window: typed loosely, since naming
    # their classes here would tie every controller to every other one again.
    record_actions: Any
    reviewing: Any
    jobs: Any
    tools: Any
    zoom: Any
    importing: Any

    @property
    def person(self) -> Provenance: ...

    def shows_project(self, root: Path) -> bool:
        """Whether the window still shows the project at `root` (not closed, no other opened)."""

    @property
    def shown_status(self) -> str | None:
        """The page on show's status as the window last read it (None with no page)."""

    def after_own_job(self, *_: object) -> None:
        """A job this window started has ended: what it wrote is no change made elsewhere."""

    def edit(self, text: str, change: Callable[[], Change]) -> Change | None: ...

    def edit_each(self, text: str, ids: Sequence[int], change: Callable[[int], Change]) -> int | None: ...

    def message(self, text: str, ms: int = 6000, *, of_page: str | None = None) -> None:
        """One line in the status bar; `of_page`: it tells of that page as on show, and goes when another opens."""

    def messages_keys(self) -> str: ...

    def keys_for(self, name: str) -> str: ...

    def label(self, record_id: int) -> Label | None: ...

    def current_label(self) -> Label | None: ...

    def records_at(self, xpath: str) -> RecordsAt: ...

    def point_at(self, xpath: str) -> str: ...

    def open_page(self, name: str) -> None: ...

    def jump_to_page(self, name: str) -> None: ...

    def reload_labels(self, selected: Sequence[int] | None = None) -> None: ...

    def redraw(self) -> None: ...

    def select_records(self, ids: Sequence[int], scroll: bool = True) -> None: ...

    def scroll_to_selected(self) -> None: ...

    def saved(self) -> None: ...

    def database_gone(self, say: bool = False) -> bool: ...

    def refresh_pages(self) -> None: ...

    def project_key(self) -> str: ...

    def save_where_the_user_was(self) -> None: ...
