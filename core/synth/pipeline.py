"""Synthetic datasets: labelled pages transformed in structure and content, with labels that follow the records.

For every input page and variant k, `synthesise_page` parses the page, marks each ground-truth element with a
temporary stamp attribute, applies a seeded choice of structural transformations (`synth_transforms`) and the
content changes (`synth_content`), and writes the page out. The output's ground truth is *measured*, not
predicted: the written HTML is parsed again by the core, each stamp is found there and gives its element's new
XPath. The stamps are then left out of the final HTML, which is parsed once more to check that its element tree
is the stamped one and that every output XPath resolves.

The same seed gives byte-identical files: every random choice comes from generators seeded by (seed, page,
variant), and the MHTML's Date header is fixed.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import shutil
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from selectolax.lexbor import LexborHTMLParser

from .. import atomic
from ..errors import DatasetError, RecordLensError
from ..output_paths import writable_folder
from ..page.bounds import bound_markup
from ..page.dataset import SYNTH_MANIFEST, find_page_file, natural_key, not_a_folder, record_files
from ..page.dom import Element, Page, parse_html
from ..page.formats import serialise
from ..page.mhtml_writer import write_mhtml
from ..page.snapshot import read_snapshot
from ..records.model import load_records, save_records
from .content import ContentChanger
from .transforms import TRANSFORMS, build_layout, new_element

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


class SynthError(RecordLensError):
    pass


@dataclass(frozen=True)
class SynthOptions:
    variants: int = 2
    seed: int = 0
    transforms: tuple[str, ...] = TRANSFORM_NAMES
    rate: float = 0.5  # the chance that each selected transformation is drawn for a variant
    content: bool = True
    formats: tuple[str, ...] = FORMATS

    def __post_init__(self) -> None:
        unknown = [t for t in self.transforms if t not in TRANSFORMS]
        if unknown:
            raise SynthError(f"unknown transformation(s) {', '.join(unknown)}; known: {', '.join(TRANSFORMS)}")
        if self.variants < 1:
            raise SynthError("--variants must be at least 1")
        if not 0.0 <= self.rate <= 1.0:
            raise SynthError("--rate must be between 0 and 1")
        bad = [f for f in self.formats if f not in FORMATS]
        if bad or not self.formats:
            raise SynthError(f"formats must be among {', '.join(FORMATS)}")


@dataclass
class Source:
    """One labelled input page."""

    name: str
    html: str
    records: list[list[str]]


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
    warnings: list[str] = field(default_factory=list)
    # the source page's identity as a model's provenance names it (`training.page_digest`): a model trained on
    # the source is scored in-sample-ish on its variants, and `score` can say so
    source_digest: str = ""

    def manifest_entry(self) -> dict[str, object]:
        entry = asdict(self)
        del entry["html"], entry["records"]
        entry["records_in"] = len(self.records) + len(self.dropped_records)
        entry["records_out"] = len(self.records)
        return entry


def variant_seed(seed: int, source: str, variant: int, purpose: str) -> int:
    """A 64-bit seed for one page, variant and purpose; stable across runs and machines (unlike hash())."""
    digest = hashlib.sha256(f"{seed}\0{source}\0{variant}\0{purpose}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def output_name(source: str, variant: int) -> str:
    return f"{source}_v{variant}"


# -- one page ------------------------------------------------------------------------------------------------


def synthesise_page(source: Source, variant: int, options: SynthOptions,
                    chosen: Sequence[str] | None = None) -> SynthPage:
    """Variant `variant` of a labelled page. `chosen` forces the transformations (else they are drawn)."""
    from ..extract.training import page_digest

    name = output_name(source.name, variant)
    page = parse_html(source.html)
    source_digest = page_digest(page, source.records)
    records, dropped_xpaths, dropped_records = _resolve(page, source.records)
    stamped = _stamp(records)
    layout = build_layout(page.root, records, protected=[STAMP])
    rng = random.Random(variant_seed(options.seed, source.name, variant, "structure"))
    names = list(chosen) if chosen is not None else _draw(options, rng)
    applied = []
    for transform in TRANSFORM_NAMES:
        if transform in names:
            change = TRANSFORMS[transform](layout, rng)
            applied.append({"name": transform, "count": change.count, "detail": change.detail})
    content = None
    if options.content:
        changer = ContentChanger(variant_seed(options.seed, source.name, variant, CONTENT))
        _change_content(page.root, changer)
        content = dict(sorted(changer.kinds.items()))
    _restore_head(page, source.html)
    located, final_page, final_html = _write_and_locate(page, stamped)
    out_records, warnings = _follow(records, stamped, located)
    result = SynthPage(name, source.name, variant, final_html, out_records, applied, content, dropped_xpaths,
                       dropped_records, [*page.warnings, *warnings],  # a cut nesting changes the output too
                       source_digest)
    _check(result, final_page)
    return result


def _draw(options: SynthOptions, rng: random.Random) -> list[str]:
    names = [t for t in options.transforms if rng.random() < options.rate]
    if not names and options.transforms:
        names = [rng.choice(options.transforms)]  # every variant changes the structure somehow
    return names


def _resolve(page: Page, records: Sequence[Sequence[str]]) -> tuple[list[list[Element]], list[str], list[int]]:
    """Each record's elements; XPaths that name nothing and records left empty are dropped and reported."""
    resolved: list[list[Element]] = []
    dropped_xpaths: list[str] = []
    dropped_records: list[int] = []
    for number, record in enumerate(records, start=1):
        elements = []
        for xpath in record:
            element = page.resolve(xpath)
            if element is None:
                dropped_xpaths.append(xpath)
            else:
                elements.append(element)
        if elements:
            resolved.append(elements)
        else:
            dropped_records.append(number)
    return resolved, dropped_xpaths, dropped_records


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


