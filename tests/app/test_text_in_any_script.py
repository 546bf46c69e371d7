"""Text in any form and script in the two lists: the record finder (/) and the page search (Ctrl+F) find what the
user types in a page saved in decomposed form (NFD), whatever its case and accents, by one folding; and a row
whose name or text reads right to left keeps its counts line left to right and is cut at its text's logical end.
"""

from __future__ import annotations

import unicodedata

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QListWidget, QStyleOptionViewItem

from recordlens.annotator.labelling.page_list import PageList, matches
from recordlens.annotator.labelling.record_panel import RecordPanel, RecordRow, found
from recordlens.core.store import PageInfo

pytestmark = pytest.mark.app

ALL = "all pages"


def nfd(text: str) -> str:
    return unicodedata.normalize("NFD", text)


def page(name: str, title: str = "", *, proposed: int = 0) -> PageInfo:
    return PageInfo(name=name, status="proposed" if proposed else "new", url=None, title=title, charset=None,
                    snapshot="0" * 64, suffix=".html", source=None, warnings=(), imported_at="", updated_at="",
                    proposed=proposed)


def row(number: int, texts: str, whole: str = "") -> RecordRow:
    return RecordRow(number, number, "#1f77b4", "proposed", texts, 1, 3, "mdr", False, whole=whole or texts)


# ---- search ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("typed", ["résumé", "RÉSUMÉ", "Hà Nội", "resume", "ha noi", "cafe"])
def test_the_record_finder_finds_typed_words_in_a_page_saved_decomposed(typed):
    record = row(1, nfd("Café résumé naïve · Tiếng Việt có dấu: Hà Nội"))
    assert found(record, typed, records=1)


def test_the_record_finder_folds_case_and_accents_as_a_browsers_find_does():
    assert found(row(1, "Straße"), "STRASSE") and found(row(1, "ñandú"), "nandu")
    assert found(row(1, nfd("İstanbul ıIiİ")), "istanbul")
    assert not found(row(1, "Café"), "tea")


def test_the_record_panel_lists_the_records_the_folded_words_find(qtbot):
    panel = RecordPanel()
    qtbot.addWidget(panel)
    panel.set_rows([row(1, nfd("Café résumé naïve")), row(2, nfd("Tiếng Việt: Hà Nội")), row(3, "Straße")], [])
    for typed, wanted in (("résumé", [1]), ("Hà Nội", [2]), ("STRASSE", [3]), ("e", [1, 2, 3])):
        panel.finder.setText(typed)
        assert panel.found_ids() == wanted, typed


@pytest.mark.parametrize(("typed", "name", "title"), [
    ("résumé", "1", nfd("Café résumé naïve")),
    ("RÉSUMÉ", "1", nfd("Café résumé naïve")),
    ("Hà Nội", "2", nfd("Tiếng Việt: Hà Nội")),
    ("STRASSE", "3", "Straße"),                   # .lower() left "straße" unfound
    ("nandu", nfd("ñandú 1"), ""),                # a page's name, saved decomposed (macOS)
    ("istanbul", "4", "İstanbul"),
])
def test_the_page_search_finds_titles_and_names_as_the_record_finder_does(typed, name, title):
    info = page(name, title)
    assert matches(info, ALL, typed)
    assert found(row(1, f"{name} {title}"), typed)  # one folding for both searches


def test_the_page_list_shows_the_pages_the_folded_search_finds(qtbot):
    page_list = PageList()
    qtbot.addWidget(page_list)
    page_list.set_pages([page("1", nfd("Café résumé")), page("2", "Straße"), page("3", "Tea")], None)
    page_list.search.setText("RÉSUMÉ")
    assert page_list.names() == ["1"]
    page_list.search.setText("strasse")
    assert page_list.names() == ["2"]


# ---- rows read in their own direction -------------------------------------------------------------------------

def ink_columns(image: QImage, rect: QRect) -> list[int]:
    """The x (from the row's left) of every column of `rect` holding a dark pixel: where the glyphs are across."""
    rect = rect.intersected(image.rect())
    return [x - rect.left() for x in range(rect.left(), rect.right() + 1)
            if any(QColor(image.pixel(x, y)).lightness() < 128 for y in range(rect.top(), rect.bottom() + 1))]


def lower_line(view: QListWidget, row_number: int) -> QRect:
    """The lower half of a row, less a few pixels under its middle (where the first line's descenders end)."""
    rect = view.visualItemRect(view.item(row_number))
    return QRect(rect.left(), rect.center().y() + 3, rect.width(), rect.bottom() - rect.center().y() - 3)


def test_a_right_to_left_page_name_leaves_its_counts_line_as_any_other(qtbot):
    page_list = PageList()
    qtbot.addWidget(page_list)
    page_list.resize(320, 300)
    # Rows 0 and 2 are painted alike (alternating colours); row 1 is between them.
    page_list.set_pages([page("latin", "Cards", proposed=4), page("x", "filler"),
                         page("שלום", "ספרים", proposed=4)], None)
    page_list.show()
    qtbot.waitExposed(page_list)
    image = page_list.list.viewport().grab().toImage()
    latin, hebrew = (ink_columns(image, lower_line(page_list.list, k)) for k in (0, 2))
    assert latin and hebrew == latin  # "      4 proposed" under both, not "4      proposed"


