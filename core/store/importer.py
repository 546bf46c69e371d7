"""Import saved pages into a project: MHTML and HTML files, folders of them, and datasets (`html/` + `gt/`, or the
`mhtml/` + `gt/` of `synth --formats mhtml`: `page.dataset.dataset_pages`).

Each page goes in whole or not at all: its snapshot file is stored first (content-addressed, so a leftover
from a failed import is harmless and reused), then the page row, its labels and their history entry are
written in one transaction. A file that cannot be read, or whose ground truth is malformed, is reported with
the reason and skipped; the other pages still go in.

Idempotence, by name and content: a page whose name is already in the project with the same snapshot bytes
is left as it is (labels are not imported a second time); the same name with different bytes is refused,
because overwriting would silently detach the labels made on the old page. A file without labels whose bytes
are a page of another name (a copy or a link of a page imported already) is not imported again either: a second,
unlabelled page of one snapshot would come back in training, proposals and exports; the report names both. A
dataset's page that comes with labels of its own is its own page even so (the dataset stays whole, as it is
scored), and the report names the page of the same bytes.

A folder of pages may hold each page's labels beside it (`N.html` with `N.json`): they are that page's labels, as a
dataset's `gt/N.json` are. A project's folder (or its `snapshots/`), and a dataset whose `html` or `gt` is there but
is no folder (a link to a folder moved away), are refused whole, said (`import_layout`); a folder's files that are
no page are named in one line.

A page name holding a control character (a line break, a tab) is refused: it would break every list and message
that names the page; the file is renamed to import it.

An import is marked in the project until it has gone through all its pages (`import_marks`): one stopped part way
(killed, Ctrl+C, the app's Cancel or quit, a full disk) is said by whatever opens the project next, and the same import
run again finishes it, said, and its closing label check is of every page of that import, those the stopped one
brought in too, as are its lines on records holding XPaths that name no element (once each page). A full disk stops
an import at the first page that meets it (`ImportReport.full_disk`): every page after it would meet it too, and is
counted as not tried rather than refused one by one; so does a file of the project at the largest size a file may
have there (`ulimit -f`, FAT32's 4 GB), said as the project's file, not the page's. A saved copy written for a page
whose row then cannot be stored is taken away again (no row names it, and no other import holds it: it may have
found the copy stored and be about to name it, `files.snapshot_held`).

A folder of predictions (`N.json`, as an extractor run writes it) is stored as a run with `import_run_folder`.

A second annotator's dataset (`annotator=NAME`) goes into that annotator's own label set
(`project.annotators`), apart from the project's labels: pages already in the project (same bytes) get the
annotator's records beside the project's, a page it holds under another name too (their file renamed: the labels go
onto the project's page of those bytes, said, when that page can be told); pages not in it yet are imported first,
with no project labels. Their labels of a page the project has need no page file beside them, in a folder of labels
alone as in a dataset whose `html/` holds only the pages the project lacks. The annotator's labels of all the pages
go into their set together, in one transaction, once the pages are in: a page of the set imported again with other
records is replaced, its earlier records set aside in the project folder first, in one folder with one note
(label_sets.py); the report names those pages. The pages their set holds that the import brings no labels of (a page
dropped from the annotator's copy since, or a folder of part of their labels) are kept, and named in the summary with
the command that takes them out (`annotators --remove NAME --page N`); a folder of their labels set aside, put back,
holds part of a set by its nature and is not said so.

Dataset labels are kept verbatim: XPaths are stored as written, duplicate and empty records included. An
XPath that names no element of the page is kept and flagged on its record, never dropped. Every page imported
with labels is checked as `recordlens labels check` does (core/records/hygiene.py): `ImportReport.label_check`
states the XPaths that resolve to nothing, records listed twice, nested records, the pages whose chrome policy
differs from the majority of the project's pages with labels (these and those already there; for an annotator's
labels, of that annotator's pages: their set, with the pages just imported), and the ceiling those labels allow.
"""

from __future__ import annotations

import dataclasses
import errno
import functools
import os
import re
import resource
import sqlite3
import unicodedata
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from ..command_hints import hint_option, hint_path
from ..errors import DatasetError, RecordLensError, full_disk, is_disk_full, said_without_path
from ..file_kinds import not_a_page_file
from ..lazy_import import stop_if_interrupted
from ..page.dataset import (
    LINE_BREAKING,
    NOT_A_PAGE_SUFFIX,
    PAGE_FOLDERS,
    PAGE_SUFFIXES,
    SYNTH_MANIFEST,
    dataset_pages,
    natural_key,
    not_a_folder,
    odd_page_entries,
    page_files,
    page_name_problem,
    parse_snapshot,
    record_files,
    synthetic_originals,
    synthetic_sources,
    unfinished_dataset,
)
from ..page.snapshot import Snapshot, read_file_bytes, read_snapshot
from ..path_text import stored_text
from ..records.hygiene import (
    CheckReport,
    PageCheck,
    check_page,
    names_by_form,
    same_name_in_another_form,
    summarise,
)
from ..records.model import RecordList, RecordsFile, load_records
from ..runs.evaluate import seed_ran, seed_runs, seeds_left_out_said, seeds_that_ran
from ..runs.run_files import (
    COPIED_AS_THEY_ARE,
    ENDED,
    FILES_MISSING,
    LEFT_OUT,
    NOT_IN_PROJECT,
    OTHER_PAGES,
    SEEDS_ASKED,
    STOPPED,
    STORED_COST,
    PageCosts,
    done_without_a_file,
    failed_pages,
    files_missing,
    identity_differences,
    left_out_pages,
    made_on_other_pages,
    not_in_project,
    other_pages_message,
    page_predictions,
    pages_made_otherwise,
    read_page_costs,
    read_run_description,
    stopped_part_way,
    stored_cost,
    summed_cost,
    unnamed_method_message,
)
from ..runs.runner import run_folders_held
from ..text_forms import not_utf8, same_form, unicode_form, visible, written
from ..wording import counted, listed, shortened
from .adjudication import Decided
from .db import Provenance, database_problem, full_or_nearly, now, stamp
from .files import content_hash, remove_stale_temporaries, snapshot_held, store_snapshot
from .import_layout import (
    a_project_refused,
    broken_dataset_folder,
    files_not_pages,
    files_not_pages_line,
    labels_without_pages_line,
    not_a_folder_there,
    project_folder_of,
    project_of_a_saved_copy,
    site_files,
)
from .import_marks import AskedImport, StoppedImport, mark_import, stopped_imports, unmark_import
from .label_sets import SetAside, remove_pages_hint, set_aside_by
from .project import PROJECT_DB, Project
from .run_matching import (
    RECORDS_KEPT,
    STOPPED_ON,
    ChangedByHand,
    added_from,
    asked_again,
    changed_by_hand,
    earlier_digests,
    extracted_again,
    first_folder,
    kept_for_adding,
    kept_records,
    record_digests,
    resumed_since,
    runs_of_the_folder,
    without_folder,
)
from .run_matching import stopped_on as stopped_on_pages
from .runs import RunInfo, records_digest
from .schema import TRUE_LABEL_STATUSES

Progress = Callable[[Sequence["PageSource"]], Iterable["PageSource"]]


@dataclass(frozen=True)
class PageSource:
    """One page to import: its file, and its ground truth when it comes from a dataset."""

    name: str
    path: Path
    truth: Path | None = None          # gt/N.json
    truth_origin: str | None = None    # the gt folder, recorded as the labels' provenance
    made_from: str | None = None       # of a page `recordlens synth` made, its source page's digest (synth.json)


@dataclass(frozen=True)
class ImportProblem:
    path: Path
    reason: str

    def __str__(self) -> str:
        path = str(self.path)
        # a line break in a file's name would cut the line that names it (a hint would keep it, quoted); any other
        # name as a hint names a path: quoted for the shell, bytes that are not UTF-8 as `printf` writes them
        # (and nothing else changed: macOS's NFD stays as it is)
        lines_cut = any(unicodedata.category(c) in LINE_BREAKING for c in path)
        shown = repr(path) if lines_cut else hint_path(path)
        return f"{shown}: {self.reason}"


