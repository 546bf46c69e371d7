"""Synthetic datasets: labelled pages transformed in structure and content, with labels that follow the records.

For every input page and variant k, `synthesise_page` parses the page, marks each ground-truth element with a
temporary stamp attribute, applies a seeded choice of structural transformations (`synth_transforms`) and the
content changes (`synth_content`), and writes the page out. The output's ground truth is *measured*, not
predicted: the written HTML is parsed again by the core, each stamp is found there and gives its element's new
XPath. The stamps are then left out of the final HTML, which is parsed once more to check that its element tree
is the stamped one and that every output XPath resolves. The page's style sheets go back into its <head>
(`styles`), so that a variant looks like a page of the same site.

A variant's source page is named by its digest (`training.page_digest`): the page it was made from, or, for a
variant of a variant, the original page (`Source.made_from`), the one a model may have been trained on. A variant
of a variant names that original page too (`Source.original`), besides the variant it was made from (`source`).

The same seed gives byte-identical files: every random choice comes from generators seeded by (seed, page,
variant), and the MHTML's Date header is fixed.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import random
import re
import shutil
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from .. import atomic
from ..command_hints import hint_path
from ..errors import DatasetError, RecordLensError
from ..output_paths import overlap, writable_folder
from ..page.dataset import (
    SYNTH_MANIFEST,
    dataset_hint,
    find_page_file,
    lands_outside,
    natural_key,
    not_a_folder,
    page_files,
    record_files,
    synthetic_originals,
    synthetic_sources,
    unfinished_dataset,
    why_no_page_file,
)
from ..page.dom import Element, Page, js_trim, parse_html
from ..page.formats import RAW_TEXT_PARENTS, serialise
from ..page.mhtml_writer import write_mhtml
from ..page.snapshot import Snapshot, read_snapshot
from ..records.model import load_records, save_records
from ..wording import as_clause, below_one, counted, listed
from .content import ContentChanger
from .styles import page_style_sheets, saved_style_sheets
from .transforms import TRANSFORMS, Layout, build_layout, in_foreign, new_element

if TYPE_CHECKING:
    from ..store.project import Project

STAMP = "data-rl-id"
CONTENT = "content"
TRANSFORM_NAMES = tuple(TRANSFORMS)
FORMATS = ("html", "mhtml")
DOCTYPE = "<!DOCTYPE html>\n"
MANIFEST = SYNTH_MANIFEST
# Fixed so that the same seed gives the same bytes (an archive's Date is otherwise the time of writing).
MHTML_DATE = "Wed, 01 Jan 2025 00:00:00 +0000"
MHTML_URL = "http://recordlens.invalid/synth/{name}.html"
# Elements whose text is markup for another parser: their content is dropped rather than carried over.
OPAQUE_ATTRIBUTES = ("srcdoc",)
# Written between two texts of one element that the page holds apart (a comment, a script, chrome a transformation
# removed stood between them): written side by side, they would be parsed as one text, and the text map, which
# keeps the last text of an element, would read both (NEXT-EVAL-NOTES §2.1: comments go without merging texts).
TEXT_BREAK = "<!---->"
# Where the serialiser writes it: no text of a parsed page holds NUL (`parse_html` reads it as U+FFFD), nor does a
# style sheet put back (`_restore_head`), so the mark is only where it was put.
_BREAK_MARK = "\x00"
# Elements whose content is text to the parser, where a comment would be read as text.
_TEXT_ONLY_PARENTS = RAW_TEXT_PARENTS | {"title", "textarea"}


class SynthError(RecordLensError):
    pass


# Variants per page: far more than augmentation asks for, and a bound on what one command writes (each page's
# names go into the manifest before its variants are made)
MAX_VARIANTS = 1000


@dataclass(frozen=True)
class SynthOptions:
    variants: int = 2
    seed: int = 0
    transforms: tuple[str, ...] = TRANSFORM_NAMES
    rate: float = 0.5  # the chance that each selected transformation is drawn for a variant, alone
    content: bool = True
    formats: tuple[str, ...] = FORMATS
    # a variant that drew no transformation, or none that applies to its page, gets another one at random that
    # applies (its structure changes, unless none of them applies to the page: said); off by default, so that a
    # variant draws each transformation with probability `rate` and nothing else
    at_least_one: bool = False

    def __post_init__(self) -> None:
        unknown = [t for t in self.transforms if t not in TRANSFORMS]
        if unknown:
            raise SynthError(f"unknown transformation(s) {', '.join(unknown)}; known: {', '.join(TRANSFORMS)}")
        # The set selected decides, not the order it is given in (each variant draws them one by one from one
        # generator): taken in TRANSFORM_NAMES' order, a name given twice once (a second draw would weigh it more).
        object.__setattr__(self, "transforms", tuple(t for t in TRANSFORMS if t in self.transforms))
        if (wrong := below_one({"--variants": self.variants})) is not None:
            raise SynthError(wrong)
        if self.variants > MAX_VARIANTS:
            raise SynthError(f"--variants is at most {MAX_VARIANTS:,} (variants of each page); for more, run synth "
                             "again with another --seed into another --out")
        if not 0.0 <= self.rate <= 1.0:
            raise SynthError("--rate must be between 0 and 1")
        if self.at_least_one and not self.transforms:  # contradictory: refused, not said once per page
            raise SynthError("--at-least-one has nothing to choose from: --transforms none selects no "
                             "transformation; give transformations to choose from (see --list), or leave out "
                             "--at-least-one")
        bad = [f for f in self.formats if f not in FORMATS]
        if bad:
            raise SynthError(f"--formats: {listed([repr(f) for f in bad])} {'is' if len(bad) == 1 else 'are'} not "
                             f"a format synth writes; give {' or '.join(FORMATS)}, or both comma-separated")
        if not self.formats:
            raise SynthError(f"--formats is empty: give {' or '.join(FORMATS)}, or both comma-separated")
        # each format once, in one order: its files are written once, and counted once
        object.__setattr__(self, "formats", tuple(f for f in FORMATS if f in self.formats))


@dataclass
class Source:
    """One labelled input page."""

    name: str
    html: str
    records: list[list[str]]
    # the style sheets saved with it (`styles.saved_style_sheets`: its URL and CSS parts alone), or None
    styles: Snapshot | None = None
    # of a page `synth` made itself, the digest of the page it was made from (its synth.json, its project page's
    # source): its variants name that page, the one a model may have been trained on, not the variant
    made_from: str | None = None
    # of such a page, the name of the page it was made from, where known (its synth.json, its project's page of
    # that digest): the original page a variant of it names
    original: str | None = None


@dataclass
class SynthPage:
    """One output page: its HTML, its ground truth, and what was done to make it."""

    name: str
    source: str
    variant: int
    html: str
    records: list[list[str]]
    transforms: list[dict[str, object]]
    content: dict[str, int] | None
    dropped_xpaths: list[str] = field(default_factory=list)
    dropped_records: list[int] = field(default_factory=list)  # 1-based positions in the input's ground truth
    warnings: list[str] = field(default_factory=list)  # every warning of the variant, `source_warnings` first
    style_sheets: dict[str, int] = field(default_factory=dict)  # kept in <head>, and left out (`styles`)
    # the source page's identity as a model's provenance names it (`training.page_digest`): a model trained on
    # the source is scored in-sample-ish on its variants, and `score` can say so. Of a variant of a variant, the
    # original page's (`Source.made_from`); the page it was made from is then `input_digest`.
    source_digest: str = ""
    input_digest: str = ""
    original: str = ""  # of a variant of a variant, the original page's name where known (its digest: source_digest)
    # what reading the source page said (elements nested too deep, cut): alike in every variant made from it, so
    # said once for the source page, not once a variant (the manifest lists them with each variant's warnings)
    source_warnings: list[str] = field(default_factory=list)

    @property
    def own_warnings(self) -> list[str]:
        return self.warnings[len(self.source_warnings):]

    def manifest_entry(self) -> dict[str, object]:
        entry = asdict(self)
        del entry["html"], entry["records"], entry["source_warnings"]
        if not self.input_digest:  # the source page is the input page
            del entry["input_digest"]
        if not self.original:  # the source page is the original, or the original's name is not known
            del entry["original"]
        entry["records_in"] = len(self.records) + len(self.dropped_records)
        entry["records_out"] = len(self.records)
        return entry


def variant_seed(seed: int, source: str, variant: int, purpose: str) -> int:
    """A 64-bit seed for one page, variant and purpose; stable across runs and machines (unlike hash())."""
    digest = hashlib.sha256(f"{seed}\0{source}\0{variant}\0{purpose}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def output_name(source: str, variant: int, seed: int = 0) -> str:
    """`N_vK`; at another seed than the default `N_sS_vK`: two datasets made with different seeds can go into one
    project side by side (the names of the default seed are the ones the demo and every earlier dataset use)."""
    return f"{variant_prefix(source, seed)}{variant}"


def variant_prefix(source: str, seed: int) -> str:
    return f"{source}_v" if seed == 0 else f"{source}_s{seed}_v"


def first_variant(source: str, seed: int, taken: Iterable[str]) -> int:
    """The number of a page's first variant: past those of its variants at this seed already `taken` (a project's
    pages), so that a new variant never takes the name of a page that is there (1 where none is)."""
    prefix = variant_prefix(source, seed)
    numbers = [int(name[len(prefix):]) for name in taken
               if name.startswith(prefix) and _VARIANT_NUMBER.fullmatch(name[len(prefix):])]
    return max(numbers, default=0) + 1


_VARIANT_NUMBER = re.compile(r"[1-9][0-9]*")  # as `output_name` writes K (ASCII, no leading zero)


# -- one page ------------------------------------------------------------------------------------------------


def synthesise_page(source: Source, variant: int, options: SynthOptions,
                    chosen: Sequence[str] | None = None) -> SynthPage:
    """Variant `variant` of a labelled page. `chosen` forces the transformations (else they are drawn)."""
    from ..extract.training import page_digest

    name = output_name(source.name, variant, options.seed)
    page = parse_html(source.html)
    input_digest = page_digest(page, source.records)
    records, descendants, dropped_xpaths, dropped_records = _resolve(page, source.records)
    stamped = _stamp(records)
    layout = build_layout(page.root, records, protected=[STAMP])
    rng = random.Random(variant_seed(options.seed, source.name, variant, "structure"))
    names = list(chosen) if chosen is not None else _draw(options, rng)
    applied = [_apply(transform, layout, rng) for transform in TRANSFORM_NAMES if transform in names]
    unchanged: list[str] = []
    if options.at_least_one and chosen is None and not _changed(applied):
        applied += _apply_one_that_changes(options, names, layout, rng)
        if not _changed(applied):
            unchanged.append(f"no selected transformation applies to this page ({', '.join(options.transforms)}): "
                             "the variant's structure is its page's (--at-least-one)")
    content = None
    if options.content:
        changer = ContentChanger(variant_seed(options.seed, source.name, variant, CONTENT))
        _change_content(page.root, changer)
        content = dict(sorted(changer.kinds.items()))
    style_sheets = _restore_head(page, source)
    located, final_page, final_html = _write_and_locate(page, stamped)
    out_records, warnings = _follow(records, stamped, located, descendants)
    result = SynthPage(name, source.name, variant, final_html, out_records, applied, content, dropped_xpaths,
                       dropped_records, [*page.warnings, *warnings, *unchanged],  # a cut nesting changes it too
                       style_sheets, source.made_from or input_digest, input_digest if source.made_from else "",
                       (source.original or "") if source.made_from else "", list(page.warnings))
    _check(result, final_page)
    return result


def _draw(options: SynthOptions, rng: random.Random) -> list[str]:
    """Each selected transformation with probability `rate`: at rate 0, none (the content changes alone); at rate 1,
    every one, with no random draw, so that `--rate 1 -t NAME` makes the variants that forcing NAME (`chosen`) makes,
    the robustness bench's (bench/synth.py)."""
    if options.rate >= 1.0:
        return list(options.transforms)
    names = [t for t in options.transforms if rng.random() < options.rate]
    if not names and options.at_least_one and options.transforms:
        names = [rng.choice(options.transforms)]  # asked for: every variant changes the structure somehow
    return names


