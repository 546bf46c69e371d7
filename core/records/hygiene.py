"""Label hygiene: what in a set of labelled pages makes their figures or their training signal unreliable.

Contract. `check_page(page, records)` reports, for one page's true records:
- `unresolved`: XPaths that name no element, or an element that holds no text (they expand to nothing);
- `empty`: records without any XPath (a record begun and never filled: only a prediction of nothing matches it);
- `twice`: pairs of records that cover the same text entries (a wrapper and its only child, or one record
  listed twice): scoring counts one of them as missed or spurious whatever an extractor does;
- `nested`: records whose text lies wholly inside another record's (a card and a field of it both labelled);
the *ceiling* the labels allow an extractor that proposes no record twice (the F1 of predicting each distinct true
record with text once, NEXT-EVAL's clean oracle; its matching lets a run that proposes a listed-twice record twice
score above it), and the page's *policy*: whether its labels include records in page chrome (inside `header`, `nav`,
`footer`, `aside` or a navigation role). `summarise`, over pages already checked, adds `policy_outliers`: the pages
whose policy differs from the majority of the set (a page labelled as holding no record has none). Nothing is
changed; the report only states what it found, in words with `CheckReport.findings` (a line per page with a problem)
and `CheckReport.summary`.

`recordlens labels check` (core/cli/labels.py) prints it for a dataset (`dataset_labels`) or a project;
`recordlens score --ceiling` prints the ceiling beside a run's F1, and `recordlens import` the report of the
labelled pages it imported (core/store/importer.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ..errors import DatasetError, RecordLensError
from ..page.dataset import find_page_file, load_page, not_a_folder, record_files
from ..page.dom import CHROME_TAGS, LANDMARK_ROLES, Page, within
from ..wording import counted, shown
from .model import TextKeyIndex, load_records
from .score import PageScore, score_expanded

# Bump when `check_page` finds something else in the same labels: checks a project remembers are then made anew.
CHECK_VERSION = 3  # 2: records without any XPath; 3: pages read as Chromium reads charsets and shadow roots


@dataclass
class PageCheck:
    page: str
    records: int
    unresolved: list[str] = field(default_factory=list)
    twice: list[tuple[int, int]] = field(default_factory=list)  # 1-based record numbers
    nested: list[tuple[int, int]] = field(default_factory=list)  # (inner, outer), 1-based
    chrome_records: int = 0
    ceiling: float = 1.0  # the F1 of predicting each distinct true record with text once (see the module's docstring)
    empty: list[int] = field(default_factory=list)  # 1-based numbers of records without any XPath

    @property
    def includes_chrome(self) -> bool:
        return self.chrome_records > 0

    @property
    def clean(self) -> bool:
        return not (self.unresolved or self.empty or self.twice or self.nested)

    @classmethod
    def from_dict(cls, data: dict) -> PageCheck:
        """The check `asdict` wrote (record pairs come back as tuples)."""
        return cls(str(data["page"]), int(data["records"]), [str(x) for x in data["unresolved"]],
                   [(int(a), int(b)) for a, b in data["twice"]], [(int(a), int(b)) for a, b in data["nested"]],
                   int(data["chrome_records"]), float(data["ceiling"]), [int(n) for n in data.get("empty", [])])


@dataclass
class CheckReport:
    pages: list[PageCheck]
    majority_includes_chrome: bool
    policy_outliers: list[str]
    # The pages that have a chrome policy (hold records) and made the majority: with none, there is no majority to
    # say (None: not counted, a report made otherwise)
    voters: int | None = None

    @property
    def ceiling(self) -> float:
        """The mean per-page F1 the labels allow (NEXT-EVAL's metric, each distinct true record with text once)."""
        return sum(p.ceiling for p in self.pages) / len(self.pages) if self.pages else 1.0

    @property
    def flagged(self) -> list[str]:
        """The pages with label problems (unresolved XPaths, records twice, nested records)."""
        return [p.page for p in self.pages if not p.clean]

    def as_dict(self) -> dict[str, object]:
        return {"pages": [asdict(p) | {"includes_chrome": p.includes_chrome} for p in self.pages],
                "majority_includes_chrome": self.majority_includes_chrome, "policy_outliers": self.policy_outliers,
                "ceiling": self.ceiling}

    def findings(self) -> list[str]:
        """A line per page with a label problem or a policy unlike the majority's: `page N: what was found`."""
        lines = []
        for c in self.pages:
            if c.clean and c.page not in self.policy_outliers:
                continue
            parts = []
            if c.unresolved:
                # "nothing" would read as no element; an element without text is as empty to the score
                parts.append(f"{len(c.unresolved)} XPath(s) name no element or one without text (first: "
                             f"{shown(c.unresolved[0])})")
            if c.empty:
                parts.append(f"{len(c.empty)} record(s) without any XPath (first: record {c.empty[0]})")
            if c.twice:
                parts.append(f"{len(c.twice)} pair(s) of records cover the same text (first: records {c.twice[0]})")
            if c.nested:
                parts.append(f"{len(c.nested)} record(s) inside another (first: record {c.nested[0][0]} in "
                             f"{c.nested[0][1]})")
            if c.page in self.policy_outliers:
                parts.append(("labels page chrome (navigation, header, footer, aside)" if c.includes_chrome
                              else "labels no page chrome") + ", unlike most pages")
            lines.append(f"page {c.page}: " + "; ".join(parts))
        return lines

    def summary(self) -> str:
        if not self.pages:
            return "no page checked"  # a mean over no page would read as perfect labels
        if self.voters == 0:  # every page labelled as holding no record: none has a policy, so none is the majority's
            policy = " (no page has a chrome policy: none holds records)"
        else:
            majority = "labels" if self.majority_includes_chrome else "does not label"
            policy = (f", {len(self.policy_outliers)} whose policy differs from the majority (majority {majority} "
                      "page chrome)")
        return (f"{counted(len(self.pages), 'page')}: {len(self.flagged)} with label problems{policy}; proposing "
                f"each distinct true record with text once scores a mean F1 of {self.ceiling:.4f}")


def check_page(name: str, page: Page, records: Sequence[Sequence[str]]) -> PageCheck:
    keys = TextKeyIndex(page.text_map)
    result = PageCheck(name, len(records))
    expanded: list[frozenset[str]] = []
    for number, record in enumerate(records, 1):
        if not record:
            result.empty.append(number)
        for xpath in record:
            # As the score reads it: an XPath that expands to some text names something, written as it may be
            # (a trailing "/", say, that no element lookup would accept).
            if not keys.expand([xpath]):
                result.unresolved.append(xpath)
        expanded.append(keys.expand(record))
        elements = [page.resolve(x) for x in record]
        if any(e is not None and within(e, CHROME_TAGS, LANDMARK_ROLES) for e in elements):
            result.chrome_records += 1
    result.ceiling = ceiling_score(expanded).f1
    # Records are compared through an index of their keys, so a page of hundreds of records stays fast.
    owners: dict[str, list[int]] = {}
    for i, keyset in enumerate(expanded):
        for key in keyset:
            owners.setdefault(key, []).append(i)
    for i, keyset in enumerate(expanded):
        if not keyset:
            continue
        shared: dict[int, int] = {}
        for key in keyset:
            for j in owners[key]:
                if j != i:
                    shared[j] = shared.get(j, 0) + 1
        for j, n in shared.items():
            if n == len(keyset) == len(expanded[j]) and i < j:
                result.twice.append((i + 1, j + 1))
            elif n == len(keyset) < len(expanded[j]):
                result.nested.append((i + 1, j + 1))
    return result


def ceiling_score(truth: Sequence[frozenset[str]], name: str = "") -> PageScore:
    """The score of predicting each distinct non-empty expanded true record once (NEXT-EVAL's "clean oracle"): the
    labels' ceiling for an extractor that proposes no record twice and no record without text. A true record that
    names nothing can be matched only by an empty prediction, which is a hallucination, so it lowers the ceiling."""
    return score_expanded([record for record in dict.fromkeys(truth) if record], truth, name)


def summarise(checks: Sequence[PageCheck], also: Sequence[PageCheck] = (), *, checks_vote: bool = True
              ) -> CheckReport:
    """The report of a set of pages already checked: the majority's chrome policy and the pages unlike it.
    `also`: other pages (a project's labelled pages beside the ones just imported) that count towards the
    majority but are not reported; with `checks_vote` False only they count (another annotator's pages weighed
    against the project's policy), unless none of them holds a record."""
    # A page labelled as holding no record has no chrome policy: it neither votes nor differs from the majority.
    # Left out before the fallback, so `also` made only of such pages is "none" and the checks vote after all.
    checks = list(checks)
    voting_checks, voting_also = [c for c in checks if c.records], [c for c in also if c.records]
    voters = voting_checks + voting_also if checks_vote or not voting_also else voting_also
    including = sum(c.includes_chrome for c in voters)
    majority = including * 2 > len(voters)
    outliers = [c.page for c in checks if c.records and c.includes_chrome != majority]
    return CheckReport(checks, majority, outliers, len(voters))


def dataset_labels(pages_dir: str | Path, gt_dir: str | Path, unreadable: list[str] | None = None, *,
                   skip: Callable[[str, RecordLensError], None] | None = None
                   ) -> Iterator[tuple[str, Page, list[list[str]]]]:
    """`(name, page, true records)` of every page of a dataset with ground truth and a page file, for
    `check_page`, in the ground truth's order. A page whose labels or page file cannot be read stops the walk
    with its error, unless `unreadable` is given: then the error is added to it and the walk goes on; or unless
    `skip` is: then it is told the page's name and the error, and the walk goes on (a label file without its
    page is passed over: training says those apart). A pages folder that is not there is refused as every
    command refuses it (not a missing page per label file)."""
    if not Path(pages_dir).is_dir():
        raise DatasetError(not_a_folder(Path(pages_dir), "pages", "N.html / N.mhtml"))
    for name, truth in record_files(gt_dir).items():
        page_file = find_page_file(pages_dir, name)
        if page_file is None:  # labels without their page: said, as score says it (it refuses them)
            if unreadable is not None:
                unreadable.append(f"page {name}: cannot be checked: {truth} has no page {name} in {pages_dir}")
            continue
        try:
            records = load_records(truth).records
            page = load_page(page_file, name).page
        except RecordLensError as error:
            if skip is not None:
                skip(name, error)
                continue
            if unreadable is None:
                raise
            unreadable.append(f"page {name}: cannot be checked: {error}")
            continue
        yield name, page, records
        del page  # not held while the next page is parsed