def _restore_head(page: Page, original: str) -> None:
    """The cleaned tree has no <style>: put the page's style sheets back into <head> (in their order), and
    declare UTF-8, the encoding the files are written in. Neither changes an XPath."""
    head = next((c for c in page.root.element_children() if c.tag == "head"), None)
    if head is None:
        return
    charset = next((c for c in head.element_children() if c.tag == "meta" and "charset" in c.attrs), None)
    if charset is None:
        charset = new_element("meta", {"charset": "utf-8"})
        charset.parent = head
        head.children.insert(0, charset)
    charset.attrs["charset"] = "utf-8"
    # bounded as every parse of the page is: lexbor's parse of hostile nesting takes minutes and gigabytes
    for style in LexborHTMLParser(bound_markup(original, [])).css("style"):
        if style.parent is not None and style.parent.tag in ("svg", "template"):
            continue
        element = new_element("style", {k: v for k, v in style.attributes.items() if k in ("media", "type")},
                              [style.text(deep=True)])
        element.parent = head
        head.children.append(element)


def _write_and_locate(page: Page, stamped: dict[int, tuple[str, Element]]) -> tuple[dict[str, str], Page, str]:
    """Serialise with the stamps, find each stamp's XPath in the parse of that text, then serialise without."""
    stamped_html = DOCTYPE + serialise(page.root)
    stamped_page = parse_html(stamped_html)
    located = {e.attrs[STAMP] or "": e.key for e in stamped_page.elements if STAMP in e.attrs}
    for _, element in stamped.values():
        element.attrs.pop(STAMP, None)
    final_html = DOCTYPE + serialise(page.root)
    final_page = parse_html(final_html)
    if final_page.element_xpaths() != stamped_page.element_xpaths():
        raise SynthError("removing the stamps changed the element tree (a bug in the synthesiser)")
    return located, final_page, final_html


def _follow(records: list[list[Element]], stamped: dict[int, tuple[str, Element]],
            located: dict[str, str]) -> tuple[list[list[str]], list[str]]:
    out: list[list[str]] = []
    warnings: list[str] = []
    for record in records:
        xpaths = []
        for element in record:
            value = stamped[id(element)][0]
            if value in located:
                xpaths.append(located[value])
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

    @property
    def count(self) -> int:
        return len(self.loaders)

    def read_all(self) -> list[Source]:
        return [load() for _, load in self.loaders]


def dataset_sources(pages_dir: str | Path, gt_dir: str | Path, names: Iterable[str] | None = None) -> Sources:
    """Every page with ground truth in a dataset (`--pages DIR --gt DIR`), or those named."""
    if not Path(pages_dir).is_dir():
        raise DatasetError(not_a_folder(Path(pages_dir), "pages", "N.html / N.mhtml"))
    truths = record_files(gt_dir)
    if names is not None:
        wanted = set(names)
        truths = {name: path for name, path in truths.items() if name in wanted}
    problems: list[str] = []
    loaders: list[tuple[str, Callable[[], Source]]] = []
    for name, truth in truths.items():
        page_file = find_page_file(pages_dir, name)
        if page_file is None:
            problems.append(f"page {name}: ground truth but no {name}.html or {name}.mhtml in {pages_dir}")
            continue

        def load(name: str = name, page_file: Path = page_file, truth: Path = truth) -> Source:
            return Source(name, read_snapshot(page_file).html, load_records(truth).records)

        loaders.append((name, load))
    if not loaders:
        raise DatasetError(f"no page with ground truth in {pages_dir} and {gt_dir}")
    return Sources(loaders, problems)


def project_sources(project_dir: str | Path) -> Sources:
    """Every page of a project that has true records (accepted or edited labels). The project is open only
    while its labels are read: each page's snapshot is read from its stored file when its turn comes."""
    from ..page.snapshot import read_snapshot
    from ..store.project import open_project

    loaders: list[tuple[str, Callable[[], Source]]] = []
    problems: list[str] = []
    with open_project(project_dir) as project:
        for info in project.pages():
            records = project.true_records(info.name)
            if not records:
                problems.append(f"page {info.name}: no accepted labels; left out")
                continue

            snapshot = project.snapshot_file(info.name)

            def load(name: str = info.name, records: list[list[str]] = records, snapshot: Path = snapshot) -> Source:
                return Source(name, read_snapshot(snapshot).html, records)

            loaders.append((info.name, load))
    if not loaders:
        raise DatasetError(f"no page with accepted labels in the project {project_dir}")
    return Sources(loaders, problems)


