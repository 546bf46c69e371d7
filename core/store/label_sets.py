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
them back. It is written under a hidden name and given its own in the transaction that takes the labels out, once
whole: a command stopped part way (killed, a power cut) leaves no folder that is listed, or put back, as labels set
aside, and the next command that sets labels aside or lists them removes the hidden one it left.

A name is kept as given, never altered: a name that begins or ends with a space, or that is another spelling of a
set's name (other Unicode forms, other spaces inside), is refused, so that a typo cannot pour one annotator's
labels into another's set. A set's own name is always taken, and so is the name a set-aside folder names (its
labels put back): a project made before this check may hold two spellings as two sets.
"""

from __future__ import annotations

import contextlib
import json
import shutil
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..atomic import sync_folder, write_text
from ..command_hints import hint_option, hint_path
from ..page.dataset import lands_outside, natural_key
from ..text_forms import read_alike, spelling, written
from .db import TRIES_WHILE_IT_CHANGES, Connection, StoreError, dumps, now
from .removed_files import REMOVED, hidden_folder, name_folder, remove_partials_left, safe_name, stamped

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


def set_aside_by(folder: Path) -> str | None:
    """The annotator whose labels a folder of `removed/annotators/` holds (its note says so), or None for any
    other folder."""
    try:
        note = json.loads((folder / SET_ASIDE_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return note.get("annotator") if isinstance(note, dict) and isinstance(note.get("annotator"), str) else None


PAGES_IN_A_HINT = 8  # of the pages a command hint names with `--page`, those written out


def remove_pages_hint(project_root: Path, annotator: str, pages: Sequence[str]) -> str:
    """The command that takes these pages out of the annotator's set, their labels set aside first (`recordlens
    annotators --remove NAME --page N ...`): for many pages, the first few written out and the others said."""
    shown = pages[:PAGES_IN_A_HINT]
    more = (f" (and `--page N` for each of the other {len(pages) - len(shown)})" if len(pages) > len(shown) else "")
    return (f"`recordlens annotators {hint_option('--project', project_root)} {hint_option('--remove', annotator)} "
            f"{' '.join(hint_option('--page', page) for page in shown)}`{more}")


@dataclass(frozen=True)
class SetPage:
    """One page of a label set, as `recordlens annotators` lists it."""

    annotator: str
    page: str
    records: int
    source: str | None     # the records file it came from
    imported_at: str


def kept_set_asides(project_root: Path) -> list[Path]:
    """The folders of the project's `removed/annotators/` that hold labels set aside (each put back by `import
    FOLDER --annotator NAME`), the hidden ones that commands stopped part way left removed first (and said, where
    the project can be written: `removed_files.remove_partials_left`)."""
    parent = project_root / REMOVED / SET_ASIDE
    remove_partials_left(parent)
    try:
        return sorted(folder for folder in parent.iterdir() if not folder.name.startswith("."))
    except OSError:  # none set aside (or the folder cannot be read: nothing to list)
        return []


