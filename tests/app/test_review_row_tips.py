"""The Review tab's rows show a record's first words, cut ("…") to 60 characters and to the list's width. Only
matched and partial rows had a tip, and it held the same cut texts; missed, spurious and kept rows had none. Every
row's tip holds its record's whole text now (a pair's, both records'), wrapped, bounded to `TIP_CHARS`.

On the main window's project: page 1 the demo product grid (labelled, 16 cards), page 2 a plain list (new).
"""

from __future__ import annotations

import pytest

from recordlens.annotator.labelling.review_panel import DATA_ROLE
from recordlens.annotator.qt.row_lines import FIRST_STRONG_ISOLATE, LINE_SEPARATOR, POP_ISOLATE
from tests.app.review_helpers import choose, kinds, review_bea
from tests.app.window_helpers import key

pytestmark = pytest.mark.app

SIDEBAR = "/body[1]/div[1]/aside[1]"  # the filters: "Category Cookware (38) Knives (14) …"


def read(tip: str) -> str:
    """A tip as words: its lines' isolates dropped, its wrapped lines joined again."""
    return tip.replace(FIRST_STRONG_ISOLATE, "").replace(POP_ISOLATE, "").replace(LINE_SEPARATOR, " ")


def words(text: str) -> str:
    return " ".join(text.split())


def test_every_review_row_has_its_records_whole_text_as_its_tip(qtbot, window):
    project = window.project
    truth = project.true_records("1")
    # bea: cards 2 and 3 missed (the first then kept), the filters' sidebar spurious, the rest matched.
    project.annotators.set_page("bea", "1", [truth[0], *truth[3:], [SIDEBAR]])
    review_bea(qtbot, window)
    choose(window, "missed")  # card 2's
    key(window, "O")
    panel = window.review_panel
    panel.kept_toggle.setChecked(True)
    texts = window.page_texts()
    review = window.review
    tips: dict[str, str] = {}
    for row in range(panel.records.count()):
        item = panel.records.item(row)
        index = int(item.data(DATA_ROLE))
        record = review.records[index]
        kind = "kept" if index in panel.kept else record.kind
        tips.setdefault(kind, item.toolTip())
        whole = words(texts.whole(record.xpaths))
        assert len(whole) < 1_000  # within what a tip holds of a record (`TIP_CHARS`)
        if kind in ("matched", "partial"):
            assert read(item.toolTip()) == f"predicted: {whole}\ntrue: {words(texts.whole(record.true_xpaths))}"
        else:
            assert read(item.toolTip()) == (whole or "(no text)"), (kind, item.toolTip())
    assert set(tips) == {"matched", "missed", "spurious", "kept"}, kinds(window)
    assert read(tips["kept"]) == words(texts.whole(truth[1]))  # card 2's
    for kind in ("missed", "spurious"):  # longer than the row's cut text, whole, and wrapped
        tip = tips[kind]
        assert len(read(tip)) > 80 and "…" not in tip and LINE_SEPARATOR in tip, tip
        assert all(len(line) <= 82 for line in tip.split(LINE_SEPARATOR))
