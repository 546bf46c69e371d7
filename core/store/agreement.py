"""Agreement between two label sets of a project (`recordlens agreement --project P --between A B`).

A name is, in this order: an annotator's imported label set (`project.annotators`); `project`, the project's
own labels on the pages marked labelled or reviewed; or a person who labelled in the app (the app's annotator
setting), which means that person's own labels on the labelled or reviewed pages they worked on: the records they
accepted, changed or made, as the pages' histories rebuild them (`own_labels`). `person:NAME` names that person
whatever the imported sets are called: a person who shares an imported annotator's name is said so, never silently
taken for them (nor they for the person).

What a person did by adjudication (a record of another annotator taken into the project's labels with T, or
merged, or deleted in favour of theirs: the history entry names that annotator) is not their labelling: the
record taken is the other annotator's, and the decision is the project's labels, which `project` compares. So
a person who only adjudicated labelled no page of their own, a record an adjudicator took is not the labeller's
of the page, a record the labeller accepted and an adjudicator deleted since still is, and the records taken from
`bea` are not the app person bea's (nor is bea a person of the app for them: `persons`). Where adjudication (or
another person) changed a person's labels since, the output says on which pages; where no one did, their labels
are the project's own there, and comparing `project` with that person, or two such persons, is refused: both
sides would agree with themselves on every page.

Names are compared as `import --annotator` compares them (`text_forms.read_alike`: one Unicode form, single
spaces): a name that is another spelling of exactly one imported annotator's is read as that annotator, said, even
when a person of the app goes by that spelling (`Zoe` and a combining mark where `Zoë` was imported): a name means
what it meant before that person labelled, and the person is `person:NAME`, as for a person who shares an imported
annotator's name exactly. A person whose name is, or reads alike, an imported annotator's is said wherever that
annotator's set is compared (`also_persons`).

Between an imported annotator and the project's labels (or a person's that are the project's), each disagreement
is open or settled in the app's review
(`Settled`): kept with O (the project's version), or merged with Shift+T, as the review lists it under "kept".
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..command_hints import hint_option, hint_path, hint_words
from ..page.dataset import natural_key
from ..page.dom import Page
from ..records.agreement import (
    DIFFERENT,
    ONLY_A,
    ONLY_B,
    Agreement,
    Disagreement,
    PageAgreement,
    agreement,
    compare_page,
)
from ..records.model import TextKeyIndex
from ..records.review import MATCH_THRESHOLD
from ..text_forms import read_alike, same_form, visible, written
from ..wording import counted
from .adjudication import KEPT, MERGED, Kept, adjudicated_with
from .comparison_cache import ComparisonCache, Sides
from .db import StoreError
from .label_sets import PERSON_PREFIX, PROJECT_SET, kept_set_asides, set_aside_by
from .project import Change, Label, Project, follow_change
from .schema import TRUE_LABEL_STATUSES
from .scoring import labelled_page_names

Progress = Callable[[Sequence[str]], Iterable[str]]


@dataclass(frozen=True)
class LabelSet:
    """The records of a label set, page by page, and what a reader should know of how its name was read."""

    name: str
    pages: dict[str, list[list[str]]]
    projects_own: bool = False  # the project's own labels (`project`, or a person's that no one changed since)
    note: str = ""
    annotator: str | None = None  # the imported annotator's set it is, by the name the project holds it under
    # A person's: the number each record of a page goes by in the app (`OwnPage.numbers`); `project`'s are read
    # from the page as it is compared (`app_numbers`), an annotator's are their places in their set
    numbers: dict[str, tuple[int, ...]] | None = None


def label_set(project: Project, name: str) -> dict[str, list[list[str]]]:
    """Page -> records of the label set `name` (see the module notes)."""
    return find_label_set(project, name).pages


def find_label_set(project: Project, name: str) -> LabelSet:
    """The label set `name` names (see the module notes), or why there is none."""
    if name.startswith(PERSON_PREFIX):
        return _person_set(project, name, name.removeprefix(PERSON_PREFIX))
    annotators = project.annotators.names()
    if name in annotators:
        return _annotator_set(project, name, _also_a_person(project, name))
    if name == PROJECT_SET:
        return LabelSet(name, {page: project.true_records(page) for page in labelled_page_names(project)},
                        projects_own=True)
    if len(alike := [n for n in annotators if read_alike(n, name)]) == 1:
        # typed in one Unicode form, imported in another (a shell cannot easily type the other), or with other
        # spaces: taken, and said (`import --annotator` refuses such a name as another spelling of a set's); before
        # a person of that spelling, who is `person:NAME` (see the module notes)
        read_as = (f"{written(name)} is read as the annotator {written(alike[0])}, the same name written "
                   f"{unlike(name, alike[0])}")
        return _annotator_set(project, alike[0], "; ".join(filter(None, [read_as, _also_a_person(project, alike[0])])))
    return _person_set(project, name, name)


def _annotator_set(project: Project, annotator: str, note: str) -> LabelSet:
    return LabelSet(annotator, project.annotators.all_records(annotator), note=note, annotator=annotator)


def person_pages(project: Project, person: str) -> dict[str, list[list[str]]]:
    """The person's own labels (`own_labels`) of each labelled or reviewed page they worked on."""
    return {page: [list(record) for record in own.records] for page, own in person_labels(project, person).items()}


