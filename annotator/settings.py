"""The annotator's settings (a small JSON file in the user's config folder) and where the Gemini key lives.

The key is never written to the settings file nor to a project: it goes to the operating system's keyring when
the optional `keyring` package is installed and finds a working backend, otherwise it is kept in memory for this
session only. A credential typed into the Gemini endpoint (`?key=...`, `user:password@`) is used this session and
saved as `[key]`, as a run records the endpoint. No Qt here, so the rules are testable without a display.

Several windows (each its own process) share the file: each saves only what it changed since it read it, onto
the file as it is then (`Settings.save`), so one window's save never undoes another's change.
"""

from __future__ import annotations

import contextlib
import getpass
import json
import logging
import math
import sys
import tempfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import MISSING, asdict, dataclass, fields
from pathlib import Path
from typing import Any, Protocol

import platformdirs

from ..core.atomic import write_text
from ..core.command_hints import hint_path
from ..core.errors import system_words
from ..core.file_kinds import read_regular_file, unreadable_kind
from ..core.llm import (
    DEFAULT_MODEL,
    KEY_MARK,
    USERINFO_MARK,
    api_key_from_environment,
    holds_key_mark,
    key_choice_said,
    key_variable_used,
    without_credential,
)
from ..core.wording import json_problem

APP_DIR_NAME = "recordlens"
SETTINGS_FILE = "annotator.json"
KEYRING_SERVICE = "recordlens"
KEYRING_USER = "gemini-api-key"
GEMINI = "gemini"
MDR = "mdr"
MIN_ZOOM, MAX_ZOOM = 0.25, 3.0  # the ends of the page view's zoom stops (labelling/zoom.py)

_log = logging.getLogger(__name__)


def offline_default_method() -> str:
    """The default extractor of `extract` (the offline one); MDR if that name is not registered."""
    from ..core import extract

    return extract.DEFAULT_METHOD if extract.DEFAULT_METHOD in dict(extract.available()) else MDR


def _default_person() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no login name (some containers)
        return "annotator"


RowKey = tuple[str, tuple[str, ...], tuple[str, ...]]  # a review row's record: kind, XPaths, the true record's XPaths


@dataclass(frozen=True)
class ReviewRows:
    """The rows the Review list had chosen (selected, and the current one) on a page under review of a run (an id)
    or an annotator ("annotator:NAME"), each by its record (`RowKey`, as a redraw finds a row again): what a start
    chooses again, as it selects the records selected in labelling at the last quit."""

    run: int | str
    page: str
    chosen: tuple[RowKey, ...]
    current: RowKey | None

    def written(self) -> dict[str, object]:
        """As the settings file holds it (JSON: lists)."""
        return {"run": self.run, "page": self.page, "chosen": [_written_key(key) for key in self.chosen],
                "current": None if self.current is None else _written_key(self.current)}

    @classmethod
    def read(cls, value: object) -> ReviewRows | None:
        """The rows as `written` wrote them; None for anything else (a damaged or hand-edited file)."""
        if not isinstance(value, dict):
            return None
        run, page, chosen, current = (value.get(k) for k in ("run", "page", "chosen", "current"))
        if isinstance(run, bool) or not isinstance(run, int | str) or not isinstance(page, str) or not isinstance(
                chosen, list):
            return None
        keys = [_read_key(key) for key in chosen]
        now = None if current is None else _read_key(current)
        if any(key is None for key in keys) or (current is not None and now is None):
            return None
        return cls(run, page, tuple(key for key in keys if key is not None), now)