def _apply(transform: str, layout: Layout, rng: random.Random) -> dict[str, object]:
    """The transformation applied, as the manifest says it: how many places it changed (0: none)."""
    change = TRANSFORMS[transform](layout, rng)
    return {"name": transform, "count": change.count, "detail": change.detail}


def _changed(applied: list[dict[str, object]]) -> bool:
    return any(a["count"] for a in applied)


def _apply_one_that_changes(options: SynthOptions, tried: list[str], layout: Layout,
                            rng: random.Random) -> list[dict[str, object]]:
    """--at-least-one, where what was drawn changed nothing (no table to turn, no container to rename): the other
    selected transformations in random order, until one changes the page; each one tried, as applied."""
    others = [t for t in options.transforms if t not in tried]
    applied: list[dict[str, object]] = []
    for transform in rng.sample(others, len(others)):
        applied.append(_apply(transform, layout, rng))
        if _changed(applied):
            break
    return applied


def _resolve(page: Page, records: Sequence[Sequence[str]]
             ) -> tuple[list[list[Element]], list[list[bool]], list[str], list[int]]:
    """Each record's elements, and for each whether its XPath names the element's descendants only (written with
    a trailing "/": `Page.label_target`, whose element's new XPath gets the "/" back, so that the label means what
    it meant); XPaths that name nothing and records left empty are dropped and reported."""
    resolved: list[list[Element]] = []
    descendants: list[list[bool]] = []
    dropped_xpaths: list[str] = []
    dropped_records: list[int] = []
    for number, record in enumerate(records, start=1):
        elements: list[Element] = []
        slashes: list[bool] = []
        for xpath in record:
            element, descendants_only = page.label_target(xpath)
            if element is None:
                dropped_xpaths.append(xpath)
            else:
                elements.append(element)
                slashes.append(descendants_only)
        if elements:
            resolved.append(elements)
            descendants.append(slashes)
        else:
            dropped_records.append(number)
    return resolved, descendants, dropped_xpaths, dropped_records