@dataclass
class ImportReport:
    imported: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)   # already in the project with the same bytes
    # Pages whose bytes are those of a project page of another name (not imported again): what each said.
    same_as: list[str] = field(default_factory=list)
    problems: list[ImportProblem] = field(default_factory=list)
    flagged: dict[str, int] = field(default_factory=dict)  # page -> records holding an unresolved XPath
    labels: int = 0
    warnings: list[str] = field(default_factory=list)
    checks: list[PageCheck] = field(default_factory=list)  # label hygiene of each page imported with labels
    # The project's other pages with labels: they count towards the majority policy the new pages are judged by
    # (alone, for an annotator's pages: theirs are weighed against the project's policy).
    project_checks: list[PageCheck] = field(default_factory=list)
    annotator: str | None = None  # whose labels the import brought, when another annotator's
    # An annotator import: the pages it brought into the project, with the annotator's labels and without labels
    new_with_labels: list[str] = field(default_factory=list)
    new_without_labels: list[str] = field(default_factory=list)
    replaced: list[str] = field(default_factory=list)  # pages whose labels the dataset's replaced (replace_labels)
    replace_labels: bool = False  # asked for: a page already in the project takes the dataset's labels
    # The synth datasets whose page names the project holds already for other pages: said once each, with how to
    # make variants of other names (`_say_synth_names_taken`), not once per page
    synth_names_taken: list[str] = field(default_factory=list)
    # The datasets imported from that an export or synth did not finish (`unfinished_dataset`, said among the
    # warnings): the import exits 1, as `score` of them does, since pages or labels may be missing
    unfinished: list[str] = field(default_factory=list)
    replaced_labels: int = 0  # the labels those pages took
    # The project's page names by Unicode form (`unicode_form`), read once before the first page goes in: a page
    # whose name is another's in another form is said (`_say_a_name_in_another_form`)
    page_forms: dict[str, str] | None = None
    # An annotator's pages whose earlier records in their set the import replaced: page -> (before, after) counts
    annotator_replaced: dict[str, tuple[int, int]] = field(default_factory=dict)
    # An annotator's pages whose records their set held already, as imported (the same folder imported again)
    annotator_same: list[str] = field(default_factory=list)
    # Of those pages, the adjudication decisions still in force that were taken on the labels replaced (left as they
    # are: said, so that the lead looks at them again)
    annotator_decided: dict[str, Decided] = field(default_factory=dict)
    set_aside: SetAside | None = None  # where those earlier records went
    # An annotator's pages their set holds that this import brought no labels of (dropped from their copy since,
    # or a folder of part of their labels): kept as they are, said with the command that takes them out
    annotator_not_brought: list[str] = field(default_factory=list)
    drop_hint: str = ""  # that command
    # An annotator's pages the project holds under another name (the same bytes): page of the project -> the name
    # their file gave it, whose labels went onto the project's page (`_onto_the_page_of_its_bytes`), each said
    onto_named_otherwise: dict[str, str] = field(default_factory=dict)
    restore_hint: str = ""  # the command that puts them back
    # A full disk stops an import at the page that met it (`stopped_at`, among the problems, with why): what it said
    # of the disk, and the pages after it, not tried (each would have met it too)
    full_disk: str = ""
    stopped_at: str | None = None
    not_tried: list[str] = field(default_factory=list)
    # what to do before running it again: room made, or (a file of the project at the largest size a file may have
    # there: `_file_size_limit_met`) the limit raised
    room_then: str = "free space"
    # Pages already in the project whose labels there are those this import brings (the same dataset imported
    # again, or an import resumed): those a stopped import brought in are checked by the import that finishes it
    labels_held: list[str] = field(default_factory=list)
    checked_for_the_stopped: int = 0  # of `checks`, those of the pages the stopped import it finishes brought in

    @property
    def label_check(self) -> CheckReport | None:
        """The label hygiene of the pages imported with labels (None when none was), their policy judged
        against the majority of every page of the project with labels."""
        return summarise(self.checks, self.project_checks, checks_vote=not self.annotator) if self.checks else None

    def warning_lines(self) -> list[str]:
        """What was imported but deserves a look: snapshot warnings, records holding XPaths that name nothing."""
        onto = [f"page {theirs}: the same bytes as page {ours} of the project, so {self.annotator}'s labels of it "
                f"went onto page {ours}" for ours, theirs in self.onto_named_otherwise.items() if ours in self.imported]
        return self.warnings + self.same_as + onto + [
            f"page {page}: {count} record(s) hold XPaths that name no element of the page (kept, flagged)"
            for page, count in self.flagged.items()]

    def label_lines(self, annotator: str | None = None) -> list[str]:
        """What `labels check` says of the pages just imported with labels (none when none was)."""
        checked = self.label_check
        if checked is None:
            return []
        counted_too = 0 if annotator else len(checked.pages)  # the project's pages just imported count as its own
        # A page labelled as holding no record has no policy (`hygiene.summarise`): the pages that vote are said
        held = [*checked.pages[:counted_too], *self.project_checks]
        voting = sum(1 for check in held if check.records)
        policy = f", {voting} with a policy" if voting != len(held) else ""
        among = (f", policy against the project's {len(held)} pages with labels{policy}"
                 if self.project_checks else "")
        stopped = (f" ({self.checked_for_the_stopped} of them brought in by the import stopped part way that this "
                   "one finishes)" if self.checked_for_the_stopped else "")
        return [f"labels: {line}" for line in checked.findings()] + [
            f"label check of the pages imported with labels{_whose(annotator)}{stopped}{among}: {checked.summary()}"]

    def summary(self, annotator: str | None = None) -> str:
        if annotator is not None:
            return self._annotator_summary(annotator)
        # a page whose labels were replaced is in the project already too: counted with the others, then said
        present = len(self.unchanged) + len(self.replaced)
        replaced = (f" (labels replaced on {len(self.replaced)} of them, with {self.replaced_labels} label(s): their "
                    "proposals and rejected records went too, and a page marked reviewed is labelled again; the "
                    "earlier state stays in each page's history)" if self.replaced else "")
        elsewhere = (f"; {len(self.same_as)} already in the project under another name (not imported again)"
                     if self.same_as else "")
        return (f"imported {len(self.imported)} page(s) with {self.labels} label(s){_whose(annotator)}; "
                f"{present} already in the project{replaced}{elsewhere}; {len(self.problems)} not imported"
                f"{self._not_tried()}{self._set_replaced(annotator)}")

    def stopped_line(self) -> str:
        """Why the import stopped before its last page, and what to do ("" when it did not): a full disk."""
        if not self.full_disk:
            return ""
        labels = (f"; none of {self.annotator}'s labels were stored (they are stored together at the end)"
                  if self.annotator else "")
        return (f"import stopped at page {self.stopped_at}: {self.full_disk}; "
                f"{counted(len(self.not_tried), 'page')} after it not tried{labels}: {self.room_then} and run the "
                "same import again (it skips the pages already in the project)")

    def _not_tried(self) -> str:
        return f"; {len(self.not_tried)} not tried" if self.full_disk else ""

    def _annotator_summary(self, annotator: str) -> str:
        """An annotator import puts their labels onto pages (the project's, or pages it brings in without project
        labels): said so, not as pages imported or "already in the project"."""
        labelled = [page for page in self.imported if page not in self.new_without_labels]
        new = [page for page in labelled if page in self.new_with_labels]
        whose = f"imported {annotator}'s labels of {counted(len(labelled), 'page')}"
        labels = counted(self.labels, "label")
        same = [page for page in labelled if page in self.annotator_same]  # never a page new to the project
        if same and len(same) == len(labelled):
            onto = (f"{annotator}'s labels of {counted(len(labelled), 'page')} of the project ({labels}) are those "
                    "their set held already: nothing changed")
        elif not new:
            onto = f"{whose} of the project ({labels})"
        else:
            onto = (f"{whose} ({labels}): {len(labelled) - len(new)} of the project's pages, {len(new)} new to the "
                    f"project (imported without project labels: {listed(new)})")
        if same and len(same) < len(labelled):
            onto += f"; {len(same)} of those pages unchanged (their set held those labels already)"
        bare = []
        if self.new_without_labels:
            bare.append(f"{counted(len(self.new_without_labels), 'page')} without labels imported")
        if self.unchanged:
            bare.append(f"{counted(len(self.unchanged), 'page')} without labels already in the project")
        elsewhere = (f"; {len(self.same_as)} already in the project under another name (not imported again)"
                     if self.same_as else "")
        return (f"{onto}{''.join('; ' + b for b in bare)}{elsewhere}; {len(self.problems)} not imported"
                f"{self._not_tried()}{self._set_replaced(annotator)}{self._not_brought(annotator)}")

    def _not_brought(self, annotator: str) -> str:
        """The pages of the annotator's set that this import brought no labels of, kept, and how to drop them."""
        pages = self.annotator_not_brought
        if not pages:
            return ""
        one = len(pages) == 1
        return (f"; {annotator}'s set also holds {counted(len(pages), 'page')} this import brought no labels of "
                f"({listed(pages, 8, total=True)}), kept as {'it was' if one else 'they were'} (a folder may hold "
                f"part of a set): {self.drop_hint} takes {'it' if one else 'them'} out (set aside in "
                "removed/annotators/ first)")

    def _set_replaced(self, annotator: str | None) -> str:
        """The annotator's pages whose earlier records this import replaced, and where those are kept."""
        if not self.annotator_replaced or self.set_aside is None or self.set_aside.folder is None:
            return ""
        pages = ", ".join(f"{page} ({before} → {after} records{self._decided_words(page)})"
                          for page, (before, after) in self.annotator_replaced.items())
        decided = [page for page in self.annotator_replaced if page in self.annotator_decided]
        look_again = (f"; the decisions stay as they are: look at {'page' if len(decided) == 1 else 'pages'} "
                      f"{listed(decided, 8, total=True)} again in the app's review" if decided else "")
        return (f"; replaced {annotator}'s labels of {counted(len(self.annotator_replaced), 'page')}: {pages}"
                f"{look_again}; the earlier ones are kept in {hint_path(self.set_aside.folder)} ({self.restore_hint})")

    def _decided_words(self, page: str) -> str:
        decided = self.annotator_decided.get(page)
        return f"; {decided.words()}" if decided is not None else ""


def _whose(annotator: str | None) -> str:
    return f" of annotator {annotator}" if annotator else ""


def import_paths(project: Project, paths: Iterable[str | Path],
                 progress: Progress = lambda items: items, *, annotator: str | None = None,
                 replace_labels: bool = False, stopped_by_user: Callable[[], bool] = lambda: False) -> ImportReport:
    """Import pages and datasets; with `annotator`, datasets' records go to that annotator's label set; with
    `replace_labels`, a page already in the project whose labels in the dataset differ takes those labels (its
    earlier ones stay in its history, one step to restore). `stopped_by_user`: whether the user stopped it (the
    app's Cancel): told then what was imported, they are not told again at the next open, as they are of an import
    killed, ended with the app (a quit, SIGTERM) or stopped by a full disk (`import_marks`)."""
    report = ImportReport(replace_labels=replace_labels)
    removed = remove_stale_temporaries(project.root)
    if removed:
        report.warnings.append(f"removed {removed} temporary snapshot file(s) left by an import that was stopped")
    paths = [Path(p) for p in paths]
    putting_back = False
    if annotator is not None:
        # labels of a set put back are that set's, whatever other spellings the project holds
        putting_back = any(set_aside_by(path) == annotator for path in paths)
        annotator = project.annotators.check_new_name(annotator, held_before=putting_back)
        _say_other_cases(project, annotator, report)
        report.set_aside = SetAside(annotator, "replaced by an import")
    report.annotator = annotator  # named in what is said of their pages as they go in
    labels_go_onto_pages = annotator is not None or replace_labels
    labels_only = [p for p in paths if labels_go_onto_pages and _labels_only(p)]
    sources = find_sources([p for p in paths if p not in labels_only], report,
                           project if labels_go_onto_pages else None)
    for folder in labels_only:  # another annotator's labels of pages the project has: no pages needed beside them
        sources += _sources_in_the_project(project, folder, report)
    given = {source.name for source in sources if source.truth is not None}  # the pages labels are brought for
    # Marked in the project until it has gone through every page: one stopped part way is said by whatever opens
    # the project next (import_marks); the same import stopped before is taken over, its mark this one's now
    asked = AskedImport.of(paths, annotator, replace_labels=replace_labels)
    earlier = _take_over(project, asked)
    mark = mark_import(project.root, asked, [source.name for source in sources]) if sources else None
    finished = False
    try:
        finished = _import_sources(project, sources, progress, report, annotator, given)
    finally:
        if mark is not None:
            unmark_import(mark, finished=finished or stopped_by_user())
    _flag_what_they_brought(project, earlier, report)
    if finished and earlier:
        report.warnings += [f"this import finishes the same import, stopped part way before (begun {stopped.started} "
                            f"by process {stopped.process})" for stopped in earlier]
        _check_what_they_brought(project, earlier, report)
    if report.checks:  # the majority policy: of the project's own pages with labels (their checks remembered)
        just = [c.page for c in report.checks] if annotator is None else []  # an annotator's pages: not the project's
        report.project_checks = list(project.label_checks.labelled(except_pages=just))
    if report.set_aside is not None and report.set_aside.folder is not None:
        report.restore_hint = report.set_aside.how_to_restore(Path(project.root))
    if annotator is not None and finished and not putting_back:  # labels set aside put back are part of a set
        _say_set_pages_not_brought(project, annotator, given, report)
    return report


def _say_set_pages_not_brought(project: Project, annotator: str, given: Collection[str], report: ImportReport) -> None:
    """The pages of the annotator's set that this import brought no labels of (`given`, and the pages of the project
    their labels of a page named otherwise went onto): kept, since a folder may hold part of a set, but said, with
    the command that takes them out, so that a page dropped from the annotator's copy does not stay in what
    `agreement` compares unseen."""
    brought = {*given, *report.onto_named_otherwise}
    report.annotator_not_brought = sorted((page for page in project.annotators.pages(annotator) if page not in brought),
                                          key=natural_key)
    if report.annotator_not_brought:
        report.drop_hint = remove_pages_hint(Path(project.root), annotator, report.annotator_not_brought)