def test_a_right_to_left_record_leaves_its_size_line_as_any_other_and_is_cut_at_its_end(qtbot):
    panel = RecordPanel()
    qtbot.addWidget(panel)
    panel.resize(300, 300)
    arabic = "هاتف ذكي سامسونج · شاشة كبيرة وبطارية تدوم طويلاً · ١٬٢٠٠ ر.س · هاتف ذكي سامسونج · شاشة"
    panel.set_rows([row(1, "Camera"), row(2, "Lens"), row(3, "هاتف ذكي"), row(4, arabic)], [])
    panel.show()
    qtbot.waitExposed(panel)
    image = panel.list.viewport().grab().toImage()
    latin, right_to_left = (ink_columns(image, lower_line(panel.list, k)) for k in (0, 2))
    assert latin and right_to_left == latin  # "      1 el · 3 texts", not "1      el · 3 texts"
    # A text longer than the row is cut where it ends (its logical end), not shown from its middle on: the row is
    # no wider than the list, and what it shows begins with the record's first words (its title).
    assert panel.list.horizontalScrollBar().maximum() == 0
    delegate = panel.list.itemDelegate()
    option = QStyleOptionViewItem()
    option.initFrom(panel.list)
    option.rect = panel.list.visualItemRect(panel.list.item(3))
    first_line = delegate.shown_lines(option, panel.list.model().index(3, 0))[0]
    assert "هاتف ذكي سامسونج" in first_line and "…" in first_line and "شاشة\u2069" not in first_line


def test_rows_show_their_text_when_the_list_runs_right_to_left(qtbot):
    # An app in Arabic or Hebrew runs its lists right to left: each line was laid out a million pixels wide, and
    # aligned right in it, so the rows were drawn with no text at all.
    panel = RecordPanel()
    qtbot.addWidget(panel)
    panel.setLayoutDirection(Qt.LayoutDirection.RightToLeft)
    panel.resize(300, 300)
    panel.set_rows([row(1, "Camera"), row(2, "هاتف ذكي")], [])
    panel.show()
    qtbot.waitExposed(panel)
    image = panel.list.viewport().grab().toImage()
    dot = panel.list.iconSize().width()  # the record's colour: ink of its own, at the row's right end
    for number in (0, 1):
        whole = panel.list.visualItemRect(panel.list.item(number))
        text = [x for x in ink_columns(image, whole) if x < whole.width() - dot - 8]
        assert len(text) > 20 and max(text) > whole.width() / 2, (number, text)  # from the right, the leading side
        assert len(ink_columns(image, lower_line(panel.list, number))) > dot, number  # its size line too


def test_the_review_list_reads_a_right_to_left_record_in_its_own_direction_and_in_its_kinds_colour(qtbot):
    # The Review list drew its rows as one paragraph with Qt's own delegate: an Arabic record's text read in the
    # app's direction (its words' order turned around at every mark and number) and was cut at its visual end.
    from recordlens.annotator.labelling.review_panel import ReviewPanel
    from recordlens.annotator.qt.row_lines import isolated
    from recordlens.core.records import PageReview, PageScore, ReviewRecord

    arabic = "هاتف ذكي سامسونج · شاشة كبيرة وبطارية تدوم طويلاً · ١٬٢٠٠ ر.س · هاتف ذكي سامسونج · شاشة"
    score = PageScore(page="1", precision=0.0, recall=0.0, f1=0.0, predicted_records=1, true_records=1, matches=[],
                      hallucinated_records=0, empty_true_records=0)
    review = PageReview(score, (ReviewRecord("missed", ("/body[1]/div[1]",), None, 0, 0.0),
                                ReviewRecord("spurious", ("/body[1]/div[2]",), 0, None, 0.0)))
    panel = ReviewPanel()
    qtbot.addWidget(panel)
    panel.resize(320, 500)
    panel.show_page(review, texts=[arabic, "Camera"])
    panel.show()
    qtbot.waitExposed(panel)
    records = panel.records
    assert isolated(arabic) in records.item(0).text()
    option = QStyleOptionViewItem()
    option.initFrom(records)
    option.rect = records.visualItemRect(records.item(0))
    text_line = records.itemDelegate().shown_lines(option, records.model().index(0, 0))[1]
    assert "هاتف ذكي سامسونج" in text_line and "…" in text_line and "شاشة\u2069" not in text_line
    assert records.horizontalScrollBar().maximum() == 0  # cut to the row, not scrolled to
    # Each row is still drawn in its kind's colour (the "■" at its start: solid, the colour itself).
    image = records.viewport().grab().toImage()
    for row in (0, 1):
        rect = records.visualItemRect(records.item(row))
        drawn = {image.pixelColor(x, y).name() for x in range(rect.left(), rect.left() + 40)
                 for y in range(rect.top(), rect.bottom() + 1)}
        assert records.item(row).foreground().color().name() in drawn, row
