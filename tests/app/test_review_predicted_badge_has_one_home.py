"""The predicted record's badge, P<k>, was written out where a spurious record is labelled (`review_label`), where a
pair's predicted record is drawn apart from its true one (`overlay_records`) and in a pair's row ("T1 ↔ P1"): a
change to P numbering (as the T numbers follow the Records tab's) had to be made three times. One function
(`predicted_label`) now makes it for all three (reviewer's report 34, item 10)."""

from __future__ import annotations

import pytest

from recordlens.annotator.labelling import review_panel
from recordlens.annotator.labelling.review_panel import ReviewPanel, overlay_records, review_label
from recordlens.core.records import PageReview, PageScore, ReviewRecord

pytestmark = pytest.mark.app

SPURIOUS = ReviewRecord("spurious", ("/body[1]/div[9]",), 3, None, 0.0)
# A pair whose true record holds more than was predicted: drawn as two, the predicted one under its P badge
PARTIAL = ReviewRecord("partial", ("/body[1]/div[1]/h3[1]",), 1, 0, 0.3, true_xpaths=("/body[1]/div[1]",))


def _review() -> PageReview:
    score = PageScore(page="1", precision=0.0, recall=0.0, f1=0.0, predicted_records=2, true_records=1, matches=[],
                      hallucinated_records=0, empty_true_records=0)
    return PageReview(score, (PARTIAL, SPURIOUS))


def test_the_predicted_badge_is_p_and_its_place_among_the_predicted_records() -> None:
    assert review_panel.predicted_label(SPURIOUS) == "P4"
    assert review_label(SPURIOUS) == "P4"
    assert [drawn["label"] for drawn in overlay_records(_review())] == ["T1", "P2", "P4"]


def test_every_predicted_badge_is_made_in_one_place(qtbot, monkeypatch) -> None:
    monkeypatch.setattr(review_panel, "predicted_label", lambda record: f"#{record.predicted}")
    assert review_label(SPURIOUS) == "#3"
    assert [drawn["label"] for drawn in overlay_records(_review())] == ["T1", "#1", "#3"]
    panel = ReviewPanel()
    qtbot.addWidget(panel)
    panel.show_page(_review(), texts=["One", "Banner"])
    rows = [panel.records.item(i).text() for i in range(panel.records.count())]
    assert rows[0].startswith("■   T1 ↔ #1  partial") and rows[1].startswith("■   #3  spurious"), rows
