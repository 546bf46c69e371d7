"""`recordlens labels check`: label hygiene of datasets (`--pages DIR --gt DIR`, repeatable in pairs as `train` takes
them: their pages checked as one set, named DATASET/N when there are several) or of a project (`--project P`), as
core/records/hygiene.py finds it, and the ceiling the labels allow."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from ..command_hints import hint_path
from ..errors import RecordLensError
from ..page.dataset import unfinished_dataset
from ..records.hygiene import PageCheck, check_page, dataset_labels, summarise
from ..wording import listed
from .output import print_json, refuse_a_project_with_a_dataset, warn

if TYPE_CHECKING:
    from ..store.project import Project


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("labels", help="label hygiene (labels check)")
    labels_sub = p.add_subparsers(dest="labels_command", metavar="ACTION", required=True)
    c = labels_sub.add_parser("check", help="flag records listed twice, nested records, records that share an "
                                            "element, XPaths that resolve to nothing, and pages whose label policy "
                                            "differs from the majority")
    c.add_argument("--pages", action="append", metavar="DIR",
                   help="folder of N.html / N.mhtml (repeatable, one per --gt: the pages of several datasets are "
                        "checked as one set, each named DATASET/N)")
    c.add_argument("--gt", action="append", metavar="DIR", help="folder of ground-truth N.json (one per --pages)")
    c.add_argument("--project", metavar="DIR", help="a project: every page marked labelled or reviewed (one "
                                                      "labelled as holding no record too) and every page with "
                                                      "accepted labels (pages still in progress too, which score, "
                                                      "export and agreement leave out)")
    c.add_argument("--json", action="store_true", help="print the findings, the summary and the ceiling as JSON")
    c.set_defaults(handler=run, only_reads=True)


def label_checks(args: argparse.Namespace, *, scored_only: bool = False, unreadable: list[str] | None = None,
                 changed: list[str] | None = None, warnings: list[str] | None = None) -> Iterator[PageCheck]:
    """The checks of the labelled pages of `--project` (with `scored_only`, those a run is scored on; else those
    and every page holding records; checks the project remembers are reused) or of `--pages` + `--gt` (`unreadable`: see
    `dataset_labels`; of several datasets, each line begins with its dataset's name). `changed`, with a project:
    given the pages whose saved copy was changed by hand since it was stored (checked as it is now). `warnings`,
    with a dataset: given what import would say of the same files (`dataset_labels`)."""
    if args.project:
        from ..store.db import refuse_damaged
        from ..store.project import PROJECT_DB, open_project

        with open_project(args.project) as project:  # only reads: on read-only media, checked where it is
            # SQLite's check first: a damaged index answers queries wrongly without an error (pages "not there")
            refuse_damaged(project.db, project.root / PROJECT_DB, stopped="no label was checked")
            yield from _project_checks(project, scored_only, unreadable)
            if changed is not None:
                changed += project.label_checks.changed_by_hand
        return
    pairs = dataset_pairs(args)
    datasets = _dataset_names(pairs) if len(pairs) > 1 else {pairs[0][0]: ""}
    for pages, gt in pairs:
        dataset = datasets[pages]
        said: list[str] | None = None if unreadable is None else []
        noted: list[str] | None = None if warnings is None else []
        for name, page, records in dataset_labels(pages, gt, said, warnings=noted):
            yield check_page(f"{dataset}/{name}" if dataset else name, page, records)
        # a line of one dataset among several says which, as its pages' names do (DATASET/N)
        _add(unreadable, said, dataset)
        _add(warnings, noted, dataset)


def dataset_pairs(args: argparse.Namespace) -> list[tuple[str, str]]:
    """`--pages` and `--gt` in pairs, in order: `score`'s one of each, or `labels check`'s as many as `train` takes
    (a half missing is refused in its words, never read as the last pair alone)."""
    from .train import check_pairs

    pages, gts = _given(args.pages), _given(args.gt)
    if not pages and not gts:
        raise RecordLensError("labels check needs --pages DIR and --gt DIR, or --project DIR")
    check_pairs(pages, gts)
    return list(zip(pages, gts, strict=True))


def _given(value: str | list[str] | None) -> list[str]:
    """An option's folders: none, the one `score` takes, or those `labels check` is given."""
    return [] if value is None else [value] if isinstance(value, str) else value


def _dataset_names(pairs: list[tuple[str, str]]) -> dict[str, str]:
    """Per `--pages` folder of several, its dataset's name, as training and cross-validation name it
    (`.../name/html` -> `name`); two of one name are refused, since their pages' names would be the same."""
    from ..extract.training import dataset_name

    names: dict[str, str] = {}
    for pages, _ in pairs:
        name = dataset_name(pages)
        other = next((given for given, named in names.items() if named == name), None)
        if other is not None:
            raise RecordLensError(f"{hint_path(other)} and {hint_path(pages)} are both the dataset {name} (two "
                                  "datasets of one name, or one dataset given twice): their pages would have the "
                                  "same names; check them one at a time")
        names[pages] = name
    return names


def _add(lines: list[str] | None, of_one: list[str] | None, dataset: str) -> None:
    """One dataset's lines (`of_one`) added to all the `lines`, each led by its `dataset`'s name when there are
    several (else it is "")."""
    if lines is not None and of_one is not None:
        lines += [f"{dataset}: {line}" if dataset else line for line in of_one]


def _project_checks(project: Project, scored_only: bool, unreadable: list[str] | None) -> Iterator[PageCheck]:
    """The checks of the project's labelled pages (`labelled_page_names`), one at a time. With `unreadable`, a page
    that cannot be checked (its saved copy gone, or its row in the database changed by hand so that it names
    none) is said there and the walk goes on with the others; without it, its error stops the walk."""
    from ..store.scoring import labelled_page_names

    for name in labelled_page_names(project, scored_only=scored_only):
        if unreadable is None:
            yield project.label_checks.check(name)
            continue
        # asked first: a copy gone is no error to the check, which may be remembered from before
        why = project.saved_copy_problem(name)
        if why is None:
            try:
                yield project.label_checks.check(name)
                continue
            except (RecordLensError, OSError) as error:
                why = str(error)
        unreadable.append(f"page {name}: cannot be checked: {why}")


def with_its_exit(unfinished: str, what: str) -> str:
    """`unfinished_dataset`'s words, and that the figures or findings (`what`) are of part of the dataset, with
    the exit status that says so (1, as for any work done on part of what was asked)."""
    return f"{unfinished}; the {what} are of the pages it holds (exit status 1)"


def run(args: argparse.Namespace) -> int:
    refuse_a_project_with_a_dataset(args)
    pairs = [] if args.project else dataset_pairs(args)
    unfinished = [said for pages, _ in pairs if (said := unfinished_dataset(Path(pages))) is not None]
    for said in unfinished:  # as score says it: the findings are of what the stopped export wrote
        warn(with_its_exit(said, "findings"))
    if args.project:  # as score says it: the findings are of the pages an import under way has brought in so far
        from .project import say_imports_under_way

        say_imports_under_way(args.project, "the findings are")
    unreadable: list[str] = []  # one bad file is reported with the others' findings, not the end of the check
    changed: list[str] = []
    said: list[str] = []  # as import says them of the same files: the file read of a page saved twice, and so on
    checks = list(label_checks(args, unreadable=unreadable, changed=changed, warnings=said))
    for line in said:
        warn(line)
    if changed:  # as export says it: the findings are of the page as it is, not as it was labelled
        from ..store.exporter import changed_since_import

        for name in changed:
            warn(changed_since_import(name, "checked as it is now"))
    in_progress = _in_progress(args.project, [c.page for c in checks]) if args.project else []
    if not checks and not unreadable:
        # a mean over no page would read as perfect labels
        raise RecordLensError(f"{_nothing_labelled(args.project, pairs)}: nothing checked")
    report = summarise(checks)
    if args.json:
        print_json(report.as_dict() | {"unreadable": unreadable, "in_progress": in_progress})
    else:
        for line in [*unreadable, *report.findings()]:
            print(line)
        # with the findings on stdout: the summary holds the ceiling, a figure (`labels check > report.txt`)
        print(report.summary() + (f"; {len(unreadable)} page(s) could not be checked" if unreadable else "")
              + (f"; {len(in_progress)} of the pages checked are not marked labelled or reviewed yet ("
                 f"{listed(in_progress)}): score, export and agreement leave them out, and `score --ceiling` does"
                 if in_progress else ""))
    return 1 if unreadable or unfinished else 0


def _nothing_labelled(project: str | None, pairs: list[tuple[str, str]]) -> str:
    """That the project, or no dataset given, has a page with labels (a mean over no page would read as perfect
    labels)."""
    if project:
        return f"no page of {hint_path(project)} holds labels"
    if len(pairs) == 1:
        return f"no page in {hint_path(pairs[0][0])} has ground truth in {hint_path(pairs[0][1])}"
    given = ", ".join(f"{hint_path(pages)} with {hint_path(gt)}" for pages, gt in pairs)
    return f"none of the {len(pairs)} datasets has a page with ground truth ({given})"


def _in_progress(project_dir: str, checked: list[str]) -> list[str]:
    """Of the pages checked, those still in progress (not marked labelled or reviewed), which runs are not scored
    on."""
    from ..store.project import open_project
    from ..store.scoring import labelled_page_names

    with open_project(project_dir) as project:
        scored = set(labelled_page_names(project))
    return [name for name in checked if name not in scored]