def person_labels(project: Project, person: str) -> dict[str, OwnPage]:
    """`own_labels` of each page marked labelled or reviewed where the person decided records of their own."""
    acted = _acted_on(project, person)  # the history is read only for the pages the person worked on
    found = {}
    for page in labelled_page_names(project):
        if page in acted and (own := own_labels(project, page, person)) is not None:
            found[page] = own
    return found


def _acted_on(project: Project, person: str) -> set[str]:
    rows = project.db.execute(
        "SELECT DISTINCT p.name FROM label_history h JOIN provenances v ON v.id = h.actor_id "
        "JOIN pages p ON p.id = h.page_id WHERE v.kind = 'person' AND v.name = ?", (person,))
    return {row[0] for row in rows}


@dataclass(frozen=True)
class OwnPage:
    """A person's own labels of a page (`own_labels`): the true records as their own work left them, with the
    number each goes by in the app."""

    records: tuple[tuple[str, ...], ...]
    # In the page's Records tab; a record no longer in the project (deleted since) is numbered after the page's last
    numbers: tuple[int, ...]
    as_the_project: bool  # the records are the project's labels of the page, in their order
    gone: tuple[int, ...] = ()  # the numbers of those no longer in the project
    changed_by: tuple[str, ...] = ()  # who else changed the page's records ("'carol' (adjudicating with 'bob')")
    unsure: str = ""  # what the history cannot tell apart of the person's own work there ("": nothing)


def own_labels(project: Project, page: str, person: str) -> OwnPage | None:
    """The records `person` accepted, changed or made on the page, as the page's history rebuilds them: another
    person's labelling and every adjudication (the person's own too) are left out, so a record an adjudicator took
    from an annotator's set is not theirs, and one they accepted that someone deleted or rejected since still is.
    What no person did (an import's labels, proposals) is kept as it happened. None when the person decided no
    record of the page (accepted, changed, made, rejected or deleted one).

    A restore by the person (an undo, a redo, "Restore to here") puts their records back as their work had left
    them right after the entry restored to; another's restore is not theirs. Where the history does not account
    for the page's records, the person's are the project's labels, said (`unsure`)."""
    replay = _replay(project.history(page), person)
    if not replay.view.decided:
        return None
    labels = project.labels(page)
    truth = [label for label in labels if label.is_true]
    if _held(replay.whole) != _held({label.id: label for label in labels}):
        return OwnPage(tuple(label.xpaths for label in truth), app_numbers(project, page), True,
                       unsure=f"the history of page {visible(page)} does not account for all of its records (some "
                              f"older than it): the labels of {written(person)} there are the project's as they now "
                              "are")
    now = {label.id: (k + 1, label.created_at) for k, label in enumerate(labels)}
    mine = sorted((label for label in replay.view.records.values() if label.is_true),
                  key=lambda label: (label.position, label.id))
    numbers: list[int] = []
    gone: list[int] = []
    for label in mine:
        number, created = now.get(label.id, (None, None))
        if number is None or created != label.created_at:  # deleted since (its id may be another record's now)
            number = len(labels) + len(gone) + 1
            gone.append(number)
        numbers.append(number)
    records = tuple(label.xpaths for label in mine)
    same = records == tuple(label.xpaths for label in truth)
    whose = " and ".join(map(written, sorted(replay.unnoted)))
    unsure = (f"on page {visible(page)}, {written(person)} added records of {whose} before the history noted "
              "adjudications: those are left out of their labels, but their deletions and edits then cannot be told "
              "from their labelling" if replay.unnoted else "")
    return OwnPage(records, tuple(numbers), same, tuple(gone), () if same else tuple(replay.others), unsure)


