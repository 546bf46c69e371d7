"""`recordlens train`: fit the offline selector on labelled pages and write a model file.

Labelled pages come from a dataset
(`--pages DIR --gt DIR`, repeatable in pairs) or from a project (`--project P`: its pages marked labelled or
reviewed, with their accepted and edited records). The same pages given in the same order, and the same seed,
give the same model file (another order gives another model). Use the model with `recordlens extract --method
selector --param model=MODEL` (or `extract --model MODEL`); `recordlens inspect MODEL` says how it was trained.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING

from ..command_hints import hint_path
from ..errors import RecordLensError
from ..extract.training_progress import FITTING, PREPARING, TrainingProgress
from ..page.dataset import unfinished_dataset
from ..path_text import shown_bytes
from ..runs.progress import ProgressBar, progress
from ..wording import below_one, counted
from .output import Replacing, refuse_a_project_with_a_dataset, warn

if TYPE_CHECKING:
    from ..extract.selector_model import SelectorModel
    from ..extract.training import Example


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("train", help="train the offline selector on labelled pages (a dataset or a project)",
                       description=__doc__.split("\n\n")[1] if __doc__ else None)
    p.add_argument("--pages", action="append", metavar="DIR", help="folder of N.html / N.mhtml (repeatable)")
    p.add_argument("--gt", action="append", metavar="DIR", help="folder of ground-truth N.json (one per --pages)")
    p.add_argument("--project", metavar="DIR", help="a project: its pages marked labelled or reviewed")
    p.add_argument("--out", "-o", metavar="MODEL",
                   help="the model file to write (JSON); with --project the default is the project's own "
                        "model (PROJECT/models/selector.json), which the app's Propose then uses")
    p.add_argument("--seed", type=int, default=0, help="the seed (default 0)")
    p.add_argument("--workers", type=int, metavar="N",
                   help="fit in N processes at once (default: one per core this process may use; 1: none). "
                        "The model is the same whatever N")
    p.add_argument("--cv", type=int, metavar="K",
                   help="also say how good such a model is likely to be on pages it was not trained on: these "
                        "settings cross-validated in K page-grouped folds on these pages, beside the shipped model "
                        "on the same pages (K more fits, each on fewer pages: said when that makes them weaker "
                        "models than the one written)")
    p.add_argument("--force", action="store_true",
                   help="train even when the model already at the output is the one these pages, labels, seed "
                        "and RecordLens version give (said, and not trained again, otherwise)")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    p.set_defaults(handler=run, only_reads=_trains_elsewhere)


def _trains_elsewhere(args: argparse.Namespace) -> bool:
    """`train --project P --out MODEL` writing a model other than the project's own: the project is only read."""
    from ..store.learnt_model import is_project_model

    return bool(args.project and args.out) and not is_project_model(args.out, args.project)


def run(args: argparse.Namespace) -> int:
    from ..extract.fit_pool import say_workers_variable_problem
    from ..extract.training import check_seed
    from ..store.learnt_model import (
        check_project_to_train,
        is_project_model,
        project_model_path,
        training_the_project,
        writable_model_path,
    )

    refuse_a_project_with_a_dataset(args)
    pages_dirs, gt_dirs = args.pages or [], args.gt or []
    if args.project:
        check_project_to_train(args.project)
    else:
        check_pairs(pages_dirs, gt_dirs)
    if not args.out and not args.project:
        raise RecordLensError("train --pages ... --gt ... needs --out MODEL")
    # the project's own model path belongs to it: a damaged file there is set aside and replaced, not refused
    args.out = writable_model_path(args.out or project_model_path(args.project), args.project)
    check_seed(args.seed)
    wrong = below_one({"--workers": args.workers})
    if wrong:
        raise RecordLensError(wrong)
    if args.workers is None:
        say_workers_variable_problem(warn)
    start = time.perf_counter()
    own = bool(args.project) and is_project_model(args.out, args.project)
    # One training of the project's own model at a time (the app's Learn too), refused at once, before any work
    with training_the_project(args.project) if own else contextlib.nullcontext([]) as notes:
        for note in notes:
            warn(note)
        changes_seen = _last_change(args.project)
        trained = _train(args, own, start)
        if args.project:  # labels edited while the pages were read or fitted are not in the model: said
            _say_labels_changed_while_training(args, changes_seen)
        return trained


