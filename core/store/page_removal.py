"""Taking a page out of a project (one imported by mistake: a wrong file, binary junk) without losing anything.

Before the page's rows go, everything the project holds about it is written to `P/removed/ID-NAME.STAMP.json`:
the page row and its snapshot's row, its labels and their whole history, other annotators' labels, runs'
predictions and scores for it, the remembered label check (every table with a `page_id`, whatever the schema
adds later), the provenances those rows name and the schema version they follow. The snapshot file stays in
`snapshots/` (content-addressed, so another page may share it). Only then are the page and its rows deleted, in
the same transaction: a file that cannot be written leaves the page where it was, and a deletion that fails
takes its file back. A page that belongs to an agent site is refused: the site's links point to it. A copy of the
page left in `removed/` by a removal killed before its delete committed (the same page, holding the same) is taken
as the page's copy rather than a second one written.

`restore_page` puts such a page back from its copy, in one transaction: the page (under a new id if its old one
was taken since), its labels with their ids and whole history, other annotators' labels, runs' predictions and
scores (of runs still in the project) and its label check. A copy written under an earlier schema version, since
`schema.PAGE_COPIES_SINCE`, is put back as it is (what later versions added stays empty: a score made before
schema 7 names no page reader, and is made again). It refuses a copy written under another schema version or in
another project (its provenances differ), a name the project uses again, a name import would refuse (a path such
as `../../notes`: a copy may have been edited), a saved copy's hash or suffix not of a stored file's form, and a
snapshot file that is gone; another project's copy is said so before its name is found in use. The copy then moves
to `removed/restored/`, so that it is not restored twice; a copy of the very page the project holds (a restore killed
after its commit, a second copy of the same page) only moves there.

A page of the copy's name and bytes that the project holds now (imported again since the removal: another annotator's
folder that holds the page too) takes the copy's rows beside its own, under its id, when none would be overwritten:
the project's labels (with their history and the page's status) onto a page without any, the label sets of other
annotators than those that labelled it (a set it holds alike is left as it is), the predictions and scores of runs
that hold none of it, and its label check with the labels it was made of. Otherwise the copy is refused, naming
what both hold and the command that sets the page's own aside first (kept, as everything a removal takes out).
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from ..command_hints import hint_option, hint_path
from ..errors import system_words
from ..file_kinds import link_to_nothing, read_regular_file, unreadable_kind
from ..page.dataset import page_name_is_path
from ..wording import counted, listed
from .db import StoreError, dumps, now
from .exporter import about_page
from .files import snapshot_path
from .project import Project
from .removed_files import REMOVED, move_new, remove_partials_left, safe_name, stamped, write_new
from .schema import PAGE_COPIES_SINCE, PAGE_STATUS_WORDS

RESTORED = "restored"  # inside removed/: copies of pages put back since
_NOT_TABLES = ("removed_at", "schema_version", "page", "snapshot", "provenances")  # the copy's other keys


@dataclass(frozen=True)
class RemovedPage:
    name: str
    kept: Path             # the JSON file that holds everything the project had about the page
    rows: dict[str, int]   # per table, how many of its rows were the page's (labels: "records")
    left_before: bool = False  # `kept` was written by an earlier removal of the page, killed before it committed


def check_removable(project: Project, name: str) -> int:
    """The page's id, or why it cannot be removed (no such page, a page of an agent site)."""
    page_id = project.page_id(name)
    site = project.one("SELECT s.name FROM site_pages p JOIN sites s ON s.id = p.site_id WHERE p.page_id = ?",
                       (page_id,))
    if site is not None:
        raise StoreError(f"page {name} belongs to the agent site {site[0]!r}, whose links point to it; it cannot be "
                         "removed")
    return page_id