@dataclass(frozen=True)
class _View:
    """A page's records as one person's own work left them (the changes of other persons left out), and the ids of
    those they decided last (accepted, changed, made, rejected or deleted)."""

    records: dict[int, Label]
    decided: frozenset[int]


_NOTHING = _View({}, frozenset())


@dataclass
class _Replay:
    """A page's history replayed for one person (`_replay`)."""

    view: _View = _NOTHING
    whole: dict[int, Label] = field(default_factory=dict)  # the page as every change left it
    others: dict[str, None] = field(default_factory=dict)  # who else changed its records, in order, once each
    unnoted: set[str] = field(default_factory=set)  # whose records the person took before adjudications were noted


def _replay(history: Sequence[Change], person: str) -> _Replay:
    restored_to = {change.detail.get("to") for change in history if change.action == "restore"}
    after: dict[object, _View] = {None: _NOTHING}  # the person's records right after the entries restored to
    replay = _Replay()
    for change in history:
        follow_change(replay.whole, change)
        annotator = adjudicated_with(change)
        own = change.actor.is_person and change.actor.name == person and annotator is None
        if change.action == "restore" and own:
            replay.view = after.get(change.detail.get("to"), _NOTHING)
        elif change.actor.is_person and not own:
            if change.before or change.after:  # a keep, or a page's status, changes no record
                replay.others[_who(change, annotator)] = None
        elif change.action != "restore":  # the person's own, or no person's: an import's labels, proposals
            replay.view = _followed(replay.view, change, own, replay.unnoted)
        if change.id in restored_to:
            after[change.id] = replay.view
    return replay


def _followed(view: _View, change: Change, own: bool, unnoted: set[str]) -> _View:
    """The person's view as a change of theirs (`own`), or no person's, leaves it."""
    before = {label.id: label for label in change.before}
    still = {label.id for label in change.after}
    records = dict(view.records)
    decided = set(view.decided)
    for label in change.before:
        if label.id not in still:
            records.pop(label.id, None)
            (decided.add if own else decided.discard)(label.id)
    for label in change.after:
        was = before.get(label.id)
        if was is not None and _what(was) == _what(label):  # only moved down by an insertion aside
            if label.id in records:
                records[label.id] = replace(records[label.id], position=label.position)
            continue
        if own and _unnoted_take(change, was, label):
            unnoted.add(label.origin.name)  # a take (T) of a time when the history did not say so: not theirs
            continue
        records[label.id] = label
        (decided.add if own else decided.discard)(label.id)
    return _View(records, frozenset(decided))


def _unnoted_take(change: Change, was: Label | None, label: Label) -> bool:
    """Whether a record the person put on the page is another person's, added as it was: only an "add" can be a
    take; a split's pieces and a merge's record keep the origin of the record they came from, yet are the
    person's own work."""
    return (change.action == "add" and was is None and label.origin.is_person
            and label.origin.name != change.actor.name)