def _stamp(records: list[list[Element]]) -> dict[int, tuple[str, Element]]:
    """id(element) -> (stamp value, element), for every distinct record element."""
    stamped: dict[int, tuple[str, Element]] = {}
    for record in records:
        for element in record:
            if id(element) not in stamped:
                value = str(len(stamped))
                element.attrs[STAMP] = value
                stamped[id(element)] = (value, element)
    return stamped


def _change_content(root: Element, changer: ContentChanger) -> None:
    """Every text and every attribute a person reads gets its replacement; templates lose their content."""
    for element in list(root.iter()):
        if element.tag == "template":
            _empty_template(element)
            continue
        element.children = [changer.text(c) if isinstance(c, str) else c for c in element.children]
        for attribute in OPAQUE_ATTRIBUTES:
            element.attrs.pop(attribute, None)
        for attribute, value in list(element.attrs.items()):
            if value and attribute != STAMP:
                element.attrs[attribute] = changer.attribute(attribute, value)


def _empty_template(template: Element) -> None:
    # A template's content is serialised from the original parse (it is not in the tree): replace the element.
    replacement = new_element("template", template.attrs)
    parent = template.parent
    assert parent is not None
    replacement.parent = parent
    parent.children = [replacement if c is template else c for c in parent.children]


def _restore_head(page: Page, source: Source) -> dict[str, int]:
    """The cleaned tree has no <style>: put the page's style sheets back into <head> (in their order, linked
    ones that were saved inlined: `styles`), and declare UTF-8, the encoding the files are written in. Neither
    changes an XPath. What was kept and left out, for the manifest."""
    head = next((c for c in page.root.element_children() if c.tag == "head"), None)
    if head is None:
        return {}
    charset = next((c for c in head.element_children() if c.tag == "meta" and "charset" in c.attrs), None)
    if charset is None:
        charset = new_element("meta", {"charset": "utf-8"})
        charset.parent = head
        head.children.insert(0, charset)
    charset.attrs["charset"] = "utf-8"
    found = page_style_sheets(source.html, source.styles)
    for sheet in found.sheets:
        # CSS reads NUL as U+FFFD: written so, it cannot be taken for a text break's mark (`_serialise`)
        element = new_element("style", dict(sheet.attrs), [sheet.text.replace(_BREAK_MARK, "\ufffd")])
        element.parent = head
        head.children.append(element)
    return found.counts()


