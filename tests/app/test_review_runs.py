"""The Review tab on runs that are not clean (tester's report, review): a page the run failed on, labelled pages a
run holds nothing for, an empty page scored 1, hallucinated records, runs of one method told apart, the review
remembered across a restart, and the classes' definitions as the README gives them.

On the main window's project: page 1 the demo product grid (labelled, 16 records), page 2 a plain list (new).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from recordlens.annotator.app import find_run
from recordlens.annotator.labelling.review_panel import KIND_MEANINGS
from recordlens.annotator.settings import Settings
from recordlens.core.cli.evaluation import format_score_table
from recordlens.core.store import score_stored_run
from tests.app.demo_project import ITEM, PRICE_1
from tests.app.window_helpers import open_window

pytestmark = pytest.mark.app

README = Path(__file__).resolve().parents[2] / "README.md"
NOWHERE = "/body[1]/nonexistent[1]"


def rows(window) -> list[str]:
    panel = window.review_panel
    return [panel.records.item(i).text() for i in range(panel.records.count())]


def label_page_2(window) -> None:
    """Page 2 labelled too, with one record: a second page the runs are scored on."""
    window.project.add_record("2", [ITEM.format(1)], window.person)
    window.project.set_status("2", "labelled", window.person)


def test_a_page_the_run_failed_on_says_why_and_the_run_list_counts_the_pages_it_misses(qtbot, window):
    label_page_2(window)
    project = window.project
    broken = project.runs.add("repeats")  # its file for page 1 was not JSON; it has none for page 2
    project.runs.add_predictions(broken, {}, errors={"1": "not valid JSON (Expecting value: line 1 column 1)"})
    project.runs.finish(broken)
    empty = project.runs.add("nothing")  # found nothing on page 1, for real
    project.runs.add_predictions(empty, {"1": [], "2": []})
    project.runs.finish(empty)
    window.start_review(broken)
    window.page_view.wait_until_drawn()
    figures = window.review_panel.page_figures.text()
    assert "⚠ the run failed on this page (not valid JSON (Expecting value: line 1 column 1)); scored as an empty " \
           "prediction" in figures
    # not scored yet: what scoring will make of them, not that it did
    assert "failed on 1 page, nothing for 1 labelled page: scoring counts them as empty predictions" in (
        window.review_panel.run_figures.text())
    runs = window.review_panel.runs
    assert runs.itemText(runs.findData(broken)) == f"#{broken} repeats (finished, 0 pages, 1 failed, 1 missing)"
    assert runs.itemText(runs.findData(empty)) == f"#{empty} nothing (finished, 2 pages)"
    # A run that failed on one page and predicted the other: its mean without the failed page, as score says it
    partial = project.runs.add("repeats")
    project.runs.add_predictions(partial, {"2": project.true_records("2")}, errors={"1": "refused (SAFETY)"})
    project.runs.finish(partial)
    score_stored_run(project, partial)
    window.start_review(partial)
    qtbot.waitUntil(lambda: "without them" in window.review_panel.run_figures.text(), timeout=20_000)
    assert "without them: F1 1.000 over 1 page it predicted" in window.review_panel.run_figures.text()
    # A page where the method found nothing reads as such: no warning.
    window.start_review(empty)
    window.page_view.wait_until_drawn()
    assert "⚠" not in window.review_panel.page_figures.text()
    assert "⚠" not in window.review_panel.run_figures.text()


def test_a_page_with_nothing_to_find_and_nothing_proposed_says_why_it_scores_1(qtbot, window):
    project = window.project
    project.set_status("2", "labelled", window.person)  # labelled: it has no record
    run = project.runs.add("handmade")
    project.runs.add_predictions(run, {"1": project.true_records("1"), "2": []})
    project.runs.finish(run)
    window.open_page("2")
    assert window.page_view.wait_until_loaded()
    window.start_review(run)
    figures = window.review_panel.page_figures.text()
    assert "P 1.000   R 1.000   F1 1.000 (nothing to find and nothing proposed: 1 by NEXT-EVAL's rule)" in figures
    window.open_page("1")  # 16 found of 16: no such words
    qtbot.waitUntil(lambda: window.page_name == "1" and window.page_loaded, timeout=20_000)
    assert "F1 1.000" in window.review_panel.page_figures.text()
    assert "NEXT-EVAL's rule" not in window.review_panel.page_figures.text()


def test_review_shows_the_hallucination_figures_and_a_record_that_names_no_element(qtbot, window):
    project = window.project
    truth = project.true_records("1")
    run = project.runs.add("handmade")
    project.runs.add_predictions(run, {"1": [*truth[:5], [NOWHERE], [PRICE_1, NOWHERE]]})
    project.runs.finish(run)
    scored = score_stored_run(project, run)[0]  # `recordlens score --project P --run N`
    window.start_review(run)
    window.page_view.wait_until_drawn()
    assert "1 of 7 predicted records hallucinated (no text on the page)" in window.review_panel.page_figures.text()
    # worded as `recordlens score` words them: one wording, core's
    assert scored.hallucination_words() in window.review_panel.run_figures.text()
    assert "hallucination rate (pages) 1.0000; hallucinated records 0.1429" in window.review_panel.run_figures.text()
    assert scored.hallucination_words() in format_score_table(scored)
    assert scored.hallucination_rate == 1.0 and round(scored.hallucinated_record_share, 3) == 0.143
    spurious = [row for row in rows(window) if "spurious" in row]
    assert len(spurious) == 2
    assert "P6  spurious, hallucinated  (names no element)" in spurious[0]
    assert "(1 el; 1 XPath naming nothing)" in spurious[1] and "hallucinated" not in spurious[1]
    assert all("(1 el)" in row for row in rows(window) if "matched" in row)


def test_runs_of_one_method_are_told_apart_and_review_by_method_says_which_it_took(qtbot, window):
    project = window.project
    made = []
    for folder in ("run-rep", "run-broken"):  # copies of one run: same method, settings and start
        run = project.runs.add("repeats", {"source": f"/tmp/runs/{folder}", "parameters": {"similarity": 0.5}},
                               started_at="2026-12-05T06:31:14.000Z")
        project.runs.add_predictions(run, {"1": project.true_records("1")})
        project.runs.finish(run)
        made.append(run)
    alone = project.runs.add("mdr")
    project.runs.add_predictions(alone, {"1": []})
    project.runs.finish(alone)
    taken = find_run(project, "repeats")  # what `recordlens-annotator P --screenshot s.png --review repeats` does
    window.start_review(taken)
    assert taken == made[1]
    runs = window.review_panel.runs
    assert [runs.itemText(runs.findData(run)) for run in (*made, alone)] == [
        f"#{made[0]} repeats (finished, 1 page) · started 2026-12-05 06:31, from run-rep",
        f"#{made[1]} repeats (finished, 1 page) · started 2026-12-05 06:31, from run-broken",
        f"#{alone} mdr (finished, 1 page)"]
    assert runs.itemData(runs.findData(made[0]), Qt.ItemDataRole.ToolTipRole).split("\n")[1:] == [
        "from /tmp/runs/run-rep", "settings: similarity 0.5"]  # the whole folder, and what tells the runs apart
    assert runs.toolTip().startswith(runs.itemText(runs.findData(made[1])))  # whole, where the panel cuts it
    assert window.statusBar().currentMessage() == (
        f"reviewing run #{made[1]} repeats (started 2026-12-05 06:31, from run-broken), the latest of 2 repeats "
        f"runs (#{made[0]}, #{made[1]}); the run list in the Review tab has the others")


def test_the_run_under_review_and_the_classes_shown_come_back_after_a_restart(qtbot, tmp_path, project_dir):
    settings_file = tmp_path / "settings.json"
    first = open_window(project_dir, settings_file, qtbot=qtbot)
    try:
        project = first.project
        made = []
        for method in ("mdr", "repeats"):
            run = project.runs.add(method)
            project.runs.add_predictions(run, {"1": [*project.true_records("1")[:3], [PRICE_1]]})
            project.runs.finish(run)
            made.append(run)
        QTest.keySequence(first, "F6")  # the latest, then the older one chosen in the list
        assert first.reviewing.run_id == made[1]
        runs = first.review_panel.runs
        runs.setCurrentIndex(runs.findData(made[0]))
        QTest.mouseClick(first.review_panel.kind_toggles["spurious"], Qt.MouseButton.LeftButton)
        assert first.reviewing.run_id == made[0]
    finally:
        first.close()  # Ctrl+Q
    again = open_window(project_dir, settings_file, settings=Settings.load(settings_file), qtbot=qtbot)
    try:
        # Quit in Review: it opens there again, on the run chosen
        qtbot.waitUntil(again.reviewing.active, timeout=10_000)
        assert again.reviewing.run_id == made[0]
        assert again.review_panel.runs.currentData() == made[0]
        assert not again.review_panel.kind_toggles["spurious"].isChecked()
        assert again.review_panel.kind_toggles["missed"].isChecked()
        assert not any("spurious" in row for row in rows(again))
    finally:
        again.close()
    # A run the project no longer has (the settings name run 99): F6 opens on the latest, all classes as kept.
    settings = Settings.load(settings_file)
    settings.reviews = settings.reviews.replace(f'"run": {made[0]}', '"run": 99')
    third = open_window(project_dir, settings_file, settings=settings, qtbot=qtbot)
    try:
        QTest.keySequence(third, "F6")
        assert third.reviewing.run_id == made[1]
        assert not third.review_panel.kind_toggles["spurious"].isChecked()
    finally:
        third.close()


def test_missed_and_spurious_are_defined_in_the_readme_as_the_review_counts_them(qtbot, window):
    """A pair the optimal matching makes of two records sharing no text is no pair in the review: one missed,
    one spurious; the README's definitions (and the tick boxes' tips) say so."""
    label_page_2(window)  # its one true record: the list's first item
    window.open_page("2")
    assert window.page_view.wait_until_loaded()
    project = window.project
    other = project.runs.add("handmade")  # one predicted record, the heading: it shares no text with the item
    project.runs.add_predictions(other, {"2": [["/body[1]/h1[1]"]]})
    project.runs.finish(other)
    window.start_review(other)
    review = window.review
    assert [m.overlap for m in review.score.matches] == [0.0]  # the score paired them
    assert review.counts()["missed"] == 1 and review.counts()["spurious"] == 1
    readme = re.sub(r"\s+", " ", README.read_text(encoding="utf-8"))
    for kind in ("missed", "spurious"):
        meaning = KIND_MEANINGS[kind].split(": ", 1)[1]
        assert "paired with a" in meaning and "sharing no text" in meaning  # the pair above is one of each
        assert meaning in readme, meaning
        assert meaning in window.review_panel.kind_toggles[kind].toolTip()


def test_opening_another_project_leaves_none_of_the_last_ones_review_on_show(qtbot, window, tmp_path):
    """After Ctrl+O the run chooser said "choose a run" while the page's figures, the run's means, its rows and its
    worst pages were still the last project's."""
    from recordlens.core.store import open_project
    from tests.app.window_helpers import imported_project

    project = window.project
    run = project.runs.add("repeats")
    project.runs.add_predictions(run, {"1": project.true_records("1")[:3]})
    project.runs.finish(run)
    score_stored_run(project, run)
    window.start_review(run)
    window.page_view.wait_until_drawn()
    panel = window.review_panel
    assert panel.records.count() and panel.worst.count() and "F1" in panel.run_figures.text()
    other = imported_project(tmp_path / "other", {"html/9.html": "<html><body><ul><li>a</li></ul></body></html>"})
    window.set_project(open_project(other))
    assert panel.records.count() == 0 and panel.worst.count() == 0
    assert "F1" not in panel.run_figures.text() and "F1" not in panel.page_figures.text()