def _train(args: argparse.Namespace, own: bool, start: float) -> int:
    from ..extract.training import (
        dataset_pages_to_read,
        fit,
        for_training,
        label_notes,
        labelled_pages_said,
        model_in_place,
        once_each,
        training_entries,
        unfit_fold,
    )
    from ..runs.cross_validation import Variants, check_folds
    from ..store.learnt_model import project_description, project_model_in_place, project_pages_to_read

    pages_dirs, gt_dirs = args.pages or [], args.gt or []
    # The model in place already the one these pages give: said at once, no page read (a project remembers its
    # pages' digests), where nothing else is asked of the pages (--cv cross-validates them).
    in_place = None if args.force or args.cv is not None or not args.project else project_model_in_place(
        args.project, args.out, args.seed)
    if in_place is not None:
        _say_in_place(args.out, in_place, own, start)
        return 0
    for pages in pages_dirs:  # before the work: a model of the pages a stopped export wrote is a model of part
        if (unfinished := unfinished_dataset(Path(pages))) is not None:
            warn(f"{unfinished}; the model is trained on the pages it holds")
    if args.project:
        sources = [project_pages_to_read(args.project)]
        if own:  # news as the command starts, not after the fits: the pages are there to train on
            _say_unusable_model(args.project)
    else:
        sources = [dataset_pages_to_read(pages, gt) for pages, gt in zip(pages_dirs, gt_dirs, strict=True)]
    # Cross-validation folds synthetic variants with their source page (else it scores pages in-sample): with --cv
    # each variant among the pages is noted as it is read.
    variants = Variants()
    noted = sources if args.cv is None else [
        variants.noted(source, made_from) for source, made_from in zip(sources, _synthetic_sources(args), strict=True)]
    # One parsed page at a time: what training needs of each is kept (its candidates' features), not its parse.
    # Cross-validation's scores select regions on the pages, so with --cv they are kept.
    read = for_training(chain.from_iterable(noted), keep_pages=args.cv is not None)
    labelled = list(progress(read, total=sum(map(len, sources)), label=PREPARING, enabled=not args.quiet))
    for message in _left_out(args.project, pages_dirs, gt_dirs):
        warn(message)
    unreadable = 0
    for pages, source in [] if args.project else zip(pages_dirs, sources, strict=True):
        for name, why in source.unreadable.items():  # one bad file leaves its page out, as labels check does
            warn(f"page {name} of {hint_path(pages)} is left out: {why}; correct that file (or move it away) and "
                 "train again")
        unreadable += len(source.unreadable)
    if unreadable and not labelled:
        raise RecordLensError(f"no page could be read ({counted(unreadable, 'page')} left out, above): nothing to "
                              "train on")
    labelled, again = once_each(labelled)
    groups = variants.groups(labelled)  # each page alone but where --cv found variants
    if args.cv is not None:
        check_folds(args.cv, len(labelled), len(set(groups)))  # before the work, not after it
    for twice in again:
        warn(f"{twice}: " + ("used once" if twice.same_labels else "both are used, and they disagree"))
    for message in label_notes(labelled):
        warn(message)
    if args.project:
        description = project_description(len(labelled), args.project)
    else:
        description = f"{labelled_pages_said(len(labelled))} of {', '.join(sorted({lp.source for lp in labelled}))}"
    examples = [lp.example for lp in labelled]
    if args.cv is not None and (problem := unfit_fold(examples, args.cv, args.seed, groups=groups)) is not None:
        raise RecordLensError(f"--cv {args.cv}: {problem}")  # before the model is fitted and written
    in_place = None if args.force else model_in_place(args.out, training_entries(labelled), args.seed, description)
    if in_place is not None:  # the fits would give it again, byte for byte: skipped
        _say_in_place(args.out, in_place, own, start)
        model = in_place
    else:
        fitting = _FitsBar(enabled=not args.quiet)
        model = fit(examples, seed=args.seed, description=description, workers=args.workers, check=fitting.update)
        fitting.finish()
        _write(model, args, own, f"selector model from {description}, seed {args.seed}", start)
    if args.cv is not None:
        _say_cross_validation(examples, args, model, groups)
    elif args.project:  # a model of one stage: how it does on the project's pages, beside the shipped model
        _say_comparison(args, model)
    return 0


def _say_unusable_model(project_dir: str) -> None:
    """The project's own model that this version cannot use (damaged, cut short, of older features), said in one
    line as training starts: the model trained replaces it, and it is kept where `save_project_model` keeps it
    (said again once it is)."""
    from ..store.learnt_model import (
        FORGOTTEN_MODEL,
        UNUSABLE_MODEL,
        _is_a_model_to_keep,
        project_model,
        project_model_path,
    )

    _, why = project_model(project_dir)
    if not why:
        return
    path = project_model_path(project_dir)
    a_model = _is_a_model_to_keep(path)  # of another version: kept where Forget sets a model aside
    kept = Path(project_dir) / (FORGOTTEN_MODEL if a_model else UNUSABLE_MODEL)
    over = " (in place of the one set aside there before)" if a_model and kept.is_file() else ""
    warn(f"the project's model {hint_path(path)} is unusable ({why}): the model trained replaces it, and it is kept "
         f"as {hint_path(kept)}{over}")