def remove_page(project: Project, name: str) -> RemovedPage:
    """Write what the project holds about page `name` to `removed/`, then delete the page and its rows."""
    kept: Path | None = None
    left: Path | None = None
    try:
        with project.writing() as db:
            page_id = check_removable(project, name)
            held = {table: _rows(db, table, "page_id", page_id) for table in _tables_with_page_id(db)}
            page = _rows(db, "pages", "id", page_id)[0]
            at = now()
            document = {"removed_at": at, "schema_version": project.schema_version(), "page": page,
                        "snapshot": _rows(db, "snapshots", "hash", page["snapshot"]), **held,
                        "provenances": _rows(db, "provenances")}  # a small table: all of it, whoever the rows name
            text = json.dumps(document, ensure_ascii=False, indent=1, default=str) + "\n"
            left = _copy_left(Path(project.root) / REMOVED, f"{page_id}-{_safe(name)}", text)
            kept = left or _write_copy(Path(project.root) / REMOVED, stamped(f"{page_id}-{_safe(name)}", at), text,
                                       name)
            for table in held:  # table names read from the schema, not from the user
                db.execute(f"DELETE FROM {table} WHERE page_id = ?", (page_id,))
            db.execute("DELETE FROM pages WHERE id = ?", (page_id,))
    except BaseException:
        if kept is not None and left is None:  # the page stays (a deletion or the commit failed): its copy would
            kept.unlink(missing_ok=True)       # only mislead; one left by an earlier removal is that one's to keep
        raise
    return RemovedPage(name, kept, {table: len(rows) for table, rows in held.items() if rows}, left is not None)


def _copy_left(folder: Path, stem: str, text: str) -> Path | None:
    """The copy of the page in `folder` that a removal killed after writing it, before its delete committed, left:
    one of the page's id and name holding what `text` holds (the time of removal aside); None when there is none.
    A rerun takes that one rather than writing a second copy of the same page, which a restore of every copy
    would then meet as a page named alike."""
    remove_partials_left(folder)  # as `write_new` would: the killed removal's hidden file, when one is left
    wanted = _but_time(json.loads(text))
    for path in sorted(folder.glob(f"{stem}.*.json")):
        try:
            if _but_time(json.loads(path.read_text(encoding="utf-8"))) == wanted:
                return path
        except (OSError, ValueError):
            continue
    return None


def _but_time(document: object) -> object:
    """A copy's content without the time it was written."""
    return {k: v for k, v in document.items() if k != "removed_at"} if isinstance(document, dict) else document


@dataclass(frozen=True)
class RestoredPage:
    name: str
    rows: dict[str, int]   # per table, how many rows came back
    left_out: int          # predictions and scores of runs the project no longer holds
    moved_to: Path         # where the copy went (removed/restored/)
    back_already: bool = False  # the project held this very page (restored before, from this copy or another)
    # Put back onto the page of its name and bytes that the project holds now (imported again since), beside its own
    beside: bool = False
    same_sets: tuple[str, ...] = ()  # of those, annotators whose labels of it that page held already, alike


_LABELLING = ("records", "label_history")  # the project's own labels of a page, and their history


@dataclass(frozen=True)
class _Beside:
    """A copy put back onto the page of its name and bytes the project holds now: what both hold, which would be
    overwritten (then the copy is refused), and what the copy brings."""

    page_id: int                       # the page held now, which takes the copy's rows
    labelling: tuple[str, str] | None  # the project's labels both hold: what the page holds, what the copy holds
    sets: tuple[str, ...]              # annotators whose labels of the page both hold, not alike
    runs: tuple[int, ...]              # runs whose prediction or score of the page both hold
    same_sets: tuple[str, ...]         # annotators whose labels of the page both hold alike (left as they are)
    brings_labelling: bool             # the copy holds the project's labels of the page (its status with them)

    @property
    def clashes(self) -> bool:
        return bool(self.labelling or self.sets or self.runs)


@dataclass(frozen=True)
class _Checked:
    document: dict[str, object]
    page: dict[str, object]
    name: str
    snapshots: list[dict[str, object]]
    back_already: bool
    beside: _Beside | None = None  # the project holds a page of the copy's name and bytes, imported again since


def check_restorable(project: Project, copy: Path) -> None:
    """Why `copy` cannot be put back (a StoreError that names the file), without writing anything: a command
    given several copies says each one's problem and puts back the others."""
    _checked(project, copy)