def _write_and_locate(page: Page, stamped: dict[int, tuple[str, Element]]) -> tuple[dict[str, str], Page, str]:
    """Serialise with the stamps, find each stamp's XPath in the parse of that text, then serialise without."""
    stamped_html = DOCTYPE + _serialise(page.root)
    stamped_page = parse_html(stamped_html)
    located = {e.attrs[STAMP] or "": e.key for e in stamped_page.elements if STAMP in e.attrs}
    for _, element in stamped.values():
        element.attrs.pop(STAMP, None)
    final_html = DOCTYPE + _serialise(page.root)
    final_page = parse_html(final_html)
    if final_page.element_xpaths() != stamped_page.element_xpaths():
        raise SynthError("removing the stamps changed the element tree (a bug in the synthesiser)")
    return located, final_page, final_html


def _serialise(root: Element) -> str:
    """The tree's HTML, its texts kept apart where the tree holds them apart (`TEXT_BREAK`): parsed again, every
    element has the texts it had, and the page the text map it had. The tree is left as it was."""
    marked, marks = _mark_text_breaks(root)
    try:
        html = serialise(root)
    finally:
        for element in marked:
            element.children = [child for child in element.children if child != _BREAK_MARK]
    if not marks:
        return html
    if html.count(_BREAK_MARK) != marks:
        raise SynthError("a text of the page holds the text-break mark (a bug in the synthesiser)")
    return html.replace(_BREAK_MARK, TEXT_BREAK)


def _mark_text_breaks(root: Element) -> tuple[list[Element], int]:
    """A mark before each text that follows another text of its element with nothing but blank texts between
    (whitespace alone changes no text); the elements marked, and the marks."""
    marked: list[Element] = []
    marks = 0
    for element in root.iter():
        children = element.children
        if len(children) < 2 or (element.tag in _TEXT_ONLY_PARENTS and not in_foreign(element)):
            continue
        spaced: list[Element | str] = []
        after_text = False
        for child in children:
            if isinstance(child, Element):
                after_text = False
            elif js_trim(child):
                if after_text:
                    spaced.append(_BREAK_MARK)
                after_text = True
            spaced.append(child)
        if len(spaced) != len(children):
            marks += len(spaced) - len(children)
            element.children = spaced
            marked.append(element)
    return marked, marks


def _follow(records: list[list[Element]], stamped: dict[int, tuple[str, Element]], located: dict[str, str],
            descendants: list[list[bool]]) -> tuple[list[list[str]], list[str]]:
    """Each record's XPaths in the written page, each written as its label was: with the trailing "/" of one that
    names its element's descendants only (`Page.label_target`)."""
    out: list[list[str]] = []
    warnings: list[str] = []
    for record, slashes in zip(records, descendants, strict=True):
        xpaths = []
        for element, slash in zip(record, slashes, strict=True):
            value = stamped[id(element)][0]
            if value in located:
                xpaths.append(located[value] + ("/" if slash else ""))
            else:
                warnings.append(f"a record element ({element.tag}) was lost when the page was parsed again")
        if xpaths:
            out.append(xpaths)
        else:
            warnings.append("a record lost all its elements when the page was parsed again; it is dropped")
    return out, warnings


def _check(result: SynthPage, page: Page) -> None:
    """The final text's own parse: every output XPath names an element, and no stamp is left."""
    missing = [x for record in result.records for x in record if page.resolve(x) is None]
    if missing:
        raise SynthError(f"page {result.name}: output XPaths that do not resolve: {missing[:3]}")
    if any(STAMP in e.attrs for e in page.elements):
        raise SynthError(f"page {result.name}: a stamp was left in the output")


# -- inputs ----------------------------------------------------------------------------------------------------


@dataclass
class Sources:
    """The labelled pages to transform (each read only when its turn comes), and what could not be found."""

    loaders: list[tuple[str, Callable[[], Source]]]
    problems: list[str] = field(default_factory=list)
    # the folders the pages are read from (a dataset's pages and labels, a project): no output may overlap them
    folders: tuple[Path, ...] = ()
    left_out: list[str] = field(default_factory=list)  # pages found but not to be made variants of
    taken: frozenset[str] = frozenset()  # page names the variants must not take (a project's own pages)

    @property
    def count(self) -> int:
        return len(self.loaders)

    def read_all(self) -> list[Source]:
        return [load() for _, load in self.loaders]


