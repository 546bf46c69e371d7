"""File layouts shared by every command: a *dataset* is `DIR/html/N.html|.mhtml` (or the `DIR/mhtml/N.mhtml` of
a synth output) plus `DIR/gt/N.json`; a *run* (predictions) is `DIR/N.json`. Page names are file stems (`12`,
`12_v3`), ordered naturally."""

from __future__ import annotations

import glob
import json
import os
import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from ..command_hints import hint_path
from ..errors import DatasetError, RecordLensError
from ..file_kinds import not_a_page_file
from ..text_forms import not_utf8, written
from ..text_search import folded
from .dom import Page, parse_html
from .snapshot import Snapshot, read_snapshot

# When a folder holds both N.mhtml and N.html, the MHTML (the original snapshot) wins.
PAGE_SUFFIXES = (".mhtml", ".mht", ".html", ".htm")
_RANK = {suffix: i for i, suffix in enumerate(PAGE_SUFFIXES)}  # the first is the one kept of a page saved twice
NOT_A_PAGE_SUFFIX = "not an MHTML or HTML file (.mhtml, .mht, .html, .htm)"
SYNTH_MANIFEST = "synth.json"  # what `recordlens synth` writes beside its dataset's html/ and gt/
UNFINISHED_EXPORT = "EXPORT-UNFINISHED.txt"  # what `recordlens export` keeps beside html/ and gt/ while it writes
# Where a dataset keeps its pages, in the order read: NEXT-EVAL's `html/` (N.html or N.mhtml), else the `mhtml/`
# that `synth --formats mhtml` writes beside `gt/` (with both formats, synth writes the same pages to both).
PAGE_FOLDERS = ("html", "mhtml")


def natural_key(name: str) -> tuple[object, ...]:
    """`2` before `10`, and `10` before `10_v2`: numbers compare as numbers; and letters as a reader orders
    them, whatever their case, accents or Unicode form (`ñandú 1` beside `nandu 1`, not after `win1256`; a
    search's `folded`), the name itself breaking a tie (two names never compare equal)."""
    parts = re.split(r"(\d+)", name)  # text at even places, a run of decimal digits at odd ones
    return tuple(int(part) if i % 2 else folded(part) for i, part in enumerate(parts)), name


def page_name_problem(name: str) -> str | None:
    """Why `name` cannot be a new page's name, said up to where a caller's advice begins ("...: rename the file");
    None for a good one. Import takes a page's name from its file's stem and holds it to this rule. Refused: a name
    that is not valid UTF-8 (bytes Python keeps as surrogates), which the project's database and every UTF-8 file
    that names the page cannot hold; one holding a control character (a line break, a tab) or a line separator, at
    which every list, message and export that names the page would break; and one that is a path
    (`page_name_is_path`). Import refuses control characters only since 2026-12-05, so an older project may hold
    a name with a tab: what reads a name back from a project (restore-page, export, synth) refuses only a path."""
    if not_utf8(name):
        return f"the page name {written(name)} is not valid UTF-8"
    odd = [c for c in name if unicodedata.category(c) in LINE_BREAKING]
    if odd:
        return (f"the page name {name!r} holds {_character(odd[0])}, which would break the lists and messages that "
                "name the page")
    return page_name_is_path(name)


def page_name_is_path(name: str) -> str | None:
    """Why `name` is a path, not a file's name (it holds a path separator, as an absolute path does), or None: an
    export or synth writes each page to `FOLDER/NAME.html`, which for `../x` or `/tmp/x` would be a file outside
    the folder asked for. What writes such a file checks where it lands too (`lands_outside`), which also covers a
    name only Windows reads as a path (`C:notes`, on another drive)."""
    held = [separator for separator in _PATH_SEPARATORS if separator in name]
    if held:
        return (f"the page name {written(name)} is a path, not a file's name (it holds {held[0]!r}): the files an "
                "export or synth writes for the page would land outside their folder")
    return None