def restore_page(project: Project, copy: Path) -> RestoredPage:
    """Put back the page that `copy` (a file `remove_page` wrote) holds; see the module notes. A copy of a page
    the project holds already (a restore killed after its commit, before the copy moved; two copies of the same
    page) only moves to `removed/restored/`."""
    checked = _checked(project, copy)
    if checked.back_already:
        return RestoredPage(checked.name, {}, 0, move_new(copy, Path(project.root) / REMOVED / RESTORED), True)
    same_sets: tuple[str, ...] = ()
    try:
        if checked.beside is not None:
            rows, left_out, same_sets = _put_beside(project, checked.document, dict(checked.page), copy)
        else:
            rows, left_out = _put_back(project, checked.document, dict(checked.page), checked.snapshots, copy)
    except sqlite3.IntegrityError as error:  # what the checks above did not foresee: nothing was written
        raise StoreError(f"{hint_path(copy)} cannot be put back here ({error})") from None
    # After the commit: a copy moved away before a commit that then failed would be a page lost. Left in place
    # (the move failed, or the process was killed), the next restore of it finds the page back and moves it then.
    moved_to = move_new(copy, Path(project.root) / REMOVED / RESTORED)
    return RestoredPage(checked.name, rows, left_out, moved_to, beside=checked.beside is not None,
                        same_sets=same_sets)


def _checked(project: Project, copy: Path) -> _Checked:
    """The copy read and checked against the project as it is now (each refusal names the file): whether it
    comes from another project is asked before whether its name is in use, that being the truer reason."""
    document = _read_copy(copy)
    written = document.get("schema_version")
    if not isinstance(written, int) or not PAGE_COPIES_SINCE <= written <= project.schema_version():
        raise StoreError(f"{hint_path(copy)} was written by a project at schema version "
                         f"{document.get('schema_version')}, this one is at {project.schema_version()}: it cannot be "
                         "put back as it is")
    page = dict(document["page"])  # type: ignore[call-overload]
    name = _checked_name(page["name"], copy)
    snapshots = [row for row in document.get("snapshot") or [] if isinstance(row, dict)]  # type: ignore[attr-defined]
    if _held_already(project.db, document, page):
        return _Checked(document, page, name, snapshots, True)
    _check_provenances(project.db, document.get("provenances") or [], copy, add=False)  # type: ignore[arg-type]
    _refuse_taken_ids(project.db, document, copy)
    if project.has_page(name):
        held = _rows(project.db, "pages", "name", name)[0]
        if held.get("snapshot") != page.get("snapshot"):
            raise StoreError(f"{hint_path(copy)}: the project holds another page named {name!r} (a file of other "
                             "bytes than the page this copy holds): it cannot be put back beside it; remove that one "
                             "first if this copy is the page wanted (that one is kept too)")
        beside = _beside(project.db, held, document, page)
        if beside.clashes:
            raise StoreError(_clash_words(project, copy, name, beside))
        return _Checked(document, page, name, snapshots, False, beside)
    suffix = str(snapshots[0]["suffix"]) if snapshots else ""
    if not _saved_copy(project, page["snapshot"], suffix, copy).is_file():
        raise StoreError(about_page(name, f"its saved copy ({page['snapshot']}{suffix}) is gone from snapshots/: the "
                                          f"page cannot be put back ({hint_path(copy)})"))
    return _Checked(document, page, name, snapshots, False)


def _held_already(db: object, document: dict[str, object], page: dict[str, object]) -> bool:
    """Whether the project holds the very page the copy holds: of its name, imported from the same file at the same
    time, with every label the copy holds (by id) on it; or a page of its name and bytes imported again since, onto
    which the copy's labels were put back (a restore beside the page killed after its commit): every label and
    history entry the copy holds on it, by id and by the time each was made (another project's copy of the same
    page may hold the same ids, never made at the same times)."""
    held = _rows(db, "pages", "name", page.get("name"))
    if not held or held[0].get("snapshot") != page.get("snapshot"):
        return False
    if all(held[0].get(key) == page.get(key) for key in ("source", "imported_at")):
        return _all_on_page(db, document, "records", held[0]["id"])
    if any(document.get(table) for table in _LABELLING):
        return all(_all_on_page(db, document, table, held[0]["id"], made) for table, made in
                   zip(_LABELLING, ("created_at", "at"), strict=True))
    return _put_beside_already(db, document, held[0], page)