def _import_sources(project: Project, sources: Sequence[PageSource], progress: Progress, report: ImportReport,
                    annotator: str | None, given: Collection[str]) -> bool:
    """Each page into the project, and an annotator's labels into their set once their pages are in; whether it
    went through them all. A full disk stops it at the page that met it (the others would each meet it too): said
    in the report (`full_disk`, `not_tried`)."""
    pending: list[AnnotatorPage] = []  # an annotator's labels, stored together once their pages are in
    tried = 0
    for source in progress(sources):
        tried += 1
        try:
            if annotator is None:
                import_page(project, source, report)
            else:
                pending += import_annotator_page(project, source, annotator, report, given)
        except Exception as error:  # noqa: BLE001 - one odd file must not stop a batch; the reason is reported
            stop_if_interrupted(error)  # a Ctrl+C a library's loader made an ImportError: the batch stops
            at_the_limit = _file_size_limit_met(project, error)
            report.problems.append(ImportProblem(source.path, at_the_limit or _not_imported(project, error,
                                                                                            source.path)))
            if at_the_limit or _the_disk_is_full(project, error):
                report.full_disk = at_the_limit or _full_disk_said(error)
                report.room_then = _RAISE_THE_LIMIT if at_the_limit else report.room_then
                report.stopped_at = source.name
                report.not_tried = [later.name for later in sources[tried:]]
                return False
    if tried < len(sources):  # the app's Cancel: the pages it did not come to wait for the same import again
        return False
    if annotator is not None and pending:
        return store_annotator_pages(project, annotator, pending, report)
    return True


def _check_what_they_brought(project: Project, earlier: Sequence[StoppedImport], report: ImportReport) -> None:
    """The label checks of the pages the stopped imports this one finishes brought in with their labels (their
    checks remembered): the closing check of the import that finishes one covers all its pages, as that of one
    never stopped would, not only those this run brought in."""
    checked = {check.page for check in report.checks}
    for name in _what_they_brought(earlier, report):
        if name not in checked:
            report.checks.append(project.label_checks.check(name))
            report.checked_for_the_stopped += 1


def _flag_what_they_brought(project: Project, earlier: Sequence[StoppedImport], report: ImportReport) -> None:
    """The records holding XPaths that name no element, of the pages the stopped imports this one takes over brought
    in with their labels, said as the pages this one brings in are (`ImportReport.flagged`), once each and theirs
    first: a stopped import said nothing of them (killed, Ctrl+C), or said it in output this one follows, and
    the output of the import that finishes one is the output read last."""
    flagged = {name: count for name in _what_they_brought(earlier, report)
               if name not in report.flagged and (count := _records_flagged(project, name))}
    report.flagged = {**flagged, **report.flagged}


def _what_they_brought(earlier: Sequence[StoppedImport], report: ImportReport) -> list[str]:
    """The pages of the stopped imports this one takes over that this one found in the project with the labels it
    brings (brought in by them, labels and all), each once, in the order it came to them."""
    theirs = {page for stopped in earlier for page in stopped.pages}
    return [name for name in dict.fromkeys(report.labels_held) if name in theirs]


def _records_flagged(project: Project, page: str) -> int:
    """How many of the page's labels hold an XPath that names no element of it (flagged as they were stored)."""
    return sum(1 for label in project.labels(page, TRUE_LABEL_STATUSES) if label.flagged)


def _take_over(project: Project, asked: AskedImport) -> list[StoppedImport]:
    """The imports stopped part way that this one runs again (the same paths, labels for the same set), their
    marks taken away (this import's own stands for the same work); and, of the others, those of a plain import
    whose every page is in the project now (nothing left for them to do), their marks taken away unsaid."""
    stopped = stopped_imports(project.root)
    if not stopped:
        return []
    names = set(project.page_names())
    same = [found for found in stopped if found.asked == asked]
    for found in stopped:
        if found in same or found.message(project.root, names) is None:
            found.forget()
    return same


def _the_disk_is_full(project: Project, error: Exception) -> bool:
    """Whether a page failed for want of room on the project's disk (a file, or its database: SQLite's "database or
    disk is full", as `database_problem` reads it, or its bare I/O error with no room left)."""
    if isinstance(error, sqlite3.Error):
        return "full" in str(error).lower() or full_or_nearly(error, Path(project.root))
    return is_disk_full(error)


# What to do about a file-size limit met (`_file_size_limit_met`) before the import is run again
_RAISE_THE_LIMIT = ("raise the limit (`ulimit -f unlimited`) or move the project to a file system that holds larger "
                    "files (not FAT32)")
# The most SQLite adds to a file of its database in one write (its largest page, with a WAL frame's header)
_SQLITE_WRITE_BYTES = 65_536 + 24


def _file_size_limit_met(project: Project, error: Exception) -> str | None:
    """Why a page could not be stored when a file of the project met the largest size a file may have there (EFBIG:
    this process's `ulimit -f`, or the file system's own, as FAT32's 4 GB), said as the project's, with the file
    and the limit; None for any other failure (a source file over the reader's own limit is the source's). Of the
    database SQLite says only "disk I/O error": its files are looked at for one at the limit."""
    if isinstance(error, OSError) and error.errno == errno.EFBIG and error.filename is not None:
        file: Path | None = Path(os.fsdecode(error.filename))
        if not file.is_relative_to(project.root):
            return None
    elif isinstance(error, sqlite3.Error) and "disk i/o error" in str(error).lower():
        file = _database_file_at_the_limit(Path(project.root) / PROJECT_DB)
    else:
        return None
    if file is None:
        return None
    limit = _file_size_limit()
    why = (f"no file may grow past {limit:,} bytes here (this process's file-size limit, `ulimit -f`)"
           if limit is not None else "it is as large as a file of that file system may be (FAT32 holds 4 GB at most)")
    return f"the project's file {hint_path(file)} cannot be written: {why}"


def _file_size_limit() -> int | None:
    """This process's limit on the size of a file it writes (`ulimit -f`), None when there is none."""
    soft, _ = resource.getrlimit(resource.RLIMIT_FSIZE)
    return None if soft == resource.RLIM_INFINITY else soft


def _database_file_at_the_limit(database: Path) -> Path | None:
    """The file of the project's database (itself, its write-ahead log, its journal) that one more write of SQLite's
    would take past this process's file-size limit, if any (None too when there is no limit)."""
    limit = _file_size_limit()
    if limit is None:
        return None
    for file in (database, database.with_name(f"{database.name}-wal"), database.with_name(f"{database.name}-journal")):
        try:
            if file.stat().st_size + _SQLITE_WRITE_BYTES > limit:
                return file
        except OSError:
            continue  # no such file
    return None


def _full_disk_said(error: Exception) -> str:
    """The full disk an import met, as its stop says it."""
    detail = f"its database: {error}" if isinstance(error, sqlite3.Error) else getattr(error, "strerror", None)
    return full_disk("the project", detail=detail or None)


def _say_other_cases(project: Project, annotator: str, report: ImportReport) -> None:
    """Two label sets where one may have been meant are easy to miss later: every other spelling is named."""
    alike = project.annotators.other_cases(annotator)
    if alike:
        names = [repr(n) for n in (annotator, *alike)]
        sets = "two" if len(names) == 2 else str(len(names))
        report.warnings.append(f"{', '.join(names[:-1])} and {names[-1]} are {sets} label sets (names differ in "
                               f"case); the labels go to {annotator!r}")


def _not_imported(project: Project, error: Exception, source: Path) -> str:
    """Why a file could not be imported into `project`, as its line in the report says it (its database named by
    its path, as every message names it, when what to do with it is said)."""
    if isinstance(error, RecordLensError):
        return str(error)
    if isinstance(error, OSError):
        return _not_stored(error, source)
    if isinstance(error, sqlite3.Error):  # a disk full, or another process writing: the page is not in the project
        return database_problem(error, database=Path(project.root) / PROJECT_DB)
    return f"unexpected {type(error).__name__}: {error}"


def _not_stored(error: OSError, source: Path) -> str:
    """Why a page could not be imported, naming the side that failed: the file read, or the project written."""
    if is_disk_full(error):
        return full_disk("the project", detail=error.strerror)
    if error.filename and Path(error.filename) != source:
        return f"cannot write {hint_path(error.filename)} ({error.strerror or error})"
    return f"cannot be read ({error.strerror or error})"


def find_sources(paths: Sequence[Path], report: ImportReport, labels_onto: Project | None = None
                 ) -> list[PageSource]:
    """The pages behind command-line paths: a page file, a dataset folder (`html/` or `mhtml/`, with `gt/`), or a
    folder of pages (with the `N.json` labels beside them, as a dataset's); with `labels_onto`, a dataset's labels
    without their page file go onto that project's page of their name. A project's folder, and a dataset whose
    `html/` is there but is no folder, are refused (`import_layout`)."""
    sources: list[PageSource] = []
    for path in paths:
        if path.is_dir() and (project := project_folder_of(path)) is not None:
            report.problems.append(ImportProblem(path, a_project_refused(path, project)))
        elif path.is_dir() and not_a_folder_there(path / "html") and dataset_pages(path) is None:
            report.problems.append(ImportProblem(path, broken_dataset_folder(path, "html", "pages")))
        elif path.is_dir() and (pages_dir := dataset_pages(path)) is not None:
            sources += _dataset_sources(path, pages_dir, report, labels_onto)
        elif path.is_dir():
            files = page_files(path, report.warnings, odd_files=False)
            _note_unfinished(path, report)
            made_from = synthetic_sources(path)  # the html/ of a dataset `synth` made, named alone
            _say_pages_without_their_source(path, files, made_from, report)
            found = _pages_and_labels_beside(path, files, report, labels_onto, made_from) if files else []
            sources += found
            _report_odd_entries(path, report)
            if others := files_not_pages(path):  # never skipped without a word
                report.warnings.append(files_not_pages_line(path, others))
            inside = _subfolders(path)
            if not found:  # an empty folder, or one of labels: said, not "imported 0 page(s)" and success
                gt_broken = not_a_folder_there(path / "gt")
                labels = (" (a folder of labels? they go onto the project's pages of their names with "
                          "--annotator NAME, or with --replace-labels as the project's own)") if _labels_there(
                    path) or (path / "gt").is_dir() else (
                    f" (its gt is {gt_broken})" if gt_broken else "")
                export = f" ({_EXPORT_HOLDS_NO_PAGE})" if any(
                    any(path.glob(f"*{suffix}")) for suffix in _EXPORT_SUFFIXES) else ""
                report.problems.append(ImportProblem(path, f"no page (.mhtml, .mht, .html, .htm) in this folder"
                                                           f"{labels}{export}{_not_looked_into(path, inside, '; ')}"))
            elif inside:
                report.warnings.append(f"{hint_path(path)}: {_not_looked_into(path, inside)}")
        elif path.is_file() and (project := project_of_a_saved_copy(path)) is not None:
            report.problems.append(ImportProblem(path, a_project_refused(path, project)))
        elif path.is_file() and path.suffix.lower() in PAGE_SUFFIXES:
            sources.append(PageSource(path.stem, path))
        elif (odd := not_a_page_file(path)) is not None:
            report.problems.append(ImportProblem(path, odd))
        elif path.suffix.lower() in _EXPORT_SUFFIXES:
            report.problems.append(ImportProblem(path, _ONE_WAY_EXPORT))
        else:
            report.problems.append(ImportProblem(path, NOT_A_PAGE_SUFFIX))
    return sources


def _labels_there(folder: Path) -> bool:
    """Whether a folder without pages holds `.json` files that may be labels (a site's `site.json` is none)."""
    names = [path.name for path in folder.glob("*.json")]
    return bool(set(names) - site_files(names, ()))


# What `export` writes in JSON Lines or CSV holds no page (a digest of each): a way out of a project, not back in.
_EXPORT_SUFFIXES = (".jsonl", ".csv")
_EXPORT_HOLDS_NO_PAGE = ("a JSON Lines or CSV export holds no page, so it is not imported: import a NEXT-EVAL "
                         "dataset (`export --format nexteval`), or move a whole project with `recordlens project "
                         "copy`")
_ONE_WAY_EXPORT = f"{NOT_A_PAGE_SUFFIX}; {_EXPORT_HOLDS_NO_PAGE}"


