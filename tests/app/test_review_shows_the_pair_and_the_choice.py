"""What Review draws on the page and where it leaves it (verifier's report v34, findings 2, 3, 4 and 6):

- a pair (matched or partial) whose true record holds other elements than the predicted one is drawn as both: the
  true record outlined apart (dashed, unfilled) under its T badge, the predicted one under its P badge; a pair of
  the same extent stays one drawing under the T badge;
- the records of the rows chosen in the Review list are drawn selected, as labelling draws its selected record;
- a page on which the run made no mistake opens at its first record, not at its top with none in view;
- "Score this run against the labels" leaves the page where the reviewer had it.

On a page of four cards far down a tall page; the run predicts card 1 whole, card 2 as its headline alone
(partial: 1 of its 3 texts), card 3 whole, the page's banner (spurious), and misses card 4.
"""

from __future__ import annotations

import json

import pytest

from recordlens.core.store import Project
from tests.app.window_helpers import imported_project

pytestmark = pytest.mark.app

SPACER = '<div style="height: 2400px">Banner</div>'
CARDS = "".join(f'<div class="card"><h3>{title}</h3><p>{words}</p><span>by {who}</span></div>'
                for title, words, who in (("One", "alpha", "Ann"), ("Two", "beta", "Ben"), ("Three", "gamma", "Cy"),
                                          ("Four", "delta", "Di")))
PAGE = f"<!doctype html><html><body>{SPACER}<div>{CARDS}</div>{SPACER}</body></html>"
BANNER = "/body[1]/div[1]"
CARD = "/body[1]/div[2]/div[{}]"
HEADLINE_2 = CARD.format(2) + "/h3[1]"
TRUTH = [[CARD.format(k)] for k in range(1, 5)]


def run_of(project: Project, pages: dict[str, list[list[str]]]) -> int:
    run = project.runs.add("handmade")
    project.runs.add_predictions(run, pages)
    project.runs.finish(run)
    return run


@pytest.fixture
def project_dir(tmp_path):
    """Page 1 the run gets partly wrong; page 2 the same cards, which the run gets all right."""
    return imported_project(tmp_path, {"html/1.html": PAGE, "gt/1.json": json.dumps(TRUTH),
                                       "html/2.html": PAGE, "gt/2.json": json.dumps(TRUTH)})


def reviewed(window, pages: dict[str, list[list[str]]]) -> int:
    run = run_of(window.project, pages)
    window.start_review(run)
    window.page_view.wait_until_drawn()
    return run


def drawn(window) -> list[dict]:
    """The records as the page view last drew them: XPaths, label, selected (and a pair's true outline)."""
    return window.page_view._records


def box_styles(window) -> list[dict | None]:
    return json.loads(window.page_view.offline.run_js("__recordlens.overlay.boxStyles()"))


WRONG = {"1": [[CARD.format(1)], [HEADLINE_2], [CARD.format(3)], [BANNER]]}


def test_a_partial_pair_draws_its_true_record_apart_from_the_predicted_one(window):
    reviewed(window, WRONG)
    by_xpaths = {tuple(r["xpaths"]): r for r in drawn(window)}
    true, predicted = by_xpaths[(CARD.format(2),)], by_xpaths[(HEADLINE_2,)]
    assert (true["label"], predicted["label"]) == ("T2", "P2")
    assert true["colour"] == predicted["colour"]  # the class's colour (violet: partial), both
    # A pair of the same extent is one drawing, under the T badge its row is named by
    assert by_xpaths[(CARD.format(1),)]["label"] == "T1"
    assert [r["xpaths"] for r in drawn(window)].count([CARD.format(1)]) == 1
    # Both drawn on the page, each under its own badge: the true record's extent is no longer shown nowhere
    assert {"T2", "P2"} <= {s["label"] for s in box_styles(window) if s is not None}


def test_the_overlay_draws_a_true_outline_dashed(window):
    """overlay.js's own part of a pair's drawing: a record given `outline: "true"` is dashed, unfilled."""
    spec = {"records": [{"xpaths": [CARD.format(2)], "colour": "#7048e8", "label": "T2", "outline": "true"},
                        {"xpaths": [HEADLINE_2], "colour": "#7048e8", "label": "P2"}]}
    window.page_view.offline.run_js(f"__recordlens.overlay.show({json.dumps(json.dumps(spec))})")
    assert [s["border"] for s in box_styles(window)] == ["dashed", "solid"]


def test_the_row_chosen_in_the_list_is_drawn_selected(qtbot, window):
    reviewed(window, WRONG)
    assert not any(r["selected"] for r in drawn(window))
    rows = window.review_panel.records
    spurious = next(row for row in range(rows.count()) if "spurious" in rows.item(row).text())
    rows.setCurrentRow(spurious)
    qtbot.waitUntil(lambda: [r["xpaths"] for r in drawn(window) if r["selected"]] == [[BANNER]], timeout=5_000)
    window.page_view.wait_until_drawn()
    assert [s["label"] for s in box_styles(window) if s and s["selected"]] == ["P4"]

    # A pair chosen: both its records, the true one and the predicted one
    partial = next(row for row in range(rows.count()) if "partial" in rows.item(row).text())
    rows.setCurrentRow(partial)
    qtbot.waitUntil(lambda: sorted(r["label"] for r in drawn(window) if r["selected"]) == ["P2", "T2"],
                    timeout=5_000)


def test_a_page_the_run_got_all_right_opens_at_its_first_record(qtbot, window):
    reviewed(window, {**WRONG, "2": TRUTH})
    window.jump_to_page("2")
    assert window.page_view.wait_until_loaded(30_000)
    window.page_view.wait_until_drawn()
    assert window.review is not None and {r.kind for r in window.review.records} == {"matched"}
    qtbot.waitUntil(lambda: window.page_view.scroll_y > 1500, timeout=10_000)  # the cards, under the banner


def test_scoring_the_run_leaves_the_page_where_it_was(qtbot, window, monkeypatch):
    reviewed(window, WRONG)
    panel = window.review_panel
    assert panel.score_button.isVisible()
    window.page_view.scroll_to_y(4000)  # the reviewer scrolled down, past the cards
    qtbot.waitUntil(lambda: window.page_view.scroll_y == 4000, timeout=10_000)
    # The scrolls asked for, heard when asked: the page reporting where it went takes a round trip, and a wait
    # for that report cannot tell "none asked" from "not arrived yet".
    asked: list[tuple[str, object]] = []
    monkeypatch.setattr(window.page_view, "scroll_to", lambda xpath, *_, **__: asked.append(("scroll_to", xpath)))
    monkeypatch.setattr(window.page_view, "scroll_to_y", lambda y: asked.append(("scroll_to_y", y)))
    panel.score_button.click()
    qtbot.waitUntil(lambda: window.job is None and not panel.score_button.isVisible(), timeout=20_000)
    window.page_view.wait_until_drawn()
    assert asked == []
    assert window.page_view.scroll_y == 4000