def _put_beside_already(db: object, document: dict[str, object], held: dict[str, object],
                        page: dict[str, object]) -> bool:
    """Whether a copy holding none of the project's labels (an annotator's, a run's rows) was put beside the held
    page already: every row it would put there is on it, with the same values. A label check is left out (the
    page's own is kept), and so are label sets the page holds alike (as `_put_beside` leaves them out)."""
    tables = _tables_with_page_id(db)
    if set(document) - set(_NOT_TABLES) - set(tables):
        return False  # rows of tables this project lacks: refused, said so, by the checks after
    alike = _beside(db, held, document, page).same_sets
    wanted = [(table, row) for table, row in _rows_to_put(db, document, tables, int(held["id"]), page.get("id"),  # type: ignore[call-overload]
                                                          alike) if row is not None and table != "label_checks"]
    return bool(wanted) and all(_held_as_is(db, table, row) for table, row in wanted)


def _held_as_is(db: object, table: str, row: dict[str, object]) -> bool:
    """Whether `table` holds a row of exactly these values (False for columns it lacks)."""
    conn = db.conn  # type: ignore[attr-defined]
    if not set(row) <= {col[1] for col in conn.execute(f"PRAGMA table_info({table})")}:
        return False
    where = " AND ".join(f"{column} IS ?" for column in row)
    return conn.execute(f"SELECT 1 FROM {table} WHERE {where}", tuple(row.values())).fetchone() is not None


def _all_on_page(db: object, document: dict[str, object], table: str, page_id: object, made: str = "") -> bool:
    """Whether every row of `table` (records, label_history) the copy holds is on the page, by id (and, given the
    column `made`, made at the same time)."""
    rows = [row for row in document.get(table) or [] if isinstance(row, dict)]  # type: ignore[attr-defined]
    same_time = f" AND {made} IS ?" if made else ""
    return all(db.conn.execute(  # type: ignore[attr-defined]
        f"SELECT 1 FROM {table} WHERE id = ? AND page_id = ?{same_time}",
        (row.get("id"), page_id, *((row.get(made),) if made else ()))).fetchone() for row in rows)


def _beside(db: object, held: dict[str, object], document: dict[str, object], page: dict[str, object]) -> _Beside:
    """What the page of the copy's name and bytes that the project holds now (`held`) and the copy both hold."""
    page_id = int(held["id"])  # type: ignore[call-overload]
    ours = _labelling_words(*(_rows(db, table, "page_id", page_id) for table in _LABELLING), held.get("status"))
    theirs = _labelling_words(*(document.get(table) or [] for table in _LABELLING), page.get("status"))  # type: ignore[misc]
    held_labels = _rows(db, "annotator_labels", "page_id", page_id)
    held_sets = {row["annotator"] for row in _rows(db, "annotator_pages", "page_id", page_id)}
    copy_labels = [row for row in document.get("annotator_labels") or [] if isinstance(row, dict)]  # type: ignore[attr-defined]
    both = [str(row["annotator"]) for row in document.get("annotator_pages") or []  # type: ignore[attr-defined]
            if row.get("annotator") in held_sets]
    alike = [name for name in both if _set_records(held_labels, name) == _set_records(copy_labels, name)]
    runs = _runs_of(document.get("predictions"), document.get("scores")) & _runs_of(
        _rows(db, "predictions", "page_id", page_id), _rows(db, "scores", "page_id", page_id))
    return _Beside(page_id, (ours, theirs) if ours and theirs else None,
                   tuple(name for name in both if name not in alike), tuple(sorted(runs)), tuple(alike),
                   theirs is not None)


def _labelling_words(records: list[dict[str, object]], history: list[dict[str, object]], status: object) -> str | None:
    """What a page holds of the project's labels, as said ("16 labels"; a page labelled as holding none, a page
    whose labels were all deleted: its history); None when it holds none (a page imported without labels)."""
    if records:
        return counted(len(records), "label")
    if status not in (None, "new"):
        return f"no label, the page marked {PAGE_STATUS_WORDS.get(str(status), status)}"
    if history:
        return f"no label, {counted(len(history), 'history entry', 'history entries')}"
    return None


def _set_records(rows: list[dict[str, object]], annotator: str) -> list[object]:
    """An annotator's records of a page, in their order, from rows of `annotator_labels`."""
    mine = sorted((row for row in rows if row.get("annotator") == annotator), key=lambda row: int(row["position"]))  # type: ignore[call-overload]
    return [json.loads(str(row["xpaths"])) for row in mine]