def _subfolders(folder: Path) -> list[Path]:
    """The folders inside a folder of pages (hidden ones aside), which an import of the folder does not enter."""
    try:
        # a folder named like a page (`x.html/`) is listed as not imported already
        return sorted((p for p in folder.iterdir() if p.is_dir() and not p.name.startswith(".")
                       and p.suffix.lower() not in PAGE_SUFFIXES),
                      key=lambda p: natural_key(p.name))
    except OSError:
        return []


# Why an import leaves a folder's subfolders aside
_FOLDER_NAMED = "an import takes the pages of the folder named, not of the folders inside it"


def _not_looked_into(folder: Path, inside: Sequence[Path], joined: str = "", why: str = _FOLDER_NAMED) -> str:
    """What an import of `folder` left aside in its subfolders, and how to import each kind ('' when none). A
    `gt/` beside no page is left out: the line names a folder of labels already (`find_sources`)."""
    pages_beside = not joined
    inside = [p for p in inside if p.name != "html" and (pages_beside or p.name != "gt")]
    if not inside:
        return ""
    datasets = [p for p in inside if dataset_pages(p) is not None]
    labels = [p for p in inside if p not in datasets and p.name != "gt" and _labels_only(p)]
    pages = [p for p in inside if p not in datasets and p not in labels and p.name != "gt"]
    hows = []
    if datasets:
        hows.append(f"a dataset ({listed([p.name for p in datasets])}) is imported with its labels by naming its "
                    f"folder, as in `recordlens import {hint_path(datasets[0])}`")
    if labels:
        hows.append(f"labels alone ({listed([p.name for p in labels])}) go onto the project's pages of their names, "
                    f"as in `recordlens import {hint_path(labels[0])} --annotator NAME` (another annotator's; "
                    "--replace-labels for the project's own)")
    if pages:
        hows.append(f"name a folder to import its pages, as in `recordlens import {hint_path(pages[0])}`")
    if any(p.name == "gt" for p in inside):
        hows.append(f"labels in gt/ are imported with their pages in html/ beside it (a dataset: "
                    f"{hint_path(folder / 'html' / 'N.html')} and gt/N.json)")
    return (f"{joined}{counted(len(inside), 'subfolder')} not looked into ({listed([p.name for p in inside])}): "
            f"{why}; {'; '.join(hows)}")


def _labels_only(path: Path) -> bool:
    """A folder of labels without pages: `DIR/gt/` with no `DIR/html/` (nor synth's `DIR/mhtml/`), or `N.json`
    files and no page."""
    if not path.is_dir() or dataset_pages(path) is not None:
        return False
    if (path / "gt").is_dir():
        return True
    return bool(record_files(path)) and not page_files(path, odd_files=False)


def _sources_in_the_project(project: Project, folder: Path, report: ImportReport) -> list[PageSource]:
    """The labels of a folder without pages, each for the project's own page of its name."""
    if not_a_folder_there(folder / "gt"):  # nothing of it, rather than the N.json files beside a gt that broke
        report.problems.append(ImportProblem(folder, broken_dataset_folder(folder, "gt", "labels (N.json)")))
        return []
    gt = folder / "gt" if (folder / "gt").is_dir() else folder
    origin = str(gt.resolve())
    sources = []
    for name, truth in record_files(gt).items():
        if project.has_page(name):
            sources.append(PageSource(name, project.snapshot_file(name), truth, origin))
        else:
            report.problems.append(ImportProblem(truth, f"labels of page {name}, which is not in the project "
                                                        "(labels without their page go onto pages imported already)"))
    return sources


def _report_odd_entries(folder: Path, report: ImportReport) -> set[str]:
    """Entries named like pages that are not regular files (`odd_page_entries`): listed as not imported, never
    skipped silently; their page names, whose labels are then not said again (one page, one line, counted once)."""
    odd = odd_page_entries(folder)
    report.problems += [ImportProblem(entry.path, entry.reason) for entry in odd]
    return {entry.page for entry in odd}


def _note_unfinished(pages_dir: Path, report: ImportReport) -> None:
    if unfinished_dataset(pages_dir) is not None:
        report.unfinished.append(str(pages_dir.parent))


def _dataset_sources(root: Path, pages_dir: Path, report: ImportReport, labels_onto: Project | None = None
                     ) -> list[PageSource]:
    """The pages of a dataset (those of `pages_dir`, its `html/` or `mhtml/`) with their labels in `gt/`; none of
    them when its `gt` is there but is no folder (a link to a folder moved away): said, rather than every page
    imported without its labels."""
    if not_a_folder_there(root / "gt"):
        report.problems.append(ImportProblem(root, broken_dataset_folder(root, "gt", "labels (N.json)")))
        return []
    pages = page_files(pages_dir, report.warnings, odd_files=False)
    _note_unfinished(pages_dir, report)
    said = _report_odd_entries(pages_dir, report)
    if others := files_not_pages(pages_dir):
        report.warnings.append(files_not_pages_line(pages_dir, others))
    _say_what_the_dataset_left(root, pages_dir, pages, report)
    made_from = synthetic_sources(pages_dir)
    _say_pages_without_their_source(pages_dir, pages, made_from, report)
    truths = record_files(root / "gt") if (root / "gt").is_dir() else {}
    return _with_their_labels(pages_dir, pages, truths, str((root / "gt").resolve()), report, labels_onto, made_from,
                              said)


def _pages_and_labels_beside(folder: Path, pages: dict[str, Path], report: ImportReport, labels_onto: Project | None,
                             made_from: dict[str, str]) -> list[PageSource]:
    """The pages of a folder with the labels beside them (`N.html` + `N.json`), as a dataset's with its gt/: each
    page's, and (`labels_onto`) the project's pages'. Another `.json` there is no page's labels: named in one line,
    not refused; but not a snapshot site's own (`site_files`: a capture's `N.axtree.json`, its `site.json`), which
    every import of a captured site would name."""
    truths = record_files(folder)
    theirs = {name: file for name, file in truths.items()
              if name in pages or (labels_onto is not None and labels_onto.has_page(name))}
    own = site_files((file.name for file in truths.values()), pages)  # a capture's: no labels, and not said
    others = [file.name for name, file in truths.items() if name not in theirs and file.name not in own]
    if others:
        report.warnings.append(labels_without_pages_line(folder, others, onto=labels_onto is not None))
    return _with_their_labels(folder, pages, theirs, str(folder.resolve()), report, labels_onto, made_from)


def _with_their_labels(pages_dir: Path, pages: dict[str, Path], truths: dict[str, Path], origin: str,
                       report: ImportReport, labels_onto: Project | None, made_from: dict[str, str],
                       said: set[str] | None = None) -> list[PageSource]:
    """The pages of a folder, each with its labels of `truths` (where they come from: `origin`); labels without
    their page go onto `labels_onto`'s page of their name, or are said not imported, but for the pages `said`
    not imported already (a FIFO named `2.html`): its labels' own line would count the page twice, and say "no
    2.html" of a folder that holds one."""
    onto: list[PageSource] = []  # labels of the project's own pages, as a folder of labels alone brings them
    without_page = sorted(truths.keys() - pages.keys(), key=natural_key)
    forms = names_by_form(pages) if without_page else {}  # once for the folder, not once per label file
    for name in without_page:
        if labels_onto is not None and labels_onto.has_page(name):
            onto.append(PageSource(name, labels_onto.snapshot_file(name), truths[name], origin))
            continue
        if said and name in said:
            continue
        report.problems.append(ImportProblem(truths[name], f"ground truth for page {name}, but no {name}.html or "
                                                           f"{name}.mhtml in {hint_path(pages_dir)}"
                                                           f"{same_name_in_another_form(name, forms)}"))
    return [PageSource(name, file, truths.get(name), origin if name in truths else None, made_from.get(name))
            for name, file in pages.items()] + onto


def _say_what_the_dataset_left(root: Path, pages_dir: Path, pages: dict[str, Path], report: ImportReport) -> None:
    """A dataset's folders an import does not read, said: the other folder of pages (synth writes each page to
    `html/` and `mhtml/`: the pages are read once, from `pages_dir`), and the folders inside `html/` and `gt/`."""
    for other in (root / name for name in PAGE_FOLDERS):
        if other != pages_dir and other.is_dir():
            report.warnings.append(f"{hint_path(root)}: {_the_other_pages(other, pages_dir, pages)}")
    why = (f"a dataset's pages and labels are the files of its {pages_dir.name}/ and gt/, not of the folders inside "
           "them")
    for folder in (pages_dir, root / "gt"):
        inside = [p for p in _subfolders(folder) if p.suffix.lower() != ".json"]  # `x.json/`: said as no file
        if inside:
            report.warnings.append(f"{hint_path(folder)}: {_not_looked_into(folder, inside, why=why)}")


def _the_other_pages(other: Path, taken: Path, pages: dict[str, Path]) -> str:
    """What a dataset's second folder of pages holds, beside the one read."""
    try:
        held = page_files(other, odd_files=False)
    except (DatasetError, OSError):
        held = {}
    read = f"the dataset's pages were read from {taken.name}/"
    if not held:
        return f"{read}; {other.name}/ beside it holds no page"
    if held.keys() == pages.keys():
        same = ("the same pages (synth writes each page to both)" if (other.parent / SYNTH_MANIFEST).is_file()
                else f"pages of the same {'name' if len(held) == 1 else 'names'}")
        return f"{read}; {other.name}/ holds {same}, so it is not imported too"
    left = _left_in_one_folder(other, held.keys(), pages.keys())
    if left:
        # Of an unfinished dataset, its own line says to run the same synth command again: not said twice
        again = (", as it left the dataset unfinished" if unfinished_dataset(taken) is not None
                 else ": running the same synth command again makes them whole")
        return (f"{read}; {other.name}/ holds the same pages as {taken.name}/ (synth writes each page to both), "
                f"but for {counted(len(left), 'page')} a stopped synth run left in one of them only "
                f"({listed(left, 8, total=True)}){again}")
    extra = [name for name in held if name not in pages]
    beyond = f", {counted(len(extra), 'page')} not in {taken.name}/: {listed(extra, 8)}" if extra else ""
    return (f"{read}; {other.name}/ beside it ({counted(len(held), 'page')}{beyond}) is not looked into: import its "
            f"pages by naming it, as in `recordlens import {hint_path(other)}`, then their labels with "
            f"`recordlens import {hint_path(other.parent)} --replace-labels`")


def _left_in_one_folder(other: Path, held: Collection[str], read: Collection[str]) -> list[str]:
    """Of a dataset synth made, the pages one of its two folders of pages lacks, where those are all pages its
    synth.json names and the folders share the rest: what a synth stopped between a page's two files leaves
    (else none: a page of another name is no synth's, and its folder is one to import)."""
    if not (other.parent / SYNTH_MANIFEST).is_file() or not set(held) & set(read):
        return []
    left = sorted(set(held) ^ set(read), key=natural_key)
    return left if set(left) <= synthetic_originals(other).keys() else []