def _who(change: Change, annotator: str | None) -> str:
    return written(change.actor.name) + (f" (adjudicating with {written(annotator)})" if annotator else "")


def _what(label: Label) -> tuple[object, ...]:
    return label.xpaths, label.status, label.changed_by


def _held(records: dict[int, Label]) -> dict[int, tuple[object, ...]]:
    return {record: (label.xpaths, label.status, label.created_at) for record, label in records.items()}


def _person_set(project: Project, name: str, person: str) -> LabelSet:
    own = person_labels(project, person)
    if own:
        return LabelSet(name, {page: [list(record) for record in labels.records] for page, labels in own.items()},
                        projects_own=all(labels.as_the_project for labels in own.values()),
                        note=_own_note(person, own), numbers={page: labels.numbers for page, labels in own.items()})
    if person in persons(project):
        if _only_adjudicated(project, person):
            raise StoreError(f"{person!r} adjudicated (took other annotators' records into the project's labels) but "
                             "labelled no page marked labelled or reviewed of their own: those decisions are the "
                             f"project's labels, compared as `{PROJECT_SET}` (as in `--between {PROJECT_SET} NAME`)")
        # a person of the project, whose pages are not marked labelled yet
        raise StoreError(f"{person!r} is a person of the project, with no accepted or changed record on a page "
                         "marked labelled or reviewed: only those are compared (L marks a page labelled)")
    known = known_sets(project)
    raise StoreError(f"no labels by {written(name)} in the project; {_taken_from(project, person)}"
                     f"{_another_form(name, known)}known: {', '.join(map(visible, known))}")


def _own_note(person: str, own: dict[str, OwnPage]) -> str:
    """What a reader of a person's figures is told of how their labels were rebuilt (nothing when they are the
    project's labels of every page, as the person left them)."""
    differ = [page for page, labels in own.items() if not labels.as_the_project]
    notes = []
    if differ:
        who = list(dict.fromkeys(name for page in differ for name in own[page].changed_by))
        notes.append(f"the labels of {written(person)} are the records they accepted, changed or made in the app, as "
                     f"the history keeps them: the project's labels differ on {counted(len(differ), 'page')} "
                     f"({', '.join(map(visible, differ))}), changed since by {', '.join(who) or 'others'}; "
                     f"`{PROJECT_SET}` names the project's labels as they now are, with the review's decisions")
    gone = [f"page {visible(page)}: {'record' if len(labels.gone) == 1 else 'records'} "
            f"{', '.join(map(str, labels.gone))}" for page, labels in own.items() if labels.gone]
    if gone:
        notes.append(f"their records no longer in the project (deleted since) are numbered after the page's records "
                     f"in the app: {'; '.join(gone)}")
    return "; ".join([*notes, *(labels.unsure for labels in own.values() if labels.unsure)])


def _taken_from(project: Project, name: str) -> str:
    """What the project holds of `name` that is no one's labelling in the app: records taken from an annotator's
    set of that name by adjudication (their origin names them), said with where their set went ("" for none)."""
    taken = project.adjudication.taken_from(name)
    if not taken:
        return ""
    pages = sorted(taken, key=natural_key)
    said = (f"{written(name)} names no person who labelled in the app: the project's labels hold "
            f"{counted(sum(taken.values()), 'record')} taken from the label set of an annotator {written(name)} by "
            f"adjudication ({'page' if len(pages) == 1 else 'pages'} {', '.join(map(visible, pages))}), compared as "
            f"`{PROJECT_SET}`")
    if name in project.annotators.names():
        return said + "; "
    folders = [folder for folder in kept_set_asides(Path(project.root)) if set_aside_by(folder) == name]
    where = (f" (their labels removed earlier are kept in {hint_path(folders[-1])}: `recordlens import "
             f"{hint_path(folders[-1])} {hint_option('--project', project.root)} {hint_option('--annotator', name)}` "
             "puts them back)" if folders else "")
    return f"{said}; that label set is no longer in the project{where}; "