def _runs_of(*tables: object) -> set[int]:
    """The runs that rows of `predictions` and `scores` name."""
    return {int(row["run_id"]) for rows in tables for row in rows or [] if isinstance(row, dict)}  # type: ignore[attr-defined]


def _clash_words(project: Project, copy: Path, name: str, beside: _Beside) -> str:
    """Why the copy cannot go onto the page of its name and bytes the project holds now, and how to make room: the
    page held now taken out whole when the project's labels or a run's rows clash (its copy keeps everything, the
    annotators' labels too), else each annotator's labels of it set aside."""
    both = []
    if beside.labelling is not None:
        both.append(f"the project's own labels of it (the page held now: {beside.labelling[0]}; this copy: "
                    f"{beside.labelling[1]})")
    both += [f"{annotator}'s labels of it (not alike)" for annotator in beside.sets]
    if beside.runs:
        both.append(f"predictions or scores of it by {'run' if len(beside.runs) == 1 else 'runs'} "
                    f"{listed([str(run) for run in beside.runs], 8, total=True)}")
    root = hint_option("--project", project.root)
    if beside.labelling is not None or beside.runs:
        room = [f"`recordlens project remove-page {hint_path(name)} {root}` takes the page held now out (kept in "
                "removed/ too; its copy can then be put back onto this one's for what does not clash)"]
    else:
        room = [f"`recordlens annotators {root} {hint_option('--remove', annotator)} {hint_option('--page', name)}` "
                f"sets {annotator}'s labels of the page held now aside (put back by `import --annotator`)"
                for annotator in beside.sets]
    return (f"{hint_path(copy)}: the project holds page {name!r} again, of the same bytes (imported again since it "
            "was removed), and this copy cannot be put back beside what it holds now without overwriting some: both "
            f"hold {'; '.join(both)}. If this copy's are wanted, first {'; '.join(room)}")


def _saved_copy(project: Project, digest: object, suffix: str, copy: Path) -> Path:
    """The page's saved copy in `snapshots/`, as the copy names it; refused when that name is no stored file's
    (`snapshot_path`): `../../x` would have the page read from anywhere."""
    try:
        return snapshot_path(Path(project.root), str(digest), suffix)
    except StoreError as error:
        raise StoreError(f"{hint_path(copy)}: {error}; it cannot be put back") from None


def _checked_name(name: object, copy: Path) -> str:
    """The page's name as the copy holds it, refused when it is a path (`page_name_is_path`): a copy in
    `removed/` may come from a colleague or have been edited, and a name such as `../../notes` would have every
    export and synth of the project write the page's files outside the folder they were given. Import's other
    rules for new names are not asked: a project imported before 2026-12-05 may hold a page named with a tab,
    which, once removed, must come back as it was."""
    problem = page_name_is_path(name) if isinstance(name, str) else f"the page name {name!r} is not a text"
    if problem is not None:
        raise StoreError(f"{hint_path(copy)}: {problem}; remove-page writes the name the project held, so the copy "
                         "was changed since (or made elsewhere): it cannot be put back")
    return str(name)


def _put_back(project: Project, document: dict[str, object], page: dict[str, object],
              snapshots: list[dict[str, object]], copy: Path) -> tuple[dict[str, int], int]:
    """The rows of the copy into the project, in one transaction: per table how many, and how many were left out."""
    with project.writing() as db:
        tables = _tables_with_page_id(db)
        _check_tables(document, tables, copy)
        _check_provenances(db, document.get("provenances") or [], copy)
        for row in snapshots:
            _insert(db, "snapshots", row, ignore=True)
        old_id = page.pop("id")
        if db.execute("SELECT 1 FROM pages WHERE id = ?", (old_id,)).fetchone() is None:
            page["id"] = old_id  # its old id, when no page took it since
        page_id = _insert(db, "pages", page)
        _refuse_taken_ids(db, document, copy)
        return _put_rows(db, document, tables, page_id, old_id)