def _say_pages_without_their_source(pages_dir: Path, names: Iterable[str], made_from: dict[str, str],
                                    report: ImportReport) -> None:
    """Of a dataset `recordlens synth` made, the pages its synth.json does not name with their source page (a
    synth killed before it wrote them down, or an older one stopped): imported without a note of where they come
    from, which is said, since no later score can tell then that they are variants of a model's training pages."""
    if not (pages_dir.parent / SYNTH_MANIFEST).is_file():
        return
    unnamed = [name for name in names if name not in made_from]
    if not unnamed:
        return
    one = len(unnamed) == 1
    report.warnings.append(
        f"{hint_path(pages_dir.parent)}: {counted(len(unnamed), 'page')} of this synth dataset "
        f"({listed(unnamed, 8, total=True)}) {'is' if one else 'are'} not named with {'its' if one else 'their'} "
        f"source page in its {SYNTH_MANIFEST} (the synth that made {'it' if one else 'them'} was stopped before it "
        f"wrote that down): imported without that note, so no score can tell that "
        f"{'it is a variant' if one else 'they are variants'} of pages a model was trained on; make the dataset again "
        "with synth to keep it")


def _labels_are_stored(project: Project, source: PageSource) -> bool:
    """Whether the page's records in the dataset are those the project holds for it: the same dataset imported
    again, or an import resumed; nothing to warn of. A labels file that cannot be read raises its DatasetError
    (said as that, not as labels the project lacks)."""
    assert source.truth is not None
    records = [list(r) for r in load_records(source.truth).records]
    if not records and not project.page(source.name).finished:
        return False  # the dataset's "no records here" is a decision the page, new or in progress, does not hold
    return records == project.true_records(source.name)  # proposals added since do not count


def import_page(project: Project, source: PageSource, report: ImportReport) -> None:
    _import_page(project, source, report, labelled=source.truth is not None)


def _import_page(project: Project, source: PageSource, report: ImportReport, *, labelled: bool,
                 theirs: Path | None = None) -> None:
    """The page into the project (`labelled`: it comes with labels of its own, so a copy of a page of another
    name is its own page, said; `theirs`: the file of an annotator's labels of it, which a different page under
    its name would leave out, said with how to bring them)."""
    _check_page_name(source.name)
    forms = _page_forms(project, report)
    data = read_file_bytes(source.path)  # never a blocking read (a FIFO swapped in), never over the size limit
    if _in_the_project_already(project, source, data, report, theirs) or _same_page_named_otherwise(
            project, source, data, report, labelled=labelled):
        return
    snapshot = read_snapshot(data, name=source.path.name)
    records, unresolved, check = None, None, None
    if source.truth is not None:
        try:
            records, unresolved, check = _truth(source.truth, source.name, snapshot, report)
        except DatasetError as error:
            # Blame the records file, not the page: that is the file to fix. The page waits for it.
            reason = said_without_path(error, source.truth)
            report.problems.append(ImportProblem(source.truth, f"{reason}; page {source.name} not imported"))
            return
    # The stored suffix tells the browser (and the next read) how to open the file: what the reader found, not a
    # guess from the first byte (HTML may start with a UTF-16 byte order mark, or with text).
    suffix = snapshot.suffix
    # The copy is held (the writers' lock shared) from before it is looked for until the row names it, and taken
    # away again should the row fail (a full disk, a file-size limit, Ctrl+C) while no page names it
    digest = content_hash(data)
    with snapshot_held(project.root, digest, suffix, named=lambda held: _snapshot_named(project, held)):
        store_snapshot(project.root, data, suffix)
        with project.writing():
            # Looked at again inside the transaction: another import of the same pages, running at the same time,
            # may have added it since (the same page is then unchanged, not a failure)
            if _in_the_project_already(project, source, data, report, theirs) or _same_page_named_otherwise(
                    project, source, data, report, labelled=labelled):
                return
            project.add_page(source.name, digest, suffix, len(data), url=snapshot.url, title=snapshot.title,
                             charset=snapshot.charset, source=_source_text(source), warnings=snapshot.warnings,
                             status="labelled" if records == [] else "new")  # a page labelled as holding none
            origin = _labels_origin(source)
            if records:
                project.add_records(source.name, records, origin, status="accepted", unresolved=unresolved,
                                    page_status="labelled")
            elif records == []:  # "no records here" is a decision: in the page's history as labels are
                project.log_decision(source.name, origin, "add",
                                     {"page_status": {"from": "new", "to": "labelled"}})
    if labelled:  # said once it is in (its labels read, and no other import brought it in meanwhile)
        _say_same_bytes_as(project, source, data, report)
    report.imported.append(source.name)
    _say_a_name_in_another_form(source.name, forms, report)
    report.labels += len(records or [])
    report.warnings += [f"page {source.name}: {w}" for w in snapshot.warnings]
    if check is not None:
        _count_labels(report, source.name, unresolved or [], check)
        project.label_checks.remember(source.name, check, records or [])


def _snapshot_named(project: Project, digest: str) -> bool:
    """Whether the project's database names the saved copy of hash `digest` (as one it cannot read does, for all
    that is known)."""
    try:
        return project.one("SELECT 1 FROM snapshots WHERE hash = ?", (digest,)) is not None
    except sqlite3.Error:
        return True


def _in_the_project_already(project: Project, source: PageSource, data: bytes, report: ImportReport,
                            theirs: Path | None = None) -> bool:
    """Whether the project has a page of this name: the same page is noted unchanged (its labels, if they differ,
    are said not imported); another page under the name is refused (`theirs`: an annotator's labels of it, and
    how they still go onto the project's page)."""
    if not project.has_page(source.name):
        return False
    if project.page(source.name).snapshot != content_hash(data):
        said = f"a different page named {source.name!r} is already in the project"
        if (report.annotator is None or theirs is None) and source.made_from is not None:
            raise RecordLensError(f"{said} ({_say_synth_names_taken(project, source, report)})")
        if report.annotator is None or theirs is None:
            raise RecordLensError(f"{said}; rename the file to import it as a new page")
        onto = _their_labels_onto(project, source, report.annotator, theirs)
        raise RecordLensError(f"{said} (their copy differs from the project's); {onto}")
    report.unchanged.append(source.name)
    kept = _source_text(source)
    origin = synthetic_source(kept)
    if origin is not None and origin != synthetic_source(project.page(source.name).source):
        # imported before its origin was kept, or synth made it again from a source page changed since: kept now
        project.set_source(source.name, kept)
    if source.truth is None:
        return True
    try:
        stored = _labels_are_stored(project, source)
    except RecordLensError as error:  # neither another annotator's labels nor edits: no labels at all to take
        reason = said_without_path(error, source.truth)
        report.unchanged.pop()  # counted once, as not imported (which says it is in the project already), not twice
        report.problems.append(ImportProblem(source.truth, f"{reason}; page {source.name} is already in the project; "
                                                           "its labels there are left as they were"))
        return True
    if stored:
        report.labels_held.append(source.name)
    else:
        if report.replace_labels:
            _replace_labels(project, source, report)
        else:
            report.warnings.append(f"page {source.name} is already in the project: the labels in "
                                   f"{hint_path(source.truth)} were not imported (another annotator's? import them "
                                   "with --annotator NAME; edited labels of your own? `recordlens import "
                                   "--replace-labels` takes them)")
    return True


def _say_synth_names_taken(project: Project, source: PageSource, report: ImportReport) -> str:
    """Of a page synth made whose name the project holds for another page, that the names of its dataset are
    taken, said once for the dataset with how to make variants of other names (a renamed variant would be
    unknown to its synth.json); what its own line says of it."""
    dataset = hint_path(source.path.parent.parent)
    if dataset not in report.synth_names_taken:
        report.synth_names_taken.append(dataset)
        report.warnings.append(
            f"{dataset}: its pages are named as synth names its variants, and the project already holds variants "
            "of those names (other pages), so those are not imported: make the dataset again with another --seed "
            f"(its pages are then named N_sS_vK), or with `recordlens synth {hint_option('--project', project.root)} "
            "--out DIR`, which numbers its variants past the project's")
    return f"a synth variant's name: see what is said of {dataset}"


def _their_labels_onto(project: Project, source: PageSource, annotator: str, theirs: Path) -> str:
    """How an annotator's labels of a page whose copy differs from the project's go onto the project's page: their
    labels imported without their copy (labels without their page go onto the project's page of their name),
    rather than the copy renamed, a page of its own that agreement would compare with none of the project's."""
    folder = theirs.parent
    without = (f"import their labels alone, as in `recordlens import {hint_path(folder)} "
               f"{hint_option('--project', project.root)} {hint_option('--annotator', annotator)}`"
               if _labels_only(folder) else
               f"import the folder again with {hint_path(source.path)} moved out of it")
    return (f"to put {annotator}'s labels of it onto the project's page {source.name}, {without} (their XPaths are "
            "then read on the project's copy, and flagged where they name no element of it); renamed, the file "
            "would be a page of its own, which agreement compares with none of the project's")


def _same_page_named_otherwise(project: Project, source: PageSource, data: bytes, report: ImportReport, *,
                               labelled: bool) -> bool:
    """Whether the file is not imported because the project holds its bytes as a page of another name (a copy or
    a link of a page imported already), said naming both; a `labelled` page (one with labels of its own) is
    imported even so (`_say_same_bytes_as` names the page of the same bytes, once its labels are read)."""
    if labelled:
        return False
    page = next((name for name in _pages_of_the_same_bytes(project, data) if name != source.name), None)
    if page is None:  # its own name holding those bytes is the page itself, in already (another import's, meanwhile)
        return False
    report.same_as.append(f"{hint_path(source.path)}: the same page (the same bytes) as page {page}, already in the "
                          f"project; not imported again as page {source.name}")
    return True


def _pages_of_the_same_bytes(project: Project, data: bytes) -> list[str]:
    """The pages of the project whose saved copy holds `data`, first imported first."""
    rows = project.db.execute("SELECT name FROM pages WHERE snapshot = ? ORDER BY id", (content_hash(data),))
    return [str(name) for (name,) in rows]


def _say_same_bytes_as(project: Project, source: PageSource, data: bytes, report: ImportReport) -> None:
    """Warn that a labelled page about to be imported has the bytes of a page of another name in the project: for
    another annotator's labels, that agreement compares them with no page of the project's."""
    pages = [name for name in _pages_of_the_same_bytes(project, data) if name != source.name]  # not itself
    if not pages:
        return
    labels = f" ({hint_path(source.truth)})" if source.truth is not None else ""
    if report.annotator is None:
        report.warnings.append(f"page {source.name}: the same bytes as page {pages[0]}, already in the project; "
                               f"imported as a page of its own, for the labels that came with it{labels}")
        return
    which = (f"the same bytes as {len(pages)} pages of the project ({listed(pages, 8, total=True)})"
             if len(pages) > 1 else f"the same bytes as page {pages[0]} of the project, whose labels by "
             f"{report.annotator} this import brings too")
    report.warnings.append(f"page {source.name}: {which}; which page {report.annotator}'s labels of it are of cannot "
                           "be told, so it is imported as a page of its own with them, which agreement compares with "
                           "none of the project's (to put them onto one of those pages, name the file as that page "
                           "and import it again)")


def _source_text(source: PageSource) -> str:
    """Where a page was imported from, as its `source` says it: the file, and for a page `recordlens synth` made,
    the digest of the page it was made from (`synthetic_source` reads it back)."""
    digest = (source.made_from or "").lower()  # one form of hex: compared as text with the model's digests
    made_from = digest if re.fullmatch(_DIGEST, digest) else None
    return stored_text(str(source.path)) + (_MADE_FROM.format(made_from) if made_from else "")


def _labels_origin(source: PageSource) -> Provenance:
    """Where the page's labels come from, as their provenance names it: its gt folder (or labels file), in a text
    the database holds (`path_text.stored_text`: a folder whose name is not UTF-8 shows its bytes as `\\xe9`)."""
    return Provenance.dataset(stored_text(source.truth_origin or str(source.truth)))