def _another_form(name: str, known: list[str]) -> str:
    """A set whose name is another spelling of `name` (typed `Zoë`, imported as `Zoe` and a combining mark; other
    spaces), which the list of names would show alike: said, as `import --annotator` says it (names are taken
    exactly)."""
    alike = [n for n in known if read_alike(n, name)]
    return (f"{written(alike[0])} is the same name written {unlike(name, alike[0])}: give it as the project "
            "holds it; " if alike else "")


def unlike(name: str, alike: str) -> str:
    """How two names that read alike differ, in a few words ("in another Unicode form")."""
    return "in another Unicode form" if same_form(name, alike) else "with other spaces or character forms"


def known_sets(project: Project) -> list[str]:
    """The names `agreement` takes: imported annotators, `project`, and the persons who labelled pages of their
    own in the app (`person:NAME` for one who shares an imported annotator's name, or another spelling of it)."""
    annotators = project.annotators.names()
    people = [f"{PERSON_PREFIX}{p}" if p == PROJECT_SET or any(p == a or read_alike(p, a) for a in annotators) else p
              for p in persons(project) if person_pages(project, p)]
    return list(dict.fromkeys([*annotators, PROJECT_SET, *people]))


def also_persons(project: Project, annotator: str) -> dict[str, int]:
    """The persons who labelled pages in the app (person -> how many) under the imported annotator's name, or
    another spelling of it (`read_alike`): the bare name means the annotator's set, the person is `person:NAME`."""
    found = {}
    for person in persons(project):
        if person == annotator or read_alike(person, annotator):
            pages = person_pages(project, person)
            if pages:  # only the records taken from their set carry their name: nothing to tell apart
                found[person] = len(pages)
    return found


def _also_a_person(project: Project, annotator: str) -> str:
    """What a reader of the annotator's figures is told of the persons under their name (`also_persons`)."""
    return "; ".join(_person_note(annotator, person, pages)
                     for person, pages in also_persons(project, annotator).items())


def _person_note(annotator: str, person: str, pages: int) -> str:
    labelled = f"a person who labelled in the app ({counted(pages, 'page')})"
    if person == annotator:
        return (f"{written(annotator)} is an imported annotator and also {labelled}: compared here is the imported "
                f"label set; `{PERSON_PREFIX}{annotator}` names the person's labels")
    return (f"{written(person)}, {labelled}, is the name of the imported annotator {written(annotator)} written "
            f"{unlike(person, annotator)}: compared here is the imported label set; "
            f"`{hint_words([PERSON_PREFIX + person])}` names the person's labels")


def _only_adjudicated(project: Project, person: str) -> bool:
    return any(change.actor.is_person and change.actor.name == person and change.detail.get("adjudicated")
               for page in labelled_page_names(project) for change in project.history(page))


def persons(project: Project) -> list[str]:
    """The people who worked in the app (labelling, adjudicating: the history's persons who changed something), by
    name. Not a name only records' origins carry: a record taken from an annotator's set (T) has the annotator as
    its origin, and they never worked in the app (`Adjudication.taken_from`)."""
    rows = project.db.execute("SELECT DISTINCT v.name FROM label_history h JOIN provenances v ON v.id = h.actor_id "
                              "WHERE v.kind = 'person'")
    return sorted(row[0] for row in rows)


def project_agreement(project: Project, a: str, b: str, threshold: float = MATCH_THRESHOLD,
                      progress: Progress = lambda names: names) -> Agreement:
    """A's labels against B's on every page both labelled, by the structure-aware score."""
    return agreement_and_decisions(project, a, b, threshold, progress)[0]