def _put_beside(project: Project, document: dict[str, object], page: dict[str, object],
                copy: Path) -> tuple[dict[str, int], int, tuple[str, ...]]:
    """The rows of the copy onto the page of its name and bytes that the project holds now, in one transaction,
    when none would overwrite what it holds (asked again there: an import or restore may have run since the copy
    was checked): per table how many, how many were left out, and the annotators whose labels it held alike."""
    name = str(page["name"])
    with project.writing() as db:
        tables = _tables_with_page_id(db)
        _check_tables(document, tables, copy)
        held = _rows(db, "pages", "name", name)
        if not held or held[0].get("snapshot") != page.get("snapshot"):
            raise StoreError(f"{hint_path(copy)}: page {name!r} was removed or replaced in the project as this copy "
                             "was put back: nothing was put back; run the command again")
        beside = _beside(db, held[0], document, page)
        if beside.clashes:
            raise StoreError(_clash_words(project, copy, name, beside))
        _check_provenances(db, document.get("provenances") or [], copy)
        _refuse_taken_ids(db, document, copy)
        if beside.brings_labelling:  # the page's status goes with its labels; its label check, of none, is made again
            db.execute("UPDATE pages SET status = ?, updated_at = ? WHERE id = ?",
                       (page.get("status"), now(), beside.page_id))
            db.execute("DELETE FROM label_checks WHERE page_id = ?", (beside.page_id,))
        rows, left_out = _put_rows(db, document, tables, beside.page_id, page["id"], skip=beside.same_sets)
        return rows, left_out, beside.same_sets


def _check_tables(document: dict[str, object], tables: list[str], copy: Path) -> None:
    unknown = sorted(set(document) - set(_NOT_TABLES) - set(tables))
    if unknown:
        raise StoreError(f"{hint_path(copy)} holds rows of tables this project does not have ({', '.join(unknown)})")


def _put_rows(db: object, document: dict[str, object], tables: list[str], page_id: int, old_id: object,
              skip: tuple[str, ...] = ()) -> tuple[dict[str, int], int]:
    """The copy's rows of each table onto the page `page_id`: per table how many, and how many were left out (of
    runs the project no longer holds). The rows of the annotators in `skip` are left out unsaid (the page holds
    their labels alike), and a label check the page holds is kept (one made of what it holds)."""
    rows: dict[str, int] = {}
    left_out = 0
    for table, row in _rows_to_put(db, document, tables, page_id, old_id, skip):
        if row is None:
            left_out += 1
            continue
        _insert(db, table, row, ignore=table == "label_checks")
        rows[table] = rows.get(table, 0) + 1
    return rows, left_out


def _rows_to_put(db: object, document: dict[str, object], tables: list[str], page_id: int, old_id: object,
                 skip: tuple[str, ...] = ()) -> list[tuple[str, dict[str, object] | None]]:
    """The copy's rows of each table as they go onto the page `page_id` (see `_put_rows`); None for one left out
    (of a run the project no longer holds)."""
    runs = {row[0] for row in db.execute("SELECT id FROM runs")}  # type: ignore[attr-defined]
    put: list[tuple[str, dict[str, object] | None]] = []
    for table in tables:
        for row in document.get(table) or []:  # type: ignore[attr-defined]
            if "run_id" in row and row["run_id"] not in runs:
                put.append((table, None))
                continue
            if row.get("annotator") in skip:
                continue
            if table == "label_history" and page_id != old_id:
                # The history keeps whole record rows: under the old id, a restore to an entry from before
                # the removal would put those records on the page that holds that id now
                row = {**row, **{side: _on_page(row[side], page_id) for side in ("before", "after")}}
            put.append((table, {**row, "page_id": page_id}))
    return put


def _refuse_taken_ids(db: object, document: dict[str, object], copy: Path) -> None:
    """Records and history entries come back with their ids (their history names them so): a copy whose ids the
    project has given to others since comes from another project."""
    for table in ("records", "label_history"):
        ids = [row["id"] for row in document.get(table) or [] if isinstance(row, dict)]
        taken = [i for i in ids if db.execute(f"SELECT 1 FROM {table} WHERE id = ?", (i,)).fetchone()]  # type: ignore[attr-defined]
        if taken:
            raise StoreError(f"{hint_path(copy)} comes from another project (the ids of its "
                             f"{table.replace('_', ' ')} belong to others here): it cannot be put back")


def _on_page(rows_json: object, page_id: int) -> str:
    """A history entry's JSON list of record rows, each moved to `page_id`."""
    return dumps([{**row, "page_id": page_id} for row in json.loads(str(rows_json))])


