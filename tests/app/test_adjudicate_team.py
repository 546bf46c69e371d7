"""Adjudicating a second annotator's labels in a team (the labelling-team report): T and Shift+T decide on the
annotator's labels as the project holds them at that moment, the Review tab's agreement follows the pages marked
labelled, a decision that nests or overlaps records says so, several records are taken in one step, and the
settings say when the person's name is an imported annotator's."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.core.store.project import open_project
from tests.app.demo_project import CARD, CARDS, HEADER, ITEM
from tests.app.review_helpers import choose, kinds, review_bea
from tests.app.window_helpers import FakeKeyStore, key, said

# `window` (tests/app/conftest.py): the demo product grid (page 1, labelled, 16 cards) and a plain list (page 2, new).
pytestmark = pytest.mark.app

PRICE_3 = f"{CARDS}/div[3]/div[1]/span[1]"


def elsewhere(project_dir: Path, page: str, records: list[list[str]]) -> None:
    """bea's labels of a page imported again by another process (the command line) while the app is open."""
    with open_project(project_dir) as other:
        other.annotators.set_page("bea", page, records)


def test_t_takes_the_annotators_labels_as_the_project_holds_them_now(qtbot, window, project_dir):
    project = window.project
    truth = project.true_records("1")
    project.annotators.set_page("bea", "1", [*truth, [HEADER]])
    review_bea(qtbot, window)
    choose(window, "spurious")
    history = len(project.history("1"))

    # bea withdrew her extra record (imported again from the command line) after the review showed it.
    elsewhere(project_dir, "1", truth)
    key(window, "T")
    assert len(project.history("1")) == history and len(project.labels("1")) == len(truth)  # nothing taken
    assert "bea's labels of page 1 changed since the review showed them" in said(window)
    assert "spurious" not in kinds(window)  # the review shows her labels as they are now
    qtbot.waitUntil(lambda: window.job is None and "P 1.000   R 1.000   F1 1.000"
                    in window.review_panel.run_figures.text(), timeout=20_000)

    # Imported again while another page was on show: the page shown again shows her labels as they now are.
    window.open_page("2")
    assert window.page_view.wait_until_loaded()
    elsewhere(project_dir, "1", truth[1:])
    window.open_page("1")
    assert window.page_view.wait_until_loaded()
    assert kinds(window).count("missed") == 1
    qtbot.waitUntil(lambda: window.job is None and window.reviewing.agreements["bea"].recall < 1, timeout=20_000)


def test_the_mean_agreement_takes_in_a_page_once_it_is_marked_labelled(qtbot, window):
    project = window.project
    items = [[ITEM.format(k)] for k in range(1, 5)]
    project.annotators.set_page("bea", "1", project.true_records("1"))
    project.annotators.set_page("bea", "2", items)  # a page the project has not labelled yet
    review_bea(qtbot, window)
    assert "mean of 1 page(s) both labelled" in window.review_panel.run_figures.text()

    window.open_page("2")
    assert window.page_view.wait_until_loaded()
    window.review_panel.records.setCurrentRow(0)
    key(window, "T")
    key(window, "L")
    assert "page 2 marked labelled" in said(window)
    figures = window.review_panel.run_figures.text()
    assert "mean of 2 page(s) both labelled" in figures, figures
    assert [window.review_panel.worst.item(i).text().split()[1] for i in range(2)] == ["2", "1"]

    # Taken back to in progress in the labelling tab: the Review tab, shown again, leaves it out again.
    key(window, "F6")
    key(window, "Ctrl+Z")
    assert project.page("2").status != "labelled"
    key(window, "F6")
    assert "mean of 1 page(s) both labelled" in window.review_panel.run_figures.text()