def agreement_and_decisions(project: Project, a: str, b: str, threshold: float = MATCH_THRESHOLD,
                            progress: Progress = lambda names: names) -> tuple[Agreement, Settled]:
    """`project_agreement`, and which of its disagreements are settled in the app's review (`Settled`)."""
    if a == b:
        raise StoreError("agreement needs two different label sets")
    _check_threshold(threshold)
    first, second = find_label_set(project, a), find_label_set(project, b)
    if first.projects_own and second.projects_own:
        raise StoreError(f"{written(a)} and {written(b)} both name the project's own labels (a person's are the "
                         "project's labels on the pages they worked on, where no one changed them since), which agree "
                         "with themselves on every page: compare one of them with an imported annotator "
                         "(`recordlens annotators --project P` lists them)")
    if first.annotator is not None and first.annotator == second.annotator:  # one set, in two spellings
        raise StoreError(f"{written(a)} and {written(b)} both name the annotator {written(first.annotator)}: "
                         "agreement needs two different label sets")
    result = _agreements(project, {a: first, b: second}, [(a, b)], threshold, progress)[0]
    return result, settled(project, first, second, result)


@dataclass(frozen=True)
class Settled:
    """Which disagreements of an imported annotator with the project's labels are settled in the app's review, as
    it lists them under "kept": `KEPT` (O: the project's version kept) or `MERGED` (Shift+T: merged into the
    project's record), per page in the order of `PageAgreement.disagreements`; None for an open one. Other pairs
    (two annotators) have no decisions: every disagreement is open."""

    pages: dict[str, tuple[str | None, ...]]

    def of(self, page: PageAgreement) -> tuple[str | None, ...]:
        return self.pages.get(page.page) or (None,) * len(page.disagreements)

    def open(self, page: PageAgreement) -> int:
        return sum(1 for how in self.of(page) if how is None)


NONE_SETTLED = Settled({})  # every disagreement open


def settled(project: Project, first: LabelSet, second: LabelSet, result: Agreement) -> Settled:
    """How each disagreement of `result` (A's `first` against B's `second`) was settled (`Settled`)."""
    if first.annotator is not None and second.projects_own:
        annotator, theirs = first.annotator, "A"
    elif second.annotator is not None and first.projects_own:
        annotator, theirs = second.annotator, "B"
    else:
        return NONE_SETTLED
    found = {}
    for page in result.pages:
        if not page.disagreements:
            continue
        kept = {decision: decision for decision in project.adjudication.kept(page.page, annotator)}
        found[page.page] = tuple(_settled_as(kept.get(_decision(d, annotator, theirs))) for d in page.disagreements)
    return Settled(found)


def _decision(d: Disagreement, annotator: str, theirs: str) -> Kept:
    """The decision that keeps the project's version of a disagreement, as the app names it (`disagreement`: their
    record and the project's, None for the side without one), whichever side of the agreement is theirs."""
    a = tuple(d.a) if d.kind in (ONLY_A, DIFFERENT) else None
    b = tuple(d.b) if d.kind in (ONLY_B, DIFFERENT) else None
    return Kept(annotator, a, b) if theirs == "A" else Kept(annotator, b, a)


def _settled_as(decision: Kept | None) -> str | None:
    if decision is None:
        return None
    return MERGED if decision.merged else KEPT


def every_pair_agreement(project: Project, names: Sequence[str], threshold: float = MATCH_THRESHOLD,
                         progress: Progress = lambda names: names) -> list[Agreement]:
    """`project_agreement` of every pair of these label sets (but two that are both the project's own), each page
    parsed once for all the pairs that labelled it."""
    _check_threshold(threshold)
    sets = {name: find_label_set(project, name) for name in names}
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1:]
             if not (sets[a].projects_own and sets[b].projects_own)]
    return _agreements(project, sets, pairs, threshold, progress)


def classed_only_theirs(project: Project, annotator: str, pages: Sequence[str],
                        progress: Progress = lambda names: names) -> list[PageAgreement]:
    """The annotator's records of each of `pages` (those only they labelled: the project has not marked them
    labelled) classed against the project's true records there, as the app's review shows such a page: not
    compared, so in no mean, only the review (no holdings, the records by their places). Remembered as the
    comparisons are (`comparison_cache`), apart from them."""
    found = []
    with ComparisonCache(project) as cache:
        for page in progress(pages):
            sides = Sides((f"annotator:{annotator}", PROJECT_SET, "not marked labelled"),
                          project.annotators.records(annotator, page) or [], project.true_records(page), (), (),
                          MATCH_THRESHOLD)
            found.append(PageAgreement(page, cache.compared(page, [sides], _compare)[0].review))
    return found