@dataclass(frozen=True)
class ReviewWalk:
    """Where W's walk through the pages of a run (an id) or an annotator's comparison ("annotator:NAME") under
    review stands: its pages in the order W walks them, and the place in it of the last page W opened (the next W
    opens the one after). What a start goes on with, as it comes back on the page last open."""

    run: int | str
    order: tuple[str, ...]
    at: int

    def written(self) -> dict[str, object]:
        """As the settings file holds it (JSON: lists)."""
        return {"run": self.run, "order": list(self.order), "at": self.at}

    @classmethod
    def read(cls, value: object) -> ReviewWalk | None:
        """The walk as `written` wrote it; None for anything else (a damaged or hand-edited file)."""
        if not isinstance(value, dict):
            return None
        run, order, at = (value.get(k) for k in ("run", "order", "at"))
        if isinstance(run, bool) or not isinstance(run, int | str) or not _strings(order) or not order:
            return None
        if isinstance(at, bool) or not isinstance(at, int) or not 0 <= at < len(order):
            return None
        return cls(run, tuple(order), at)


def _written_key(key: RowKey) -> list[object]:
    kind, xpaths, true_xpaths = key
    return [kind, list(xpaths), list(true_xpaths)]


def _read_key(value: object) -> RowKey | None:
    if not isinstance(value, list) or len(value) != 3:
        return None
    kind, xpaths, true_xpaths = value
    if not isinstance(kind, str) or not _strings(xpaths) or not _strings(true_xpaths):
        return None
    return kind, tuple(xpaths), tuple(true_xpaths)


