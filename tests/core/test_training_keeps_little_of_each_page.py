"""What training keeps of each labelled page while it fits (the app's Learn, `train`): the page's feature matrix and
little beside it, none of its elements; and the same model as the whole examples of `prepare` give."""

from __future__ import annotations

import dataclasses
import gc
import sys
import types
from collections.abc import Iterable

import numpy as np
import pytest

from recordlens.core.extract.repeats import Region
from recordlens.core.extract.training import Example, LabelledPage, fit, for_training, prepare
from recordlens.core.page.dom import Element, Page, parse_html
from tests.core.catalogue_pages import SMALL, labelled_pages

# Beside its truth (the labels, expanded to texts), what a page's example may hold, in multiples of its feature
# matrix's bytes: its targets and the second stage's layout of its candidates come to about one more. Its regions'
# copies held 15 times the matrix, and freeing them took seconds at a thousand pages.
KEPT_PER_FEATURE_BYTE = 3


def reachable(roots: Iterable[object], leaving_out: Iterable[object] = ()) -> list[object]:
    """Every object reachable from `roots` (classes, modules and functions not followed), but those reachable only
    through `leaving_out`."""
    seen = {id(o) for o in leaving_out}
    found: list[object] = []
    stack = list(roots)
    while stack:
        o = stack.pop()
        if id(o) in seen or isinstance(o, type | types.ModuleType | types.FunctionType):
            continue
        seen.add(id(o))
        found.append(o)
        if not isinstance(o, np.ndarray):  # an array's bytes are its own (getsizeof counts them)
            stack.extend(gc.get_referents(o))
    return found


def kept_beside_truth(example: Example) -> list[object]:
    return reachable([example], leaving_out=[example.truth])


@pytest.fixture(scope="module")
def pages():
    return labelled_pages(1, 12, with_secondary=True)


def listing_page(lists: int, items: int) -> LabelledPage:
    """A page of `lists` lists of `items` items each (a link, a count, a line of text), its first list labelled."""
    sections = "".join(
        f"<section><h2>List {s}</h2><ul>" + "".join(
            f"<li><a href='/{s}/{i}'>Item {s}.{i}</a><span>{i * 3} left</span><p>About item {i} of list {s}</p></li>"
            for i in range(items)) + "</ul></section>" for s in range(lists))
    truth = [[f"/body[1]/main[1]/section[1]/ul[1]/li[{i + 1}]"] for i in range(items)]
    return LabelledPage("listing", parse_html(f"<html><body><main>{sections}</main></body></html>"), truth)


def test_a_page_kept_for_training_holds_no_element_and_little_beside_its_features(pages) -> None:
    kept = [p.example for p in for_training([listing_page(20, 20), *pages])]
    for example in kept:
        held = kept_beside_truth(example)
        assert not [o for o in held if isinstance(o, Element | Page)], example.name
        assert not [o for o in held if isinstance(o, Region) and o.records], example.name
    # On a page of many candidates (the made catalogue pages have a few: there an example's own fields weigh more
    # than its matrix), what is kept grows with its candidates as their matrix does.
    listing = kept[0]
    size = sum(sys.getsizeof(o) for o in kept_beside_truth(listing))
    assert len(listing.features) >= 20 and listing.targets.max() == 1.0
    assert size <= KEPT_PER_FEATURE_BYTE * listing.features.nbytes, (size, listing.features.nbytes)


def test_the_pages_kept_for_training_fit_the_model_the_whole_examples_fit(pages, quick_fits: None) -> None:
    whole = prepare(pages)
    kept = [p.example for p in for_training(pages)]
    # both stages and both kinds of target; then weighted by what a wrong call costs (which reads the regions'
    # sizes); then one stage
    for config in (SMALL, dataclasses.replace(SMALL, page_weighting="impact"), dataclasses.replace(SMALL, stages=1)):
        model = fit(whole, seed=3, config=config, workers=1)
        assert fit(kept, seed=3, config=config, workers=1).to_json() == model.to_json()
    assert model.stages == 1 and fit(whole, seed=3, config=SMALL, workers=1).stages == 2
