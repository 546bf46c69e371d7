"""Review mode: a stored run's predictions against the page's true records, drawn over the page and listed in
the Review tab, the run's worst pages, and scoring a run in the background.

How records are classed (matched, partial, missed, spurious) is core's `review_page`; this keeps which run is under
review, caches its predictions and shows the result. The window owns it as `window.reviewing`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from ...core.errors import RecordLensError
from ...core.records import (
    KINDS,
    MATCHED,
    MISSED,
    SPURIOUS,
    Agreement,
    DatasetScore,
    PageAgreement,
    PageReview,
    review_page,
    worst_pages,
)
from ...core.store import (
    PROJECT_SET,
    TRUE_LABEL_STATUSES,
    TRUE_PAGE_STATUSES,
    Project,
    Provenance,
    RunInfo,
    project_agreement,
)
from ...core.wording import counted, listed
from ..qt.jobs import BackgroundJob
from .review_panel import NO_RUN, ReviewPanel, annotator_of, overlay_records, run_started_and_origin

if TYPE_CHECKING:
    from .window_parts import LabellingWindow

WORST_SHOWN = 15


def _figures(score: object) -> tuple[object, ...]:
    """What a page's score shows and the means are made of (a stored score or one just made)."""
    return tuple(getattr(score, name) for name in ("precision", "recall", "f1", "predicted_records", "true_records"))


