"""G on a list where a sibling's record was rejected (page 21 of the dev pages: "4. Fight Club" rejected, a record
built on another item, G): a rejection says "this is not a record", so G makes no record there again (it made
an accepted one on the very element of the rejected one) and says how many siblings it left out, and which."""

from __future__ import annotations

import pytest
from PySide6.QtTest import QTest

from tests.app.demo_project import ITEM, MDR

pytestmark = pytest.mark.app


def test_g_leaves_out_a_sibling_whose_record_was_rejected_and_says_so(qtbot, window):
    window.open_page("2")
    assert window.page_view.wait_until_loaded()
    window.project.add_records("2", [[ITEM.format(3)]], MDR)
    rejected = window.project.labels("2")[0]
    window.project.reject(rejected.id, window.person)
    window.project.add_record("2", [ITEM.format(1)], window.person)
    built = window.project.labels("2")[1]
    window.reload_labels([built.id])
    QTest.keySequence(window, "G")
    labels = window.project.labels("2")
    on_item_3 = [label.status for label in labels if label.xpaths == (ITEM.format(3),)]
    assert on_item_3 == ["rejected"]  # not a rejected and an accepted record on one element
    assert sorted(label.xpaths for label in labels if label.status != "rejected") == [
        (ITEM.format(k),) for k in (1, 2, 4)]
    numbers = [label.id for label in window.labels]
    said = window.statusBar().currentMessage()
    assert said == (f"added 2 records, one per sibling of record {numbers.index(built.id) + 1}, numbered in page "
                    f"order; left out 1 sibling rejected before (record {numbers.index(rejected.id) + 1})"), said


def test_g_with_every_sibling_left_rejected_adds_nothing_and_says_why(qtbot, window):
    window.open_page("2")
    assert window.page_view.wait_until_loaded()
    window.project.add_records("2", [[ITEM.format(k)] for k in (2, 3, 4)], MDR)
    for label in window.project.labels("2"):
        window.project.reject(label.id, window.person)
    window.project.add_record("2", [ITEM.format(1)], window.person)
    window.reload_labels([window.project.labels("2")[-1].id])
    QTest.keySequence(window, "G")
    assert len(window.project.labels("2")) == 4
    said = window.statusBar().currentMessage()
    assert said.startswith("G adds nothing: the 3 siblings without a record were rejected before (records "), said