def read_source(name: str, page_file: Path, records: list[list[str]], made_from: str | None = None,
                original: str | None = None) -> Source:
    """A labelled page as synth reads it: its HTML and the style sheets saved with it (not its images)."""
    snapshot = read_snapshot(page_file)
    return Source(name, snapshot.html, records, saved_style_sheets(snapshot), made_from, original)


def dataset_sources(pages_dir: str | Path, gt_dir: str | Path, names: Iterable[str] | None = None) -> Sources:
    """Every page with ground truth in a dataset (`--pages DIR --gt DIR`), or those named. Its pages without
    ground truth are left out, and said; of a dataset synth made, each page names its own source page."""
    if not Path(pages_dir).is_dir():
        raise DatasetError(not_a_folder(Path(pages_dir), "pages", "N.html / N.mhtml"))
    truths = record_files(gt_dir)
    pages = page_files(pages_dir)
    if names is not None:
        wanted = set(names)
        truths = {name: path for name, path in truths.items() if name in wanted}
        pages = {name: path for name, path in pages.items() if name in wanted}
    made_from = synthetic_sources(pages_dir)
    originals = synthetic_originals(pages_dir) if made_from else {}
    unfinished = unfinished_dataset(Path(pages_dir))
    problems: list[str] = [unfinished] if unfinished else []
    loaders: list[tuple[str, Callable[[], Source]]] = []
    no_page = why_no_page_file(pages_dir)  # the folder listed once for all the pages it lacks
    for name, truth in truths.items():
        page_file = find_page_file(pages_dir, name)
        if page_file is None:
            problems.append(f"page {name}: ground truth, but {no_page(name)}")  # a FIFO said as every command does
            continue

        def load(name: str = name, page_file: Path = page_file, truth: Path = truth) -> Source:
            return read_source(name, page_file, load_records(truth).records, made_from.get(name), originals.get(name))

        loaders.append((name, load))
    unlabelled = [name for name in pages if name not in truths]
    if unlabelled:
        problems.append(f"{counted(len(unlabelled), 'page')} of {hint_path(pages_dir)} "
                        f"{'has' if len(unlabelled) == 1 else 'have'} no ground truth in {hint_path(gt_dir)} "
                        f"({listed(unlabelled, 8, total=True)}); left out")
    if not loaders:  # a dataset's folder given for its folder of pages (or of labels): where they are, said
        hint = dataset_hint(pages_dir) if not pages else dataset_hint(gt_dir, "labels") if not truths else ""
        raise DatasetError(f"no page with ground truth in {hint_path(pages_dir)} and {hint_path(gt_dir)}{hint}")
    left_out = [name for name in truths if name not in dict(loaders)] + unlabelled
    return Sources(loaders, problems, (Path(pages_dir), Path(gt_dir)), left_out)


def project_sources(project_dir: str | Path) -> Sources:
    """Every page of the project marked labelled or reviewed (one labelled as holding no record too): the pages
    score, export, agreement and train --project take as ground truth (`labelled_page_names`). A page still in
    progress is left out whatever accepted records it holds, said: its variants would be imported as labelled
    pages, ground truth the annotator has not finished. The project is open only while its labels are read: each
    page's snapshot is read from its stored file when its turn comes. A page the project imported from a synth
    dataset names its own source page."""
    from ..store.importer import synthetic_source
    from ..store.project import open_project

    loaders: list[tuple[str, Callable[[], Source]]] = []
    problems: list[str] = []
    unreadable: list[str] = []
    with open_project(project_dir) as project:
        names = project.page_names()
        pages = project.pages()
        chosen = {info.name for info in pages if info.finished}  # as `labelled_page_names` lists them
        labelled = [(info.name, project.true_records(info.name), synthetic_source(info.source))
                    for info in pages if info.name in chosen]  # name, true records, made from
        unlabelled = [info.name for info in pages if info.name not in chosen]
        in_progress = [info.name for info in pages if info.unfinished_records]
        originals = _originals_in(project, labelled)
        for name, records, made_from in labelled:
            try:
                snapshot = project.snapshot_file(name)
            except RecordLensError as error:  # its row names no saved copy (the database changed by hand)
                problems.append(f"{as_clause(error)}; left out")  # `snapshot_file` names the page
                unreadable.append(name)
                continue

            def load(name: str = name, records: list[list[str]] = records, snapshot: Path = snapshot,
                     made_from: str | None = made_from) -> Source:
                return read_source(name, snapshot, records, made_from, originals.get(made_from or ""))

            loaders.append((name, load))
    if not loaders:
        raise DatasetError(f"no page of the project {hint_path(project_dir)} is marked labelled or reviewed"
                           + (f" ({_in_progress_words(in_progress)})" if in_progress else ""))
    # one line for them all: a project's pages not labelled yet may be most of its pages
    if unlabelled:
        problems.insert(0, _not_labelled_words(unlabelled, in_progress))
    return Sources(loaders, problems, (Path(project_dir),), unlabelled + unreadable, frozenset(names))


