"""`history_numbers` on a long history: the page's order kept while it is replayed, not the page sorted again
after every change (a page of 10,000 records accepted one by one is 20,000 changes: half a minute of sorting
before Ctrl+H showed its history). Counted in comparisons of positions, not timed; and the numbers it gives are
those of a replay that sorts every state, on a random history through a real project."""

from __future__ import annotations

import random
from pathlib import Path

from recordlens.core.store.project import (
    Change,
    Label,
    Provenance,
    history_numbers,
    history_records,
    init_project,
)

PERSON = Provenance.person("ann")
EXTRACTOR = Provenance.extractor("mdr", "1", "flat")
PAGE = "<html><body><ul>" + "".join(f"<li>Item {k}</li>" for k in range(1, 41)) + "</ul></body></html>"


class Place(int):
    """A record's position that counts how often it is compared."""

    compared = 0

    def __lt__(self, other: object) -> bool:
        Place.compared += 1
        return int(self) < int(other)  # type: ignore[call-overload]

    def __eq__(self, other: object) -> bool:
        Place.compared += 1
        return int(self) == other

    __hash__ = int.__hash__


def _label(record: int, status: str) -> Label:
    return Label(record, Place(record), (f"/body[1]/ul[1]/li[{record}]",), status, EXTRACTOR, PERSON, (), (), "", "")


def test_a_long_history_is_numbered_without_sorting_the_page_per_change() -> None:
    records = 600
    added = Change(1, "1", "", EXTRACTOR, "add", (), tuple(_label(k, "proposed") for k in range(1, records + 1)))
    accepted = [Change(1 + k, "1", "", PERSON, "accept", (_label(k, "proposed"),), (_label(k, "accepted"),))
                for k in range(1, records + 1)]
    Place.compared = 0
    numbers = history_numbers([added, *accepted])
    assert numbers[-1] == {records: records}
    assert numbers[1] == {1: 1}
    # A bisection or two per change (about 75,000 comparisons here); sorting the page after each change is
    # about records² comparisons (over a million).
    assert Place.compared < 200 * records, f"{Place.compared} comparisons of positions"


def _numbers_by_sorting_every_state(history: list[Change]) -> list[dict[int, int]]:
    numbers: list[dict[int, int]] = []
    before: dict[int, int] = {}
    for change, records in zip(history, history_records(history), strict=True):
        after = {label.id: k + 1 for k, label in enumerate(records)}
        touched = {label.id: before[label.id] for label in change.before if label.id in before}
        touched.update((label.id, after[label.id]) for label in change.after if label.id in after)
        numbers.append(touched)
        before = after
    return numbers


def test_the_numbers_are_those_of_every_state_sorted(tmp_path: Path) -> None:
    from recordlens.core.store.importer import import_paths

    (tmp_path / "1.html").write_text(PAGE, encoding="utf-8")
    rnd = random.Random(7)
    with init_project(tmp_path / "project") as project:
        assert not import_paths(project, [tmp_path / "1.html"]).problems
        project.add_records("1", [[f"/body[1]/ul[1]/li[{k}]"] for k in range(1, 41)], EXTRACTOR)
        for k in range(150):
            ids = [label.id for label in project.labels("1")]
            draw = rnd.random()
            if draw < 0.3:
                project.accept(rnd.choice(ids), PERSON)
            elif draw < 0.4:
                project.delete(rnd.choice(ids), PERSON)
            elif draw < 0.6:
                project.add_record("1", [f"/body[1]/p[{k}]"], PERSON, before=rnd.choice(ids))
            elif draw < 0.7:  # one change of many records: the order is sorted again
                project.add_records("1", [[f"/body[1]/q[{k}-{j}]"] for j in range(70)], PERSON,
                                    before=[rnd.choice(ids)] * 70)
            elif draw < 0.8:
                project.merge(rnd.sample(ids, 2), PERSON)
            elif draw < 0.9:
                project.restore("1", rnd.choice(project.history("1")).id, PERSON)
            else:
                project.reject(rnd.choice(ids), PERSON)
        history = project.history("1")
        assert history_numbers(history) == _numbers_by_sorting_every_state(history)
