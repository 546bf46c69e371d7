"""A review pair whose true record holds other elements than the predicted one: the page view passes the true
record's outline on to the overlay, which draws it dashed and unfilled beside the predicted record's solid box
(verifier's report v34, finding 2)."""

from __future__ import annotations

import json

import pytest

from tests.app.window_helpers import imported_project

pytestmark = pytest.mark.app

CARDS = "".join(f"<div><h3>{t}</h3><p>{w}</p><span>by {a}</span></div>"
                for t, w, a in (("One", "alpha", "Ann"), ("Two", "beta", "Ben")))
PAGE = f"<!doctype html><html><body><div>{CARDS}</div></body></html>"
CARD = "/body[1]/div[1]/div[{}]"


@pytest.fixture
def project_dir(tmp_path):
    return imported_project(tmp_path, {"html/1.html": PAGE, "gt/1.json": json.dumps([[CARD.format(1)],
                                                                                        [CARD.format(2)]])})


def test_a_pairs_true_record_is_drawn_dashed(window):
    project = window.project
    run = project.runs.add("handmade")
    project.runs.add_predictions(run, {"1": [[CARD.format(1)], [CARD.format(2) + "/h3[1]"]]})
    project.runs.finish(run)
    window.start_review(run)
    window.page_view.wait_until_drawn()
    styles = {s["label"]: s["border"] for s in
              json.loads(window.page_view.offline.run_js("__recordlens.overlay.boxStyles()")) if s is not None}
    assert styles == {"T1": "solid", "T2": "dashed", "P2": "solid"}, styles
