"""Learn from a few labelled pages says how the model of one stage it learnt does on those pages against the shipped
model (each page scored by a model learnt without it, as `train --cv` does it), and, where the shipped model
did better, says so plainly with the way back to it. It used to warn only in general words ("one stage only… may be
far off"), while a model learnt from 3 pages scored far below the shipped model on a project's other pages. Cancel
while it compares writes no model."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from recordlens.core.extract import training
from recordlens.core.store import project_model_path
from tests.app.window_helpers import key, open_window, recent_messages
from tests.core.catalogue_pages import project_with_policy

pytestmark = [pytest.mark.app, pytest.mark.usefixtures("quick_fits")]

LEARNT = ("learned one stage only, from 3 labelled pages (a second stage needs 6): its proposals may be far off on "
          "pages it was not trained on; ")
SHIPPED_BETTER = ("the shipped model did better on this project's own labelled pages: Propose → Propose with the "
                  "shipped model again goes back to it, or label more pages and learn again; ")
COMPARED = ("on this project's labelled pages, each scored by a model learnt without it: these settings, "
            "cross-validated on these 3 pages (leave one page out, seed 0): P ")
SHIPPED = ("; the shipped model on the same pages (it was not trained on any of them): P 1.000  R 1.000  F1 1.000  "
           "HR 0.00  spam 0/3; (P, R, F1: mean precision")


@pytest.mark.timeout(300)
def test_learn_from_three_pages_says_the_shipped_model_did_better_on_them(qtbot, tmp_path: Path) -> None:
    # three catalogue pages labelled with their cards: the shipped model finds every card of each
    folder, _ = project_with_policy(tmp_path / "p", with_secondary=False, labelled=3)
    window = open_window(folder, tmp_path / "settings.json", qtbot=qtbot)
    try:
        key(window, "Ctrl+Shift+L")
        assert window.job is not None, window.statusBar().currentMessage()
        qtbot.waitUntil(lambda: window.job is None, timeout=180_000)
        ended = window.statusBar().currentMessage()
        # what Learn did first, then the plain advice, then the figures, whole
        assert ended.startswith(LEARNT + SHIPPED_BETTER + COMPARED), ended
        assert SHIPPED in ended and ended.endswith("the true ones)"), ended
        said = recent_messages(window).splitlines()
        assert said[0].endswith(ended), said  # kept whole under Recent messages
        assert any(line.endswith(" comparing with the shipped model on the 3 labelled pages, each scored by a model "
                                 "learnt without it") for line in said), said
        assert project_model_path(folder).is_file()  # the user decides: nothing is switched back
    finally:
        window.close()
        window.shutdown()


@pytest.mark.timeout(300)
def test_cancel_while_learn_compares_writes_no_model(qtbot, tmp_path: Path, monkeypatch) -> None:
    folder, _ = project_with_policy(tmp_path / "p", with_secondary=False, labelled=3)
    comparing, cancelled = threading.Event(), threading.Event()
    fits: list[int] = []
    real_fit = training.fit

    def held_fold_fit(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202 - a fold's fit, held until Cancel
        fits.append(1)
        if len(fits) > 1:  # the first fit is Learn's own model; the comparison's folds come after it
            comparing.set()
            # Until the test has pressed Cancel (at most two minutes), not a fixed 5 s: a busy machine could
            # take longer than that to press it, and the next fold would start
            cancelled.wait(120)
        return real_fit(*args, **kwargs)

    monkeypatch.setattr(training, "fit", held_fold_fit)
    window = open_window(folder, tmp_path / "settings.json", qtbot=qtbot)
    try:
        key(window, "Ctrl+Shift+L")
        assert window.job is not None
        said: list[str] = []
        window.job.progress.connect(lambda _done, _total, what: said.append(what))
        qtbot.waitUntil(comparing.is_set, timeout=120_000)
        qtbot.waitUntil(lambda: any(w.startswith("comparing with the shipped model ") for w in said), timeout=10_000)
        key(window, "Ctrl+.")
        cancelled.set()
        qtbot.waitUntil(lambda: window.job is None, timeout=60_000)
        assert window.statusBar().currentMessage() == (
            "learning cancelled: no model written; Propose still uses the shipped model")
        assert not project_model_path(folder).exists()
        assert len(fits) == 2  # Learn's model and one fold: the other folds were not fitted
    finally:
        cancelled.set()
        window.close()
        window.shutdown()