# A synthetic page's origin rides in its source, a text a person reads too (the app shows it): said in words, at
# its end, with a digest of hex digits only (synth's `page_digest`), so that no file name can be taken for it.
# In `source` rather than a column of its own: a schema change (a migration) would refuse to restore the pages
# removed under the older schema (page_removal.py).
_MADE_FROM = " (made by recordlens synth from the page of digest {})"
_DIGEST = "[0-9a-f]{8,64}"
_MADE_FROM_AT_THE_END = re.compile(re.escape(_MADE_FROM).replace(r"\{\}", f"({_DIGEST})") + r"\Z")


def synthetic_source(source: str | None) -> str | None:
    """The digest of the page a synthetic page was made from, as its `source` keeps it (None for any other page;
    in `source`, not a column, for the reason `_MADE_FROM` says)."""
    found = _MADE_FROM_AT_THE_END.search(source or "")
    return found.group(1) if found else None


def synthetic_sources_of(project: Project) -> dict[str, str]:
    """Of the project's pages `recordlens synth` made, each one's source page digest (page name -> digest), as
    `page.dataset.synthetic_sources` reads it from the dataset's synth.json: kept at import, so that a score of a
    selector run on them says which are variants of pages its model was trained on, the dataset gone or not."""
    return {info.name: digest for info in project.pages() if (digest := synthetic_source(info.source))}


def _a_page_of(project: Project, name: str) -> bool:
    """Whether the project has a page of this name; never one that is not valid UTF-8 (such names are refused
    on import, and the database cannot even be asked about them)."""
    return not not_utf8(name) and project.has_page(name)


def _page_forms(project: Project, report: ImportReport) -> dict[str, str]:
    if report.page_forms is None:
        report.page_forms = {}
        for name in project.page_names():
            report.page_forms.setdefault(unicode_form(name), name)
    return report.page_forms


def _say_a_name_in_another_form(name: str, forms: dict[str, str], report: ImportReport) -> None:
    """A page whose name is a project page's written in another Unicode form (`café` typed, `café` as macOS
    saved it) is its own page, but the two look alike wherever they are named, and would be one file where a
    file system normalises names: kept, and said, with the page that was there."""
    there = forms.setdefault(unicode_form(name), name)
    if same_form(name, there):
        report.warnings.append(f"the page {written(name)} has the name of the page {written(there)} already in the "
                               "project, written in another Unicode form (as macOS saves file names): both are "
                               "kept, and look alike wherever they are named; if they are one page, take one out "
                               "(`recordlens project remove-page`)")


def _check_page_name(name: str) -> None:
    """Refuse a page name by the rule every name the project takes is held to (`page_name_problem`: not valid
    UTF-8, a control character or line separator, a path separator), with what to do."""
    problem = page_name_problem(name)
    if problem is not None:
        raise RecordLensError(f"{problem}: rename the file (and its labels file) to import it")


def _replace_labels(project: Project, source: PageSource, report: ImportReport) -> None:
    """The page's records become the dataset's, in one step of its history (the earlier ones restorable)."""
    assert source.truth is not None
    records, unresolved, check = _truth(source.truth, source.name, project.load(source.name).snapshot, report)
    origin = _labels_origin(source)
    with project.writing(), project.one_step(stored_text(f"labels replaced from {source.truth}")):
        for label in project.labels(source.name):
            project.delete(label.id, origin)
        if records:
            project.add_records(source.name, records, origin, status="accepted", unresolved=unresolved,
                                page_status="labelled")
        if project.page(source.name).status != "labelled":  # reviewed no more: these labels were not reviewed
            project.set_status(source.name, "labelled", origin)
    report.unchanged.remove(source.name)
    report.replaced.append(source.name)
    report.replaced_labels += len(records)
    _count_labels(report, source.name, unresolved, check)
    project.label_checks.remember(source.name, check, records)


@dataclass(frozen=True)
class AnnotatorPage:
    """An annotator's labels of one page, read and checked, waiting to go into their set."""

    source: PageSource
    records: RecordList
    unresolved: list[list[str]]
    check: PageCheck


def import_annotator_page(project: Project, source: PageSource, annotator: str, report: ImportReport,
                          given: Collection[str] = ()) -> list[AnnotatorPage]:
    """The page (if the project lacks it, without project labels), and its records for `annotator`'s set, read
    and checked (none when the source brings no labels, or labels that cannot be read: said); `store_annotator_pages`
    stores them. `given`: the pages this import brings their labels of. A page the project holds under another name
    takes the labels (`_onto_the_page_of_its_bytes`)."""
    if source.truth is None:
        if not project.has_page(source.name):
            import_page(project, source, report)
            if report.imported and report.imported[-1] == source.name:
                report.new_without_labels.append(source.name)
        else:
            report.unchanged.append(source.name)
        return []
    source = _onto_the_page_of_its_bytes(project, source, report, given)
    bare = PageSource(source.name, source.path, made_from=source.made_from)
    # refuses a different page under the same name; else new or unchanged (a copy of a page of another name that
    # could not be told for one page of the project is a page of its own, as a dataset's page with labels is)
    _import_page(project, bare, report, labelled=True, theirs=source.truth)
    if report.imported and report.imported[-1] == source.name:
        report.imported.pop()  # counted once its labels are stored, as an annotator's page
        report.new_with_labels.append(source.name)
    elif report.unchanged and report.unchanged[-1] == source.name:
        report.unchanged.pop()
    try:
        records, unresolved, check = _truth(source.truth, source.name, project.load(source.name).snapshot, report)
    except DatasetError as error:
        reason = said_without_path(error, source.truth)
        report.problems.append(ImportProblem(source.truth, f"{reason}; {annotator}'s labels of page "
                                                           f"{source.name} not imported"))
        return []
    return [AnnotatorPage(source, records, unresolved, check)]


def _onto_the_page_of_its_bytes(project: Project, source: PageSource, report: ImportReport,
                                given: Collection[str]) -> PageSource:
    """The source as the project's page of its bytes, when the project lacks its name but holds its bytes as one page
    (the file renamed in the annotator's copy: a renamed file is how two people's datasets drift apart): their labels
    go onto that page, said in one line, so that agreement compares them with the project's; a page of its own would
    be compared with nothing. Not when the bytes are those of several pages of the project, nor when this import
    brings labels of that page under its own name or under another name already taken onto it: which page the labels
    are of cannot be told, and the page goes in as its own, said (`_say_same_bytes_as`)."""
    _check_page_name(source.name)  # refused as `_import_page` refuses it, before the name is looked up
    if project.has_page(source.name):
        return source
    pages = _pages_of_the_same_bytes(project, read_file_bytes(source.path))
    if len(pages) != 1 or pages[0] in given or pages[0] in report.onto_named_otherwise:
        return source
    report.onto_named_otherwise[pages[0]] = source.name
    return dataclasses.replace(source, name=pages[0])


def store_annotator_pages(project: Project, annotator: str, pages: Sequence[AnnotatorPage],
                          report: ImportReport) -> bool:
    """The annotator's labels of these pages into their set, in one transaction: the records they replace set aside
    first, in one folder with one note (`report.set_aside`); the report says what went in, or why none did. Whether
    they went in."""
    wanted = {page.source.name: (page.records,
                                 stored_text(str(page.source.truth.resolve())) if page.source.truth else None)
              for page in pages}  # a page given twice takes its last labels
    try:
        # Which pages are still there is asked in the transaction that stores their labels: one removed since it
        # was read (`project remove-page`, in another process) is said, the others stored
        with project.writing():
            gone = [name for name in wanted if not project.has_page(name)]
            stored = project.annotators.store_pages(
                annotator, {name: held for name, held in wanted.items() if name not in gone}, report.set_aside)
    except Exception as error:  # noqa: BLE001 - said per page, as any other page not imported
        for page in pages:
            path = page.source.truth or page.source.path
            why = _not_imported(project, error, path)
            report.problems.append(ImportProblem(path, f"{why}; {annotator}'s labels of page {page.source.name} not "
                                                       "imported"))
        return False
    for page in pages:
        if page.source.name in gone:
            report.problems.append(ImportProblem(
                page.source.truth or page.source.path,
                f"page {page.source.name} was removed from the project during the import (`project remove-page`, in "
                f"another process); {annotator}'s labels of it not imported"))
            continue
        report.imported.append(page.source.name)
        report.labels += len(page.records)
        _count_labels(report, page.source.name, page.unresolved, page.check)
    report.annotator_same += stored.same
    for name, before in stored.replaced.items():
        report.annotator_replaced[name] = (len(before), len(wanted[name][0]))
        since = report.set_aside.imported_at(name) if report.set_aside is not None else None
        decided = project.adjudication.decided_since(name, annotator, since) if since is not None else None
        if decided is not None and decided.count:
            report.annotator_decided[name] = decided
    return True


def _truth(path: Path, name: str, snapshot: Snapshot, report: ImportReport
           ) -> tuple[RecordList, list[list[str]], PageCheck]:
    """The page's ground-truth records, verbatim, for each the XPaths that name no element, and their hygiene."""
    loaded = load_records(path)
    report.warnings += list(loaded.warnings)
    page = parse_snapshot(snapshot)
    unresolved = [[x for x in record if page.resolve(x) is None] for record in loaded.records]
    return loaded.records, unresolved, check_page(name, page, loaded.records)


def _count_labels(report: ImportReport, name: str, unresolved: Sequence[Sequence[str]], check: PageCheck) -> None:
    """Note an imported page's labels in the report: its records with an unresolved XPath, and its hygiene."""
    flagged = sum(1 for missing in unresolved if missing)
    if flagged:
        report.flagged[name] = flagged
    report.checks.append(check)


@dataclass(frozen=True)
class RunFolderImport:
    run_id: int
    warnings: list[str]
    stored: bool = True  # False: the same run (method, parameters, pages' records, predictions) was stored already
    # N.json files not stored as records (no such page, or unreadable): each named in `warnings` already
    left_out: tuple[str, ...] = ()
    # Stored before from this folder with this many pages, as a run that had stopped, or had finished (`grown`):
    # the folder's extract has gone on since (resumed, or run again over a pages folder that grew), and that run,
    # `run_id`, now holds what the folder holds (None: a run stored now, or found stored)
    carried_on_from: int | None = None
    grown: bool = False  # the run carried on had finished: its pages folder grew, and the extract ran again
    was_stopped: bool = False  # the run carried on had stopped: its extract was resumed since
    # Of the pages it brings into the run carried on, those whose N.json the folder held already when that run was
    # stored, the project then lacking the page (`run_files.NOT_IN_PROJECT`): brought in, not extracted since
    now_in_project: tuple[str, ...] = ()
    # The folder the run found stored, or carried on, was added from, when it is not this one (the folder moved
    # since, or this is a copy of it): the run is known by its records, wherever its folder lies (`run_matching`)
    stored_from: str | None = None
    # The pages of the run found stored, or carried on, whose prediction file was deleted or edited by hand since it
    # was stored (said in `warnings`): the run keeps its own predictions of them
    changed_by_hand: tuple[str, ...] = ()


# The digest of no records (`runs.records_digest`): what a stored run holds of a page it failed on
NO_RECORDS = records_digest([])


