"""`recordlens train`: fit the offline selector on labelled pages and write a model file.

Labelled pages come from a dataset
(`--pages DIR --gt DIR`, repeatable in pairs) or from a project (`--project P`: its pages marked labelled or
reviewed, with their accepted and edited records). The same pages given in the same order, and the same seed,
give the same model file (another order gives another model). Use the model with `recordlens extract --method
selector --param model=MODEL` (or `extract --model MODEL`); `recordlens inspect MODEL` says how it was trained.
"""

from __future__ import annotations

import argparse
import sys
import time
from itertools import chain
from pathlib import Path

from ..errors import RecordLensError
from ..page.dataset import unfinished_dataset
from ..runs.progress import ProgressBar, progress
from ..wording import counted
from .output import Replacing, warn


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
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from ..extract.fit_pool import say_workers_variable_problem
    from ..extract.training import (
        FORGOTTEN_MODEL,
        ModelShape,
        check_seed,
        dataset_pages_to_read,
        few_pages_warning,
        fewest_bagged_pages,
        fit,
        fold_shapes,
        for_training,
        label_notes,
        labelled_pages_said,
        once_each,
        project_model_path,
        project_pages_to_read,
        save_model,
        save_project_model,
        unfit_fold,
        weaker_folds_note,
        writable_model_path,
    )
    from ..runs.cross_validation import check_folds, check_training

    pages_dirs, gt_dirs = args.pages or [], args.gt or []
    if args.project and (pages_dirs or gt_dirs):
        raise RecordLensError("give either --project DIR or --pages DIR --gt DIR, not both")
    if not args.project:
        _check_pairs(pages_dirs, gt_dirs)
    if not args.out and not args.project:
        raise RecordLensError("train --pages ... --gt ... needs --out MODEL")
    args.out = writable_model_path(args.out or project_model_path(args.project))
    check_seed(args.seed)
    if args.workers is not None and args.workers < 1:
        raise RecordLensError(f"--workers must be at least 1 (got {args.workers})")
    if args.workers is None:
        say_workers_variable_problem(warn)
    start = time.perf_counter()
    for pages in pages_dirs:  # before the work: a model of the pages a stopped export wrote is a model of part
        if (unfinished := unfinished_dataset(Path(pages))) is not None:
            warn(f"{unfinished}; the model is trained on the pages it holds")
    if args.project:
        sources = [project_pages_to_read(args.project)]
    else:
        sources = [dataset_pages_to_read(pages, gt) for pages, gt in zip(pages_dirs, gt_dirs, strict=True)]
    # One parsed page at a time: what training needs of each is kept (its candidates' features), not its parse.
    # Cross-validation's scores select regions on the pages, so with --cv they are kept.
    read = for_training(chain.from_iterable(sources), keep_pages=args.cv is not None)
    labelled = list(progress(read, total=sum(map(len, sources)), label="candidates", enabled=not args.quiet))
    for message in _left_out(args.project, pages_dirs, gt_dirs):
        warn(message)
    labelled, again = once_each(labelled)
    if args.cv is not None:
        check_folds(args.cv, len(labelled))  # before the work, not after it
    for twice in again:
        warn(f"{twice}: " + ("used once" if twice.same_labels else "both are used, and they disagree"))
    for message in label_notes(labelled):
        warn(message)
    if args.project:
        description = f"{labelled_pages_said(len(labelled))} of the project {Path(args.project).name}"
    else:
        description = f"{labelled_pages_said(len(labelled))} of {', '.join(sorted({lp.source for lp in labelled}))}"
    examples = [lp.example for lp in labelled]
    if args.cv is not None and (problem := unfit_fold(examples, args.cv, args.seed)) is not None:
        raise RecordLensError(f"--cv {args.cv}: {problem}")  # before the model is fitted and written
    fitting = ProgressBar("fits", enabled=not args.quiet)
    model = fit(examples, seed=args.seed, description=description, workers=args.workers, check=fitting.update)
    fitting.finish()
    # The project's own model replaced is set aside as the app's Forget sets it aside, not lost; the same model
    # again (same pages, labels and seed) is not (`save_project_model`), which is said.
    own = bool(args.project) and args.out == project_model_path(args.project)
    same = own and args.out.is_file() and args.out.read_bytes() == model.to_json().encode("utf-8")
    pushed_out = own and not same and (Path(args.project) / FORGOTTEN_MODEL).is_file()
    replacing = Replacing(args.out)
    # the same model found already (its bytes read once, here): nothing to write
    out, kept = (args.out, None) if same else save_project_model(model, args.project) if own else (
        save_model(model, args.out), None)
    size = out.stat().st_size
    print(f"{out}: selector model from {description}, seed {args.seed}, {size / 1e3:.0f} kB, "
          f"{time.perf_counter() - start:.1f} s", file=sys.stderr)
    if kept is not None:
        print(f"the project's earlier model is kept as {kept}" + (" (in place of the one set aside there before)"
                                                                  if pushed_out else ""), file=sys.stderr)
    elif same:
        print("the project's model is the one it had (the same pages, labels and seed)", file=sys.stderr)
    if not same and kept is None:  # an earlier model of the project's own is said as kept, above
        replacing.said()
    written = ModelShape.of(model)
    if (risk := few_pages_warning(written)) is not None:  # in the words of the app's Learn and Propose
        bagged_from = fewest_bagged_pages()
        unbagged = f" (bagging needs {bagged_from} pages)" if written.pages < bagged_from else ""
        warn(f"{risk}; label more pages and train again, or check its proposals on other labelled pages before "
             f"relying on it. The model written: {written}{unbagged}")
    if args.cv is not None:
        for line in check_training(examples, args.cv, args.seed, workers=args.workers).lines():
            print(line)
        # The folds fit fewer pages each: below the counts a full model needs, a weaker kind of model.
        if (note := weaker_folds_note(fold_shapes(examples, args.cv, args.seed), written)) is not None:
            print(note)
    return 0


def _check_pairs(pages_dirs: list[str], gt_dirs: list[str]) -> None:
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
            said.append(f"{len(unlabelled)} page(s) of {pages} have no labels in {gt} ({listed(unlabelled)}): "
                        "left out")
        pageless = [name for name in labels if name not in files]
        if pageless:
            said.append(f"{len(pageless)} label file(s) of {gt} have no page in {pages} ({listed(pageless)}): "
                        "left out")
    return said
