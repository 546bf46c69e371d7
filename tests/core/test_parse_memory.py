"""Parsed pages are freed as soon as they are let go, not at the cyclic collector's next pass; training holds one
parsed page at a time."""

from __future__ import annotations

import gc
import uuid
import weakref
from collections.abc import Iterator

import pytest

from recordlens.core.page.dom import Element, parse_html

PAGE = ("<html><body><nav><a href=/>home</a></nav><ul>" + "".join(f"<li><b>item {i}</b> <i>{i}</i></li>"
                                                                   for i in range(30)) + "</ul></body></html>")


@pytest.fixture
def no_cyclic_collector() -> Iterator[None]:
    was_enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def test_a_parsed_page_is_freed_when_let_go_without_the_cyclic_collector(no_cyclic_collector: None) -> None:
    marker = f"page-{uuid.uuid4()}"
    page = parse_html(PAGE.replace("<ul>", f"<ul id={marker}>"))
    gone = weakref.ref(page)
    assert _elements_marked(marker) == 1
    del page
    assert gone() is None and _elements_marked(marker) == 0


def _elements_marked(marker: str) -> int:
    """Live elements whose id is `marker` (the cyclic collector tracks every Element, even when it is off)."""
    return sum(1 for o in gc.get_objects() if isinstance(o, Element) and o.attrs.get("id") == marker)


def test_parents_are_kept_while_the_page_is_held(no_cyclic_collector: None) -> None:
    page = parse_html(PAGE)
    item = page.by_xpath["/body[1]/ul[1]/li[30]/i[1]"]
    gc.collect()  # nothing of a held page is garbage
    assert [e.tag for e in _ancestors(item)] == ["i", "li", "ul", "body", "html"]
    assert page.root.parent is None


def test_an_element_kept_after_its_page_keeps_its_subtree_without_parents(no_cyclic_collector: None) -> None:
    """The page unties its tree as it is freed: what outlives it keeps its children and texts, not its parents."""
    page = parse_html(PAGE)
    item = page.by_xpath["/body[1]/ul[1]/li[2]"]
    del page
    assert item.parent is None
    assert item.text() == "item 1 1" and [e.tag for e in item.element_children()] == ["b", "i"]
    assert item.element_children()[0].parent is None


def test_a_parent_set_by_hand_is_read_back() -> None:
    parent, child = Element("div", {}, None, "", 0, None), Element("span", {}, None, "", 1, None)
    child.parent = parent
    assert child.parent is parent
    child.parent = None
    assert child.parent is None


def _ancestors(element: Element) -> list[Element]:
    chain, node = [], element
    while node is not None:
        chain.append(node)
        node = node.parent
    return chain


class LivePages:
    """Wraps the parse of page files: how many pages parsed before were still alive as each one was parsed."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from recordlens.core.page import dataset

        self.parsed: list[weakref.ref] = []
        self.alive_at_each: list[int] = []
        real = dataset.parse_html

        def parse(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202 - parse_html's own
            self.alive_at_each.append(sum(ref() is not None for ref in self.parsed))
            page = real(*args, **kwargs)
            self.parsed.append(weakref.ref(page))
            return page

        monkeypatch.setattr(dataset, "parse_html", parse)


def test_train_on_a_project_holds_one_parsed_page_at_a_time(tmp_path, monkeypatch, quick_fits,
                                                           no_cyclic_collector: None) -> None:
    from recordlens.core.cli.command import main as cli_main
    from recordlens.core.store import import_paths, init_project
    from tests.core.catalogue_pages import write_dataset

    pages, _ = write_dataset(tmp_path / "data", [None] * 6, seed=1)  # type: ignore[list-item]
    with init_project(tmp_path / "p") as project:
        assert not import_paths(project, [pages.parent]).problems
    live = LivePages(monkeypatch)
    assert cli_main(["train", "--project", str(tmp_path / "p"), "--out", str(tmp_path / "m.json"), "-q"]) == 0
    assert len(live.alive_at_each) == 6 and max(live.alive_at_each) == 0


def test_train_on_datasets_gives_the_model_of_every_page_held(tmp_path, monkeypatch, quick_fits,
                                                             no_cyclic_collector: None) -> None:
    """The model is the one `prepare` of the parsed pages gives, byte for byte; at most the page before is alive
    while one is parsed (records.hygiene.dataset_labels holds it until then)."""
    from recordlens.core.cli.command import main as cli_main
    from recordlens.core.extract import training
    from tests.core.catalogue_pages import write_dataset

    first = write_dataset(tmp_path / "one", [None] * 5, seed=1)  # type: ignore[list-item]
    second = write_dataset(tmp_path / "two", [None] * 4, seed=2)  # type: ignore[list-item]
    held = [lp for pages, gt in (first, second) for lp in training.dataset_pages(pages, gt)]
    expected = training.fit(training.prepare(held), seed=4, description="9 labelled pages of one, two").to_json()
    del held
    live = LivePages(monkeypatch)
    out = tmp_path / "m.json"
    assert cli_main(["train", "--pages", str(first[0]), "--gt", str(first[1]), "--pages", str(second[0]), "--gt",
                     str(second[1]), "--seed", "4", "--out", str(out), "-q"]) == 0
    assert max(live.alive_at_each) == 0  # the page before is let go before the next is parsed
    assert out.read_text(encoding="utf-8") == expected