class _FolderPredictions(Mapping[str, RecordList]):
    """A run folder's predictions as `runs --add` stores them, page -> records, none of them held: each page's are
    known by their digest (`runs.records_digest`: what tells a stored run's page apart), and read again from their
    file as they are stored, one page at a time (a run of MDR's over many pages holds hundreds of megabytes of
    records). A file that no longer holds the records read first (changed by hand meanwhile) stops the store: it is
    made in one transaction, so nothing of it is kept. A page the run stored keeps for its own (`keep_stored`: its
    file deleted or edited by hand) is read from that run."""

    def __init__(self) -> None:
        self._digests: dict[str, str] = {}
        self._sources: dict[str, Callable[[], RecordList]] = {}
        self._paths: dict[str, Path] = {}  # the file each page read from a folder was read from, to name it

    def read(self, name: str, path: Path, records: RecordList) -> None:
        """Page `name`'s `records`, read from `path`."""
        self._digests[name] = records_digest(records)
        self._sources[name] = functools.partial(_records_again, path)
        self._paths[name] = path

    def keep_stored(self, name: str, digest: str, records: Callable[[], RecordList]) -> None:
        """Page `name` as a stored run holds it (`digest`), its records read by `records`."""
        self._digests[name] = digest
        self._sources[name] = records

    @property
    def digests(self) -> Mapping[str, str]:
        """Page -> the digest of its records, in the order read."""
        return self._digests

    def __getitem__(self, name: str) -> RecordList:
        records = self._sources[name]()
        if records_digest(records) != self._digests[name]:
            # Named by its file: with --seeds, or several folders, the page's name alone does not say which folder;
            # and only this folder's store is undone (seeds stored before it stay stored)
            where = f" ({hint_path(self._paths[name])})" if name in self._paths else ""
            raise RecordLensError(f"the records of page {name}{where} changed while the run was stored (its file "
                                  "edited meanwhile?): nothing of this folder stored; add the folder again")
        return records

    def __contains__(self, name: object) -> bool:  # the page's name alone: its records are not read for it
        return name in self._digests

    def __iter__(self) -> Iterator[str]:
        return iter(self._digests)

    def __len__(self) -> int:
        return len(self._digests)


def _records_again(path: Path) -> RecordList:
    """A prediction file's records read again as `runs --add` stores them (`_FolderPredictions`)."""
    try:
        return load_records(path).records
    except RecordLensError as error:
        raise RecordLensError(f"{error} (it was read a moment before, as the run was stored: edited meanwhile?): "
                              "nothing stored; add the folder again") from None


def _stored_records(project: Project, run_id: int, page: str) -> RecordList:
    return project.runs.page_prediction(run_id, page) or []


# What `runs --add` of a folder an extract is writing now says to do once it has ended (`check_not_extracting`)
ADD_IT_THEN = ("add it again; nothing is stored now: what it holds so far would be stored as a run that stopped "
               "before its last page")


def import_run_folder(project: Project, run_dir: Path, method: str | None = None) -> RunFolderImport:
    """Store a folder of predictions (`N.json`) as a finished run, unless the project holds it already (then
    that run is named, and nothing is stored twice); its id and warnings.

    Method and parameters come from `RUN_DIR/_run/run.json` when the run wrote one, else from `method`.
    A malformed `N.json` is stored as that page's error (an empty prediction), not dropped. A folder an extract
    is writing now is refused (what it holds is part of a run). A folder stored before as a run that had stopped,
    whose extract went on since (resumed: the pages it held are held as they were), brings that run up to date
    rather than storing a second, partial copy beside it; so does a folder stored as a finished run that holds
    more pages since (its pages folder grew and the extract ran again), the pages it held being held as they
    were. A run is known by its description and its pages' own records, wherever its folder lies now (moved, or
    copied: `run_matching`); a prediction file deleted or edited by hand since is said, the run keeping its own."""
    if not run_dir.is_dir():
        raise RecordLensError(not_a_folder(run_dir, "predictions", "N.json"))
    warnings: list[str] = []
    # The folder's lock held from the first file read to the run stored: an extract started meanwhile is refused, as
    # one under way refuses this (a caller storing seeds holds theirs already, from the first seed to the last)
    with run_folders_held([run_dir], ADD_IT_THEN, warnings):
        return _import_run_folder(project, run_dir, method, warnings)


def _import_run_folder(project: Project, run_dir: Path, method: str | None, warnings: list[str]) -> RunFolderImport:
    _refuse_a_seed_not_run(run_dir)
    described = read_run_description(run_dir, warnings)
    method = str(described.pop("method", "") or method or "")
    if not method:
        raise RecordLensError(unnamed_method_message(run_dir)
                              or f"{hint_path(run_dir)}: give the method's name (--method)")
    files = record_files(run_dir)
    # each page's record read once, for every question asked of them below (slim: a run's every record is held)
    costs = read_page_costs(run_dir, slim=True)
    failed = failed_pages(run_dir, costs)
    # A run that stopped (its budget, its endpoint) before it finished any page (one stopped part way keeps only its
    # paid calls) is stored as stopped still, as one whose every page failed is: one rule for every stopped run
    nothing_finished = not files and not failed
    if nothing_finished and not described.get(STOPPED):
        raise RecordLensError(f"{hint_path(run_dir)}: no predictions (N.json)")
    predictions = _FolderPredictions()  # each page's records read again as they are stored, not held
    errors: dict[str, str] = {}
    left_out: list[str] = []
    lacking = {name: visible(path.name) for name, path in files.items() if not _a_page_of(project, name)}
    if lacking:  # one line, naming a few: a run of another dataset would give one line per file
        warnings.append(f"skipped {counted(len(lacking), 'prediction file')} of {hint_path(run_dir)} "
                        f"({listed(list(lacking.values()))}): no page of that name in the project")
        left_out += lacking.values()
    for name, read in page_predictions({name: path for name, path in files.items() if name not in lacking}):
        if isinstance(read, RecordsFile):
            predictions.read(name, files[name], read.records)
            warnings += list(read.warnings)
        else:
            errors[name] = stored_text(str(read))  # as the database keeps it: compared with a stored run's
            left_out.append(files[name].name)
            warnings.append(f"{read}; stored as a page the run failed on (no records), with this reason")
    for name, reason in failed.items():  # failed, with no N.json: kept as the run's failures
        if _a_page_of(project, name) and name not in predictions and name not in errors:
            errors[name] = stored_text(reason)
            warnings.append(f"page {name}: the run failed on it ({shortened(reason, 160)}); stored as a failed page")
    if not predictions and not errors and not nothing_finished:  # another dataset's pages only
        raise RecordLensError(f"{hint_path(run_dir)}: none of its {len(files)} prediction(s) is for a page of the "
                              "project; nothing stored")
    from .scoring import labelled_page_names

    on_purpose = left_out_pages(described)  # pages the run left out on purpose: kept with it, not as a parameter
    described.pop(LEFT_OUT, None)
    # a deleted run's copy (`runs.write_run_folder`): what the run's cost held that its files cannot say (what it
    # paid, where it was first added from, what its folder said of its pages), kept with it again
    copied = stored_cost(described) | kept_for_adding(described)
    described.pop(STORED_COST, None)
    ended_then = _timestamp(described.pop(ENDED, None))  # a copy's: when the run ended, not when it was deleted
    # the pages the project lacked when it was added (a copy written before `STORED_COST` said them on their own)
    lacked_before = not_in_project(copied) or not_in_project(described)
    described.pop(NOT_IN_PROJECT, None)
    written = described.pop("written", None)
    stopped = described.pop(STOPPED, None)
    described.pop(SEEDS_ASKED, None)  # the whole run's, not this seed's: said once, with the run's first seed
    parameters = {**described, "source": str(run_dir.resolve())}
    # the run known by its pages' own records, wherever the folder lies now (a deleted run's copy holds none of a
    # page it did, and only a stand-in of a page it failed on: it brings those the run was stored with)
    without_a_file, stopped_here = done_without_a_file(run_dir, costs), stopped_part_way(run_dir, costs)
    # the pages whose records tell it: those it did or failed on, and those it stopped on part way, whose records of
    # calls paid for tell it as an answer does (a run stopped before it finished its first page holds no other)
    pages = list(dict.fromkeys([*predictions, *errors, *without_a_file, *stopped_here]))
    made = record_digests(run_dir, pages, costs) | kept_records(copied)
    # ... and by those a resume kept under "earlier" (a page asked again: every page of a run whose pages all failed)
    told = _RecordsTold(made, earlier_digests(run_dir, pages, costs))
    ours = runs_of_the_folder(project.runs.all(), method, parameters, made, told.earlier)
    by_hand = _changed_by_hand(project, ours, made, predictions, errors)
    if by_hand:  # the run's own predictions of these pages, as it was stored with them: said
        warnings.append(by_hand.message(run_dir))
        stored = project.runs.prediction_digests(by_hand.run.id)
        for page in (*by_hand.deleted, *by_hand.edited):
            predictions.keep_stored(page, stored[page],
                                    functools.partial(_stored_records, project, by_hand.run.id, page))
    unanswered = [name for name in labelled_page_names(project) if name not in predictions and name not in errors]
    # the pages its own records say it did whose N.json is gone (deleted by hand): kept with it, for `score` to say
    gone = [name for name in dict.fromkeys([*without_a_file, *files_missing(copied)])
            if _a_page_of(project, name) and name not in predictions and name not in errors]
    if unanswered:  # a run of part of the project, or one that lost files: its score counts these as empty
        meant = sum(name in on_purpose for name in unanswered)
        lost = sum(name in gone for name in unanswered)
        why = "".join((f", {meant} of them left out by the run on purpose" if meant else "",
                       f", {lost} of them recorded done by the run but without their prediction file (extract "
                       "again brings them back; then add the folder again)" if lost else ""))
        warnings.append(f"the run has no prediction for {counted(len(unanswered), 'labelled page')} of the project "
                        f"({listed(unanswered, 8, total=True)}){why}: its score counts them as empty predictions, "
                        "and names them")
    said = _seeds_not_run(run_dir)
    if said:
        warnings.append(said)
    if stopped:  # the pages it never reached are not in it: the run is stored as stopped, and scored as it is
        warnings.append(f"{hint_path(run_dir)}: the run stopped before its last page ({stopped}); stored as a "
                        "stopped run")
    same = _same_run(project, ours, predictions, errors, str(stopped) if stopped else None, told)
    if same is not None:
        _keep_what_tells_it(project, same, made, stopped_on_pages(copied) or stopped_here)
        return RunFolderImport(same.id, warnings, stored=False, left_out=tuple(left_out),
                               stored_from=_moved_from(same, parameters),
                               changed_by_hand=by_hand.pages if by_hand else ())
    earlier = _run_gone_on(project, ours, predictions, errors, told)
    kept_apart = (_earlier_run_kept_apart(project, run_dir, method, parameters, predictions, errors, ours, told)
                  if earlier is None else None)
    if kept_apart:
        warnings.append(kept_apart)
    cost, ended = _run_cost(run_dir, costs)
    ended = ended_then or ended
    cost |= {key: copied[key] for key in COPIED_AS_THEY_ARE if key in copied}  # a copy's files hold no page's cost
    if stopped:
        cost[STOPPED] = str(stopped)
    # `score` says of these, once the project holds them, that adding the folder again brings them in (a name in
    # bytes that are not UTF-8 names no page a project can hold, and cannot be stored)
    lacking_pages = [name for name in lacking if not not_utf8(name)]
    lacking_pages += [name for name in lacked_before
                      if name not in lacking_pages and name not in predictions and name not in errors]
    if lacking_pages:
        cost[NOT_IN_PROJECT] = lacking_pages
    if on_purpose:  # `score` says why these pages have no prediction (`runs.evaluate.why_no_prediction`)
        cost[LEFT_OUT] = on_purpose
    if gone:
        cost[FILES_MISSING] = gone
    if made:  # what tells the run's folder, wherever it lies, when it is added again (`run_matching`)
        cost[RECORDS_KEPT] = made
    stopped_on = stopped_on_pages(copied) or stopped_here
    if stopped and stopped_on:  # `score --project P --run ID` says it stopped on it, as `score --pred` does
        cost[STOPPED_ON] = stopped_on
    otherwise = pages_made_otherwise(run_dir, predictions, lambda name: project.page(name).snapshot,
                                     lambda name: project.load(name).page, costs)
    otherwise += [name for name in made_on_other_pages(copied) if name in predictions and name not in otherwise]
    if otherwise:  # kept with the run, so that every later score of it says so too
        cost[OTHER_PAGES] = otherwise
        warnings.append(other_pages_message(otherwise, "the project's"))
    # A run gone on since keeps its start: the folder's run.json is written again as each resume begins
    started = earlier.started_at if earlier is not None else _timestamp(written) or now()
    if ended is not None and ended < started:  # file times of another clock (a copy, another machine's share)
        ended = started
    # the pages the folder brings into the run carried on, and of those the ones it held already when that run was
    # stored (the project lacked them then): brought in now, not extracted since
    held_before = set(project.runs.page_names(earlier.id)) if earlier is not None else set()
    new = [name for name in [*predictions, *errors] if earlier is not None and name not in held_before]
    brought_in = tuple(name for name in new if earlier is not None and name in not_in_project(earlier.cost))
    with project.writing():  # one transaction: a disk full part way leaves no run "running" for ever
        run_id = project.runs.add(method, parameters, started_at=started) if earlier is None else earlier.id
        project.runs.add_predictions(run_id, predictions, errors)  # a page's score goes only if it changed
        # a run carried on names this folder from now on: it holds what the run holds now (the first may not)
        project.runs.finish(run_id, cost=cost, ended_at=ended,
                            source=str(parameters["source"]) if earlier is not None else None)
    if earlier is None:
        return RunFolderImport(run_id, warnings, left_out=tuple(left_out))
    return RunFolderImport(run_id, warnings, left_out=tuple(left_out), carried_on_from=earlier.predicted_pages,
                           grown=earlier.outcome != "stopped" and any(name not in brought_in for name in new),
                           was_stopped=earlier.outcome == "stopped",
                           now_in_project=brought_in, stored_from=_moved_from(earlier, parameters))