class _FitsBar(ProgressBar):
    """The fits' bar, its label the app's Learn's words: "fitting, about 40 min left [###...] 6/80" once a few fits
    give a rate (`TrainingProgress.time_left`)."""

    def __init__(self, *, enabled: bool) -> None:
        super().__init__(FITTING, enabled=enabled)
        self.progress = TrainingProgress()

    def update(self, done: int, total: int | None) -> None:
        if total:
            self.progress.fitting(done, total)
            left = self.progress.time_left
            label = f"{FITTING}, {left}" if left else FITTING
            # redrawn in place, as wide each time: a shorter label would leave the end of the longer one there
            self.label = label.ljust(len(FITTING) + 30) if self.interactive else label
        super().update(done, total)


def _last_change(project_dir: str | None) -> int | None:
    """The project's latest label change committed now (0 before any; None without a project): a later one was
    made while training read the labels."""
    if not project_dir:
        return None
    from ..store import open_project

    with open_project(project_dir) as project:
        return project.last_change_id() or 0


def _say_labels_changed_while_training(args: argparse.Namespace, changes_seen: int | None) -> None:
    """Labels edited (or pages marked) while training read and fitted the project's pages, as the app's Learn says
    them: the model is of the labels as they were read, and training again includes the change. Asked only when
    a change was committed since training began (the pages' digests are then compared: `model_freshness`)."""
    from ..store import model_freshness, open_project

    with open_project(args.project) as project:
        if (project.last_change_id() or 0) <= (changes_seen or 0):
            return
        try:
            fresh = model_freshness(project, args.out)
        except (RecordLensError, OSError) as error:  # a page that cannot be read now: a note, never a failure
            warn(f"labels changed while training; whether the model written includes them cannot be told: {error}")
            return
    if fresh is not None and not fresh.current:
        warn(f"{fresh.changes()} while training: the model is learnt from the labels as they were read; train "
             "again to include the change" + ("s" if len(fresh.changed) + len(fresh.new) + len(fresh.gone) > 1
                                               else ""))


def _synthetic_sources(args: argparse.Namespace) -> list[dict[str, str]]:
    """Per source of pages (the project, or each --pages), its synthetic pages' source page digests (page name ->
    digest): a dataset's synth.json, or what a project noted on import."""
    from ..page.dataset import synthetic_sources

    if not args.project:
        return [synthetic_sources(pages) for pages in args.pages]
    from ..store import open_project
    from ..store.importer import synthetic_sources_of

    with open_project(args.project) as project:
        return [synthetic_sources_of(project)]


def _write(model: SelectorModel, args: argparse.Namespace, own: bool, what: str, start: float) -> None:
    """Write the model fitted and say where, what and how long training took. The project's own model replaced is
    set aside as the app's Forget sets it aside, not lost; the same model again (same pages, labels and seed) is
    not (`save_project_model`), which is said."""
    from ..extract.training import save_model
    from ..store.learnt_model import FORGOTTEN_MODEL, project_model, save_project_model, unusable_said

    same = own and args.out.is_file() and args.out.read_bytes() == model.to_json().encode("utf-8")
    set_aside_before = own and not same and (Path(args.project) / FORGOTTEN_MODEL).is_file()
    unusable = project_model(args.project)[1] if own and not same else ""  # a damaged or older file, replaced
    replacing = Replacing(args.out)
    # the same model found already (its bytes read once, here): nothing to write
    out, kept = (args.out, None) if same else save_project_model(model, args.project) if own else (
        save_model(model, args.out), None)
    size = out.stat().st_size
    # the command's result, as every summary that carries figures is: on stdout (README, "Output")
    print(shown_bytes(f"{hint_path(out)}: {what}, {size / 1e3:.0f} kB, trained in {time.perf_counter() - start:.1f} s"))
    if kept is not None:
        print(f"the project's earlier model{unusable_said(unusable)} is kept as {hint_path(kept)}"
              + (" (in place of the one set aside there before)" if set_aside_before and kept.name ==
                 FORGOTTEN_MODEL.name else ""), file=sys.stderr)
    elif same:
        print("the project's model is the one it had (the same pages, labels and seed)", file=sys.stderr)
    if not same and kept is None:  # an earlier model of the project's own is said as kept, above
        replacing.said()
    _warn_few_pages(model)


