"""An annotator's label set reviewed where the project has marked few of its pages labelled (two sets imported with
`recordlens import DIR --annotator NAME`, the project's own labels on one page): the pages only they labelled are
not compared (not in the means), yet they hold records the project lacks. W goes through them, worst first, as it
goes through the pages compared (no Score button is needed: an annotator's set is compared at once), and a
take-all that leaves none open on its page points to the next of them rather than saying every disagreement is
decided; once none is left anywhere, W says so in an annotator's words, never a run's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.core.cli.command import main as recordlens
from tests.app.demo_project import ITEM
from tests.app.list_projects import TITLED_LIST
from tests.app.window_helpers import key, said

pytestmark = pytest.mark.app

FOUR = [[ITEM.format(k)] for k in range(1, 5)]  # every item of a list page, a record each
BOBS = {"1": FOUR, "2": FOUR[:2], "3": FOUR[:2], "4": FOUR[:3]}  # page 3 as the project labelled it
ALICES = {"1": FOUR, "2": FOUR, "3": FOUR[:2]}


def folder_of(root: Path, pages: dict[str, str], labels: dict[str, list[list[str]]]) -> Path:
    """A NEXT-EVAL folder: `pages` (name -> its HTML) under html/, `labels` under gt/."""
    for sub, files in (("html", {f"{n}.html": html for n, html in pages.items()}),
                       ("gt", {f"{n}.json": json.dumps(records) for n, records in labels.items()})):
        (root / sub).mkdir(parents=True, exist_ok=True)
        for name, text in files.items():
            (root / sub / name).write_text(text, encoding="utf-8")
    return root


def run(*args: str) -> None:
    assert recordlens([*args, "-q"] if args[0] == "import" else list(args)) == 0, args


@pytest.fixture
def project_dir(tmp_path: Path) -> Path:
    """Pages 1 to 3 (lists of four items); the project's own labels only on page 3 (items 1 and 2, marked labelled
    as a dataset's page is); alice's labels of pages 1 to 3 and bob's of 1, 2, 3 (as the project's) and 4, a page
    the project lacked, imported with them."""
    lists = {n: TITLED_LIST.format(title=f"List {n}") for n in ("1", "2", "3", "4")}
    project = tmp_path / "P"
    run("project", "init", str(project))
    run("import", str(folder_of(tmp_path / "pages", {n: lists[n] for n in ("1", "2", "3")}, {"3": FOUR[:2]})),
        "--project", str(project))
    run("import", str(folder_of(tmp_path / "alice", {}, ALICES)), "--project", str(project), "--annotator", "alice")
    run("import", str(folder_of(tmp_path / "bob", {"4": lists["4"]}, {n: BOBS[n] for n in ("1", "2", "4")})),
        "--project", str(project), "--annotator", "bob")
    run("import", str(folder_of(tmp_path / "bob3", {}, {"3": BOBS["3"]})), "--project", str(project),
        "--annotator", "bob")
    return project


def review_bob(qtbot, window) -> None:
    window.start_review("annotator:bob")
    qtbot.waitUntil(lambda: "bob" in window.reviewing.agreements and window.job is None, timeout=30_000)
    window.page_view.wait_until_drawn()


def w_to(qtbot, window, page: str) -> None:
    key(window, "W")
    assert window.page_name == page, (page, said(window))
    assert window.page_view.wait_until_loaded()
    qtbot.waitUntil(lambda: said(window).startswith(f"W: page {page},"), timeout=10_000)


def test_the_project_labels_few_of_the_pages(window):
    project = window.project
    assert project.annotators.names() == ["alice", "bob"]
    assert [p.name for p in project.pages() if p.status == "labelled"] == ["3"]
    assert not project.true_records("1") and not project.true_records("4")


def open_page(window, page: str) -> None:
    window.open_page(page)
    assert window.page_view.wait_until_loaded()
    window.page_view.wait_until_drawn()


def test_w_with_no_page_labelled_by_both_opens_the_worst_of_their_pages_as_no_run_would(qtbot, window):
    window.project.set_status("3", "new", window.person)  # the project marks none of its pages labelled
    review_bob(qtbot, window)
    key(window, "W")
    assert "this run is not scored yet" not in said(window) and "Score" not in said(window), said(window)
    assert window.page_name == "1", said(window)  # its F1 against the project's no records, 0, is the lowest


def test_take_all_on_a_page_only_they_labelled_says_the_others_still_hold_their_records(qtbot, window):
    review_bob(qtbot, window)
    open_page(window, "2")
    key(window, "Ctrl+T")
    assert said(window).startswith("page 2: took all 2 of bob's records the project lacked"), said(window)
    assert "nor on any other page" not in said(window), said(window)
    assert said(window).endswith("no disagreement with bob left open on page 2: W opens the next of 2 pages with "
                                 "one"), said(window)


def test_the_comparison_says_the_pages_only_they_labelled_and_w_opens_them(qtbot, window):
    review_bob(qtbot, window)
    assert said(window).endswith("they agree on every one; 3 pages only bob labelled (not compared: the project has "
                                 "not marked them labelled), 3 of them with a disagreement still open (W opens "
                                 "them)"), said(window)
    assert "3 pages only bob labelled" in window.review_panel.run_figures.text()
    # The page compared agrees; pages 1, 2 and 4 hold bob's records only (F1 0 each, in page order)
    w_to(qtbot, window, "1")
    assert said(window).startswith("W: page 1, 4 disagreements with bob open here (a page only bob labelled, not "
                                   "compared: the project has not marked it labelled: Ctrl+T takes all their "
                                   "records it lacks)"), said(window)
    w_to(qtbot, window, "2")
    w_to(qtbot, window, "4")
    assert said(window).startswith("W: page 4, 3 disagreements with bob open here"), said(window)


def test_take_all_points_to_the_next_page_only_they_labelled_until_none_is_left(qtbot, window):
    review_bob(qtbot, window)
    for page, then in (("1", ": W opens the next of 2 pages with one"),
                       ("2", ": W opens the next of 1 page with one"),
                       ("4", ", nor on any other page: every disagreement with bob is decided (9 taken)")):
        w_to(qtbot, window, page)
        key(window, "Ctrl+T")
        assert f"page {page}: took all" in said(window), said(window)
        assert said(window).endswith(f"; no disagreement with bob left open on page {page}{then}"), said(window)
        assert window.project.true_records(page) == BOBS[page]
    assert "3 pages only bob labelled (not compared: the project has not marked them labelled), nothing left to " \
           "decide there" in window.review_panel.run_figures.text()
    key(window, "W")  # every record of bob's is in the project: W says so, as an annotator's review
    assert window.page_name == "4"
    assert said(window) == ("no open disagreement with bob left: every disagreement with bob is decided (9 taken) "
                            "and every page both labelled agrees now, as do the 3 pages only bob labelled (not "
                            "compared: the project has not marked them labelled): no page left to open"), said(window)


def test_with_no_page_labelled_by_both_w_opens_their_pages_and_says_when_none_is_left(qtbot, window):
    window.project.set_status("3", "new", window.person)
    review_bob(qtbot, window)
    assert said(window) == ("compared bob's labels with the project's: no page labelled by both; 4 pages only bob "
                            "labelled (not compared: the project has not marked them labelled), 3 of them with a "
                            "disagreement still open (W opens them)"), said(window)
    for page in ("1", "2", "4"):  # page 3: the project holds bob's records already
        w_to(qtbot, window, page)
        key(window, "Ctrl+T")
    assert said(window).endswith(", nor on any other page: every disagreement with bob is decided (9 taken)"), \
        said(window)
    key(window, "W")
    assert said(window) == ("no open disagreement with bob left: no page is labelled by both, and on the 4 pages "
                            "only bob labelled (not compared: the project has not marked them labelled) every "
                            "disagreement is decided (9 taken): no page left to open"), said(window)
