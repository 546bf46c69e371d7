"""Agreement between two label sets of a project (`recordlens agreement --project P --between A B`).

A name is, in this order: an annotator's imported label set (`project.annotators`); `project`, the project's
own labels on the pages marked labelled or reviewed; or a person who made labels in the project (the app's
annotator setting), which means the project's own labels on the labelled or reviewed pages where that person
accepted, changed or made a record. Only the pages both sides labelled are compared.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from ..page.dataset import natural_key
from ..records.agreement import Agreement, agreement, compare_page
from ..records.model import TextKeyIndex
from ..records.review import MATCH_THRESHOLD
from .db import StoreError
from .label_sets import PROJECT_SET
from .project import Project
from .schema import TRUE_PAGE_STATUSES

Progress = Callable[[Sequence[str]], Iterable[str]]


def label_set(project: Project, name: str) -> dict[str, list[list[str]]]:
    """Page -> records of the label set `name` (see the module notes)."""
    if name in project.annotators.names():
        return project.annotators.all_records(name)
    labelled = [info.name for info in project.pages() if info.status in TRUE_PAGE_STATUSES]
    if name == PROJECT_SET:
        return {page: project.true_records(page) for page in labelled}
    mine: dict[str, list[list[str]]] = {}
    for page in labelled:
        labels = project.labels(page)
        if any(label.is_true and name in _people(label) for label in labels):
            mine[page] = [list(label.xpaths) for label in labels if label.is_true]
    if not mine:
        known = [*project.annotators.names(), PROJECT_SET, *_persons(project)]
        if name in known:  # a person of the project, whose pages are not marked labelled yet
            raise StoreError(f"{name!r} is a person of the project, with no accepted or changed record on a page "
                             "marked labelled or reviewed: only those are compared (L marks a page labelled)")
        raise StoreError(f"no labels by {name!r} in the project; known: {', '.join(dict.fromkeys(known))}")
    return mine


def _people(label) -> set[str]:  # noqa: ANN001 - a Label
    return {who.name for who in (label.origin, label.changed_by) if who is not None and who.is_person}


def _persons(project: Project) -> list[str]:
    return sorted({who.name for who in project.provenances().values() if who.is_person})


def project_agreement(project: Project, a: str, b: str, threshold: float = MATCH_THRESHOLD,
                      progress: Progress = lambda names: names) -> Agreement:
    """A's labels against B's on every page both labelled, by the structure-aware score."""
    if a == b:
        raise StoreError("agreement needs two different label sets")
    if not 0 < threshold <= 1:  # an overlap is a share: above 1 no two records could ever be the same one
        raise StoreError(f"the threshold is an overlap, above 0 and at most 1 (got {threshold:g})")
    first, second = label_set(project, a), label_set(project, b)
    both = sorted(first.keys() & second.keys(), key=natural_key)
    pages = []
    for page in progress(both):
        keys = TextKeyIndex(project.load(page).page.text_map)
        pages.append(compare_page(first[page], second[page], keys, page, threshold))
    return agreement(a, b, pages, sorted(first.keys() - second.keys(), key=natural_key),
                     sorted(second.keys() - first.keys(), key=natural_key))
