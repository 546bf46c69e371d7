"""A page of an annotator's review that is not compared says why in the words of `recordlens agreement`, which
lists the pages only one side labelled ("labelled by project only", "labelled by bea only") and not those neither
labelled: each case says what is true of it. Page 1 of the demo project is labelled by the project; page 2 is not."""

from __future__ import annotations

import pytest

from recordlens.core.cli.agreement import format_agreement
from recordlens.core.store import PROJECT_SET
from recordlens.core.store.agreement import agreement_and_decisions
from tests.app.demo_project import ITEM
from tests.app.review_helpers import review_bea

pytestmark = pytest.mark.app


def agreement_lines(window) -> str:
    """What `recordlens agreement --between bea project` prints of the project as it is now."""
    return format_agreement(*agreement_and_decisions(window.project, "bea", PROJECT_SET))


def shown_on(qtbot, window, page: str) -> str:
    """What the Review tab says of the page's figures, the page opened in review."""
    window.open_page(page)
    assert window.page_view.wait_until_loaded()
    return window.review_panel.page_figures.text()


def test_a_page_neither_labelled_is_not_said_to_be_labelled_by_the_project(qtbot, window):
    window.project.annotators.set_page("bea", "1", window.project.true_records("1"))
    review_bea(qtbot, window)
    assert not [line for line in agreement_lines(window).splitlines() if line.startswith("labelled by")]
    text = shown_on(qtbot, window, "2")
    assert "labelled by project only" not in text and "labelled by the project only" not in text, text
    assert "not compared: neither bea nor the project labelled this page" in text, text
    assert "`recordlens agreement` lists it nowhere" in text, text
    assert window.review_panel.records.count() == 0


def test_a_page_the_project_alone_labelled_is_said_as_agreement_lists_it(qtbot, window):
    window.project.annotators.set_page("bea", "2", [[ITEM.format(k)] for k in range(1, 5)])
    window.project.set_status("2", "labelled", window.person)
    review_bea(qtbot, window)
    assert "labelled by project only (not compared): 1" in agreement_lines(window)
    text = shown_on(qtbot, window, "1")
    assert ("not compared: annotator bea did not label this page (`recordlens agreement` lists it as labelled by "
            "project only)") in text, text


def test_a_page_the_annotator_alone_labelled_says_it_is_left_out_of_the_means(qtbot, window):
    window.project.annotators.set_page("bea", "1", window.project.true_records("1"))
    window.project.annotators.set_page("bea", "2", [[ITEM.format(k)] for k in range(1, 5)])
    review_bea(qtbot, window)
    assert "labelled by bea only (not compared): 2" in agreement_lines(window)
    text = shown_on(qtbot, window, "2")
    assert window.review_panel.records.count() == 4  # their records, to take (the project has none)
    assert ("the project has not marked this page labelled: `recordlens agreement` lists it as labelled by bea "
            "only, and its figures are not in the means") in text, text