def _not_labelled_words(unlabelled: Sequence[str], in_progress: Sequence[str]) -> str:
    """The project's pages left out, and why: not marked labelled, as score, export and train leave them out; those
    of them in progress with accepted records named apart (their records are not made variants of)."""
    one = len(unlabelled) == 1
    line = (f"{counted(len(unlabelled), 'page')} of the project {'is' if one else 'are'} not marked labelled or "
            f"reviewed ({listed(unlabelled, 8, total=True)}); left out, as score, export and train leave "
            f"{'it' if one else 'them'} out")
    return line + (f"; {_in_progress_words(in_progress)}" if in_progress else "")


def _in_progress_words(in_progress: Sequence[str]) -> str:
    one = len(in_progress) == 1
    return (f"{counted(len(in_progress), 'page')} in progress {'holds' if one else 'hold'} accepted records "
            f"({listed(in_progress, 8, total=True)}): mark {'it' if one else 'them'} labelled to make variants of "
            f"{'it' if one else 'them'}")


def _originals_in(project: Project, labelled: list[tuple[str, list[list[str]], str | None]]) -> dict[str, str]:
    """The project's pages that its variants were made from (digest -> page name): its labelled pages that are no
    variant, matched by their identity in a model's provenance (as `score` matches them), looked for only while a
    variant's original is not found (each digest is remembered by the project once made)."""
    wanted = {made_from for _, _, made_from in labelled if made_from}
    found: dict[str, str] = {}
    for name, _, made_from in labelled:
        if wanted <= found.keys():
            break
        if made_from is None:
            found.setdefault(project.label_checks.training_digest(name), name)
    return {digest: name for digest, name in found.items() if digest in wanted}


# -- a dataset -----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class WrittenPage:
    """What a dataset keeps of a page once its files are written (besides its manifest entry): neither its HTML
    nor its records, which thousands of pages would otherwise hold in memory until the end."""

    name: str
    source: str
    records_in: int
    records_out: int
    dropped_xpaths: tuple[str, ...]
    dropped_records: int
    warnings: tuple[str, ...]  # the variant's own (`SynthPage.own_warnings`)
    style_sheets_left_out: int  # linked by the page but not saved with it
    source_warnings: tuple[str, ...] = ()  # what reading its source page said, alike in every variant

    @classmethod
    def of(cls, page: SynthPage) -> WrittenPage:
        return cls(page.name, page.source, len(page.records) + len(page.dropped_records), len(page.records),
                   tuple(page.dropped_xpaths), len(page.dropped_records), tuple(page.own_warnings),
                   page.style_sheets.get("left_out", 0), tuple(page.source_warnings))


@dataclass
class SynthReport:
    out: Path
    pages: list[WrittenPage] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0
    replaced: int = 0  # files of an earlier synthetic dataset in the folder, removed first
    planned: int = 0  # the pages it is to write: every variant of every labelled page
    files_per_page: int = 0  # its formats and its ground truth
    files: int = 0  # the files written so far
    left_out: list[str] = field(default_factory=list)  # source pages of which no variant was made (`problems` say why)
    renumbered: list[str] = field(default_factory=list)  # source pages whose variants are numbered past the taken

    @property
    def dropped_xpaths(self) -> int:
        return sum(len(p.dropped_xpaths) for p in self.pages)

    @property
    def pages_per_second(self) -> float:
        return len(self.pages) / self.seconds if self.seconds else 0.0


def synthesise_dataset(sources: Sources, out: str | Path, options: SynthOptions,
                       progress: Callable[[Sequence[str]], Iterable[str]] = lambda names: names,
                       report: SynthReport | None = None) -> SynthReport:
    """Write OUT/html/N_vK.html, OUT/mhtml/N_vK.mhtml, OUT/gt/N_vK.json and the manifest OUT/synth.json.
    `report`, when given, is filled in as the pages are written: what a stopped run (Ctrl+C) did, for its
    caller to say.

    The manifest is kept current (`_Manifest`): before the first file of a page's variants it names them and
    their source page, so that the pages a stopped or killed run leaves say where they come from; at the end,
    or at a stop, it is written whole, with what was done to each page written. Each page's HTML is held only
    while its files are written."""
    target = Path(out)
    report = report if report is not None else SynthReport(target)
    report.out = target
    report.problems[:] = sources.problems
    report.left_out[:] = sources.left_out
    report.planned = sources.count * options.variants
    report.files_per_page = len(options.formats) + 1
    refuse_own_input(target, sources.folders)
    manifest = _Manifest(target / MANIFEST, options)
    # Written first, marked unfinished (before an earlier dataset's files go, too): a run stopped part way leaves a
    # folder that says so, and that the same command replaces, rather than pages that look like a whole dataset
    # in a folder it then refuses.
    report.replaced = _prepare_output(target, lambda: manifest.write_named(report.problems))
    manifest.write_named(report.problems)
    started = time.perf_counter()
    loaders = dict(sources.loaders)
    try:
        for name in progress(list(loaders)):
            _synthesise_source(name, loaders[name], target, options, manifest, report, sources.taken)
    except BaseException:  # Ctrl+C, SIGTERM, a disk full: the pages written are described, and said unfinished
        report.seconds = time.perf_counter() - started
        # only the pages whose files are all there: the stop may come between a page's entry and its files
        manifest.keep(lambda name: all(path.is_file() for path in _page_paths(target, name, options)))
        with contextlib.suppress(OSError):
            manifest.write_whole(report.problems, complete=False)
        raise
    report.seconds = time.perf_counter() - started
    manifest.write_whole(report.problems, complete=True)
    return report