def _read_copy(copy: Path) -> dict[str, object]:
    """The copy given, read through the guarded reader: a FIFO is not waited on, and the project's own database
    given under another name (a hard link) is not opened, which would drop the open project's locks."""
    try:
        document = json.loads(read_regular_file(copy).decode("utf-8"))
    except OSError as error:  # what it is (a folder, a FIFO, the database...), else as before, in the system's words
        missing = isinstance(error, FileNotFoundError) and link_to_nothing(copy) is None
        kind = None if missing else unreadable_kind(copy, error, "copy of a removed page")
        said = kind or f"not a readable copy of a removed page ({system_words(error)})"
        raise StoreError(f"{hint_path(copy)}: {said}") from None
    except ValueError as error:
        raise StoreError(f"{hint_path(copy)}: not a readable copy of a removed page ({system_words(error)})") from None
    if not isinstance(document, dict) or not isinstance(document.get("page"), dict) or "name" not in document["page"]:
        raise StoreError(f"{hint_path(copy)}: not a copy of a removed page (no page in it)")
    return document


def _check_provenances(db: object, provenances: list[dict[str, object]], copy: Path, add: bool = True) -> None:
    """The provenances the copy's rows name, by id: each the project's own, or added (`add`) when the project lacks
    it; one that the project knows differently means the copy comes from another project."""
    for row in provenances:
        found = _rows(db, "provenances", "id", row.get("id"))
        if found and found[0] != row:
            raise StoreError(f"{hint_path(copy)} comes from another project (who made its labels does not match this "
                             "one's records): it cannot be put back here")
        if not found and add:
            _insert(db, "provenances", row)


def _insert(db: object, table: str, row: dict[str, object], ignore: bool = False) -> int:
    """Insert a row as the copy holds it (column names from the copy, checked against the table's)."""
    conn = db.conn  # type: ignore[attr-defined]
    columns = {col[1] for col in conn.execute(f"PRAGMA table_info({table})")}
    if not set(row) <= columns:
        raise StoreError(f"the copy's rows of {table} have columns the project's table lacks "
                         f"({', '.join(sorted(set(row) - columns))})")
    cursor = conn.execute(f"INSERT {'OR IGNORE ' if ignore else ''}INTO {table} ({', '.join(row)}) "
                          f"VALUES ({', '.join('?' for _ in row)})", tuple(row.values()))
    return int(cursor.lastrowid or 0)


def removed_copy(project: Project, name: str) -> Path | None:
    """The newest copy in `removed/` of a page named `name`, when the project holds no such page any more (a
    removal of several pages stopped part way, then asked for again)."""
    if project.has_page(name):
        return None
    found: list[tuple[str, Path]] = []
    for path in (Path(project.root) / REMOVED).glob(f"*-{_safe(name)}.*.json"):
        try:
            document = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(document, dict) and isinstance(document.get("page"), dict) and document["page"].get(
                "name") == name:
            found.append((str(document.get("removed_at", "")), path))
    return max(found)[1] if found else None


def _write_copy(folder: Path, stem: str, text: str, name: str) -> Path:
    """The page's copy in a new file of `folder` (`removed_files.write_new`), or why the page stays."""
    try:
        return write_new(folder, stem, text)
    except OSError as error:
        raise StoreError(f"page {name} not removed: its copy could not be written in {hint_path(folder)} "
                         f"({error.strerror or error})") from None


def _tables_with_page_id(db: object) -> list[str]:
    conn = db.conn  # type: ignore[attr-defined]
    tables = [row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    return [t for t in tables if any(col[1] == "page_id" for col in conn.execute(f"PRAGMA table_info({t})"))]


def _rows(db: object, table: str, column: str | None = None, value: object = None) -> list[dict[str, object]]:
    """The table's rows whose `column` is `value` (all of them without a column), as dicts."""
    where, params = (f" WHERE {column} = ?", (value,)) if column else ("", ())
    cursor = db.conn.execute(f"SELECT * FROM {table}{where}", params)  # type: ignore[attr-defined]
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


def _safe(name: str) -> str:
    """The page's name as a file name (page names are file stems already; a path separator is kept out)."""
    return safe_name(name, "page")