def _seeds_not_run(run_dir: Path) -> str | None:
    """For the first seed-S/ a run written with --seeds N ran (`runs --add` stores each as a run of its own), the
    seeds the run asked but never ran, said once for the run as `score` says them (`seeds_left_out_said`): a seed
    begun but stopped before any page of it is among them. None for any other folder, or a run whole."""
    whole = run_dir.parent
    ran = seeds_that_ran(whole)
    if not ran or next(iter(ran.values())).resolve() != run_dir.resolve():
        return None
    said = seeds_left_out_said(whole)
    return f"{said}: only the seeds run are stored; the same `extract` command runs the rest" if said else None


def _refuse_a_seed_not_run(run_dir: Path) -> None:
    """A seed-S/ of a run written with --seeds N, begun but stopped before any page of it (`seed_ran`), is no seed
    the run ran: not stored as a run (`score` leaves it out of the seeds scored alike)."""
    seed = next((seed for seed, folder in seed_runs(run_dir.parent).items()
                 if folder.resolve() == run_dir.resolve()), None)
    if seed is not None and not seed_ran(run_dir):
        raise RecordLensError(f"{hint_path(run_dir)}: seed {seed} was begun but stopped before any page of it was "
                              "extracted, so it is no seed the run ran and is not stored as a run (score leaves it out "
                              "of the seeds scored too); the same `extract` command runs it")


@dataclass(frozen=True)
class _RecordsTold:
    """What a run folder's page records tell of the runs stored from it (`run_matching`): page -> the digest of its
    record (`made`), and of those a resume kept under its "earlier" (`earlier`)."""

    made: dict[str, str]
    earlier: dict[str, list[str]]


def _same_run(project: Project, ours: Sequence[RunInfo], predictions: _FolderPredictions,
              errors: dict[str, str], stopped: str | None, told: _RecordsTold) -> RunInfo | None:
    """The stored run, of those the folder holds (`run_matching.runs_of_the_folder`), these predictions are already,
    if any (a folder added twice, moved or copied since): each page with the same records and the same failure (a
    failed page is stored with no records: a page failed then, done with none since, is a change), and the same
    stop (or none). A folder whose run went on since is no such run: it brings that run up to date
    (`_run_gone_on`); so does one a resume asked pages of again that failed again (their calls, paid for, are
    the run's: `run_matching.asked_again`)."""
    wanted = {**{name: (digest, None) for name, digest in predictions.digests.items()},
              **{name: (NO_RECORDS, reason) for name, reason in errors.items()}}
    for run in ours:
        if (str(run.cost[STOPPED]) if run.cost.get(STOPPED) else None) != stopped:
            continue
        if asked_again(run, told.made, told.earlier):
            continue
        failed = project.runs.errors(run.id)
        held = {name: (digest, failed.get(name)) for name, digest in project.runs.prediction_digests(run.id).items()}
        if held == wanted:
            return run
    return None


# The outcomes of a stored run that a folder gone on since brings up to date (`_run_gone_on`): one still running,
# or interrupted, is another process's to finish
CARRIED_ON = ("stopped", "finished")


def _run_gone_on(project: Project, ours: Sequence[RunInfo], predictions: _FolderPredictions,
                 errors: dict[str, str], told: _RecordsTold) -> RunInfo | None:
    """The run stored from this folder (of those it holds: `run_matching.runs_of_the_folder`, its description the
    same, a session's bounds aside: a resume with a larger budget goes on) when it held fewer pages, if the folder
    has gone on from it since: its extract had stopped and was resumed, or had finished and ran again over a pages
    folder that grew. Every page that run holds records for is held with the same records; every page it failed on
    is held, tried again or failed again, by a stopped run (resumed), and by a finished one failed still or asked
    again by a resume (`run_matching.resumed_since`: the same `extract` run again into the folder, as a failure
    advises; a page of it held otherwise since is a change: a file mended, a page extracted again). The latest such
    run, None when there is none. A folder written again with --restart holds other records: stored as a run of
    its own."""
    for run in reversed(ours):
        if run.outcome in CARRIED_ON and not _held_otherwise(project, run, predictions, errors, told):
            return run
    return None


def _keep_what_tells_it(project: Project, run: RunInfo, made: dict[str, str], stopped_on: list[str]) -> None:
    """A run stored by an earlier RecordLens, found stored again from its folder, keeps what this one keeps with a
    run it stores: its pages' records' digests (the run is then known wherever its folder goes) and the page it
    stopped on part way (said by `score --project`). Nothing else of it changes."""
    missing = {**({RECORDS_KEPT: made} if made and RECORDS_KEPT not in run.cost else {}),
               **({STOPPED_ON: stopped_on} if stopped_on and run.cost.get(STOPPED) and STOPPED_ON not in run.cost
                  else {})}
    if missing:
        project.runs.keep_cost(run.id, {**run.cost, **missing})


def _moved_from(run: RunInfo, parameters: dict[str, object]) -> str | None:
    """The folder a stored run was added from, when the folder now added holding it is another one."""
    first = first_folder(run)
    return first if first and first != parameters.get("source") else None


def _changed_by_hand(project: Project, ours: Sequence[RunInfo], made: dict[str, str],
                     predictions: _FolderPredictions, errors: dict[str, str]) -> ChangedByHand | None:
    """The pages of the latest run the folder holds whose prediction file was deleted or edited by hand since it
    was stored (`run_matching.changed_by_hand`), None when there are none."""
    if not ours:
        return None
    run = ours[-1]
    changed = changed_by_hand(run, project.runs.prediction_digests(run.id), project.runs.errors(run.id), made,
                              predictions.digests, errors)
    return changed or None


def _held_otherwise(project: Project, run: RunInfo, predictions: _FolderPredictions,
                    errors: dict[str, str], told: _RecordsTold) -> list[str]:
    """The pages of a stored run that a folder holds otherwise than a folder gone on from it would (`_run_gone_on`):
    a page it holds records for, held with other records or none; a page it failed on, held by none (a stopped
    run's) or done since (a finished run's, unless a resume asked it again: `run_matching.resumed_since`)."""
    held = predictions.digests
    failed = project.runs.errors(run.id)
    resumed = run.outcome == "stopped"
    retried = set(resumed_since(run, told.made, told.earlier)) if not resumed else set()
    return [name for name, digest in project.runs.prediction_digests(run.id).items()
            if not (((name in held and (resumed or name in retried)) or name in errors) if name in failed
                     else held.get(name) == digest)]


def _earlier_run_kept_apart(project: Project, run_dir: Path, method: str, parameters: dict[str, object],
                            predictions: _FolderPredictions, errors: dict[str, str], ours: Sequence[RunInfo],
                            told: _RecordsTold) -> str | None:
    """For a folder stored as a run of its own, the run stored before that it held (the latest: known by its pages'
    records, `run_matching.runs_of_the_folder`, or else the latest stored from the same folder), which it neither
    is nor brings up to date, said with why: the folder's run is described otherwise since (another method,
    endpoint, ...: `identity_differences`; a session's bounds, its budget, never count), none of the records it was
    stored with is in the folder, nor kept under "earlier" by a resume (extracted again, --restart), or it holds
    some of that run's pages otherwise (extracted again). None when the folder holds no run stored before."""
    source = parameters.get("source")
    runs = [*ours] or [run for run in project.runs.all()
                       if added_from(run, source)]
    if not runs:
        return None
    run = runs[-1]
    differences = [f"method: {run.method!r} -> {method!r}"] if run.method != method else []
    differences += identity_differences(without_folder(run.parameters), without_folder(parameters))
    otherwise = [] if differences or run not in ours else _held_otherwise(project, run, predictions, errors, told)
    if differences:
        why = f"the folder's run is described otherwise since ({'; '.join(differences)})"
    elif run not in ours:
        why = ("none of the records in _run/ it was stored with is in the folder now, as a page's record or kept "
               "under \"earlier\" by a resume (its pages extracted again since, as --restart does)")
    elif otherwise:
        why = (f"the folder holds {'page' if len(otherwise) == 1 else 'pages'} {listed(otherwise, 8, total=True)} "
               f"of run {run.id} otherwise ({extracted_again(run, otherwise, told.made)})")
    else:
        return None
    return (f"run {run.id} was stored from {hint_path(first_folder(run) or run_dir)} before ({run.outcome}, "
            f"{counted(run.predicted_pages, 'page')}): it is kept apart, and the folder is stored as a run of its own "
            f"rather than bringing run {run.id} up to date, as {why}; `runs --delete {run.id}` takes run {run.id} out "
            "if it is only an earlier copy of this one")


def _timestamp(written: object) -> str | None:
    """When a run folder says it was written, in the project's own form (`db.stamp`), so that the list of runs
    reads and sorts alike whoever wrote it; None (now) when it says nothing readable."""
    try:
        return stamp(datetime.fromisoformat(str(written)))
    except ValueError:
        return None


def _run_cost(run_dir: Path, costs: PageCosts) -> tuple[dict[str, object], str | None]:
    """What `recordlens extract` noted per page (seconds, tokens; `costs`: its pages' records, `read_page_costs`),
    summed, and when its last page was done."""
    if not costs:
        return {}, None
    last = max((run_dir / "_run" / f"{name}.json").stat().st_mtime for name in costs)
    return summed_cost(costs.values()), stamp(datetime.fromtimestamp(last, UTC))


