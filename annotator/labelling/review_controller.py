"""Review mode: a stored run's predictions against the page's true records, drawn over the page and listed in
the Review tab, the run's worst pages, and scoring a run in the background.

How records are classed (matched, partial, missed, spurious) is core's `review_page`; this keeps which run is under
review, caches its predictions and shows the result. The window owns it as `window.reviewing`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...core.errors import RecordLensError
from ...core.records import PageReview, TextKeyIndex, review_page, worst_pages
from ...core.store import TRUE_PAGE_STATUSES, Project, RunInfo
from ..qt.jobs import BackgroundJob
from .record_panel import record_texts
from .review_panel import NO_RUN, ReviewPanel, overlay_records

if TYPE_CHECKING:
    from .main_window import MainWindow

WORST_SHOWN = 15


class ReviewController:
    def __init__(self, window: MainWindow) -> None:
        self.window = window
        self.run_id = NO_RUN
        self.review: PageReview | None = None  # the page on show, in review mode
        self._predictions: dict[int, dict[str, list[list[str]]]] = {}

    @property
    def panel(self) -> ReviewPanel:
        return self.window.review_panel

    def active(self) -> bool:
        return self.window.tabs.currentWidget() is self.panel and self.run_id != NO_RUN

    def forget_runs(self) -> None:
        """Another project: no cached prediction of this one's runs is kept."""
        self._predictions.clear()

    def do_review(self) -> None:
        tabs = self.window.tabs
        tabs.setCurrentWidget(self.panel if tabs.currentWidget() is self.window.record_panel
                              else self.window.record_panel)

    def start_review(self, run_id: int) -> None:
        self.panel.set_runs(self.window.project.runs.all(), run_id)
        self.run_id = run_id
        self.window.tabs.setCurrentWidget(self.panel)
        self.on_run_chosen(run_id)

    def on_tab(self) -> None:
        if self.window.tabs.currentWidget() is self.panel:
            # Runs may have been added meanwhile (by the CLI, or a scoring job).
            self.panel.set_runs(self.window.project.runs.all(), self.run_id)
        self.window.redraw()

    def _run_info(self) -> RunInfo | None:
        if self.run_id == NO_RUN:
            return None
        try:
            return self.window.project.runs.get(self.run_id)
        except RecordLensError:
            return None

    def on_run_chosen(self, run_id: int) -> None:
        self.run_id = run_id
        run = self._run_info()
        worst = worst_pages(self.window.project.runs.scores(run_id), WORST_SHOWN) if run else []
        self.panel.show_run(run, worst)
        self.window.redraw()
        if self.window.page_loaded:  # else the window does it once the page has loaded
            self.show_first_error()

    def show_first_error(self) -> None:
        """What the run got wrong is what a reviewer looks for: bring the first such record into view."""
        wrong = [r for r in self.review.records if r.kind != "matched" and r.xpaths] if self.review else []
        if wrong:
            self.window.page_view.scroll_to(wrong[0].xpaths[0])

    def draw(self) -> None:
        """Class the page's records against the run's and draw them over the page."""
        self._update_review()
        self.window.page_view.show_records(overlay_records(self.review) if self.review else [])

    def _update_review(self) -> None:
        window = self.window
        page, name = window.page_view.core_page, window.page_name
        if name is None or page is None:
            self.review = None
            self.panel.show_page(None)
            return
        if self.run_id not in self._predictions:
            self._predictions[self.run_id] = window.project.runs.predictions(self.run_id)
        predictions = self._predictions[self.run_id]
        keys = TextKeyIndex(page.text_map)
        self.review = review_page(predictions.get(name, []), window.project.true_records(name), keys, name)
        self.panel.show_page(self.review, texts=[record_texts(page, keys, r.xpaths, 60)[0]
                                                 for r in self.review.records])
        notes = []
        if name not in predictions:
            notes.append("the run has no prediction for this page")
        if window.project.page(name).status not in TRUE_PAGE_STATUSES:
            notes.append("page not marked labelled: its labels may be incomplete")
        if notes:
            window.message("; ".join(notes), 10000)

    def on_review_record(self, index: int) -> None:
        if self.review and 0 <= index < len(self.review.records) and self.review.records[index].xpaths:
            self.window.page_view.scroll_to(self.review.records[index].xpaths[0])

    def do_worst_page(self) -> None:
        window = self.window
        if self.run_id == NO_RUN:
            window.message("choose a run in the Review tab first (F6)")
            return
        ranked = [name for name, _ in worst_pages(window.project.runs.scores(self.run_id))]
        if not ranked:
            window.message("this run is not scored yet")
            return
        index = ranked.index(window.page_name) + 1 if window.page_name in ranked else 0
        window.jump_to_page(ranked[index % len(ranked)])

    def score_run(self, run_id: int) -> None:
        from ...core.store import score_stored_run

        def work(project: Project, job: BackgroundJob) -> None:
            def progress(names: Sequence[str]):  # noqa: ANN202 - a generator
                for done, name in enumerate(names):
                    job.check()
                    job.report(done, len(names), name)
                    yield name

            score_stored_run(project, run_id, progress)

        job = BackgroundJob(self.window.project.root, work)
        job.done.connect(lambda *_: self._after_scoring(run_id))
        self.window.jobs.start(job, f"scoring run {run_id}")

    def _after_scoring(self, run_id: int) -> None:
        self.panel.set_runs(self.window.project.runs.all(), run_id)
        self.on_run_chosen(run_id)
