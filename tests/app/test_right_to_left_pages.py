"""Right-to-left and vertical pages in the main window (the pages the explorers made): the hover tip's XPath reads
left to right on an Arabic page and its text line in the page's own direction, from the tip's right; badges stay
off records' text on a wide right-to-left table (where a record's text starts at its top-right corner) and, on a
vertical page scrolled sideways, a record out of view shows no badge on its neighbour's text, not even with every
record selected; and the record finder finds what is typed in a page saved in decomposed form (NFD).

The pointer is moved for real over the view; what the overlay drew is read back from the page.
"""

from __future__ import annotations

import json
import unicodedata

import pytest
from PySide6.QtCore import QPoint
from PySide6.QtTest import QTest

from recordlens.annotator.labelling.main_window import MainWindow
from recordlens.annotator.qt.event_loop import spin
from recordlens.core.store.project import open_project
from tests.app.demo_project import MDR
from tests.app.page_helpers import js, text_line_boxes
from tests.app.window_helpers import imported_project, open_window

pytestmark = pytest.mark.app

ARABIC = [("هاتف ذكي سامسونج", "شاشة كبيرة وبطارية تدوم طويلاً", "١٬٢٠٠ ر.س"),
          ("حاسوب محمول", "معالج سريع وذاكرة ١٦ جيجابايت", "٣٬٥٠٠ ر.س"),
          ("سماعات لاسلكية", "صوت نقي وإلغاء الضوضاء", "٤٥٠ ر.س"),
          ("ساعة ذكية", "تتبع اللياقة البدنية والنوم", "٩٩٩ ر.س")]
ITEMS = "".join(f'<li class="item"><h3>{t}</h3><p>{d}</p><span>{p}</span></li>' for t, d, p in ARABIC)
CARDS = f"""<!DOCTYPE html><html lang="ar" dir="rtl"><head><meta charset="utf-8"><title>قائمة</title>
<style>body{{font-family:sans-serif}} .item{{border:1px solid #ccc;margin:6px;padding:6px}}</style></head>
<body><h1>منتجات</h1><ul class="list">{ITEMS}</ul></body></html>"""
CELLS = "".join(f'<td class="c"><b>{t}</b><p>{d}</p><i>{p}</i></td>' for t, d, p in ARABIC * 3)
WIDE_TABLE = f"""<!DOCTYPE html><html lang="ar" dir="rtl"><head><meta charset="utf-8"><title>جدول عريض</title>
<style>td.c{{border:1px solid #999;min-width:260px;padding:6px}}</style></head><body><h1>منتجات</h1><table><tr>
{CELLS}</tr></table></body></html>"""
COLUMNS = "".join(f'<div class="c"><h3>{k} 東京の天気</h3><p>今日は晴れのち曇り、最高気温二十五度</p>'
                  '<span>二〇二六年</span></div>' for k in range(1, 31))
VERTICAL = f"""<!DOCTYPE html><html lang="ja" style="writing-mode:vertical-rl"><head><meta charset="utf-8">
<title>縦書きページ</title><style>.c{{border:1px solid #999;margin:8px;padding:6px;height:300px}}</style></head>
<body><h1>縦書きの一覧</h1>{COLUMNS}</body></html>"""
DECOMPOSED = unicodedata.normalize("NFD", """<!DOCTYPE html><html lang="fr"><head><meta charset="utf-8">
<title>Café</title></head><body><ul><li><h3>Café résumé naïve</h3></li><li><h3>Zoë Ångström</h3></li>
<li><h3>Tiếng Việt có dấu: Hà Nội</h3></li></ul></body></html>""")

ITEM = "/body[1]/ul[1]/li[{}]"
CELL = "/body[1]/table[1]/tbody[1]/tr[1]/td[{}]"
COLUMN = "/body[1]/div[{}]"


@pytest.fixture(scope="module")
def window(qapp, tmp_path_factory):
    data = tmp_path_factory.mktemp("rtl")
    folder = imported_project(data, {"html/1.html": CARDS, "html/2.html": WIDE_TABLE, "html/3.html": VERTICAL,
                                     "html/4.html": DECOMPOSED})
    with open_project(folder) as project:
        project.add_records("1", [[ITEM.format(k)] for k in range(1, 5)], MDR)
        project.add_records("2", [[CELL.format(k)] for k in range(1, 13)], MDR)
        project.add_records("3", [[COLUMN.format(k)] for k in range(1, 31)], MDR)
        project.add_records("4", [[ITEM.format(k)] for k in range(1, 4)], MDR)
    win = open_window(folder, data / "settings.json", timeout_ms=60_000)
    yield win
    win.close()


def open_page(window: MainWindow, name: str) -> None:
    window.open_page(name)
    assert window.page_view.wait_until_loaded(60_000)
    window.page_view.wait_until_drawn(60_000)
    spin(200)


def crumb(window: MainWindow) -> str:
    label = window.breadcrumb
    return label.full_text() if hasattr(label, "full_text") else label.text()


def hover(qtbot, window: MainWindow, xpath: str) -> None:
    """Move the pointer for real onto the element's first line box (from outside it) and wait for the report."""
    view = window.page_view
    scrolled: list = []
    view.scroll_to(xpath, scrolled.append)  # the overlay answers once the element is scrolled into view
    qtbot.waitUntil(lambda: bool(scrolled), timeout=10_000)
    x, y = js(view, f"""(() => {{
        const r = __recordlens.resolve({json.dumps(xpath)}).getClientRects()[0];
        return [Math.round(r.left + r.width / 2), Math.round(r.top + r.height / 2)];
    }})()""")
    proxy = view.view.focusProxy()
    QTest.mouseMove(proxy, QPoint(x, max(1, y - 200)))
    spin(100)
    QTest.mouseMove(proxy, QPoint(x, y))
    # The overlay reports the hover once the tip holds the element's lines and has its place.
    qtbot.waitUntil(lambda: f"   {xpath}   " in crumb(window), timeout=10_000)