def app_numbers(project: Project, page: str) -> tuple[int, ...]:
    """The number each of the page's true records (the project's own label set there, in its order) goes by in
    the app: its place among all the page's records in the Records tab, which lists the rejected and proposed ones
    too; so that the agreement's "B5" is the app's record 5."""
    # the statuses alone, in the Records tab's order (`Project.labels`): read for every page compared
    statuses = project.db.execute("SELECT status FROM records WHERE page_id = ? ORDER BY position, id",
                                  (project.page_id(page),))
    return tuple(k + 1 for k, (status,) in enumerate(statuses) if status in TRUE_LABEL_STATUSES)


def _numbers(label_set: LabelSet, page: str, app: tuple[int, ...]) -> tuple[int, ...]:
    """The numbers the records of a set's page go by (`LabelSet.numbers`; `app`: the project's labels')."""
    if label_set.numbers is not None:
        return label_set.numbers.get(page, ())
    return app if label_set.projects_own else ()


def _check_threshold(threshold: float) -> None:
    """Before any label set is looked for: a threshold out of range is said whatever the names."""
    if not 0 < threshold <= 1:  # an overlap is a share: above 1 no two records could ever be the same one
        raise StoreError(f"the threshold is an overlap, above 0 and at most 1 (got {threshold:g})")


def _compare(parsed: Page, wanted: Sequence[Sides]) -> list[PageAgreement]:
    """A page's comparisons of label sets' records, from its parsed copy (`ComparisonCache.compared`): its text
    keys made once for all of them."""
    keys = TextKeyIndex(parsed.text_map)
    made = []
    for sides in wanted:
        dead = {x for records in (sides.a, sides.b) for record in records for x in record
                if parsed.resolve(x) is None}  # marked in the list, as the app marks them
        made.append(compare_page(sides.a, sides.b, keys, parsed.name, sides.threshold, dead, sides.a_numbers,
                                 sides.b_numbers))
    return made


def _set_key(label_set: LabelSet) -> str:
    """What names a label set's comparisons in the cache (the digest holds what they are made of)."""
    return f"annotator:{label_set.annotator}" if label_set.annotator is not None else label_set.name


def _agreements(project: Project, sets: dict[str, LabelSet], pairs: Sequence[tuple[str, str]], threshold: float,
                progress: Progress) -> list[Agreement]:
    compared: dict[tuple[str, str], list[PageAgreement]] = {pair: [] for pair in pairs}
    wanted = {page for a, b in pairs for page in sets[a].pages.keys() & sets[b].pages.keys()}
    # Remembered per page and pair, by what each comparison is made of: only the pages where that changed are
    # parsed and compared again (`comparison_cache`)
    with ComparisonCache(project) as cache:
        for page in progress(sorted(wanted, key=natural_key)):
            numbers = app_numbers(project, page) if any(s.projects_own and s.numbers is None for s in sets.values()) \
                else ()
            here = [(a, b) for a, b in pairs if page in sets[a].pages and page in sets[b].pages]
            sides = [Sides((_set_key(sets[a]), _set_key(sets[b])), sets[a].pages[page], sets[b].pages[page],
                           _numbers(sets[a], page, numbers), _numbers(sets[b], page, numbers), threshold)
                     for a, b in here]
            for pair, found in zip(here, cache.compared(page, sides, _compare), strict=True):
                compared[pair].append(found)
    return [agreement(a, b, compared[(a, b)],
                      sorted(sets[a].pages.keys() - sets[b].pages.keys(), key=natural_key),
                      sorted(sets[b].pages.keys() - sets[a].pages.keys(), key=natural_key),
                      notes=[note for note in (sets[a].note, sets[b].note) if note], threshold=threshold)
            for a, b in pairs]