def _strings(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


@dataclass
class Settings:
    model: str = DEFAULT_MODEL
    default_extractor: str = ""   # "" means the offline default (see `proposal_method`)
    gemini_format: str = "flat"
    annotator: str = ""           # the person named in the labels' provenance; "" means the login name
    gemini_endpoint: str = ""     # another server speaking Gemini's protocol (a proxy); "" means Google's
    last_pages: str = ""          # JSON {project folder: the page last open}: a project reopens where it was left
    last_project: str = ""        # the project folder last open: the app reopens it when started without one
    last_selections: str = ""     # JSON {project folder: {"page": name, "records": [ids], "scroll_y": px,
    #                               "selected_top": px}}: selected at quit, the page's scroll and where the first
    #                               selected record started on the page, if it showed (`last_selection_top`)
    zooms: str = ""               # JSON {project folder: the page view's zoom factor}
    reviews: str = ""             # JSON {project folder: {"run": id or "annotator:NAME", "shown": [classes],
    #                               "on_show": the Review tab was, "rows": the Review list's rows chosen at quit
    #                               (`ReviewRows`: {"run", "page", "chosen": [[kind, [xpaths], [true xpaths]]],
    #                               "current": [kind, [xpaths], [true xpaths]] or null}), "walk": where W's walk
    #                               stands (`ReviewWalk`: {"run", "order": [pages], "at": the last W opened})}}
    page_filters: str = ""        # JSON {project folder: {"status": the page status shown or null for every one,
    #                               "search": text}}: what narrowed the page list ("show pages" and its search) when
    #                               the project was left; no entry: it showed every page
    project_files: str = ""       # JSON {project folder: {"file": its database file, "DEVICE:INODE", "project": its
                                  # fingerprint}}: moved, a project is known by both, and takes what was remembered
                                  # under its old folder (`follow_move`)
    import_folder: str = ""       # where pages were last imported from: the import dialogs open there
    window_geometry: str = ""     # the main window's place, size and maximised state at quit (Qt's, base64)
    panel_widths: str = ""        # JSON [px]: the main window's panels' widths, left to right, as the person last
                                  # dragged them ("": never dragged, they take their share of the window)
    agent_site: str = ""          # the site folder last open in the agent window: it reopens there ("" the demo)
    agent_tasks: str = ""         # the tasks file last open in the agent window ("" the demo's)
    agent_candidates: str = ""    # the candidates file last open in its review queue: reopened there ("" none)
    unfinished_said: str = ""     # JSON {project folder: [row ids]}: the recordings ended with the app (unfinished)
                                  # that the agent window has said at a start, each said once

    def __post_init__(self) -> None:
        # The values as last read from or written to the file (for settings made in code: the defaults); what
        # differs from them is what this process changed, the only thing `save` writes over the file.
        self._as_read: dict[str, str] = _defaults()
        self._file: Path | None = None  # that file (None: made in code)

    def last_page(self, project: str) -> str | None:
        value = _by_project(self.last_pages).get(project)
        return value if isinstance(value, str) else None

    def remember_page(self, project: str, page: str) -> None:
        self.last_pages = _with_project(self.last_pages, project, page)
        self.last_project = project

    def last_selection(self, project: str, page: str) -> list[int]:
        """The records selected on `page` when the project was last left on it (none if it was left elsewhere)."""
        value = _by_project(self.last_selections).get(project)
        if not isinstance(value, dict) or value.get("page") != page or not isinstance(value.get("records"), list):
            return []
        return [i for i in value["records"] if isinstance(i, int) and not isinstance(i, bool)]

    def remember_selection(self, project: str, page: str, records: Sequence[int], scroll_y: int | None = None,
                           selected_top: float | None = None) -> None:
        """The records selected on `page` at quit, the page's scroll (`scroll_y`, CSS px) and where the first
        selected record started on the page (`selected_top`: its document y, CSS px) if it showed in the view at
        that scroll (None: it did not, or nothing is selected)."""
        kept: dict[str, object] = {"page": page, "records": list(records)}
        if scroll_y is not None:
            kept["scroll_y"] = int(scroll_y)
            if selected_top is not None:
                kept["selected_top"] = float(selected_top)
        self.last_selections = _with_project(self.last_selections, project, kept)

    def last_scroll(self, project: str, page: str) -> int | None:
        """Where the page was scrolled to when the project was last left on it (None: not kept)."""
        value = _by_project(self.last_selections).get(project)
        if not isinstance(value, dict) or value.get("page") != page:
            return None
        y = value.get("scroll_y")
        return y if isinstance(y, int) and not isinstance(y, bool) and y >= 0 else None

    def last_selection_top(self, project: str, page: str) -> float | None:
        """Where the first record selected at the last quit on `page` started on the page (document y, CSS px),
        shown in the view at the scroll kept with it: a page laid out otherwise since (another font size, scale
        or width) has moved it by as much as the scroll must move to show it at the same place. None: not kept
        (nothing selected showed then, or settings written by a RecordLens that kept no such place)."""
        value = _by_project(self.last_selections).get(project)
        if not isinstance(value, dict) or value.get("page") != page or self.last_scroll(project, page) is None:
            return None
        top = value.get("selected_top")
        return float(top) if isinstance(top, int | float) and not isinstance(top, bool) and math.isfinite(top) else None

    def zoom(self, project: str) -> float:
        """The zoom the project's pages were last shown at; 1.0 when none was kept or it is out of reason."""
        value = _by_project(self.zooms).get(project)
        if isinstance(value, bool) or not isinstance(value, int | float) or not MIN_ZOOM <= value <= MAX_ZOOM:
            return 1.0
        return float(value)

    def remember_zoom(self, project: str, factor: float) -> None:
        self.zooms = _with_project(self.zooms, project, round(float(factor), 3))

    def review_run(self, project: str) -> int | str | None:
        """The run (an id) or annotator's label set ("annotator:NAME") last under review in the project."""
        value = _by_project(self.reviews).get(project)
        run = value.get("run") if isinstance(value, dict) else None
        return run if isinstance(run, int | str) and not isinstance(run, bool) else None

    def review_classes(self, project: str) -> list[str] | None:
        """The review classes (matched, partial, missed, spurious) last shown in the project; None: not kept."""
        value = _by_project(self.reviews).get(project)
        shown = value.get("shown") if isinstance(value, dict) else None
        return [kind for kind in shown if isinstance(kind, str)] if isinstance(shown, list) else None

    def review_on_show(self, project: str) -> bool:
        """Whether the Review tab was on show, on the run or annotator remembered, when the project was left."""
        value = _by_project(self.reviews).get(project)
        return isinstance(value, dict) and value.get("on_show") is True

    def remember_review(self, project: str, run: int | str | None, shown: Sequence[str], on_show: bool = False
                        ) -> None:
        """What the Review tab was on: the run (None: none chosen), the classes shown, and whether it was on show.
        The rows chosen at the last quit and W's walk stay (they name their run: `review_rows`, `review_walk`)."""
        value = _by_project(self.reviews).get(project)
        parts = ("run", "shown", "on_show")
        kept = {k: v for k, v in value.items() if k not in parts} if isinstance(value, dict) else {}
        self.reviews = _with_project(self.reviews, project, {"run": run, "shown": list(shown), "on_show": on_show,
                                                             **kept})

    def review_rows(self, project: str) -> ReviewRows | None:
        """The rows the Review list had chosen when the project was last quit with a page's review drawn; None:
        none kept (or the value kept is damaged)."""
        value = _by_project(self.reviews).get(project)
        return ReviewRows.read(value.get("rows")) if isinstance(value, dict) else None

    def remember_review_rows(self, project: str, rows: ReviewRows | None) -> None:
        """The rows chosen at quit; None: none (those an earlier quit kept go)."""
        self._remember_of_review(project, "rows", None if rows is None else rows.written())

    def review_walk(self, project: str) -> ReviewWalk | None:
        """Where W's walk stood when the project was last left; None: W walked nothing (or the value is damaged)."""
        value = _by_project(self.reviews).get(project)
        return ReviewWalk.read(value.get("walk")) if isinstance(value, dict) else None

    def remember_review_walk(self, project: str, walk: ReviewWalk | None) -> None:
        """Where W's walk stands; None: nowhere (the walk an earlier session kept goes)."""
        self._remember_of_review(project, "walk", None if walk is None else walk.written())

    def _remember_of_review(self, project: str, part: str, value: object) -> None:
        """The project's review entry with its `part` set to `value` (None: taken out), its other parts as they are."""
        before = _by_project(self.reviews).get(project)
        before = before if isinstance(before, dict) else {}
        review = {k: v for k, v in before.items() if k != part}
        if value is None and review == before:
            return  # nothing kept, nothing to forget: no entry made for a project never reviewed
        self.reviews = _with_project(self.reviews, project, review | ({part: value} if value is not None else {}))

    def page_filter(self, project: str) -> tuple[str | None, str]:
        """What narrowed the project's page list when it was last left: the page status it showed (None: every
        one) and its search ("": none)."""
        value = _by_project(self.page_filters).get(project)
        status, search = (value.get("status"), value.get("search")) if isinstance(value, dict) else (None, "")
        return (status if isinstance(status, str) else None), (search if isinstance(search, str) else "")

    def remember_page_filter(self, project: str, status: str | None, search: str) -> None:
        """The page status the page list shows (None: every one) and its search; neither: no entry."""
        values = _by_project(self.page_filters)
        if status is None and not search:
            if project not in values:
                return
            values.pop(project)
        else:
            values[project] = {"status": status, "search": search}
        self.page_filters = json.dumps(values, ensure_ascii=False)

    def follow_move(self, project: str, database: str | None, fingerprint: str | None,
                    database_at: Callable[[str], str | None]) -> None:
        """Note that the project in folder `project` has the database file `database` ("DEVICE:INODE"; None: not
        known) and the `fingerprint` (what tells it from another project and survives a move; None: nothing
        does, it has no pages). When nothing is remembered under that folder but something is under a folder
        whose project had that same file and the same fingerprint, and which holds that file no more
        (`database_at(folder)`: the file there now), the project was moved or renamed: what was remembered there
        (page, selection, scroll, zoom, review, page list filter) is its own, and moves here, read once under the
        old folder. A folder that still holds the file (a link to it) keeps its own. The file alone is not
        enough: a deleted project's inode is given at once to the next file made (ext4), so a new project would
        take a deleted one's place. Any other folder noted with this file is stale (its project was deleted, or
        moved and taken over already): its note goes, and its place too when the folder is gone."""
        if database is None:
            return
        files = _by_project(self.project_files)
        stale = [folder for folder, known in files.items()
                 if folder != project and _noted_file(known) == database and database_at(folder) != database]
        if stale:
            taken = any(project in _by_project(getattr(self, name)) for name in PLACES)
            for folder in stale:
                if not taken and fingerprint is not None and _noted_fingerprint(files[folder]) == fingerprint:
                    self._move_place(folder, project)
                    taken = True
                elif not Path(folder).is_dir():
                    self._move_place(folder, None)
                files.pop(folder)
        mine = {"file": database, "project": fingerprint}
        if stale or files.get(project) != mine:
            files[project] = mine
            self.project_files = json.dumps(files, ensure_ascii=False)

    def _move_place(self, folder: str, project: str | None) -> None:
        """What was remembered under `folder` (page, selection, scroll, zoom, review, filter) goes to `project` (None:
        it is forgotten)."""
        for name in PLACES:
            values = _by_project(getattr(self, name))
            if folder in values:
                value = values.pop(folder)
                if project is not None:
                    values[project] = value
                setattr(self, name, json.dumps(values, ensure_ascii=False))

    def dragged_panel_widths(self) -> list[int] | None:
        """The main window's panels' widths (px, left to right) as the person last dragged them; None when never
        dragged, or when the value kept is damaged."""
        try:
            value = json.loads(self.panel_widths or "null")
        except json.JSONDecodeError:
            return None
        if not isinstance(value, list) or not value or not all(
                isinstance(width, int) and not isinstance(width, bool) and width > 0 for width in value):
            return None
        return value

    def remember_panel_widths(self, widths: Sequence[int]) -> None:
        self.panel_widths = json.dumps([int(width) for width in widths])

    def unfinished_recordings_said(self, project: str) -> set[int]:
        """The row ids of the unfinished recordings of `project` said already at a start of the agent window."""
        value = _by_project(self.unfinished_said).get(project)
        if not isinstance(value, list):
            return set()
        return {i for i in value if isinstance(i, int) and not isinstance(i, bool)}

    def remember_unfinished_recordings_said(self, project: str, ids: Iterable[int]) -> None:
        """Note the unfinished recordings of `project` said (those that are unfinished now: others are forgotten)."""
        self.unfinished_said = _with_project(self.unfinished_said, project, sorted(ids))

    def remember_agent_files(self, site: Path | None, tasks: Path | None) -> None:
        """The agent window's site folder and tasks file, resolved (None: the shipped demo's, kept as "")."""
        self.agent_site = str(site.resolve()) if site is not None else ""
        self.agent_tasks = str(tasks.resolve()) if tasks is not None else ""

    @property
    def person(self) -> str:
        return self.annotator.strip() or _default_person()

    @classmethod
    def load(cls, path: Path) -> Settings:
        """The settings in `path`; defaults for a missing or unreadable file (said once, unless the start said it:
        `settings_trouble`), unknown keys ignored."""
        data, why = _read(path)
        if why is not None:
            _say_once(path, "settings %s unreadable (%s); using defaults", hint_path(path), why)
            return cls()
        if data is None:
            return cls()
        settings = cls._of(data)
        settings._as_read, settings._file = asdict(settings), path.resolve()
        return settings

    @classmethod
    def _of(cls, data: object) -> Settings:
        """The settings a file's JSON `data` holds (defaults for anything but an object), unknown keys ignored."""
        known = {f.name for f in fields(cls)}
        return cls(**{k: str(v) for k, v in data.items() if k in known}) if isinstance(data, dict) else cls()

    def save(self, path: Path) -> None:
        """Write what this process changed since it read the file (or last saved) over the file as it is now:
        another window's changes made meanwhile stay. A field that holds a value per project is merged project
        by project (a window's page, selection, zoom and review are its project's). Atomic: a process stopped
        mid-write leaves the previous file, never half of it. Not fsynced (written on every page change, on the UI
        thread); a link is written through. Saved to a file other than the one read, they are written whole."""
        target = path.resolve()
        # Keys this version does not know (a later version's settings) are kept as the file holds them
        # read without a word: a file that cannot be read was said once already, and is written over
        data = _read(path)[0]
        mine, on_disk = asdict(self), {**_unknown_keys(data), **asdict(Settings._of(data))}
        as_read = self._as_read if self._file in (None, target) else {}
        for name, value in mine.items():
            if name in as_read and value == as_read[name]:
                continue
            on_disk[name] = (_merged_by_project(on_disk[name], as_read.get(name, ""), value) if name in BY_PROJECT
                             else value)
        # a credential typed into an address is used this session (it stays in memory), never written
        on_disk |= {name: without_credential(str(on_disk[name])) for name in ADDRESSES if on_disk.get(name)}
        try:
            write_text(target, json.dumps(on_disk, indent=1), durable=False)
        except OSError as error:
            _say_once(target, "settings not saved to %s (%s): the project, page and places open are not remembered "
                      "for the next start", hint_path(target), system_words(error))
            raise
        self._as_read, self._file = mine, target


# The settings files whose trouble this process has said (cannot be read, cannot be saved): each said once, in one
# line, by whichever says it first: the start (`settings_trouble`, in the window and on stderr), else a read, else
# a save (one comes with every page change, and the windows keep quiet about it, where the user was being a
# convenience: without it the quit's would be lost unsaid).
_SAID: set[Path] = set()


def _say_once(path: Path, message: str, *args: object) -> None:
    if (said := path.resolve()) not in _SAID:
        _SAID.add(said)
        _log.warning(message, *args)


def _read(path: Path) -> tuple[object, str | None]:
    """The settings file's JSON, and None; (None, why) when it cannot be read; (None, None) when there is none
    (no file, or no folder for one). Read through core's guarded reader: a FIFO in its place is not waited on."""
    try:
        text = read_regular_file(path).decode("utf-8")
    except (FileNotFoundError, NotADirectoryError):
        return None, None
    except OSError as error:
        return None, unreadable_kind(path, error, "settings file") or system_words(error)
    except UnicodeDecodeError as error:
        return None, f"not UTF-8 text ({error.reason})"
    try:
        return json.loads(text), None
    except json.JSONDecodeError as error:
        return None, f"not valid JSON ({json_problem(error)})"
    except RecursionError:
        return None, "nested too deeply to be settings"


def _unknown_keys(data: object) -> dict[str, object]:
    """The keys of the settings file's JSON `data` that `Settings` does not know (written by a later version), as
    the file holds them; {} when it holds none (or no object)."""
    known = {f.name for f in fields(Settings)}
    # a secret is never kept in this file, whoever put it there
    return ({key: value for key, value in data.items() if key not in known and not _names_a_secret(key)}
            if isinstance(data, dict) else {})


def _names_a_secret(key: str) -> bool:
    return any(word in key.lower() for word in ("key", "token", "secret", "password"))


# Settings holding an address, which may hold a credential (?key=..., user:password@): saved without it
ADDRESSES = ("gemini_endpoint",)
PLACES = ("last_pages", "last_selections", "zooms", "reviews", "page_filters", "unfinished_said")  # of each project
BY_PROJECT = (*PLACES, "project_files")  # JSON {project folder: value}


def _defaults() -> dict[str, str]:
    return {f.name: f.default for f in fields(Settings) if f.default is not MISSING}


def _merged_by_project(on_disk: str, as_read: str, mine: str) -> str:
    """A per-project field as the file holds it, with the projects whose value this process changed (from
    `as_read` to `mine`) set to its value."""
    merged, before, after = _by_project(on_disk), _by_project(as_read), _by_project(mine)
    for project in before.keys() | after.keys():
        if before.get(project) != after.get(project):
            if project in after:
                merged[project] = after[project]
            else:
                merged.pop(project, None)
    return json.dumps(merged, ensure_ascii=False)


def _by_project(text: str) -> dict[str, Any]:
    """A settings field holding JSON {project folder: value}; {} when it is empty or damaged."""
    try:
        value = json.loads(text or "{}")
    except json.JSONDecodeError:
        return {}
    return value if isinstance(value, dict) else {}


def _noted_file(known: object) -> str | None:
    """The database file ("DEVICE:INODE") a `project_files` entry notes (an entry of the first form, the file
    alone, too)."""
    return known if isinstance(known, str) else known.get("file") if isinstance(known, dict) else None


def _noted_fingerprint(known: object) -> str | None:
    """The project fingerprint a `project_files` entry notes (None: none, or an entry of the first form)."""
    value = known.get("project") if isinstance(known, dict) else None
    return value if isinstance(value, str) else None


def _with_project(text: str, project: str, value: object) -> str:
    """The field `text` (as `_by_project` reads it) with `project`'s value set to `value`."""
    values = _by_project(text)
    values[project] = value
    return json.dumps(values, ensure_ascii=False)


def settings_path() -> Path:
    return platformdirs.user_config_path(APP_DIR_NAME) / SETTINGS_FILE


def user_data_folder() -> Path:
    """Where the app keeps what it makes for the user: the demo project, the copy of the demo site."""
    return platformdirs.user_data_path(APP_DIR_NAME)


def cannot_write(folder: Path, error: OSError, variable: str) -> str:
    """That `folder`, under the user's data (`variable` XDG_DATA_HOME) or config folder (XDG_CONFIG_HOME), cannot
    be made or written, and how to give the app one it can write: those variables say where on Linux."""
    how = (f"set {variable} (or HOME) to a folder you can write" if sys.platform.startswith("linux")
           else "make it writable")
    return f"{hint_path(folder)} cannot be written ({system_words(error)}): {how}"


def settings_trouble(path: Path) -> str | None:
    """What is wrong with the settings at `path`, in the one line the start says (in the window and on stderr),
    None when nothing is: they cannot be saved (`settings_unsaved`: what the file holds is then beside the point),
    or the file cannot be read (the defaults are used, and the first save writes over it). Asked at the start,
    before any read of the file; neither a read nor a failing save says it again (`_SAID`)."""
    unsaved, unread = settings_unsaved(path), _read(path)[1]
    if unsaved is not None:
        said = f"settings cannot be saved: {unsaved}; the project, page and places open now are not remembered"
        if unread is not None and not path.is_dir():  # (a folder in its place is said as one already)
            said += f"; nor can {hint_path(path)} be read: it is {unread}; the defaults are used"
    elif unread is not None:
        said = (f"settings cannot be read: {hint_path(path)} is {unread}; the defaults are used, and the next save "
                "writes over it")
    else:
        return None
    _SAID.add(path.resolve())
    return said


def settings_unsaved(path: Path) -> str | None:
    """Why the settings cannot be saved to `path` (its folder cannot be made or written into, or a folder is in
    its place), None when they can. Asked at the start (`settings_trouble`), where the window can say it: the saves
    after it (each page change, the quit) are not errors in the window, where the user was being a convenience
    (the first that fails is said on stderr)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=path.parent, prefix=f".{path.name}.", suffix=".probe"):
            pass
    except OSError as error:
        return cannot_write(path.parent, error, "XDG_CONFIG_HOME")
    if path.is_dir():  # a save replaces a file, of any kind, but not a folder
        return f"{hint_path(path)} is a folder, not a settings file: move it away"
    return None


class KeyStore(Protocol):
    """Where the Gemini key is kept. `persistent` says whether it survives the session."""

    persistent: bool
    description: str

    def get(self) -> str | None: ...

    def set(self, key: str | None) -> None: ...


class SessionKeyStore:
    persistent = False
    description = "kept for this session only (no keyring available)"

    def __init__(self) -> None:
        self._key: str | None = None

    def get(self) -> str | None:
        return self._key

    def set(self, key: str | None) -> None:
        self._key = key or None


class KeyringKeyStore:
    """The key in the OS keyring; a keyring that fails later (locked, gone) degrades to the session."""

    persistent = True
    description = "stored in the system keyring"

    def __init__(self, keyring_module: Any) -> None:
        self._keyring = keyring_module
        self._session = SessionKeyStore()

    def get(self) -> str | None:
        try:
            return self._keyring.get_password(KEYRING_SERVICE, KEYRING_USER) or self._session.get()
        except Exception as error:  # noqa: BLE001 - any backend failure means "no stored key", never a crash
            _log.warning("keyring unavailable (%s); the key is kept for this session", type(error).__name__)
            return self._session.get()

    def set(self, key: str | None) -> None:
        self._session.set(key)
        try:
            if key:
                self._keyring.set_password(KEYRING_SERVICE, KEYRING_USER, key)
            else:
                # Deleting a key that is not there is fine.
                with contextlib.suppress(Exception):
                    self._keyring.delete_password(KEYRING_SERVICE, KEYRING_USER)
        except Exception as error:  # noqa: BLE001
            _log.warning("keyring refused the key (%s); it is kept for this session", type(error).__name__)


def default_key_store() -> KeyStore:
    """The keyring when `keyring` is installed and its backend can store secrets, else the session."""
    try:
        import keyring
        from keyring.backends import fail
    except ImportError:
        return SessionKeyStore()
    try:
        backend = keyring.get_keyring()
        usable = not isinstance(backend, fail.Keyring) and getattr(backend, "priority", 1) > 0
    except Exception:  # noqa: BLE001 - a broken keyring installation is the same as none
        usable = False
    return KeyringKeyStore(keyring) if usable else SessionKeyStore()


def gemini_key(store: KeyStore) -> str | None:
    """The key to call Gemini with: the one entered in the settings, else the environment's."""
    return store.get() or api_key_from_environment()


def key_in_use_said(typed: bool, stored: bool) -> str:
    """Which key Propose sends, as the settings say it when the environment holds one (`gemini_key`: a key given in
    the settings, `typed` now or `stored` and kept, wins over the environment's, which is the first variable that
    holds one); "" when the environment holds none. Never the key itself."""
    variable = key_variable_used()
    if variable is None:
        return ""
    if typed or stored:
        given = "The key typed here" if typed else "The stored key"
        return (f"{given} is used: a key given here wins over the one in {variable}, which Propose uses when none "
                "is given here.")
    choice = key_choice_said()  # both variables set, or the first blank: which one is read
    return (f"No key is given here: Propose uses the one in {variable}, from the environment"
            + (f" ({choice})." if choice else "."))


def key_mark_in(endpoint: str) -> str | None:
    """The mark a credential left out of `endpoint` was saved as (`holds_key_mark`), as the address writes it
    (escaped before the host), or None when it holds none."""
    if not holds_key_mark(endpoint):
        return None
    return USERINFO_MARK if USERINFO_MARK in endpoint else KEY_MARK


def credential_left_out(endpoint: str) -> str | None:
    """Why Gemini cannot be called through `endpoint`, said after "the Gemini endpoint": it holds the mark of a
    credential the settings file does not keep, and every call through it would be refused; None when it holds
    none."""
    mark = key_mark_in(endpoint)
    return f"holds {mark} in place of its credential, which the settings file does not keep" if mark else None


def proposal_method(settings: Settings, has_key: bool) -> str:
    """The extractor "Propose" runs: the chosen default, except Gemini without a key falls back offline."""
    chosen = settings.default_extractor or offline_default_method()
    if chosen == GEMINI and not has_key:
        return offline_default_method()
    return chosen


def extractor_params(method: str, settings: Settings, key: str | None) -> dict[str, object]:
    """What `extract.create(method, ...)` needs from the settings (only Gemini takes any)."""
    if method != GEMINI:
        return {}
    params: dict[str, object] = {"input_format": settings.gemini_format, "model": settings.model, "api_key": key}
    if settings.gemini_endpoint:
        params["base_url"] = settings.gemini_endpoint
    return params