def test_the_hover_tip_reads_its_xpath_left_to_right_and_its_text_in_the_pages_direction(qtbot, window):
    open_page(window, "1")
    heading = f"{ITEM.format(2)}/h3[1]"
    hover(qtbot, window, heading)
    tip = json.loads(window.page_view.offline.run_js("__recordlens.overlay.hoverTip()"))
    assert tip["shown"]
    path, text = tip["lines"]
    assert path["text"] == heading
    first, last = path["ends"]
    assert first < last, path  # "/body[1]/…/h3[1]", not "body[1]/…/h3[1]/" (its leading slash at the end)
    assert text["text"] == "حاسوب محمول"
    first, last = text["ends"]
    assert first > last, text  # Arabic: its first letter at the right
    left, _top, width, _height = tip["rect"]
    assert first > left + width / 2, (text, tip["rect"])  # and the line starts at the tip's right, not flush left


def badges_and_texts(window: MainWindow) -> tuple[list, list, list]:
    """Every record's badge (None where not drawn), text line boxes and box, in document coordinates, the text
    and boxes measured here independently of the overlay."""
    view = window.page_view
    records = [list(label.xpaths) for label in window.labels]
    badges = json.loads(view.offline.run_js("__recordlens.overlay.badgeRects()"))
    texts = text_line_boxes(view, records)
    boxes = js(view, f"""{json.dumps(records)}.map((record) => {{
        const r = __recordlens.resolve(record[0]).getBoundingClientRect();
        return [r.left + scrollX, r.top + scrollY, r.width, r.height];
    }})""")
    return badges, texts, boxes


def overlap(a, b) -> bool:
    """Two boxes share more than half a pixel each way."""
    return (a[0] < b[0] + b[2] - 0.5 and b[0] < a[0] + a[2] - 0.5
            and a[1] < b[1] + b[3] - 0.5 and b[1] < a[1] + a[3] - 0.5)


def test_badges_on_a_wide_right_to_left_table_stay_off_every_records_text_and_box(window):
    open_page(window, "2")
    badges, texts, boxes = badges_and_texts(window)
    drawn = [(i, b["rect"]) for i, b in enumerate(badges) if b]
    assert len(drawn) >= 3  # the records in view have their badges
    on_text = [(i + 1, j + 1) for i, rect in drawn for j, rects in enumerate(texts) if any(overlap(rect, t)
                                                                                          for t in rects)]
    in_box = [(i + 1, j + 1) for i, rect in drawn for j, box in enumerate(boxes) if j != i and overlap(rect, box)]
    assert not on_text, on_text  # (badge, record): a badge on the first letter of its record's heading
    assert not in_box, in_box


def scrolled_across(qtbot, window: MainWindow, step: int) -> None:
    """Scroll the page sideways by `step` px and wait until the overlay has placed the badges again (the records
    in view across are others: so are the badges drawn)."""
    view = window.page_view
    before = view.offline.run_js("__recordlens.overlay.badgeRects()")
    view.offline.run_js(f"window.scrollBy({step}, 0)")
    qtbot.waitUntil(lambda: view.offline.run_js("__recordlens.overlay.badgeRects()") != before, timeout=10_000)


def test_on_a_vertical_page_scrolled_sideways_no_badge_lies_on_another_records_text(qtbot, window):
    open_page(window, "3")
    for step in (-400, -400):
        scrolled_across(qtbot, window, step)
        badges, texts, _ = badges_and_texts(window)
        drawn = [(i, b["rect"]) for i, b in enumerate(badges) if b]
        assert len(drawn) >= 3
        astray = [(i + 1, j + 1) for i, rect in drawn for j, rects in enumerate(texts)
                  if j != i and any(overlap(rect, t) for t in rects)]
        assert not astray, astray  # (badge, record): a record out of view on the left, its badge kept at the edge


def test_every_record_selected_on_a_vertical_page_scrolled_sideways_leaves_no_heap_of_badges(qtbot, window):
    # A selected badge shows even where it had no room: the records out of view across had theirs at the view's
    # edge, and Ctrl+A piled every one of them there, on the text of the records in view.
    open_page(window, "3")
    scrolled_across(qtbot, window, -800)
    try:
        QTest.keySequence(window, "Ctrl+A")
        assert len(window.record_panel.selected_ids()) == len(window.labels)
        window.page_view.wait_until_drawn(60_000)  # the records drawn again, every one selected
        badges, texts, _ = badges_and_texts(window)
        drawn = [(i, b["rect"]) for i, b in enumerate(badges) if b]
        assert len(drawn) >= 3
        astray = [(i + 1, j + 1) for i, rect in drawn for j, rects in enumerate(texts)
                  if j != i and any(overlap(rect, t) for t in rects)]
        heaped = [(i + 1, j + 1) for i, a in drawn for j, b in drawn if i < j and overlap(a, b)]
        assert not astray, astray  # (badge, record)
        assert not heaped, heaped  # (badge, badge)
    finally:
        window.select_records([], scroll=False)


def test_the_record_finder_finds_typed_words_on_a_page_saved_decomposed(window):
    open_page(window, "4")
    panel = window.record_panel
    for typed, number in (("résumé", 1), ("RÉSUMÉ", 1), ("Hà Nội", 3), ("angstrom", 2)):
        panel.finder.setText(typed)
        assert panel.found_ids() == [window.labels[number - 1].id], typed
    panel.leave_finder()