def lands_outside(folder: Path, file_name: str, name: str) -> str | None:
    """Why the file `file_name` of page `name`, written as `folder / file_name`, would not land in `folder` (a
    name read from a project's database or a dataset: `../../notes`, `/home/x`, on Windows `D:notes`), said
    naming the page; None when it lands there. What is compared is the place the write goes to, not the name's
    characters: the file must be an entry of `folder` as written (`a/../b` is not: it needs a folder `a`) and
    once resolved (a symbolic link on the way), so a name is refused only where its file would be elsewhere."""
    target = folder / file_name
    try:
        inside = target.parent == folder and target.resolve().parent == folder.resolve()
    except (OSError, RuntimeError, ValueError):  # a symbolic link loop, a NUL in the name: no place to write to
        return f"the page name {written(name)} names no file that can be written in {hint_path(folder)}"
    if inside:
        return None
    return (f"the page name {written(name)} is a path, not a file's name: its file would be written outside "
            f"{hint_path(folder)}")


LINE_BREAKING = ("Cc", "Zl", "Zp")  # control characters (a line break, a tab) and Unicode's line separators
_PATH_SEPARATORS = tuple(dict.fromkeys(s for s in ("/", os.sep, os.altsep) if s))  # "/", and Windows' "\\"


def _character(c: str) -> str:
    named = {"\n": "a line break", "\r": "a carriage return", "\t": "a tab"}
    return named.get(c, f"the control character U+{ord(c):04X}")


def not_a_folder(path: Path, contents: str, files: str) -> str:
    """Why `path` is no folder of `contents` (`files` names what such a folder holds): every reader says it so,
    naming the path as a hint names it (`hint_path`)."""
    return (f"{hint_path(path)} is a file; {contents} are read from a folder of {files}" if path.exists()
            else f"{hint_path(path)}: no such folder of {contents}")


def dataset_pages(root: str | Path) -> Path | None:
    """The folder of a dataset's pages (`PAGE_FOLDERS`): `DIR/html/`, or `DIR/mhtml/` beside `DIR/gt/`; None when
    `root` holds neither (a folder named `mhtml` with no labels beside it is a folder of pages, not a dataset)."""
    folder = Path(root)
    if (folder / "html").is_dir():
        return folder / "html"
    if (folder / "mhtml").is_dir() and (folder / "gt").is_dir():
        return folder / "mhtml"
    return None


def dataset_hint(folder: str | Path, of: str = "pages") -> str:
    """What a message about a folder without pages (`of="pages"`) or labels (`of="labels"`) adds when that folder
    is a dataset's, given for its folder of them: " (a dataset? its pages are in DIR/html)"; "" otherwise."""
    root = Path(folder)
    pages = dataset_pages(root)
    inside = pages if of == "pages" else (root / "gt" if pages is not None and (root / "gt").is_dir() else None)
    return "" if inside is None else f" (a dataset? its {of} are in {hint_path(inside)})"


def no_page_file(name: str, pages_dir: str | Path) -> str:
    """Why page `name` has no file in `pages_dir` (a folder) to read, for a message about one page; for many, ask
    `why_no_page_file`, which lists the folder once."""
    return why_no_page_file(pages_dir)(name)


def why_no_page_file(pages_dir: str | Path) -> Callable[[str], str]:
    """Why a page has no file in `pages_dir` (a folder) to read, for a message: an entry named like the page that
    is no regular file (a folder, a FIFO) is said as every command says it (`OddPageEntry`); else none is named
    so. The folder is listed once, at the first page asked about, however many pages lack a file (labels for
    thousands of pages scored against another folder would list it thousands of times). The folder is named as a
    hint names a path (`hint_path`), as the path of every reason a page is not read is."""
    odd_entry = odd_page_entry_of(pages_dir)

    def why(name: str) -> str:
        entry = odd_entry(name)
        return str(entry) if entry is not None else f"no page {name}.html or {name}.mhtml in {hint_path(pages_dir)}"

    return why


