"""Other annotators' label sets in a project: `project.annotators`.

The project's own labels (the `records` table, with their history) are the ones the app edits and exports. A
second annotator's labels, imported from their NEXT-EVAL folder (`recordlens import DIR --project P --annotator
NAME`), are kept apart in a set of their own, per page, verbatim: they never mix with the project's labels, and
they are compared with them (`recordlens agreement`) or taken into them one record at a time (adjudication in
the app, through the project's history).

A set's labels are never lost: importing a set's page again replaces that page's records only after the earlier
ones, when they differ, are written to a folder of the project, `P/removed/annotators/NAME.STAMP/`, and so are the
pages `recordlens annotators --remove` takes out. That folder is a NEXT-EVAL folder of labels alone (`gt/N.json`,
and `set-aside.json` saying whose they were, where from and why): importing it again with `--annotator NAME` puts
them back.

A name is kept as given, never altered: a name that begins or ends with a space, or that is another spelling of a
set's name (other Unicode forms, other spaces inside), is refused, so that a typo cannot pour one annotator's
labels into another's set.
"""

from __future__ import annotations

import json
import shlex
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..atomic import write_text
from ..page.dataset import natural_key
from .db import Connection, StoreError, dumps, now

# The name by which `agreement` and the app mean the project's own labels: no annotator set may take it.
PROJECT_SET = "project"
# How `agreement` names a person who labelled in the app whose name an imported set has too (`person:bea`).
PERSON_PREFIX = "person:"
SET_ASIDE = "annotators"  # inside the project's `removed/`: the label sets' pages replaced or removed
SET_ASIDE_FILE = "set-aside.json"


def check_annotator_name(name: str) -> str:
    """The name as given, or why it cannot name a label set."""
    if not (name or "").strip():
        raise StoreError("an annotator needs a name")
    if name != name.strip():
        raise StoreError(f"the annotator name {name!r} begins or ends with a space: give it without, as in "
                         f"--annotator {name.strip()!r} (a name is kept as given, never trimmed into another one)")
    if name == PROJECT_SET:
        raise StoreError(f"{PROJECT_SET!r} names the project's own labels; give the annotator another name")
    if name.startswith(PERSON_PREFIX):
        raise StoreError(f"{PERSON_PREFIX!r} names a person who labelled in the app (`agreement --between "
                         f"{PERSON_PREFIX}NAME ...`); give the annotator a name without it")
    return name


def spelling(name: str) -> str:
    """What two spellings of one name share: the same letters in one Unicode form, single spaces between words."""
    return " ".join(unicodedata.normalize("NFKC", name).split())


@dataclass(frozen=True)
class SetPage:
    """One page of a label set, as `recordlens annotators` lists it."""

    annotator: str
    page: str
    records: int
    source: str | None     # the records file it came from
    imported_at: str