def test_a_decision_that_nests_or_overlaps_records_says_so_and_undo_takes_it_back(qtbot, window):
    project = window.project
    truth = project.true_records("1")
    # bea made one record of cards 1 and 2 together, and a record of card 3's price as well.
    project.annotators.set_page("bea", "1", [[CARD.format(1), CARD.format(2)], *truth[2:], [PRICE_3]])
    review_bea(qtbot, window)

    choose(window, "spurious")  # her price of card 3: inside record 3
    key(window, "T")
    assert "page 1: take bea's record" in said(window)
    assert f"record {len(truth) + 1} lies inside record 3: labels check flags" in said(window), said(window)
    key(window, "Ctrl+Z")
    assert len(project.labels("1")) == len(truth)

    # Her record of cards 1 and 2 is paired with one of the project's two: merged into it, the other card is
    # then held by two records.
    pair = next(i for i, r in enumerate(window.review.records) if r.predicted == 0)
    merged = window.review.records[pair].true
    window.review_panel.records.setCurrentRow(pair)
    key(window, "Shift+T")
    assert set(project.labels("1")[merged].xpaths) == {CARD.format(1), CARD.format(2)}
    assert f"record {merged + 1} shares an element with record {2 - merged}" in said(window), said(window)
    key(window, "Ctrl+Z")
    assert [list(label.xpaths) for label in project.labels("1")] == truth


def test_t_takes_every_chosen_record_and_all_the_project_lacks_in_one_step_each(qtbot, window):
    project = window.project
    truth = project.true_records("1")
    extra = [[HEADER], ["/body[1]/div[1]/footer[1]"], ["/body[1]/div[1]/main[1]/h1[1]"]]
    project.annotators.set_page("bea", "1", [*truth, *extra])
    review_bea(qtbot, window)
    rows = window.review_panel.records
    spurious = [i for i, k in enumerate(kinds(window)) if k == "spurious"]
    rows.setCurrentRow(spurious[0])
    rows.item(spurious[1]).setSelected(True)

    key(window, "T")
    assert len(project.labels("1")) == len(truth) + 2
    assert "took bea's version of 2 records" in said(window), said(window)
    key(window, "Ctrl+Z")  # one step
    assert len(project.labels("1")) == len(truth)

    assert window.review_panel.take_all.isVisible()
    assert "3 of bea's records" in window.review_panel.take_all_words.text()
    key(window, "Ctrl+T")  # the button's key
    assert [list(label.xpaths) for label in project.labels("1")][len(truth):] == extra
    assert "page 1: took all 3 of bea's records the project lacked, as one step" in said(window), said(window)
    assert "spurious" not in kinds(window) and not window.review_panel.take_all.isVisible()
    key(window, "Ctrl+Z")
    assert len(project.labels("1")) == len(truth)


def test_the_settings_warn_when_the_name_is_an_imported_annotators(qtbot):
    from recordlens.annotator.settings import Settings
    from recordlens.annotator.settings_dialog import SettingsDialog

    dialog = SettingsDialog(Settings(annotator="ann"), FakeKeyStore(), annotators=["bea", "Zoë van Dijk"])
    try:
        dialog.show()
        assert not dialog.name_clash.isVisible()
        dialog.annotator.setText(" bea")
        assert dialog.name_clash.isVisible()
        assert "bea is also an imported annotator" in dialog.name_clash.text()
        # core's agreement tells the two apart (`person:NAME`): the warning says what the name then means there
        assert "could not be told apart" not in dialog.name_clash.text()
        assert "`recordlens agreement` then needs `person:bea` to mean you" in dialog.name_clash.text()
        dialog.annotator.setText("project")
        assert "“project” names the project's own labels" in dialog.name_clash.text()
        assert "`person:project` to mean you" in dialog.name_clash.text()
        dialog.annotator.setText("Zoë")
        assert not dialog.name_clash.isVisible()
    finally:
        dialog.close()


def test_a_comparison_ending_after_the_window_closed_shows_nothing_and_raises_nothing(qtbot, window):
    """A review's comparing job can end after its window shut down and closed the project: it is let go."""
    window.project.annotators.set_page("bea", "1", window.project.true_records("1")[:2])
    review_bea(qtbot, window)
    found = [window.reviewing.agreements["bea"]]
    window.close()
    window.shutdown()
    window.reviewing._after_comparing_job("bea", found)  # as the job's queued end would call it