class ReviewController:
    def __init__(self, window: LabellingWindow) -> None:
        self.window = window
        self.run_id: object = NO_RUN  # a run id, or "annotator:NAME" for another annotator's label set
        self.review: PageReview | None = None  # the page on show, in review mode
        self._predictions: dict[object, dict[str, list[list[str]]]] = {}
        self._errors: dict[object, dict[str, str]] = {}  # run -> page -> why the run failed on it
        self._run_pages: dict[tuple[int, int], frozenset[str]] = {}  # (run, pages stored) -> the pages it holds
        self._remembered: object = NO_RUN  # the run the last session reviewed, until review first opens
        self._restoring = False
        self.agreements: dict[str, Agreement] = {}  # another annotator against the project's labels, all pages
        self._worst_order: list[str] = []  # the ranking W goes through, and where in it W last was
        self._worst_at = 0
        self._labelling_place: tuple[str | None, int] | None = None  # (page, scroll) when review was entered
        self.panel.kinds_changed.connect(self._remember)
        self._take_up_last_review()

    @property
    def panel(self) -> ReviewPanel:
        return self.window.review_panel

    def active(self) -> bool:
        return self.window.tabs.currentWidget() is self.panel and self.run_id != NO_RUN

    def forget_runs(self) -> None:
        """Another project: nothing of this one's runs is kept, and the other's last review is taken up."""
        self._predictions.clear()
        self._errors.clear()
        self._run_pages.clear()
        self.run_id = NO_RUN
        self._take_up_last_review()

    def do_review(self) -> None:
        """F6: labelling <-> review. Review opens on the run chosen before (in this session or the last one, when
        it still exists), else on the latest run."""
        tabs = self.window.tabs
        if tabs.currentWidget() is not self.window.record_panel:
            tabs.setCurrentWidget(self.window.record_panel)
            return
        if self.run_id == NO_RUN:
            chosen = self._remembered_run()
            runs = self.window.project.runs.all()
            if chosen == NO_RUN and runs:
                chosen = max(run.id for run in runs)
            if chosen != NO_RUN:
                self.start_review(chosen)
                return
        tabs.setCurrentWidget(self.panel)

    def _take_up_last_review(self) -> None:
        """The project opens with the classes shown as its last session left them; the run it reviewed is kept for
        the first time review opens (`_remembered_run`)."""
        window = self.window
        key = window.project_key()
        run = window.settings.review_run(key)
        self._remembered = NO_RUN if run is None else run
        shown = window.settings.review_classes(key)
        if shown is not None:
            self._restoring = True  # what is being restored is remembered already
            try:
                self.panel.show_only([kind for kind in KINDS if kind in shown])
            finally:
                self._restoring = False

    def _remembered_run(self) -> object:
        """The run (or annotator) the last session reviewed, the first time review opens, when the project still
        has it; else NO_RUN."""
        run, self._remembered = self._remembered, NO_RUN
        return run if run != NO_RUN and self._exists(run) else NO_RUN

    def _exists(self, choice: object) -> bool:
        project = self.window.project
        other = annotator_of(choice)
        if other is not None:
            return other in project.annotators.names()
        return any(run.id == choice for run in project.runs.all())

    def _remember(self) -> None:
        """The run under review and the classes shown, for the next start."""
        if self._restoring:
            return
        window = self.window
        shown = self.panel.shown_kinds()
        window.settings.remember_review(window.project_key(), None if self.run_id == NO_RUN else self.run_id,
                                        [kind for kind in KINDS if kind in shown])
        window.save_where_the_user_was()

    def annotator(self) -> str | None:
        """The other annotator under review (their labels against the project's), if that is the choice."""
        return annotator_of(self.run_id)

    def list_runs_again(self) -> None:
        """The runs' list is opening: runs added meanwhile (`runs --add` while the app is open) are listed."""
        self._set_runs(self.run_id)

    def _set_runs(self, current: object) -> None:
        project = self.window.project
        runs = project.runs.all()
        labelled = self._labelled_pages()
        self.panel.set_runs(runs, current, project.annotators.names(),
                            missing={run.id: len(labelled - self._pages_of(run)) for run in runs})

    def _labelled_pages(self) -> set[str]:
        return {page.name for page in self.window.project.pages() if page.status in TRUE_PAGE_STATUSES}

    def _pages_of(self, run: RunInfo) -> frozenset[str]:
        """The pages a run holds records or a failure for (read again when more were stored: a run going on)."""
        key = (run.id, run.predicted_pages)
        if key not in self._run_pages:
            self._run_pages[key] = frozenset(self.window.project.runs.predictions(run.id))
        return self._run_pages[key]

    def _missing(self, run: RunInfo | None) -> int:
        """How many labelled pages the run holds nothing for (scored as empty predictions)."""
        return len(self._labelled_pages() - self._pages_of(run)) if run is not None else 0

    def start_review(self, run_id: object) -> None:
        self._set_runs(run_id)
        self.run_id = run_id
        self.window.tabs.setCurrentWidget(self.panel)
        self.on_run_chosen(run_id)
        self._say_which_run(run_id)

    def _say_which_run(self, run_id: object) -> None:
        """Review opened on a run of a method that made others (F6 and `--review METHOD` take the latest): which
        one it is, and the others."""
        runs = self.window.project.runs.all()
        run = next((r for r in runs if r.id == run_id), None)
        same = [r.id for r in runs if run is not None and r.method == run.method]
        if run is None or len(same) < 2:
            return
        latest = ", the latest" if run.id == max(same) else ""
        self.window.message(f"reviewing run #{run.id} {run.method} ({run_started_and_origin(run)}){latest} of "
                            f"{len(same)} {run.method} runs ({listed([f'#{i}' for i in same])}); the run list in "
                            "the Review tab has the others", 15000)

    def on_tab(self) -> None:
        window = self.window
        if window.tabs.currentWidget() is self.panel:
            self._labelling_place = (window.page_name, window.page_view.scroll_y)
            remembered = self._remembered_run() if self.run_id == NO_RUN else NO_RUN
            if remembered != NO_RUN:  # the run the last session was reviewing
                self.start_review(remembered)
            else:
                # Runs may have been added meanwhile (by the CLI, or a scoring job).
                self._set_runs(self.run_id)
        window.redraw()
        if window.tabs.currentWidget() is window.record_panel:
            place, self._labelling_place = self._labelling_place, None
            if place is not None and place[0] == window.page_name:
                # Back from review on the same page: where the labelling was, not where the review's errors were
                window.page_view.scroll_to_y(place[1])

    def _run_info(self) -> RunInfo | None:
        if self.run_id == NO_RUN or self.annotator() is not None:
            return None
        try:
            return self.window.project.runs.get(self.run_id)
        except RecordLensError:
            return None

    def on_run_chosen(self, run_id: object) -> None:
        self.run_id = run_id
        self._remember()
        self._worst_order = []  # another run (or annotator): W starts from its worst page
        if run_id == NO_RUN:  # no run: none of the last one's rows stay behind
            self.review = None
            self.panel.show_page(None)
        self.show_run_figures()
        if self.annotator() is not None:
            self._predictions.pop(run_id, None)  # a set may have been imported again meanwhile
            self.panel.run_figures.setText(f"{self.annotator()} = predicted, the project's labels = true; "
                                           "T takes their record, Shift+T merges; comparing every page…")
            self._compare_all(self.annotator())
        self.window.redraw()
        if self.window.page_loaded:  # else the window does it once the page has loaded
            self.show_first_error()

    def show_first_error(self) -> None:
        """What the run got wrong is what a reviewer looks for: bring the first such record into view."""
        shown = self.panel.shown_kinds()
        wrong = [r for r in self.review.records if r.kind != MATCHED and r.kind in shown and r.xpaths
                 ] if self.review else []
        if wrong:
            self.window.page_view.scroll_to(wrong[0].xpaths[0])

    def draw(self) -> None:
        """Class the page's records against the run's and draw them over the page."""
        self._update_review()
        self.draw_shown()

    def draw_shown(self) -> None:
        """Draw the page's review as it stands, with the classes the panel shows (their toggles)."""
        if self.active():
            shown = self.panel.shown_kinds()
            self.window.page_view.show_records(overlay_records(self.review, shown, self.panel.true_numbers)
                                               if self.review else [])

    def _update_review(self) -> None:
        window = self.window
        page, name = window.page_view.core_page, window.page_name
        if name is None or page is None:
            self.review = None
            self.panel.show_page(None)
            return
        if self.run_id not in self._predictions:
            other = self.annotator()
            self._predictions[self.run_id] = (window.project.annotators.all_records(other) if other is not None
                                              else window.project.runs.predictions(self.run_id))
            self._errors[self.run_id] = {} if other is not None else window.project.runs.errors(self.run_id)
        predictions = self._predictions[self.run_id]
        texts = window.page_texts()
        self.review = review_page(predictions.get(name, []), window.project.true_records(name), texts.keys, name)
        # Said beside the page's figures, which they qualify, for as long as the page is under review (a status
        # message would outlive the review or vanish before it).
        notes = []
        failure = self._errors.get(self.run_id, {}).get(name)
        if failure is not None:  # not a page where the method found nothing
            notes.append(f"the run failed on this page ({failure}); scored as an empty prediction")
        elif name not in predictions:
            notes.append(f"annotator {self.annotator()} did not label this page" if self.annotator()
                         else "the run has no prediction for this page")
        if window.project.page(name).status not in TRUE_PAGE_STATUSES:
            notes.append("page not marked labelled: its labels may be incomplete")
        records = self.review.records
        self.panel.show_page(self.review, "; ".join(notes),
                             texts=[texts.of(r.xpaths, 60)[0] for r in records],
                             true_texts=[texts.of(r.true_xpaths, 60)[0] for r in records],
                             true_numbers=[k + 1 for k, label in enumerate(window.labels)
                                           if label.status in TRUE_LABEL_STATUSES],
                             named=[sum(1 for x in r.xpaths if page.resolve(x) is not None) for r in records],
                             entries=[texts.of(r.xpaths, 60)[1] for r in records])
        self._keep_figures_current(name)

    def _keep_figures_current(self, name: str) -> None:
        """The means and the worst pages follow the page's labels as they change here (an adjudication, an edit,
        an undo): the page's figures, just made by the same metric on the same pages, replace those the means
        were made of (a run's stored score, an annotator's comparison), which nothing else would update."""
        review, window = self.review, self.window
        if review is None:
            return
        other = self.annotator()
        if other is not None:
            found = self.agreements.get(other)
            at = next((i for i, p in enumerate(found.pages) if p.page == name), None) if found else None
            if found is None or at is None or _figures(found.pages[at].review.score) == _figures(review.score):
                return
            pages = list(found.pages)
            pages[at] = PageAgreement(name, review)
            self._after_comparing(other, [replace(found, pages=tuple(pages))])
            return
        run = self._run_info()
        if run is None:
            return
        runs = window.project.runs
        scores, stale = runs.scores(self.run_id), runs.stale_pages(self.run_id)  # read once per redraw
        stored = next((s for s in scores if s.page == name), None)
        labelled = window.project.page(name).status in TRUE_PAGE_STATUSES
        # A page the run was not scored on keeps out of its means, as in `recordlens score`.
        if stored is not None and labelled and (_figures(stored) != _figures(review.score) or name in stale):
            runs.add_scores(self.run_id, DatasetScore([review.score]))
            run, scores, stale = self._run_info(), runs.scores(self.run_id), runs.stale_pages(self.run_id)
        # Said again also when only the count of changed pages moved (a page marked labelled).
        self.panel.show_run(run, worst_pages(scores, WORST_SHOWN), stale=len(stale), scores=scores,
                            missing=self._missing(run))

    def show_run_figures(self) -> None:
        """The run's means and worst pages as stored, and how many pages changed since (Score again)."""
        runs = self.window.project.runs
        run = self._run_info()
        scores = runs.scores(self.run_id) if run else []
        self.panel.show_run(run, worst_pages(scores, WORST_SHOWN), stale=len(runs.stale_pages(self.run_id)) if run
                            else 0, scores=scores, missing=self._missing(run))

    def on_review_record(self, index: int) -> None:
        if self.review and 0 <= index < len(self.review.records) and self.review.records[index].xpaths:
            self.window.page_view.scroll_to(self.review.records[index].xpaths[0])

    # -- adjudication: another annotator's record into the project's labels -------------------------------

    def do_take(self) -> None:
        self._adjudicate(merge=False)

    def do_take_merged(self) -> None:
        self._adjudicate(merge=True)

    def _adjudicate(self, merge: bool) -> None:
        """The chosen review record, decided for the other annotator (T) or as the union of both (Shift+T).

        Their record only: added to the project's labels (origin: that annotator; by: the person adjudicating).
        Both have one (matched, partial): the project's record takes their XPaths, or both sets' XPaths. The
        project's record only: T deletes it (the other annotator made none there); Shift+T keeps it. Every
        decision is one change on the page's undo stack and in its history."""
        window = self.window
        name = self.annotator()
        if name is None or not self.active():
            window.message("adjudication takes another annotator's records: choose the annotator in the Review "
                           "tab (F6)")
            return
        index, row = self.panel.current_index(), self.panel.records.currentRow()
        if self.review is None or index is None or not 0 <= index < len(self.review.records) or (
                window.page_name is None):
            window.message("choose a record in the Review list first")
            return
        record = self.review.records[index]
        project, page, person = window.project, window.page_name, window.person
        truth = project.labels(page, TRUE_LABEL_STATUSES)
        if record.kind == SPURIOUS:
            text = f"take {name}'s record"
            change = window.edit(text, lambda: project.add_record(page, record.xpaths, Provenance.person(name),
                                                                  status="accepted", by=person, adjudicated=name))
        elif record.kind == MISSED:
            if merge:
                window.message(f"only the project has this record: kept ({name} made none here)")
                return
            label = truth[record.true]
            text = f"delete the record {name} did not make"
            change = window.edit(text, lambda: project.delete(label.id, person, adjudicated=name))
        else:
            label = truth[record.true]
            xpaths = list(dict.fromkeys([*label.xpaths, *record.xpaths])) if merge else list(record.xpaths)
            text = f"merge {name}'s record into the project's" if merge else f"take {name}'s version of the record"
            change = window.edit(text, lambda: project.edit(label.id, xpaths, person, adjudicated=name))
        window.reload_labels()
        if change is not None:
            window.message(f"page {page}: {text}" if change.id is not None else f"page {page}: already so")
            count = self.panel.records.count()
            if count:
                self.panel.records.setCurrentRow(min(row, count - 1))

    def do_worst_page(self) -> None:
        window = self.window
        if self.run_id == NO_RUN:
            window.message("choose a run in the Review tab first (F6)")
            return
        other = self.annotator()
        if other is not None and other not in self.agreements:
            window.message(f"still comparing {other} with the project's labels")
            return
        scores = self.agreements[other].pages if other is not None else window.project.runs.scores(self.run_id)
        ranked = [name for name, _ in worst_pages(scores)]
        if not ranked:
            window.message("this run is not scored yet")
            return
        # From a page W did not open, the worst one first, in the order of that moment; then on through that
        # order, which a fix made on the way (the page's F1 rising) does not reshuffle under the reviewer.
        if not self._worst_order or window.page_name != self._worst_order[self._worst_at]:
            self._worst_order, self._worst_at = ranked, 0
        else:
            self._worst_at = (self._worst_at + 1) % len(self._worst_order)
        window.jump_to_page(self._worst_order[self._worst_at])

    def _compare_all(self, name: str) -> None:
        """The annotator against the project's labels on every page both labelled, in the background: the means
        and the pages they agree least on (W goes through them), as `recordlens agreement` reports them."""
        found: list[Agreement] = []

        def work(project: Project, job: BackgroundJob) -> None:
            found.append(project_agreement(project, name, PROJECT_SET, progress=job.each))

        job = BackgroundJob(self.window.project.root, work)
        job.done.connect(lambda *_: self._after_comparing(name, found))
        self.window.jobs.start(job, f"comparing {name} with the project's labels")

    def _after_comparing(self, name: str, found: list[Agreement]) -> None:
        if not found:
            return
        result = found[0]
        self.agreements[name] = result
        if self.annotator() != name:
            return
        worst = worst_pages(result.pages, WORST_SHOWN)
        self.panel.show_run(None, worst)
        figures = (f"mean of {len(result.pages)} page(s) both labelled: P {result.precision:.3f}   "
                   f"R {result.recall:.3f}   F1 {result.f1:.3f}" if result.pages else "no page labelled by both")
        self.panel.run_figures.setText(f"{figures}\n{name} = predicted, the project's labels = true; T takes "
                                       "their record, Shift+T merges")

    def score_run(self, run_id: int) -> None:
        from ...core.store import score_stored_run

        def work(project: Project, job: BackgroundJob) -> None:
            score_stored_run(project, run_id, job.each)

        job = BackgroundJob(self.window.project.root, work)
        job.done.connect(lambda *_: self._after_scoring(run_id))
        self.window.jobs.start(job, f"scoring run {run_id}", done=lambda: self._scored_words(run_id))

    def _scored_words(self, run_id: int) -> str:
        """What the status bar says when a run is scored: its figures, not a bare "done"."""
        try:
            run = self.window.project.runs.get(run_id)
        except RecordLensError:
            return f"run {run_id} scored"
        figures = (f"P {run.precision:.3f}, R {run.recall:.3f}, F1 {run.f1:.3f}" if run.f1 is not None
                   else "no figures")
        return f"run {run_id} scored on {counted(run.scored_pages, 'page')}: {figures}"

    def _after_scoring(self, run_id: int) -> None:
        self._set_runs(run_id)
        self.on_run_chosen(run_id)