# What becomes of an entry named like a page that is no regular file, in every command's words
NOT_READ_AS_THE_PAGE = "not read as the page"


@dataclass(frozen=True)
class OddPageEntry:
    """An entry of a folder of pages named like a page (`2.html`, `3.MHTML`) that is no regular file: a folder, a
    FIFO, a socket, a device, a symbolic link loop or a link to nothing. No command reads it (a FIFO would be
    waited on for ever); each says it in the words of `str` (`import` as `not imported: ` and them)."""

    path: Path
    what: str  # `not_a_page_file`'s words: "a FIFO (named pipe), not a regular file"

    @property
    def page(self) -> str:
        return self.path.stem

    @property
    def reason(self) -> str:
        """What is said after the entry's path: what it is, and that it is not read."""
        return f"{self.what}; {NOT_READ_AS_THE_PAGE}"

    def __str__(self) -> str:
        return f"{hint_path(self.path)}: {self.reason}"


def odd_page_entries(pages_dir: str | Path, entries: Iterable[Path] | None = None) -> list[OddPageEntry]:
    """The entries of a folder of pages named like pages (`PAGE_SUFFIXES`, in any case) that are no regular file,
    in the natural order of their names: the one home of what `page_files` skips, `why_no_page_file` and `labels
    check` name, `pages_not_read` counts and `import` lists as not imported. `entries`: the folder's entries named
    like pages, listed already by the caller; [] for a folder that cannot be listed."""
    try:
        named = list(entries) if entries is not None else _named_like_pages(Path(pages_dir))
    except OSError:
        return []
    odd = [OddPageEntry(path, what) for path in named if (what := not_a_page_file(path)) is not None]
    return sorted(odd, key=lambda entry: natural_key(entry.path.name))


def odd_page_entry_of(pages_dir: str | Path) -> Callable[[str], OddPageEntry | None]:
    """Page name -> the first entry named like it that is no regular file (`odd_page_entries`), or None. The
    folder is listed once, at the first name asked about, and not at all when none is."""
    found: dict[str, OddPageEntry] | None = None

    def entry(name: str) -> OddPageEntry | None:
        nonlocal found
        if found is None:
            found = {}
            for odd in odd_page_entries(pages_dir):
                found.setdefault(odd.page, odd)
        return found.get(name)

    return entry


def _named_like_pages(folder: Path) -> list[Path]:
    return [p for p in folder.iterdir() if p.suffix.lower() in _RANK]  # 7.HTML is a page too


def page_files(pages_dir: str | Path, warnings: list[str] | None = None, *, odd_files: bool = True
               ) -> dict[str, Path]:
    """Page name -> file, for every saved page in a folder; a name saved twice (12.html and 12.mhtml) takes
    the MHTML. Both, and entries named like pages that are no regular file (`odd_page_entries`; unless
    `odd_files` is false: the caller says those its own way), are reported in `warnings` when given."""
    folder = Path(pages_dir)
    if not folder.is_dir():
        raise DatasetError(not_a_folder(folder, "pages", "N.html / N.mhtml"))
    saved = _named_like_pages(folder)
    odd = odd_page_entries(folder, saved)
    if warnings is not None and odd_files:
        warnings += map(str, odd)
    skipped = {entry.path for entry in odd}
    found: dict[str, Path] = {}
    # The least wanted suffix first, so that the MHTML of a page saved twice is the one kept.
    for path in sorted((p for p in saved if p not in skipped), key=lambda p: (-_RANK[p.suffix.lower()], p.name)):
        if path.stem in found and warnings is not None:
            warnings.append(f"page {path.stem}: both {found[path.stem].name} and {path.name} in {hint_path(folder)}; "
                            f"{path.name} is used")
        found[path.stem] = path
    if warnings is not None and (unfinished := unfinished_dataset(folder)) is not None:
        warnings.append(unfinished)
    return {name: found[name] for name in sorted(found, key=natural_key)}