def _synthesise_source(name: str, load: Callable[[], Source], target: Path, options: SynthOptions,
                       manifest: _Manifest, report: SynthReport, taken: frozenset[str] = frozenset()) -> None:
    """Every variant of one labelled page, written. One unreadable page or one failed variant is reported and
    skipped; the rest of the dataset is made. A page whose files would land outside `target` (a name that is a
    path, `../../notes`: a project's page put back from an edited copy, its database changed by hand) is refused.
    Only that is checked, not import's whole rule for new names: a dataset's file `a<TAB>b.html`, or an older
    project's page so named, is made as it always was."""
    if (unsafe := _lands_outside(target, name, options, taken)) is not None:
        report.problems.append(f"{unsafe}; left out")
        report.left_out.append(name)
        return
    try:
        source = load()
    except RecordLensError as error:
        report.problems.append(f"page {name}: {as_clause(error)}; left out")
        report.left_out.append(name)
        return
    named = False
    first = first_variant(name, options.seed, taken)
    if first > 1:
        report.renumbered.append(name)
    numbers = range(first, first + options.variants)
    for variant in numbers:
        try:
            result = synthesise_page(source, variant, options)
        except SynthError as error:
            report.problems.append(f"page {name} variant {variant}: {error}")
            continue
        if not named:  # before the page's first file: its source's digest is known from the first variant made
            manifest.name(result, range(variant, numbers.stop), report.problems)
            named = True
        manifest.describe(result)
        try:
            _write_page(target, result, options, report)
        except BaseException:  # its files were taken back: no page of the dataset
            manifest.forget(result.name)
            raise
        report.pages.append(WrittenPage.of(result))
    if not named:  # every variant failed (each said)
        report.left_out.append(name)


class _Manifest:
    """`synth.json` while the dataset is made. Before a page's files are written, it is written again naming
    every page so far with its source page, a line each (`name`): a run killed part way leaves pages that say
    where they come from. Once the run ends or stops, it is written whole (`write_whole`), each page written with
    what was done to it. Every entry is serialised once: a manifest of thousands of pages is written again and
    again."""

    def __init__(self, path: Path, options: SynthOptions) -> None:
        self.path = path
        self.options = options
        self.named: dict[str, str] = {}  # page -> the line naming it and its source
        self.entries: dict[str, str] = {}  # page -> its whole entry, once its files are being written

    def name(self, page: SynthPage, variants: Iterable[int], problems: list[str]) -> None:
        """Name these variants of the page's source, and write the manifest so."""
        for variant in variants:
            entry: dict[str, object] = {"name": output_name(page.source, variant, self.options.seed),
                                        "source": page.source, "variant": variant,
                                        "source_digest": page.source_digest}
            if page.input_digest:
                entry["input_digest"] = page.input_digest
            if page.original:
                entry["original"] = page.original
            self.named[str(entry["name"])] = "  " + json.dumps(entry, ensure_ascii=False)
        self.write_named(problems)

    def describe(self, page: SynthPage) -> None:
        text = json.dumps(page.manifest_entry(), ensure_ascii=False, indent=1)
        self.entries[page.name] = "\n".join("  " + line for line in text.split("\n"))  # its place in "pages"

    def forget(self, name: str) -> None:
        self.entries.pop(name, None)

    def keep(self, written: Callable[[str], bool]) -> None:
        """Describe only the pages `written` says are."""
        self.entries = {name: entry for name, entry in self.entries.items() if written(name)}

    def write_named(self, problems: list[str]) -> None:
        atomic.write_text(self.path, _manifest(self.options, self.named, problems, complete=False))

    def write_whole(self, problems: list[str], complete: bool) -> None:
        atomic.write_text(self.path, _manifest(self.options, self.entries, problems, complete))


_VARIANT_FILE = re.compile(r".+_v\d+\.(html|mhtml|json)")  # what `output_name` names (N_vK, N_sS_vK), and only that
_UNFINISHED_WRITE = re.compile(r"\..+\.tmp")  # atomic's temporary beside the file it writes


def refuse_own_input(target: Path, inputs: Iterable[Path]) -> None:
    """Refused before anything is touched: an output folder that is an input folder, holds one, or lies inside one.
    An earlier dataset in `target` is replaced whole, so a synth output given as its own --out would be deleted
    before it is read (and the new dataset left empty); and pages written inside an input would become its pages.
    Compared as resolved paths, so that a symbolic link or `..` does not hide the overlap."""
    for folder in inputs:
        where = overlap(target, folder)
        if where is not None:
            source = folder.resolve()
            raise SynthError(f"--out {hint_path(target)} {where} the input folder {hint_path(folder)}"
                             f"{f' ({hint_path(source)})' if source != folder.absolute() else ''}: synth replaces "
                             "its --out whole, and would delete or mix with the pages it reads; choose another --out")


