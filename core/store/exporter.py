"""Export a project's labels in the formats researchers use.

- `nexteval`: a dataset of the pages marked labelled or reviewed: `OUT/html/N.html|.mhtml` (the stored
  snapshot, byte for byte, page names kept) and `OUT/gt/N.json` (its accepted and edited records, XPaths
  verbatim, in display order; proposed and rejected records are left out). Pages still new or proposed are
  left out entirely, and named in the summary, because an unfinished page written as ground truth would score
  as if its missing records were absent from the page. With `all_pages`, their snapshots are written too,
  under `OUT/html/` without a `gt/N.json` (pages to label elsewhere); a dataset reader then sees pages
  without ground truth.
- `jsonl`: `OUT/labels.jsonl`, one line per record of every status, with its provenance and flags.
- `csv`: `OUT/labels.csv`, one row per (record, XPath): the shape a spreadsheet or pandas reads directly.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from .. import atomic
from ..page.dataset import UNFINISHED_EXPORT
from ..records.model import save_records
from ..text_forms import unicode_form, written
from ..wording import listed
from .db import Provenance, StoreError
from .files import SNAPSHOTS, content_hash
from .project import Label, PageInfo, Project
from .schema import TRUE_PAGE_STATUSES

FORMATS = ("nexteval", "jsonl", "csv")

Progress = Callable[[Sequence[PageInfo]], Iterable[PageInfo]]


@dataclass(frozen=True)
class ExportSummary:
    pages: int
    records: int
    files: tuple[Path, ...]
    unlabelled: tuple[str, ...] = ()   # nexteval: pages not labelled (left out, or html only with all_pages)
    proposals_left_out: int = 0        # nexteval: proposed records of exported pages, not written as truth
    warnings: tuple[str, ...] = ()     # nexteval: snapshots that no longer match what was imported
    rejected_left_out: int = 0         # nexteval: rejected records of exported pages


def export_project(project: Project, fmt: str, out: str | Path,
                   progress: Progress = lambda pages: pages, *, all_pages: bool = False) -> ExportSummary:
    if fmt not in FORMATS:
        raise StoreError(f"unknown export format {fmt!r}; expected one of {', '.join(FORMATS)}")
    out = Path(out)
    pages = project.pages()
    if fmt == "nexteval":
        return export_nexteval(project, pages, out, progress, all_pages=all_pages)
    rows = [(info, label) for info in progress(pages) for label in project.labels(info.name)]
    path = export_file(out, fmt)
    atomic.write_text(path, _jsonl(rows) if fmt == "jsonl" else _csv(rows))
    return ExportSummary(len(pages), len(rows), (path,))


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
        raise StoreError(f"{out} already holds a dataset{stopped}; export into an empty folder")
    unlabelled = tuple(info.name for info in pages if info.status not in TRUE_PAGE_STATUSES)
    chosen = [info for info in pages if all_pages or info.status in TRUE_PAGE_STATUSES]
    missing = [info.name for info in chosen if not project.snapshot_file(info.name).is_file()]
    if missing:  # before anything is written: half a dataset is worse than none
        raise StoreError(f"the project's saved copy of page(s) {listed(missing)} is missing from "
                         f"{project.root / SNAPSHOTS} (deleted by hand?): nothing exported. Put the file(s) back, "
                         "or take the page(s) out of the project (recordlens project remove-page)")
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
            warnings.append(f"page {info.name}: its saved copy in the project was changed since it was imported "
                            "(it no longer matches its name, a hash of its bytes): exported as it is now")
        files.append(target)
        if info.status in TRUE_PAGE_STATUSES:
            truth = project.true_records(info.name)
            files.append(save_records(gt_dir / f"{stem}.json", truth))
            records += len(truth)
            proposals += info.proposed
            rejected += info.rejected
            exported += 1
    marker.unlink()
    atomic.sync_folder(out)
    return ExportSummary(exported, records, tuple(files), unlabelled, proposals, tuple(warnings), rejected)


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
        warnings.append(f"page {written(name)}: exported as {written(stem)}, as its name is that of page "
                        f"{written(there)} {how}")
    return stems


def _one_file(name: str) -> str:
    """What names that one file system or another takes for one file share: the Unicode form and the case."""
    return unicode_form(unicode_form(name).casefold())


def _copy_checked(source: Path, target: Path, digest: str) -> bool:
    """Copy atomically (the stored file is read-only, the exported copy is the user's to change); whether the
    bytes copied are still those the project stored under their hash."""
    data = source.read_bytes()
    atomic.write_bytes(target, data)
    return content_hash(data) == digest


def _provenance(who: Provenance | None) -> dict[str, str] | None:
    if who is None:
        return None
    return {k: v for k, v in vars(who).items() if v}


def _record_fields(info: PageInfo, number: int, label: Label) -> dict[str, object]:
    return {
        "page": info.name, "record": number, "id": label.id, "status": label.status,
        "xpaths": list(label.xpaths), "unresolved": list(label.unresolved),
        "origin": _provenance(label.origin), "changed_by": _provenance(label.changed_by),
        "derived_from": list(label.derived_from), "created_at": label.created_at, "changed_at": label.changed_at,
        "page_status": info.status, "snapshot": info.snapshot, "url": info.url,
    }


def _numbered(rows: Sequence[tuple[PageInfo, Label]]) -> Iterable[tuple[PageInfo, int, Label]]:
    """Each record with its 1-based number on its page (the badge the app draws)."""
    number, page = 0, None
    for info, label in rows:
        number = number + 1 if info.name == page else 1
        page = info.name
        yield info, number, label


def _jsonl(rows: Sequence[tuple[PageInfo, Label]]) -> str:
    return "".join(json.dumps(_record_fields(*row), ensure_ascii=False) + "\n" for row in _numbered(rows))


CSV_COLUMNS = ("page", "record", "id", "status", "xpath", "resolves", "origin", "changed_by", "changed_at",
               "page_status", "url")


_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: object) -> object:
    """A text a spreadsheet would run as a formula (`=HYPERLINK(...)` from an untrusted label file) starts with
    an apostrophe, which the spreadsheet shows as text; JSONL keeps every text verbatim."""
    return f"'{value}" if isinstance(value, str) and value.startswith(_FORMULA_STARTS) else value


def _csv(rows: Sequence[tuple[PageInfo, Label]]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for info, number, label in _numbered(rows):
        tail = [str(label.origin), str(label.changed_by or ""), label.changed_at, info.status, info.url or ""]
        # A record with no XPath still gets its row, so every record is countable in the table.
        for xpath in label.xpaths or ("",):
            resolves = "" if not xpath else int(xpath not in label.unresolved)
            writer.writerow([_cell(v) for v in (info.name, number, label.id, label.status, xpath, resolves, *tail)])
    return buffer.getvalue()