@dataclass
class SetAside:
    """Where the labels a set loses (replaced by an import, removed) are written, before they go: one folder per
    command, made when the first page is set aside."""

    annotator: str
    why: str                                   # "replaced by an import", "removed"
    folder: Path | None = None
    pages: dict[str, int] = field(default_factory=dict)  # page -> the records set aside

    def keep(self, root: Path, page: SetPage, records: Sequence[Sequence[str]]) -> Path:
        """Write the page's records (and the folder's note of them); the file written. A page set aside already by
        this command keeps its first copy: what replaced it since came from a file still on disk."""
        if self.folder is not None and page.page in self.pages:
            return self.folder / "gt" / f"{page.page}.json"
        if self.folder is None:
            self.folder = _new_folder(root / _removed() / SET_ASIDE, _safe(self.annotator), now())
        written = write_text(self.folder / "gt" / f"{page.page}.json", json.dumps(
            [list(r) for r in records], ensure_ascii=False, indent=1) + "\n")
        self.pages[page.page] = len(records)
        note = self._note()
        note["pages"][page.page] = {"records": len(records), "source": page.source, "imported_at": page.imported_at}
        write_text(self.folder / SET_ASIDE_FILE, json.dumps(note, ensure_ascii=False, indent=1) + "\n")
        return written

    def forget(self, page: str) -> None:
        """A page kept whose removal did not happen after all (the transaction failed): its copy would mislead."""
        if self.folder is not None and self.pages.pop(page, None) is not None:
            (self.folder / "gt" / f"{page}.json").unlink(missing_ok=True)

    def how_to_restore(self, project_root: Path) -> str:
        """The command that puts the set-aside labels back."""
        return (f"`recordlens import {_quoted(self.folder)} --project {_quoted(project_root)} --annotator "
                f"{_quoted(self.annotator)}` puts them back")

    def _note(self) -> dict:
        assert self.folder is not None
        try:
            return json.loads((self.folder / SET_ASIDE_FILE).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {"annotator": self.annotator, "why": self.why, "at": now(), "pages": {}}


class Annotators:
    """The label sets of other annotators, each a name with records per page."""

    def __init__(self, store: Connection) -> None:
        self._store = store

    def names(self) -> list[str]:
        rows = self._store.db.execute("SELECT DISTINCT annotator FROM annotator_pages ORDER BY annotator")
        return [row[0] for row in rows]

    def check_new_name(self, name: str) -> str:
        """`check_annotator_name`, and not another spelling of a set's name (its labels would be taken for theirs
        by eye, and the next typo would go into one or the other)."""
        name = check_annotator_name(name)
        others = [n for n in self.names() if n != name and spelling(n) == spelling(name)]
        if others:
            raise StoreError(f"the annotator name {name!r} is another spelling of {others[0]!r}, whose label set is "
                             f"in the project (other spaces or Unicode form): give {others[0]!r} exactly to add to "
                             "their labels, or a name of its own for another annotator")
        return name

    def other_cases(self, name: str) -> list[str]:
        """The sets whose names differ from `name` in case only (two sets where one may have been meant)."""
        return [n for n in self.names() if n != name and spelling(n).casefold() == spelling(name).casefold()]

    def pages(self, annotator: str) -> list[str]:
        """The pages the annotator labelled (an empty list of records is a labelled page too)."""
        rows = self._store.db.execute(
            "SELECT p.name FROM annotator_pages a JOIN pages p ON p.id = a.page_id WHERE a.annotator = ? "
            "ORDER BY p.id", (annotator,))
        return [row[0] for row in rows]

    def set_pages(self, annotator: str | None = None) -> list[SetPage]:
        """Every page of every set (or of one), with how many records it holds and where they came from."""
        rows = self._store.db.execute(
            "SELECT a.annotator, p.name, (SELECT COUNT(*) FROM annotator_labels l WHERE l.annotator = a.annotator "
            "AND l.page_id = a.page_id), a.source, a.imported_at FROM annotator_pages a JOIN pages p ON "
            "p.id = a.page_id WHERE ? IS NULL OR a.annotator = ? ORDER BY a.annotator, p.id", (annotator, annotator))
        return [SetPage(*row) for row in rows]

    def records(self, annotator: str, page: str) -> list[list[str]]:
        """The annotator's records of a page, in their file's order ([] when the page is not in the set)."""
        page_id = self._store.page_id(page)
        rows = self._store.db.execute("SELECT xpaths FROM annotator_labels WHERE annotator = ? AND page_id = ? "
                                      "ORDER BY position", (annotator, page_id))
        return [json.loads(row[0]) for row in rows]

    def all_records(self, annotator: str) -> dict[str, list[list[str]]]:
        return {page: self.records(annotator, page) for page in self.pages(annotator)}

    def set_page(self, annotator: str, page: str, records: Sequence[Sequence[str]], source: str | None = None,
                 kept: SetAside | None = None) -> list[list[str]] | None:
        """Store (or replace) the annotator's records of one page, in one transaction; the records it replaced
        when they differ (None when the page was not in the set or held the same records). Replaced records are
        written to `kept` first (a folder made for them when not given)."""
        annotator = check_annotator_name(annotator)
        records = [[str(x) for x in xpaths] for xpaths in records]
        kept = kept or SetAside(annotator, "replaced by an import")
        replaced, fresh = None, page not in kept.pages  # a copy this call writes, not one of an earlier call
        try:
            with self._store.writing() as db:
                before = self._held(annotator, page)
                if before is not None and self.records(annotator, page) != records:
                    replaced = self.records(annotator, page)
                    self._keep(kept, before, replaced)
                page_id = self._store.page_id(page)
                db.execute("DELETE FROM annotator_labels WHERE annotator = ? AND page_id = ?", (annotator, page_id))
                db.execute("INSERT OR REPLACE INTO annotator_pages (annotator, page_id, source, imported_at) "
                           "VALUES (?, ?, ?, ?)", (annotator, page_id, source, now()))
                for position, xpaths in enumerate(records):
                    db.execute("INSERT INTO annotator_labels (annotator, page_id, position, xpaths) "
                               "VALUES (?, ?, ?, ?)", (annotator, page_id, position, dumps(xpaths)))
        except BaseException:
            if replaced is not None and fresh:  # the set holds them still: a copy beside would only mislead
                kept.forget(page)
            raise
        return replaced

    def remove(self, annotator: str, pages: Sequence[str] | None = None) -> SetAside:
        """Take a set (or some of its pages) out of the project, its labels written to a folder first (see the
        module notes); what was set aside and where."""
        held = {p.page: p for p in self.set_pages(annotator)}
        if not held:
            known = ", ".join(self.names()) or "none"
            raise StoreError(f"no label set named {annotator!r} in the project (annotators: {known})")
        missing = [p for p in pages or () if p not in held]
        if missing:
            raise StoreError(f"{annotator}'s label set holds no page {', '.join(missing)} (its pages: "
                             f"{', '.join(sorted(held, key=natural_key))})")
        kept = SetAside(annotator, "removed")
        try:
            with self._store.writing() as db:
                for page in dict.fromkeys(pages or held):
                    self._keep(kept, held[page], self.records(annotator, page))
                    page_id = self._store.page_id(page)
                    db.execute("DELETE FROM annotator_labels WHERE annotator = ? AND page_id = ?", (annotator, page_id))
                    db.execute("DELETE FROM annotator_pages WHERE annotator = ? AND page_id = ?", (annotator, page_id))
        except BaseException:
            for page in list(kept.pages):  # nothing went: the copies would only mislead
                kept.forget(page)
            raise
        return kept

    def _held(self, annotator: str, page: str) -> SetPage | None:
        return next((p for p in self.set_pages(annotator) if p.page == page), None)

    def _keep(self, kept: SetAside, page: SetPage, records: Sequence[Sequence[str]]) -> None:
        try:
            kept.keep(Path(self._store.root), page, records)
        except OSError as error:
            raise StoreError(f"{kept.annotator}'s labels of page {page.page} are kept as they are: the earlier ones "
                             f"could not be set aside in {self._store.root / _removed() / SET_ASIDE} "
                             f"({error.strerror or error})") from None


def _removed() -> str:
    # page_removal imports the Project, which imports this module: its folder's name is read when needed
    from .page_removal import REMOVED

    return REMOVED


def _new_folder(parent: Path, stem: str, at: str) -> Path:
    """A folder of its own under `parent` (two commands in the same millisecond never share one)."""
    parent.mkdir(parents=True, exist_ok=True)
    base = f"{stem}.{at.replace(':', '-')}"
    for k in range(100):
        folder = parent / f"{base}{f'-{k}' if k else ''}"
        try:
            folder.mkdir()
        except FileExistsError:
            continue
        return folder
    raise StoreError(f"{parent} holds too many folders named {base}")


def _safe(name: str) -> str:
    """An annotator's name as a folder name (any name is a set's name; a path separator is kept out)."""
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name).strip(".")[:60] or "annotator"


def _quoted(path: object) -> str:
    return shlex.quote(str(path))