def _prepare_output(target: Path, mark_unfinished: Callable[[], None]) -> int:
    """An empty or new folder, or an earlier synthetic dataset (replaced whole, so no stale page remains, and
    `mark_unfinished` first); how many files of the earlier one were removed."""
    writable_folder(target, "a synthetic dataset")
    removed = 0
    if target.is_dir() and any(target.iterdir()):
        if not (target / MANIFEST).is_file():
            raise SynthError(f"{hint_path(target)} is not empty and holds no {MANIFEST}: refusing to write a "
                             "dataset there")
        made = [p for sub in ("html", "mhtml", "gt") if (target / sub).is_dir() for p in (target / sub).rglob("*")]
        # Writes a stopped run left unfinished (atomic's hidden .NAME.*.tmp) are synth's own: they go too.
        foreign = sorted(p for p in made if not p.is_dir() and not _UNFINISHED_WRITE.fullmatch(p.name)
                         and not _VARIANT_FILE.fullmatch(p.name))
        if foreign:  # a file of the user's among the pages synth made: it would go with them
            more = f" and {len(foreign) - 1} more" if len(foreign) > 1 else ""
            raise SynthError(f"{hint_path(foreign[0])} is not a page of the synthetic dataset in {hint_path(target)} "
                             f"(its files are named N_vK); move it{more}, or choose another --out")
        mark_unfinished()
        for sub in ("html", "mhtml", "gt"):
            removed += sum(1 for p in (target / sub).rglob("*") if not p.is_dir()) if (target / sub).is_dir() else 0
            shutil.rmtree(target / sub, ignore_errors=True)
    target.mkdir(parents=True, exist_ok=True)
    return removed


def _lands_outside(target: Path, name: str, options: SynthOptions, taken: frozenset[str]) -> str | None:
    """Why the files of page `name`'s variants (`_write_page`'s) would not land in their folders of `target`, or
    None: asked of its first variant's, as every variant's name is the page's with only its number changed."""
    variant = output_name(name, first_variant(name, options.seed, taken), options.seed)
    files = _page_files(target, variant, options)
    return next((why for folder, file_name in files if (why := lands_outside(folder, file_name, name))), None)


def _page_files(target: Path, name: str, options: SynthOptions) -> list[tuple[Path, str]]:
    """A page's files (folder, file name) in the order they are written: its ground truth first, its page in the
    folder `import` reads (html/, where it is written) last."""
    pages = [(target / kind, f"{name}.{kind}") for kind in reversed(options.formats)]  # FORMATS: html first
    return [(target / "gt", f"{name}.json"), *pages]


def _page_paths(target: Path, name: str, options: SynthOptions) -> list[Path]:
    return [folder / file_name for folder, file_name in _page_files(target, name, options)]


def _write_page(target: Path, result: SynthPage, options: SynthOptions, report: SynthReport) -> None:
    """The page's files, as one: each written whole (`atomic`), and a stop or a failure part way (Ctrl+C, a disk
    full) takes back those written, so that no page is left half made (a page without its labels or its other
    format) for an import to take; the files counted once all are there."""
    paths = _page_paths(target, result.name, options)
    started = 0
    try:
        for path in paths:
            started += 1
            _write_file(path, result)
    except BaseException:
        # with the one being written: a stop may come once it is in place, while its folder is synced
        for path in paths[:started]:
            with contextlib.suppress(OSError):  # the stop's own error is the one to say
                path.unlink(missing_ok=True)
        raise
    report.files += len(paths)


def _write_file(path: Path, result: SynthPage) -> None:
    if path.suffix == ".json":
        save_records(path, result.records)
    elif path.suffix == ".mhtml":
        write_mhtml(path, result.html, url=MHTML_URL.format(name=result.name), date=MHTML_DATE)
    else:
        atomic.write_text(path, result.html)


# What a variant keeps of its page besides its HTML, said once in the manifest (each page's "style_sheets" counts)
KEPT = {
    "style_sheets": "the page's inline <style>s, and the style sheets it links or imports that were saved with it "
                    "(an MHTML's CSS parts), inlined as <style> in <head>; a variant's HTML and MHTML hold the same "
                    "HTML",
    "left_out": "images, fonts, scripts, frames and every other resource; and style sheets a page links but did "
                "not save (each page's style_sheets.left_out)",
}


def _manifest(options: SynthOptions, pages: dict[str, str], problems: list[str], complete: bool = True) -> str:
    """The manifest's text: `pages` are the entries' texts, each in its place already (`_Manifest`)."""
    document = {
        "generator": "recordlens synth",
        "complete": complete,  # false while the pages are being written (and after a run that was stopped)
        "options": {"variants": options.variants, "seed": options.seed, "transforms": list(options.transforms),
                    "rate": options.rate, "at_least_one": options.at_least_one, "content": options.content,
                    "formats": list(options.formats)},
        "kept": KEPT,
        "problems": problems,
        "pages": [],
    }
    text = json.dumps(document, ensure_ascii=False, indent=1)
    if not pages:
        return text + "\n"
    ordered = ",\n".join(pages[name] for name in sorted(pages, key=natural_key))
    return text.removesuffix("[]\n}") + "[\n" + ordered + "\n ]\n}\n"