def pages_not_read(pages_dir: str | Path) -> list[str]:
    """The pages of a folder that `page_files` finds no file of: each entry named like it is no regular file
    (`odd_page_entries`), said by `page_files`. A command over the folder leaves these pages undone, and counts
    them so (its exit status too), rather than pass the folder as done."""
    read = page_files(pages_dir)
    return sorted({entry.page for entry in odd_page_entries(pages_dir) if entry.page not in read}, key=natural_key)


def unfinished_dataset(pages_dir: Path) -> str | None:
    """Why the dataset holding this folder of pages may lack pages or labels: an export or `synth` was stopped
    while writing it (the export's marker is still there; synth's manifest still says `complete: false`). None
    for any other folder."""
    if (pages_dir.parent / UNFINISHED_EXPORT).exists():
        return (f"{hint_path(pages_dir.parent)}: an export that did not finish ({UNFINISHED_EXPORT} is still "
                "there), so pages or their labels may be missing: export the project again into an empty folder")
    manifest = pages_dir.parent / SYNTH_MANIFEST
    try:
        document = json.loads(manifest.read_text(encoding="utf-8")) if manifest.is_file() else None
    except (OSError, ValueError):
        return None
    if isinstance(document, dict) and document.get("complete") is False:
        return (f"{hint_path(pages_dir.parent)}: an unfinished synth dataset ({SYNTH_MANIFEST} says complete: "
                "false; synth was stopped while writing it), so pages or labels may be missing: run the same synth "
                "command again")
    return None


def synthetic_sources(pages_dir: str | Path) -> dict[str, str]:
    """Of a dataset `recordlens synth` made, each page's source page as its manifest identifies it (page name ->
    the source's digest); {} for any other folder or a manifest that does not say."""
    return {str(e["name"]): e["source_digest"] for e in _synth_manifest_pages(pages_dir) if "name" in e
            and isinstance(e.get("source_digest"), str) and e["source_digest"]}


def synthetic_originals(pages_dir: str | Path) -> dict[str, str]:
    """Of a dataset `recordlens synth` made, each page's original page as its manifest names it (page name -> the
    name): the page it was made from, or that page's own original (a variant of a variant); {} for any other
    folder. Its digest is `synthetic_sources`'."""
    found: dict[str, str] = {}
    for entry in _synth_manifest_pages(pages_dir):
        original = entry.get("original") or entry.get("source")
        if isinstance(original, str) and isinstance(entry.get("name"), str):
            found[entry["name"]] = original
    return found


def _synth_manifest_pages(pages_dir: str | Path) -> list[dict]:
    """The page entries of the synth.json beside a dataset's pages folder; [] where there is none to read."""
    manifest = Path(pages_dir).parent / SYNTH_MANIFEST
    try:
        document = json.loads(manifest.read_text(encoding="utf-8")) if manifest.is_file() else None
    except (OSError, ValueError):
        return []
    entries = document.get("pages") if isinstance(document, dict) else None
    return [e for e in entries if isinstance(e, dict)] if isinstance(entries, list) else []


def record_files(folder: str | Path) -> dict[str, Path]:
    """Page name -> `N.json` in a ground-truth or run folder."""
    path = Path(folder)
    if not path.is_dir():
        raise DatasetError(not_a_folder(path, "records", "N.json"))
    # 7.JSON is a page's records too, as 7.HTML is a page; of 7.json and 7.JSON the regular file is read, the
    # lower-case one if both are. Whatever else is named so (a folder, a FIFO, a dangling link) is kept for its
    # reader to say it is no file (`load_records`, without a blocking read): left out, it would read as a page
    # without labels, or without a prediction.
    files = sorted((p for p in path.iterdir() if p.suffix.lower() == ".json"),
                   key=lambda p: (not p.is_file(), p.suffix != ".json"))
    found: dict[str, Path] = {}
    for file in files:
        found.setdefault(file.stem, file)
    return {name: found[name] for name in sorted(found, key=natural_key)}