def _say_in_place(out: Path, model: SelectorModel, own: bool, start: float) -> None:
    """The model at `out` is the one training would write again (`training.fitted_from`): said, with what makes
    it so and how to train anyway, in place of the fits."""
    from ..store.learnt_model import in_place_said

    checked = time.perf_counter() - start
    # the command's result, on stdout as a model trained is said
    print(shown_bytes(f"{hint_path(out)}: {in_place_said(model, own)}: not trained again (checked in "
                      f"{checked:.1f} s); --force trains it anyway"))
    _warn_few_pages(model, "The model there")


def _warn_few_pages(model: SelectorModel, which: str = "The model written") -> None:
    """A model of one stage said as the app's Learn and Propose say it, with the way to a better one; `which`
    model it is (one written now, or the one already there)."""
    from ..extract.model_shape import ModelShape, few_pages_warning
    from ..extract.training import fewest_bagged_pages

    written = ModelShape.of(model)
    if (risk := few_pages_warning(written)) is not None:  # in the words of the app's Learn and Propose
        bagged_from = fewest_bagged_pages()
        unbagged = f" (bagging needs {bagged_from} pages)" if written.pages < bagged_from else ""
        warn(f"{risk}; label more pages and train again, or check its proposals on other labelled pages before "
             f"relying on it. {which}: {written}{unbagged}")


def _say_cross_validation(examples: list[Example], args: argparse.Namespace, model: SelectorModel,
                          groups: list[str]) -> None:
    """`--cv K`: these settings cross-validated on these pages (variants in their source's fold: `groups`) beside
    the shipped model, and what the folds' weaker models mean for the figure."""
    from ..extract.model_shape import ModelShape
    from ..runs.cross_validation import compare_with_shipped

    for line in compare_with_shipped(examples, args.seed, groups, ModelShape.of(model), k=args.cv,
                                     workers=args.workers).lines:
        print(line)


def _say_comparison(args: argparse.Namespace, model: SelectorModel) -> None:
    """`train --project` without --cv, of a model of one stage (too few pages, or too few with records) from 2
    pages or more: what `--cv K` prints, leaving out one page (with its variants) at a time up to 5 of them, in 5
    page-grouped folds above (`cross_validation.comparison_folds`), as the app's Learn says it: from a few pages, a
    model learnt from scratch often does worse on them than the shipped model."""
    from ..store.learnt_model import shipped_comparison

    comparing = ProgressBar("comparing with the shipped model", enabled=not args.quiet)
    comparison = shipped_comparison(args.project, model, args.seed, comparing.update, workers=args.workers)
    comparing.finish()
    for line in [] if comparison is None else comparison.lines:
        print(line)


def check_pairs(pages_dirs: list[str], gt_dirs: list[str]) -> None:
    """--pages and --gt come in pairs, in order: a missing one is named, not only the rule."""
    if pages_dirs and len(pages_dirs) == len(gt_dirs):
        return
    if not pages_dirs and not gt_dirs:
        raise RecordLensError("train needs --pages DIR --gt DIR (as many of each), or --project DIR")
    missing = "--gt" if len(pages_dirs) > len(gt_dirs) else "--pages"
    given = f"{counted(len(pages_dirs), '--pages', '--pages')} and {counted(len(gt_dirs), '--gt', '--gt')}"
    raise RecordLensError(f"{given}: a {missing} is missing; each --pages DIR goes with its --gt DIR (its labels), "
                          "in the same order")


def _left_out(project: str | None, pages_dirs: list[str], gt_dirs: list[str]) -> list[str]:
    """The pages training leaves out, said: a dataset's pages without labels, a project's pages not marked
    labelled or reviewed."""
    from ..page.dataset import page_files, record_files
    from ..wording import listed

    if project:
        from ..store import open_project
        from ..store.scoring import labelled_page_names

        with open_project(project) as opened:
            scored = set(labelled_page_names(opened))
            others = [p.name for p in opened.pages() if p.name not in scored]
        return [f"{len(others)} page(s) of the project are not marked labelled or reviewed ({listed(others)}): "
                "left out"] if others else []
    said = []
    for pages, gt in zip(pages_dirs, gt_dirs, strict=True):
        files, labels = page_files(pages), record_files(gt)
        unlabelled = [name for name in files if name not in labels]
        if unlabelled:
            said.append(f"{len(unlabelled)} page(s) of {hint_path(pages)} have no labels in {hint_path(gt)} "
                        f"({listed(unlabelled)}): left out")
        pageless = [name for name in labels if name not in files]
        if pageless:
            said.append(f"{len(pageless)} label file(s) of {hint_path(gt)} have no page in {hint_path(pages)} "
                        f"({listed(pageless)}): left out")
    return said