@dataclass
class SetAside:
    """Where the labels a set loses (replaced by an import, removed) are written, before they go: one folder per
    command, made when the first page is set aside, under a hidden name until the transaction that takes them out
    gives it its own (`name`), once whole."""

    annotator: str
    why: str                                   # "replaced by an import", "removed"
    # The folder the labels are written to: hidden (`removed_files.hidden_folder`) until `name`, then
    # `NAME.TIME[-K]`; None while none are set aside
    folder: Path | None = None
    pages: dict[str, int] = field(default_factory=dict)  # page -> the records set aside
    _described: dict[str, dict[str, object]] = field(default_factory=dict)  # page -> its line in the note
    _at: str = ""  # when the folder was made

    def keep(self, root: Path, pages: Sequence[tuple[SetPage, Sequence[Sequence[str]]]]) -> None:
        """Write each page's records, then the folder's note of them, once. A page set aside already by this
        command keeps its first copy: what replaced it since came from a file still on disk."""
        fresh = [(page, records) for page, records in pages if page.page not in self.pages]
        if not fresh:
            return
        at = self._at or now()
        gt = (self.folder or root / REMOVED / SET_ASIDE / self._stem(at)) / "gt"
        outside = next((why for page, _ in fresh if (why := lands_outside(gt, f"{page.page}.json", page.page))), None)
        if outside is not None:  # a page named as a path (a database changed by hand), refused as export does
            raise StoreError(f"{self.annotator}'s labels are kept as they are: {outside}; take that page out of the "
                             f"project first (`recordlens project remove-page`: its copy keeps {self.annotator}'s "
                             "labels of it)")
        if self.folder is None:
            self._at = at
            # the hidden folders left by commands killed part way were removed as the command began (`Annotators`)
            self.folder = hidden_folder(root / REMOVED / SET_ASIDE, self._stem(at), swept=True)
        for page, records in fresh:
            write_text(self.folder / "gt" / f"{page.page}.json", json.dumps(
                [list(r) for r in records], ensure_ascii=False, indent=1) + "\n")
            self.pages[page.page] = len(records)
            self._described[page.page] = {"records": len(records), "source": page.source,
                                          "imported_at": page.imported_at}
        self._write_note()

    def name(self) -> None:
        """Give the folder written its own name, `NAME.TIME` (`-K` after it when taken), never over another
        folder: called in the transaction that takes the labels out, before it commits, so that a command stopped
        in between leaves the labels where they were with a whole copy beside, never the labels gone and their copy
        hidden. Nothing to do when none were set aside, or the folder is named already; OSError when it cannot be
        named (it stays hidden, `forget` removes it)."""
        if self.folder is None or not self._hidden:
            return
        sync_folder(self.folder)  # its gt/ and note, as the files in them, survive a power cut
        self.folder = name_folder(self.folder, self._stem(self._at))

    @property
    def _hidden(self) -> bool:
        """Whether `folder` is still under its hidden name (a named one never begins with a dot: `safe_name`)."""
        return self.folder is not None and self.folder.name.startswith(".")

    def _stem(self, at: str) -> str:
        return stamped(safe_name(self.annotator, "annotator", 60), at)

    def forget(self, pages: Iterable[str]) -> None:
        """Pages kept whose removal did not happen after all (the transaction failed): their copies, and the note's
        lines of them, would mislead; a folder left with nothing goes. Done as far as it can be (it runs while an
        error is on its way to the user, which it must not hide)."""
        gone = [page for page in dict.fromkeys(pages) if self.pages.pop(page, None) is not None]
        if self.folder is None or not gone:
            return
        with contextlib.suppress(OSError):
            for page in gone:
                self._described.pop(page, None)
                (self.folder / "gt" / f"{page}.json").unlink(missing_ok=True)
            if self.pages:
                self._write_note()
                return
            hidden, folder, self.folder = self._hidden, self.folder, None
            if hidden:  # this command's own, never named: whatever it holds goes
                shutil.rmtree(folder)
            else:
                (folder / SET_ASIDE_FILE).unlink(missing_ok=True)
                (folder / "gt").rmdir()
                folder.rmdir()
            for empty in (folder.parent, folder.parent.parent):  # ... removed/annotators/, removed/
                empty.rmdir()  # stops at the first folder that holds something else

    def imported_at(self, page: str) -> str | None:
        """When the labels of a page set aside here had been imported (None: none set aside): the decisions
        taken on them came after."""
        described = self._described.get(page)
        return None if described is None else str(described["imported_at"])

    def how_to_restore(self, project_root: Path) -> str:
        """The command that puts the set-aside labels back."""
        return (f"`recordlens import {hint_path(self.folder)} {hint_option('--project', project_root)} "
                f"{hint_option('--annotator', self.annotator)}` puts them back")

    def _write_note(self) -> None:
        assert self.folder is not None
        note = {"annotator": self.annotator, "why": self.why, "at": self._at, "pages": self._described}
        write_text(self.folder / SET_ASIDE_FILE, json.dumps(note, ensure_ascii=False, indent=1) + "\n")


@dataclass(frozen=True)
class StoredPages:
    """What storing an annotator's pages (`Annotators.store_pages`) found in their set: the pages whose records
    differed, with the records replaced, and those that held the very records stored (nothing changed there: an
    import of the same folder again). The other pages were new to the set."""

    replaced: dict[str, list[list[str]]]
    same: tuple[str, ...] = ()