def find_page_file(pages_dir: str | Path, name: str) -> Path | None:
    """The file of page `name`, chosen as `page_files` chooses it (the MHTML first, any case of suffix)."""
    folder = Path(pages_dir)
    for suffix in PAGE_SUFFIXES:  # the usual spellings, without listing the folder
        for spelled in (suffix, suffix.upper()):
            candidate = folder / f"{name}{spelled}"
            if candidate.is_file():
                return candidate
    # A rarer spelling (1.Html): looked for only when the usual ones are missing.
    others = [p for p in folder.glob(f"{glob.escape(name)}.*") if p.suffix.lower() in _RANK and p.is_file()]
    return min(others, key=lambda p: (_RANK[p.suffix.lower()], p.name), default=None)


def load_page_file(path: str | Path) -> LoadedPage:
    """A page a user named on the command line: refused, as import refuses it, unless its suffix is a page's
    (a labels file given by mistake would otherwise be read as the text of a page)."""
    path = Path(path)
    if path.suffix.lower() not in _RANK and path.is_file():
        raise DatasetError(f"{hint_path(path)}: {NOT_A_PAGE_SUFFIX}")
    return load_page(path)


@dataclass
class LoadedPage:
    name: str
    path: Path
    snapshot: Snapshot
    page: Page


# The version of how core reads a saved page (its element tree, its texts): move it with every such change, and
# what was made from pages read another way (stored scores, remembered label checks) is made again.
# 1: the charset of an archive as Chromium finds it; declarative shadow roots; SVG and MathML templates' children.
# 2: an archive part's declared charset ignored and the bytes' own detected, as Chromium does; base64 read strictly.
PAGE_READER_VERSION = 2


def parse_snapshot(snapshot: Snapshot) -> Page:
    """A saved page's element tree as the browser builds it from those bytes: an MHTML archive's shadow roots,
    which Chromium saves as templates, are taken out as Chromium's archive loader takes them out."""
    return parse_html(snapshot.html, mhtml=snapshot.kind == "mhtml")


def load_page(path: str | Path, name: str | None = None, *, data: bytes | None = None) -> LoadedPage:
    """Read a saved page (MHTML or HTML) and parse it: the one way every command opens a page. `data`: the file's
    bytes, read already (`snapshot.read_file_bytes`) by a caller that checks them too (a hash), so that what is
    parsed is what was checked. Why it cannot be read names the file as a hint names a path (`hint_path`)."""
    path = Path(path)
    try:
        snapshot = read_snapshot(path) if data is None else read_snapshot(data, name=str(path))
    except RecordLensError as error:
        raise _cannot_read(path, error) from None
    snapshot.source = path
    try:
        page = parse_snapshot(snapshot)
    except RecordLensError as error:  # the parser does not know the file: name it, as read_snapshot does
        raise _cannot_read(path, error) from None
    page.warnings.extend(snapshot.warnings)
    page.name = name or path.stem
    return LoadedPage(page.name, path, snapshot, page)


def _cannot_read(path: Path, error: RecordLensError) -> RecordLensError:
    """`error`, met reading the page file `path`, as "Cannot read PATH: why" with the path as a hint names it.
    `read_snapshot` names a file it reads as a hint does, and bytes by the label it is given, here the path as it
    is (from which it also takes the suffix that tells MHTML from HTML): the hint is put in its place, its words
    kept after it; the parser's errors name no file, and are put after the hint whole."""
    said = str(error)
    named = next((f"Cannot read {form}: " for form in (hint_path(path), str(path))
                  if said.startswith(f"Cannot read {form}: ")), "")
    return type(error)(f"Cannot read {hint_path(path)}: {said.removeprefix(named)}")
