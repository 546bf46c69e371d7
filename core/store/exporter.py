"""Export a project's labels in the formats researchers use.

- `nexteval`: a dataset of the pages marked labelled or reviewed: `OUT/html/N.html|.mhtml` (the stored
  snapshot, byte for byte, page names kept) and `OUT/gt/N.json` (its accepted and edited records, XPaths
  verbatim, in display order; proposed and rejected records are left out). Pages still new or proposed are
  left out entirely, and named in the summary, because an unfinished page written as ground truth would score
  as if its missing records were absent from the page. With `all_pages`, their snapshots are written too,
  under `OUT/html/` without a `gt/N.json` (pages to label elsewhere); a dataset reader then sees pages
  without ground truth. The accepted and edited records of a page left out in progress are counted in the summary
  (`unfinished_records`), as the proposed and rejected records left out of labelled pages are: "not labelled"
  alone would read as "holds no labels". A page whose stored name is a path (`../../notes`, which no import
  takes but an edited copy put back, or a database changed by hand, may hold) is not written, and named with
  why (`refused`): its files would land outside `OUT`.
- `jsonl`: `OUT/labels.jsonl`, one line per record of every status, with its provenance, flags and texts.
- `csv`: `OUT/labels.csv`, one row per (record, XPath): the shape a spreadsheet or pandas reads directly.

Both name every page of the project: a page with no record (labelled as holding none, or not labelled yet) gets
one line or row of its own, its record fields empty (JSONL: `record` null, `xpaths` []; CSV: `record` ""), so
that "labelled, no records" reads apart from "not in the project". A page's status is said in the words the app
uses (`new`, `in progress`, `labelled`, `reviewed`): `proposed` is a record's status. A record's texts are its
page's text entries at or below its XPaths, in page order: in JSONL the list `texts` (a text may itself hold
" · ", so a joined string could not tell one text from two; [] for a page's line without a record), in the CSV
the `text` cell of the record's first row, joined by " · " (its other rows leave it empty, rather than repeat a
long text once per XPath). When the saved page could not be read they are null / "", said as a warning; when
it no longer matches its hash (changed by hand) they are read from it as it is, said as the nexteval export
says it. The XPaths JSONL lists in `unresolved` and the CSV marks `resolves` 0 are those `labels check` flags: an
XPath that names no element or one without text (it expands to no text, so the score reads it as empty), read from
the saved page as it is; when the page cannot be read, the flags the record was stored with (an XPath that named no
element when an import or the app's edit stored it).
Both are streamed, a page at a time, into a hidden file beside the target that replaces it once whole: memory stays
that of one page however large the project, and a stop part way leaves the earlier file or none, never part of one.
Both files are UTF-8. The CSV has no byte-order mark: it would become part of the first column's name
(`\ufeffpage`) for csv.DictReader opened as "utf-8" and for line tools; to open it in Excel, use Data > From
Text/CSV (UTF-8), as LibreOffice and pandas read it as is. A CSV cell that a spreadsheet would run as a formula
(`=`, `+`, `-`, `@`, a tab or a carriage return first), or that starts with an apostrophe, is written with a
leading apostrophe, in every column: the `page` column too, as a page's name is a dataset file's name, which
may be untrusted and can hold `=HYPERLINK("http:"&CHAR(47)&CHAR(47)&"x","y")`. A plain number (`-5`, `+3`,
`-2.5`) is written as it is: a spreadsheet reads it as that number and runs nothing. So a tool that joins on
the `page` column (with a score's JSON or a dataset's `N.json` files) strips one leading `'` where a cell has
one, and gets the page's name back.

Both say how adjudication (the app's Review, against another annotator's imported labels) decided each record,
from the decisions in force (`Adjudication.trace`): in JSONL, a record's `adjudication` lists them, oldest first,
as {annotator, decision (taken, merged, kept), at, by, theirs (a keep's record of theirs not taken; null: they made
none there)}; in the CSV, the `adjudication` cell of the record's first row says them in words (`taken from bea;
merged with ben`, `kept over bea`). The decisions that concern no record exported (the project kept "no record"
where the annotator had one; a record deleted on their word, `deleted`) are the page's: `page_adjudication` on the
page's first line or row (in JSONL with `ours`, the record deleted; in the CSV `not taken from bea`, `deleted (bea
made none)`), so that each decision is written once and the lines stay one per record (a line of its own would
read as a page without records); the other lines have [] / "". A project with no other annotator's labels has
them empty everywhere. The nexteval format has no place for them.

Every format reads the project as one state, that of its start (`Project.reading`), however long it runs and
whatever the app or another command changes meanwhile: a page marked back in progress and reworked while a
nexteval export runs is written as it was when the export began (labelled, with its records of then), never with
its unfinished records as ground truth, a state the project never held. The changes are the next export's.

A database that SQLite's check finds damaged is refused before anything is written, with what to do
(`db.refuse_damaged`, as `labels check` refuses it): an index that no longer matches its table answers without an
error, and a page's records would be exported as none. An `out` that is the project's own folder or lies inside it
(its `snapshots/`) is refused before anything is written (`output_paths.outside_of`, as `project copy` refuses a
copy there): the export would mix with the project's files and could not be imported back from there. A jsonl or
csv target that is a folder is refused too.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .. import atomic
from ..command_hints import hint_path
from ..errors import RecordLensError
from ..output_paths import outside_of, writable_file
from ..page.dataset import UNFINISHED_EXPORT, lands_outside
from ..page.snapshot import read_file_bytes
from ..records.hygiene import xpaths_without_text
from ..records.model import TextKeyIndex, save_records
from ..records.record_text import TEXT_SEPARATOR, texts_of_record
from ..text_forms import unicode_form, written
from ..wording import as_clause, listed
from .adjudication import DELETED, KEPT, MERGED, TAKEN, Decision
from .db import Provenance, StoreError, refuse_damaged
from .files import SNAPSHOTS, Removed, content_hash, remove_stale_files
from .project import PROJECT_DB, Label, PageInfo, Project, snapshot_row_problem
from .schema import PAGE_STATUS_WORDS

FORMATS = ("nexteval", "jsonl", "csv")

Progress = Callable[[Sequence[PageInfo]], Iterable[PageInfo]]


@dataclass(frozen=True)
class ExportSummary:
    pages: int
    records: int
    files: tuple[Path, ...]
    unlabelled: tuple[str, ...] = ()   # nexteval: pages not labelled (left out, or html only with all_pages)
    proposals_left_out: int = 0        # nexteval: proposed records of exported pages, not written as truth
    warnings: tuple[str, ...] = ()     # snapshots changed since import; jsonl, csv: pages not read too
    rejected_left_out: int = 0         # nexteval: rejected records of exported pages
    # nexteval: of the pages not labelled, those holding accepted or edited records (page -> how many), which are
    # not written as truth until the page is marked labelled
    unfinished_records: dict[str, int] = field(default_factory=dict)
    leftovers_removed: Removed = Removed(0, 0)  # jsonl, csv: hidden files of earlier exports killed part way
    # nexteval: pages not written, and why: a name whose files would land outside `out` (a path), or a saved copy's
    # name not a hash (the database changed by hand, a page restored from an edited copy)
    refused: dict[str, str] = field(default_factory=dict)  # the why names the page


def export_project(project: Project, fmt: str, out: str | Path,
                   progress: Progress = lambda pages: pages, *, all_pages: bool = False) -> ExportSummary:
    if fmt not in FORMATS:
        raise StoreError(f"unknown export format {fmt!r}; expected one of {', '.join(FORMATS)}")
    out = outside_of(out, project.root, "the project",
                     "nothing exported; the project's folder holds its own files only (its snapshots/ the pages "
                     "as imported), and an export there could not be imported back: export to a folder outside it")
    if fmt != "nexteval":
        writable_file(export_file(out, fmt), f"the {fmt} export")  # a folder of that name: said, not "Is a directory"
    # One state of the project from the page list to the last page's records, whatever the app changes meanwhile
    # (an export of a large project takes minutes): a page unmarked and being reworked since the list was read
    # is exported as it was when marked labelled, never its unfinished records as ground truth
    with project.reading():
        refuse_damaged(project.db, project.root / PROJECT_DB, stopped="nothing was exported")
        pages = project.pages()
        if fmt == "nexteval":
            return export_nexteval(project, pages, out, progress, all_pages=all_pages)
        return _export_table(project, pages, fmt, out, progress)


def _export_table(project: Project, pages: Sequence[PageInfo], fmt: str, out: Path, progress: Progress
                  ) -> ExportSummary:
    """The jsonl or csv export of `pages` (see the module notes)."""
    warnings: list[str] = []
    records = _RecordCount()
    path = export_file(out, fmt)
    leftovers = _remove_killed_exports(path)
    # Streamed, page by page, into the hidden file renamed over the target at the end: memory stays that of one
    # page however large the project, and a stop part way still leaves the earlier file or none
    rows = records.counting(row for info in progress(pages) for row in _page_rows(project, info, warnings))
    atomic.write_text_pieces(path, _jsonl(rows) if fmt == "jsonl" else _csv(rows))
    return ExportSummary(len(pages), records.records, (path,), warnings=tuple(warnings), leftovers_removed=leftovers)


def _remove_killed_exports(path: Path) -> Removed:
    """Remove the hidden files that earlier exports of `path` killed part way (kill -9) left beside it, which
    nothing else removes and which can be as large as the export: only those of this very file, and only those
    untouched for minutes by the folder's clock, as an export running now (of this file, from another process)
    streams into its own and keeps it fresh."""
    return remove_stale_files(atomic.temporaries_of(path), path.parent)


class _RecordCount:
    """How many records the rows streamed through `counting` held (a page's row without a record is not one)."""

    def __init__(self) -> None:
        self.records = 0

    def counting(self, rows: Iterable[_Row]) -> Iterator[_Row]:
        for row in rows:
            self.records += row.label is not None
            yield row


def export_file(out: str | Path, fmt: str) -> Path:
    """The one file a jsonl or csv export writes in `out` (a nexteval export writes a dataset's folders)."""
    return Path(out) / f"labels.{fmt}"


def export_nexteval(project: Project, pages: Sequence[PageInfo], out: Path, progress: Progress, *,
                    all_pages: bool = False) -> ExportSummary:
    """The labelled and reviewed pages as a dataset (see the module notes); files get the umask's mode."""
    html_dir, gt_dir, marker = out / "html", out / "gt", out / UNFINISHED_EXPORT
    if any(html_dir.glob("*")) or any(gt_dir.glob("*.json")):
        # A page unlabelled since an earlier export would keep its old gt/N.json and score as ground truth.
        stopped = " (an export that was stopped part way)" if marker.exists() else ""
        raise StoreError(f"{hint_path(out)} already holds a dataset{stopped}; export into an empty folder: choose "
                         "another --out, or remove that one first if it holds only an earlier export")
    unlabelled = tuple(info.name for info in pages if not info.finished)
    unfinished = {info.name: info.unfinished_records for info in pages if info.unfinished_records}
    chosen = [info for info in pages if all_pages or info.finished]
    refused = {info.name: why for info in chosen if (why := _why_not_written(info, html_dir, gt_dir)) is not None}
    chosen = [info for info in chosen if info.name not in refused]
    missing = [info.name for info in chosen if not project.snapshot_file(info.name).is_file()]
    if missing:  # before anything is written: half a dataset is worse than none
        raise StoreError(saved_copies_missing(project, missing, "nothing exported"))
    # Until the last file is written, the folder says it is unfinished: a stop part way leaves a dataset that
    # every reader names as such, not one that looks whole with pages or labels missing
    atomic.write_text(marker, "This export did not finish: pages or their labels may be missing. Export the "
                              "project again into an empty folder.\n")
    html_dir.mkdir(parents=True, exist_ok=True)
    files: list[Path] = []
    warnings: list[str] = []
    stems = _file_stems([info.name for info in chosen], warnings)
    records = proposals = rejected = exported = 0
    for info in progress(chosen):
        stem = stems[info.name]
        target = html_dir / f"{stem}{info.suffix}"
        if not _copy_checked(project.snapshot_file(info.name), target, info.snapshot):
            warnings.append(changed_since_import(info.name, "exported as it is now"))
        files.append(target)
        if info.finished:
            truth = project.true_records(info.name)
            files.append(save_records(gt_dir / f"{stem}.json", truth))
            records += len(truth)
            proposals += info.proposed
            rejected += info.rejected
            exported += 1
    marker.unlink()
    atomic.sync_folder(out)
    return ExportSummary(exported, records, tuple(files), unlabelled, proposals, tuple(warnings), rejected,
                         unfinished_records=unfinished, refused=refused)


def _why_not_written(info: PageInfo, html_dir: Path, gt_dir: Path) -> str | None:
    """Why a page's files cannot be written into the dataset, or None: every file of it is named from what the
    project stores (`html/NAME.SUFFIX`, `gt/NAME.json`, read from `snapshots/HASH.SUFFIX`), and a name that is a
    path (`../../notes`, `/home/x`) would write over a file outside the folder asked for, whatever wrote it into
    the project (an edited copy put back by restore-page, the database changed by hand). Only where the files
    land is checked (`lands_outside`), not import's whole rule for new names: an older project may hold a name
    with a tab, which exports as it always did. A page renamed `NAME (2)` (`_file_stems`) lands where NAME does."""
    if (unsafe := snapshot_row_problem(info)) is not None:  # its snapshot's row too, gone or changed
        return about_page(info.name, unsafe)
    return (lands_outside(html_dir, f"{info.name}{info.suffix}", info.name)
            or lands_outside(gt_dir, f"{info.name}.json", info.name))  # it names the page itself


def _file_stems(names: Sequence[str], warnings: list[str]) -> dict[str, str]:
    """Each page's file name in the dataset: its own, but for a page whose name is an earlier page's in another
    Unicode form (`café` and `cafe` with a combining accent, two pages of the project) or in another case (`Page`
    and `page`), which gets `NAME (2)`, said: a file system that normalises names (macOS) or ignores case (macOS,
    Windows) would take the two files for one, the second written over the first, and any would show the
    first two alike."""
    taken = {_one_file(name) for name in names}
    first: dict[str, str] = {}
    stems: dict[str, str] = {}
    for name in names:
        there = first.setdefault(_one_file(name), name)
        if there == name:
            stems[name] = name
            continue
        stem = next(f"{name} ({n})" for n in itertools.count(2) if _one_file(f"{name} ({n})") not in taken)
        taken.add(_one_file(stem))
        stems[name] = stem
        how = ("in another Unicode form (one file where a file system normalises names, as macOS does)"
               if unicode_form(name) == unicode_form(there) else
               "in another case (one file where a file system ignores case, as macOS and Windows do)")
        warnings.append(about_page(name, f"exported as {written(stem)}, as its name is that of page "
                                         f"{written(there)} {how}"))
    return stems


def _one_file(name: str) -> str:
    """What names that one file system or another takes for one file share: the Unicode form and the case."""
    return unicode_form(unicode_form(name).casefold())


def _copy_checked(source: Path, target: Path, digest: str) -> bool:
    """Copy atomically (the stored file is read-only, the exported copy is the user's to change); whether the
    bytes copied are still those the project stored."""
    data = source.read_bytes()
    atomic.write_bytes(target, data)
    return _as_stored(data, digest)


def _as_stored(data: bytes, digest: str) -> bool:
    """Whether a saved copy's bytes are still those the project stored under their hash (`digest`, its name)."""
    return content_hash(data) == digest


def saved_copies_missing(project: Project, missing: Sequence[str], outcome: str) -> str:
    """Why an export or a score of the project stops before it writes anything (`outcome`: "nothing exported"):
    the saved copies of pages it needs are gone from `snapshots/` (named as a hint names a path), and how to go on."""
    return (f"the project's saved copy of page(s) {listed(missing)} is missing from "
            f"{hint_path(project.root / SNAPSHOTS)} (deleted by hand?): {outcome}. Put the file(s) back, or take the "
            "page(s) out of the project (recordlens project remove-page)")


def about_page(name: str, problem: str) -> str:
    """What is wrong with one page, said as the project says it: `page 'NAME': PROBLEM`, where the problem says
    what of the page it is about (`its saved copy 'x' has no row...`, `'x' is not the name of a saved copy...`,
    as `snapshot_row_problem` words them to follow), never a possessive glued to the quoted name (`page '2''s`)."""
    return f"page {written(name)}: {problem}"


def changed_since_import(page: str, outcome: str) -> str:
    """The warning for a saved copy changed by hand: what an export (or `labels check`) took from it is not what
    was labelled."""
    return (f"page {page}: its saved copy in the project was changed since it was imported (it no longer "
            f"matches its name, a hash of its bytes): {outcome}")


def _provenance(who: Provenance | None) -> dict[str, str] | None:
    if who is None:
        return None
    return {k: v for k, v in vars(who).items() if v}


@dataclass(frozen=True)
class _Row:
    """One record of a page with its 1-based number (the badge the app draws), texts (None: its saved page
    could not be read) and XPaths that name no element on a saved page changed by hand since it was stored (None:
    the flags the record was stored with stand), or a page with no record (number and label None, no text)."""

    info: PageInfo
    number: int | None = None
    label: Label | None = None
    texts: tuple[str, ...] | None = ()
    decisions: tuple[Decision, ...] = ()       # the adjudication decisions in force on the record
    page_decisions: tuple[Decision, ...] = ()  # on the page's first row: those concerning no record of it
    unresolved: tuple[str, ...] | None = None

    @property
    def unresolved_xpaths(self) -> tuple[str, ...]:
        """The record's XPaths that name no element or one without text, as `labels check` flags them on the page as
    it is now; as stored when the page could not be read."""
        if self.unresolved is not None:
            return self.unresolved
        return self.label.unresolved if self.label is not None else ()


def _page_rows(project: Project, info: PageInfo, warnings: list[str]) -> list[_Row]:
    """A page's records, its saved page read once for their texts; a page with none, named even so."""
    labels = project.labels(info.name)
    trace = project.adjudication.trace(info.name)
    if not labels:
        return [_Row(info, page_decisions=trace.page)]
    read = _read_records(project, info, labels, warnings)
    return [_Row(info, number, label, text, trace.records.get(label.id, ()), trace.page if number == 1 else (),
                 unresolved) for number, (label, (text, unresolved)) in enumerate(zip(labels, read, strict=True), 1)]


def _read_records(project: Project, info: PageInfo, labels: Sequence[Label], warnings: list[str]
                  ) -> list[tuple[tuple[str, ...] | None, tuple[str, ...] | None]]:
    """Each record's texts, read from the saved page as it is now ((None, None) each when it cannot be read), and
    its XPaths that expand to no text on it (`xpaths_without_text`): what `labels check` flags, an element without
    text too, and on a page changed by hand since it was stored, as it is now, as `labels check` checks it."""
    try:
        data = read_file_bytes(project.snapshot_file(info.name))
        page = project.load(info.name, data=data).page  # the bytes checked against the hash are those parsed
    except (OSError, RecordLensError) as error:  # the labels are still worth having: written without texts, said
        warnings.append(about_page(info.name, "exported without its records' texts, as its saved copy in the "
                                              f"project could not be read: {as_clause(error)}"))
        return [(None, None)] * len(labels)
    if not _as_stored(data, info.snapshot):
        warnings.append(changed_since_import(info.name, "its records' texts are those it holds now"))
    keys = TextKeyIndex(page.text_map)
    return [(tuple(texts_of_record(page, keys, label.xpaths)), xpaths_without_text(label.xpaths, keys))
            for label in labels]


def _record_fields(row: _Row) -> dict[str, object]:
    info, label = row.info, row.label
    fields: dict[str, object] = {
        "page": info.name, "record": row.number, "id": None, "status": None, "xpaths": [], "unresolved": [],
        "origin": None, "changed_by": None, "derived_from": [], "created_at": None, "changed_at": None,
        "page_status": PAGE_STATUS_WORDS[info.status], "snapshot": info.snapshot, "url": info.url,
        "texts": None if row.texts is None else list(row.texts),
        "adjudication": [_decision_fields(d) for d in row.decisions],
        "page_adjudication": [{**_decision_fields(d), "ours": _xpaths(d.ours)} for d in row.page_decisions],
    }
    if label is not None:
        fields.update(id=label.id, status=label.status, xpaths=list(label.xpaths),
                      unresolved=list(row.unresolved_xpaths), origin=_provenance(label.origin),
                      changed_by=_provenance(label.changed_by), derived_from=list(label.derived_from),
                      created_at=label.created_at, changed_at=label.changed_at)
    return fields


def _decision_fields(decision: Decision) -> dict[str, object]:
    return {"annotator": decision.annotator, "decision": decision.decision, "at": decision.at,
            "by": _provenance(decision.by), "theirs": _xpaths(decision.theirs)}


def _xpaths(xpaths: Sequence[str] | None) -> list[str] | None:
    return None if xpaths is None else list(xpaths)


def _decision_words(decisions: Sequence[Decision]) -> str:
    """"taken from bea; merged with ben": a CSV cell's words for the decisions of a record or a page."""
    return "; ".join(_DECISION_WORDS[d.decision, d.ours is None and d.decision == KEPT].format(d.annotator)
                     for d in decisions)


# (decision, a keep where the project has no record) -> words
_DECISION_WORDS = {(TAKEN, False): "taken from {}", (MERGED, False): "merged with {}", (KEPT, False): "kept over {}",
                   (KEPT, True): "not taken from {}", (DELETED, False): "deleted ({} made none)"}


def _jsonl(rows: Iterable[_Row]) -> Iterator[str]:
    for row in rows:
        yield json.dumps(_record_fields(row), ensure_ascii=False) + "\n"


CSV_COLUMNS = ("page", "record", "id", "status", "xpath", "resolves", "origin", "changed_by", "changed_at",
               "page_status", "url", "text", "adjudication", "page_adjudication")


# What a spreadsheet runs as a formula starting a cell (OWASP's list), and the apostrophe that guards one: a cell
# starting with an apostrophe of its own gets one too, so that stripping one gives back every cell as it was.
_GUARDED_STARTS = ("=", "+", "-", "@", "\t", "\r", "'")
# A plain number, which a spreadsheet reads as that number (nothing runs), kept as it is: a page named `-5`.
_PLAIN_NUMBER = re.compile(r"[+-]?[0-9]+(?:\.[0-9]+)?")


def _cell(value: object) -> object:
    """A text a spreadsheet would run as a formula (`=HYPERLINK(...)` from an untrusted label or page file) starts
    with an apostrophe, which the spreadsheet shows as text; JSONL keeps every text verbatim."""
    if not isinstance(value, str) or not value.startswith(_GUARDED_STARTS) or _PLAIN_NUMBER.fullmatch(value):
        return value
    return f"'{value}"


def _csv(rows: Iterable[_Row]) -> Iterator[str]:
    """The CSV's lines, a record's (or a page's without records) at a time."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    yield _taken(buffer)
    for row in rows:
        writer.writerows(_csv_rows(row))
        yield _taken(buffer)


def _taken(buffer: io.StringIO) -> str:
    """What `buffer` holds, which it then no longer does."""
    text = buffer.getvalue()
    buffer.seek(0)
    buffer.truncate()
    return text


def _csv_rows(row: _Row) -> Iterator[list[object]]:
    """A record's rows, one per XPath, or a page's one row without a record."""
    info, label = row.info, row.label
    page_status, url = PAGE_STATUS_WORDS[info.status], info.url or ""
    on_page = _decision_words(row.page_decisions)
    if label is None:  # the page, named with empty record cells
        yield [_cell(v) for v in (info.name, *[""] * 8, page_status, url, "", "", on_page)]
        return
    head = [info.name, row.number, label.id, label.status]
    tail = [str(label.origin), str(label.changed_by or ""), label.changed_at, page_status, url]
    text = TEXT_SEPARATOR.join(row.texts or ())
    first = (text, _decision_words(row.decisions), on_page)
    # A record with no XPath still gets its row, so every record is countable in the table; its text and
    # decisions are on its first row only (a record of 30 XPaths would otherwise repeat them 30 times)
    for number, xpath in enumerate(label.xpaths or ("",)):
        resolves = "" if not xpath else int(xpath not in row.unresolved_xpaths)
        cells = (*head, xpath, resolves, *tail, *(("", "", "") if number else first))
        yield [_cell(v) for v in cells]