class Annotators:
    """The label sets of other annotators, each a name with records per page."""

    def __init__(self, store: Connection) -> None:
        self._store = store

    def names(self) -> list[str]:
        rows = self._store.db.execute("SELECT DISTINCT annotator FROM annotator_pages ORDER BY annotator")
        return [row[0] for row in rows]

    def check_new_name(self, name: str, *, held_before: bool = False) -> str:
        """`check_annotator_name`, and not another spelling of a set's name (its labels would be taken for theirs
        by eye, and the next typo would go into one or the other). A set's own name is always taken, and so is one
        `held_before` (its labels set aside, now put back): a project made before names were checked may hold two
        spellings as two sets, each reached by its exact name."""
        name = check_annotator_name(name)
        names = self.names()
        others = [n for n in names if read_alike(n, name)]
        if others and name not in names and not held_before:
            raise StoreError(f"the annotator name {written(name)} is another spelling of {written(others[0])}, "
                             "whose label set is in the project (other spaces or Unicode form): give "
                             f"{others[0]!r} exactly to add to their labels, or a name of its own for another "
                             "annotator")
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
        """Store (or replace) the annotator's records of one page (`store`); the records it replaced when they
        differ (None when the page was not in the set or held the same records)."""
        return self.store(annotator, {page: (records, source)}, kept).get(page)

    def store(self, annotator: str, pages: Mapping[str, tuple[Sequence[Sequence[str]], str | None]],
              kept: SetAside | None = None) -> dict[str, list[list[str]]]:
        """`store_pages`: for each page whose records differed, the records it replaced."""
        return self.store_pages(annotator, pages, kept).replaced

    def store_pages(self, annotator: str, pages: Mapping[str, tuple[Sequence[Sequence[str]], str | None]],
                    kept: SetAside | None = None) -> StoredPages:
        """Store (or replace) the annotator's records of these pages (page -> records and the file they came
        from), in one transaction; what each page held before (`StoredPages`). The records replaced are written to
        `kept` first, with its note (a folder made for them when not given), named in the transaction
        (`SetAside.name`). A page that held the very records stored is left as it was, its source and time of
        import with it: the decisions taken on its labels since (`Adjudication.decided_since`) are dated by that
        time, and would drop out of the next replacement's account if an import that changed nothing moved it."""
        annotator = check_annotator_name(annotator)
        wanted = {page: [[str(x) for x in xpaths] for xpaths in records] for page, (records, _) in pages.items()}
        kept = kept or SetAside(annotator, "replaced by an import")
        replaced: dict[str, list[list[str]]] = {}
        same: list[str] = []
        copied: list[str] = []  # the copies this call writes (not those of an earlier call with the same `kept`)
        self._remove_set_asides_left()
        try:
            with self._store.writing() as db:
                held = self._held(annotator)  # once: a set's pages are many, each asked for once
                for page in pages:
                    before = self.records(annotator, page) if page in held else None
                    if before is not None and before != wanted[page]:
                        replaced[page] = before
                    elif before is not None:
                        same.append(page)
                copied = [page for page in replaced if page not in kept.pages]
                self._keep(kept, [(held[page], records) for page, records in replaced.items()])
                at = now()
                unchanged = set(same)
                for page, (_, source) in pages.items():
                    if page in unchanged:  # nothing changed: its time stays, which dates the decisions taken since
                        continue
                    page_id = self._store.page_id(page)
                    db.execute("DELETE FROM annotator_labels WHERE annotator = ? AND page_id = ?",
                               (annotator, page_id))
                    db.execute("INSERT OR REPLACE INTO annotator_pages (annotator, page_id, source, imported_at) "
                               "VALUES (?, ?, ?, ?)", (annotator, page_id, source, at))
                    for position, xpaths in enumerate(wanted[page]):
                        db.execute("INSERT INTO annotator_labels (annotator, page_id, position, xpaths) "
                                   "VALUES (?, ?, ?, ?)", (annotator, page_id, position, dumps(xpaths)))
                self._name(kept)
        except BaseException:
            kept.forget(copied)  # the set holds them still: a copy beside would only mislead
            raise
        return StoredPages(replaced, tuple(same))

    def remove(self, annotator: str, pages: Sequence[str] | None = None) -> SetAside:
        """Take a set (or some of its pages) out of the project, its labels written to a folder first (see the
        module notes); what was set aside and where.

        The labels are written before the write lock is taken (a file per page, each written through to the disk:
        long for a large set, which the app's edits would wait for), and the pages go in a short transaction once
        they are read again there and found as they were written: which pages go is decided, and checked, in the
        transaction that deletes them. A set changed meanwhile (an import of more of its labels) is written again,
        so that what is said removed is the whole set as it then was, or the pages asked for, up to
        `TRIES_WHILE_IT_CHANGES` times. The folder they are written to is named in that transaction
        (`SetAside.name`)."""
        self._remove_set_asides_left()
        for _ in range(TRIES_WHILE_IT_CHANGES):
            going = self._going(annotator, pages)
            kept = SetAside(annotator, "removed")
            try:
                self._keep(kept, going)
                with self._store.writing() as db:
                    if self._going(annotator, pages) == going:
                        for page, _ in going:
                            page_id = self._store.page_id(page.page)
                            db.execute("DELETE FROM annotator_labels WHERE annotator = ? AND page_id = ?",
                                       (annotator, page_id))
                            db.execute("DELETE FROM annotator_pages WHERE annotator = ? AND page_id = ?",
                                       (annotator, page_id))
                        self._name(kept)
                        return kept
            except BaseException:
                kept.forget(list(kept.pages))  # nothing went: the copies would only mislead
                raise
            kept.forget(list(kept.pages))  # the set changed since they were written: written again as it is now
        raise StoreError(f"{annotator}'s labels not removed: the set changed each of the {TRIES_WHILE_IT_CHANGES} "
                         "times they were set aside (an import of their labels going on?); remove them once it "
                         "has ended")

    def _going(self, annotator: str, pages: Sequence[str] | None) -> list[tuple[SetPage, list[list[str]]]]:
        """The pages of the set that `remove` takes out (`pages`, or all of them), each with its records, as the
        project holds them now; or why none can go."""
        held = self._held(annotator)
        if not held:
            known = ", ".join(self.names()) or "none"
            raise StoreError(f"no label set named {annotator!r} in the project (annotators: {known})")
        missing = [p for p in pages or () if p not in held]
        if missing:
            raise StoreError(f"{annotator}'s label set holds no page {', '.join(missing)} (its pages: "
                             f"{', '.join(sorted(held, key=natural_key))})")
        return [(held[page], self.records(annotator, page)) for page in dict.fromkeys(pages or held)]

    def _held(self, annotator: str) -> dict[str, SetPage]:
        """The set's pages, by name."""
        return {page.page: page for page in self.set_pages(annotator)}

    def _remove_set_asides_left(self) -> None:
        """The hidden folders of set-asides that commands stopped part way left, removed (and said) before this
        one writes its own, whether or not it sets any labels aside."""
        remove_partials_left(Path(self._store.root) / REMOVED / SET_ASIDE)

    def _name(self, kept: SetAside) -> None:
        try:
            kept.name()
        except OSError as error:
            raise StoreError(f"{kept.annotator}'s labels are kept as they are: their copy in "
                             f"{hint_path(kept.folder)} could not be given its name ({error.strerror or error})"
                             ) from None

    def _keep(self, kept: SetAside, pages: Sequence[tuple[SetPage, Sequence[Sequence[str]]]]) -> None:
        try:
            kept.keep(Path(self._store.root), pages)
        except OSError as error:
            said = f"{'page' if len(pages) == 1 else 'pages'} {', '.join(page.page for page, _ in pages)}"
            raise StoreError(f"{kept.annotator}'s labels of {said} are kept as they are: the earlier ones "
                             f"could not be set aside in {hint_path(Path(self._store.root) / REMOVED / SET_ASIDE)} "
                             f"({error.strerror or error})") from None