# -- a dataset -----------------------------------------------------------------------------------------------------


@dataclass
class SynthReport:
    out: Path
    pages: list[SynthPage]
    problems: list[str]
    seconds: float
    replaced: int = 0  # files of an earlier synthetic dataset in the folder, removed first

    @property
    def dropped_xpaths(self) -> int:
        return sum(len(p.dropped_xpaths) for p in self.pages)

    @property
    def pages_per_second(self) -> float:
        return len(self.pages) / self.seconds if self.seconds else 0.0


def synthesise_dataset(sources: Sources, out: str | Path, options: SynthOptions,
                       progress: Callable[[Sequence[str]], Iterable[str]] = lambda names: names) -> SynthReport:
    """Write OUT/html/N_vK.html, OUT/mhtml/N_vK.mhtml, OUT/gt/N_vK.json and the manifest OUT/synth.json."""
    target = Path(out)
    replaced = _prepare_output(target)
    # Written first, marked unfinished: a run stopped part way leaves a folder that says so, and that the same
    # command replaces, rather than pages that look like a whole dataset in a folder it then refuses.
    atomic.write_text(target / MANIFEST, _manifest(options, [], [], complete=False))
    started = time.perf_counter()
    written: list[SynthPage] = []
    problems = list(sources.problems)
    loaders = dict(sources.loaders)
    for name in progress(list(loaders)):
        # One unreadable page or one failed variant is reported and skipped; the rest of the dataset is made.
        try:
            source = loaders[name]()
        except RecordLensError as error:
            problems.append(f"page {name}: {error}; left out")
            continue
        for variant in range(1, options.variants + 1):
            try:
                result = synthesise_page(source, variant, options)
            except SynthError as error:
                problems.append(f"page {name} variant {variant}: {error}")
                continue
            _write_page(target, result, options)
            written.append(result)
    atomic.write_text(target / MANIFEST, _manifest(options, written, problems))
    return SynthReport(target, written, problems, time.perf_counter() - started, replaced)


_VARIANT_FILE = re.compile(r".+_v\d+\.(html|mhtml|json)")  # what `output_name` names, and only that
_UNFINISHED_WRITE = re.compile(r"\..+\.tmp")  # atomic's temporary beside the file it writes


def _prepare_output(target: Path) -> int:
    """An empty or new folder, or an earlier synthetic dataset (replaced whole, so no stale page remains); how
    many files of the earlier one were removed."""
    writable_folder(target, "a synthetic dataset")
    removed = 0
    if target.is_dir() and any(target.iterdir()):
        if not (target / MANIFEST).is_file():
            raise SynthError(f"{target} is not empty and holds no {MANIFEST}: refusing to write a dataset there")
        made = [p for sub in ("html", "mhtml", "gt") if (target / sub).is_dir() for p in (target / sub).rglob("*")]
        # Writes a stopped run left unfinished (atomic's hidden .NAME.*.tmp) are synth's own: they go too.
        foreign = sorted(p for p in made if not p.is_dir() and not _UNFINISHED_WRITE.fullmatch(p.name)
                         and not _VARIANT_FILE.fullmatch(p.name))
        if foreign:  # a file of the user's among the pages synth made: it would go with them
            raise SynthError(f"{foreign[0]} is not a page of the synthetic dataset in {target} (its files are named "
                             f"N_vK); move it{' and ' + str(len(foreign) - 1) + ' more' if len(foreign) > 1 else ''}, "
                             "or choose another --out")
        for sub in ("html", "mhtml", "gt"):
            removed += sum(1 for p in (target / sub).rglob("*") if not p.is_dir()) if (target / sub).is_dir() else 0
            shutil.rmtree(target / sub, ignore_errors=True)
    target.mkdir(parents=True, exist_ok=True)
    return removed


def _write_page(target: Path, result: SynthPage, options: SynthOptions) -> None:
    if "html" in options.formats:
        atomic.write_text(target / "html" / f"{result.name}.html", result.html)
    if "mhtml" in options.formats:
        (target / "mhtml").mkdir(parents=True, exist_ok=True)
        write_mhtml(target / "mhtml" / f"{result.name}.mhtml", result.html,
                    url=MHTML_URL.format(name=result.name), date=MHTML_DATE)
    save_records(target / "gt" / f"{result.name}.json", result.records)


def _manifest(options: SynthOptions, pages: list[SynthPage], problems: list[str], complete: bool = True) -> str:
    ordered = sorted(pages, key=lambda p: natural_key(p.name))
    document = {
        "generator": "recordlens synth",
        "complete": complete,  # false while the pages are being written (and after a run that was stopped)
        "options": {"variants": options.variants, "seed": options.seed, "transforms": list(options.transforms),
                    "rate": options.rate, "content": options.content, "formats": list(options.formats)},
        "problems": problems,
        "pages": [p.manifest_entry() for p in ordered],
    }
    return json.dumps(document, ensure_ascii=False, indent=1) + "\n"
