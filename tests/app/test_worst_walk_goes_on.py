"""W walks a run's pages from the worst. Left with the page keys (PgDn to look at the page after), W goes on with
the walk from the last page it opened, not from the worst page again. It says which page it opened and why, as it
does in an annotator's review: where the page stands in the walk (with its F1), and what the run got wrong on it."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.core.store import score_stored_run
from recordlens.core.store.db import Provenance
from recordlens.core.store.project import open_project
from tests.app.demo_project import ITEM, LIST_PAGE
from tests.app.window_helpers import imported_project, key, open_window, said

pytestmark = pytest.mark.app

PAGES = ("1", "2", "3", "4")


@pytest.fixture
def run_window(qtbot, tmp_path: Path):
    """Four labelled lists of four items and a scored run that finds 4, 3, 2 and 1 of them (F1 1, 0.857, 0.667
    and 0.4): from the worst, W walks pages 4, 3, 2, 1."""
    folder = imported_project(tmp_path, {f"html/{name}.html": LIST_PAGE.replace("Products", f"Products {name}")
                                          for name in PAGES})
    items = [[ITEM.format(k)] for k in range(1, 5)]
    with open_project(folder) as project:
        person = Provenance.person("tester")
        for name in PAGES:
            project.add_records(name, items, person, status="accepted")
            project.set_status(name, "labelled", person)
        run = project.runs.add("handmade")
        project.runs.add_predictions(run, {name: items[:5 - int(name)] for name in PAGES})
        project.runs.finish(run)
        score_stored_run(project, run)
    window = open_window(folder, tmp_path / "settings.json", qtbot=qtbot)
    window.start_review(run)
    yield window
    window.close()


def page_after(window, sequence: str) -> str | None:
    """The page on show once the key sequence is pressed."""
    key(window, sequence)
    return window.page_name


def test_w_goes_on_from_the_last_page_it_opened_after_a_page_key(run_window):
    window = run_window
    assert page_after(window, "W") == "4"
    assert page_after(window, "W") == "3"
    assert page_after(window, "PgDown") == "4"  # a look at the page after
    assert page_after(window, "W") == "2"  # the walk goes on after page 3
    assert page_after(window, "PgUp") == "1"
    assert page_after(window, "W") == "1"
    assert page_after(window, "W") == "4"  # round again from the worst


def test_another_run_starts_the_walk_from_its_worst_page(run_window):
    window = run_window
    assert page_after(window, "W") == "4"
    assert page_after(window, "W") == "3"
    window.reviewing.on_run_chosen(window.reviewing.run_id)  # chosen again in the Review tab's list
    assert page_after(window, "W") == "4"


def w_to(qtbot, window, page: str) -> str:
    """W, and what it says once its page is shown."""
    key(window, "W")
    assert window.page_name == page and window.page_view.wait_until_loaded()
    qtbot.waitUntil(lambda: said(window).startswith("W: "), timeout=10_000)
    return said(window)


def test_w_in_a_runs_review_names_the_page_it_opens_and_why(qtbot, run_window):
    window = run_window
    assert w_to(qtbot, window, "4") == ("W: page 4, the run's worst of 4 scored pages (F1 0.400): 3 missed here; "
                                        "the first is in view")
    window.message("something else")
    assert w_to(qtbot, window, "3") == ("W: page 3, number 2 from the worst of 4 scored pages (F1 0.667): 2 missed "
                                        "here; the first is in view")
    for page in ("2", "1"):
        window.message("something else")
        w_to(qtbot, window, page)
    assert said(window) == "W: page 1, number 4 from the worst of 4 scored pages (F1 1.000): every record matched here"
    window.message("something else")
    assert w_to(qtbot, window, "4").startswith("W: page 4, the run's worst of 4 scored pages (F1 0.400): W went "
                                               "through them all and starts again: 3 missed here")


def test_w_says_when_what_the_run_got_wrong_is_in_no_class_shown(qtbot, run_window):
    window = run_window
    window.review_panel.kind_toggles["missed"].setChecked(False)
    assert w_to(qtbot, window, "4").endswith("3 missed here; none of them is shown: tick their classes above the list")
