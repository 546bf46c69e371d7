"""The project commands of `recordlens`: `project init`, `import`, `export`, `runs`, and `score --project --run`.

`core/cli/command.py` owns the parser; it calls `register(subparsers)` to add these commands, `add_score_arguments` on
its `score` parser, and `score_project_run` at the start of its score handler. Handlers return an exit code
and raise RecordLensError for anything a user must fix, like every other command.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence, Sized
from pathlib import Path
from typing import TypeVar

from ..command_hints import hint_option, hint_path, hint_words
from ..errors import RecordLensError
from ..output_paths import writable_folder
from ..page.dataset import UNFINISHED_EXPORT
from ..path_text import shown_bytes
from ..records.score import DatasetScore
from ..runs.evaluate import format_not_read, pages_not_read_message, seed_runs, seeds_asked, seeds_that_ran
from ..runs.progress import progress
from ..runs.run_files import (
    REQUESTS,
    STOPPED,
    cost_requests,
    holds_a_single_run,
    made_on_other_pages,
    other_pages_message,
    records_read_once,
)
from ..runs.runner import run_folders_held
from ..store import PROJECT_DB, RestoredPage, StoreError, check_removable, remove_page, removed_copy, restore_page
from ..store.exporter import FORMATS, ExportSummary, export_file, export_project
from ..store.files import SNAPSHOTS
from ..store.import_layout import project_folder_of
from ..store.import_marks import AskedImport, imports_under_way, stopped_imports_said
from ..store.importer import ADD_IT_THEN, RunFolderImport, import_paths, import_run_folder
from ..store.label_sets import check_annotator_name
from ..store.page_removal import check_restorable
from ..store.project import PROJECT_DB_FILES, init_project, open_project
from ..store.run_matching import MATCHING_ONLY
from ..store.run_settings_check import refuse_a_folder_of_other_settings, refuse_a_stored_run_of_other_settings
from ..store.runs import INTERRUPTED, RunInfo, folders_told_apart, method_settings, run_origin
from ..store.schema import SCHEMA_VERSION
from ..store.scoring import RunComparison, compare_stored_runs, mean_f1s, score_stored_run
from ..text_forms import cell, column_width
from ..wording import counted, listed, shortened
from .argument_advice import new_one_taken, written_folder_refused, written_folder_verdict
from .output import COMMAND_STOPS, Replacing, print_json

Progress = Callable[[Sequence[str]], Iterable[str]]


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("project", help="create a project, a folder with project.db and snapshots/ (init); copy a "
                                       "whole one (copy); take a page out of one and put it back (remove-page, "
                                       "restore-page)")
    actions = p.add_subparsers(dest="project_action", metavar="ACTION", required=True)
    q = actions.add_parser("init", help="create an empty project in DIR")
    q.add_argument("dir", metavar="DIR", help="the project's folder, made if it is not there (one that holds other "
                                              "files is taken, and said)")
    q.set_defaults(handler=cmd_project_init)
    q = actions.add_parser("copy", help="copy a whole project to a new folder (for another machine or a colleague)",
                           description="Copy everything the project holds (pages, labels and their statuses and "
                                       "history, other annotators' labels, runs and scores, agent data, its models) "
                                       "to DEST, a new or empty folder. Safe while the app has the project open. "
                                       "Exports, by contrast, write what other tools read and leave the rest out.")
    q.add_argument("project", metavar="DIR", help="the project's folder")
    q.add_argument("dest", metavar="DEST", help="a new or empty folder to copy it to")
    q.set_defaults(handler=cmd_project_copy)
    q = actions.add_parser("remove-page", help="take a page out of the project (one imported by mistake)",
                           description="Take pages out of the project. Everything the project holds about each page "
                                       "(its labels and their history, other annotators' labels, runs' predictions "
                                       "and scores) is first written to DIR/removed/ID-NAME.TIME.json; the snapshot "
                                       "stays in DIR/snapshots/. A page of an agent site is refused.")
    q.add_argument("names", nargs="+", metavar="PAGE", help="the name of a page of the project, as its page list "
                                                          "shows it")
    q.add_argument("--project", required=True, metavar="DIR", help="the project's folder")
    q.set_defaults(handler=cmd_remove_page)
    q = actions.add_parser("restore-page", help="put back a page taken out with remove-page",
                           description="Put back pages from their copies in DIR/removed/ (the files remove-page "
                                       "wrote): the page, its labels and their history, other annotators' labels, "
                                       "and the predictions and scores of runs the project still holds. Each copy "
                                       "then moves to DIR/removed/restored/. Every copy is checked first: those that "
                                       "cannot be put back are said, the others put back (exit 1; 2 when none is). "
                                       "A copy of a page the project holds already (restored before) only moves. "
                                       "A page of the copy's name and bytes imported again since takes the copy's "
                                       "rows beside its own when none would be overwritten (the project's labels onto "
                                       "a page without any, other annotators' labels, other runs'); else the copy is "
                                       "refused, naming what both hold.")
    q.add_argument("copies", nargs="+", metavar="FILE", type=Path,
                   help="a copy remove-page wrote, DIR/removed/ID-NAME.TIME.json")
    q.add_argument("--project", required=True, metavar="DIR", help="the project's folder")
    q.set_defaults(handler=cmd_restore_page)

    p = sub.add_parser("import", help="add saved pages and datasets to a project",
                       description="Import MHTML and HTML files, folders of them, and datasets (DIR/html/ plus "
                                   "DIR/gt/, whose records become accepted labels, kept verbatim). Each page goes in "
                                   "whole or not at all; broken files are reported with the reason and skipped. A "
                                   "file whose bytes are already a page of the project, under its name or another "
                                   "(a copy or a link of it), is not imported again, and that page is named; a "
                                   "dataset's page with labels of its own is imported as its own page even so. A "
                                   "folder's subfolders are not looked into (said). A page name holding a line "
                                   "break or another control character is refused.")
    p.add_argument("paths", nargs="+", metavar="PATH",
                   help="an .mhtml or .html file, a folder of them, or a dataset folder (DIR/html/ and DIR/gt/)")
    p.add_argument("--project", required=True, metavar="DIR", help="the project's folder")
    p.add_argument("--replace-labels", action="store_true",
                   help="a page already in the project whose labels in the dataset differ takes the dataset's "
                        "labels (edited ground truth imported again); its earlier labels stay in its history, "
                        "restorable in the app (Ctrl+H)")
    p.add_argument("--annotator", metavar="NAME",
                   help="the datasets are another annotator's labels: keep them in NAME's own label set, apart from "
                        "the project's labels (pages the project lacks are imported without project labels); "
                        "compare with `recordlens agreement`. A name is kept as given (refused with a space at "
                        "either end, or as another spelling of a set's name); importing a set's pages again "
                        "replaces them, the earlier labels kept in P/removed/annotators/ (`recordlens annotators`)")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    p.set_defaults(handler=cmd_import)

    p = sub.add_parser("export", help="write a project's labels as a dataset, JSON Lines or CSV",
                       description="nexteval: a dataset of the pages marked labelled or reviewed, OUT/html/N.* (the "
                                   "snapshot) and OUT/gt/N.json (their accepted and edited records; proposed and "
                                   "rejected records are left out). Pages still new or in progress are left out and "
                                   "named, unless --all-pages, which writes their snapshots too, without gt. "
                                   "jsonl / csv: every page, and every record of it with its status, provenance, "
                                   "texts and the adjudication decisions in force on it (a page with no record on a "
                                   "line of its own), in OUT/labels.jsonl or "
                                   "OUT/labels.csv (UTF-8; the CSV has no byte-order mark: in Excel use Data > From "
                                   "Text/CSV; a cell a spreadsheet would run as a formula starts with an added '). "
                                   "Files get the mode the umask gives.")
    p.add_argument("--project", required=True, metavar="DIR", help="the project's folder")
    p.add_argument("--format", "-f", required=True, choices=FORMATS,
                   help="nexteval: a dataset (html/, gt/); jsonl or csv: every record with its status")
    p.add_argument("--out", "-o", required=True, metavar="DIR",
                   help="the folder to write the dataset or the labels file in: nexteval, one holding no dataset "
                        "yet (other files there stay); jsonl and csv replace their labels file there")
    p.add_argument("--all-pages", action="store_true",
                   help="nexteval: also write the html of pages not labelled yet (with no gt/N.json)")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    p.set_defaults(handler=cmd_export, only_reads=True)

    p = sub.add_parser("runs", help="list a project's runs, add a folder of predictions as a run, delete one, or "
                                    "compare two page by page",
                       description="List the runs stored in a project with their mean scores. With --add, store "
                                   "the predictions in RUN_DIR/N.json as a new run (method and parameters from "
                                   "RUN_DIR/_run/run.json when present, else --method). With --delete ID, take a "
                                   "run out of the project with its predictions and scores (its predictions kept "
                                   "first as a run folder in DIR/removed/runs/, which --add stores again). With "
                                   "--compare A B, each labelled page's F1 in A and in B and the difference, and the "
                                   "means; a run not scored yet, or whose pages' labels changed since, is scored "
                                   "first, as `recordlens score --project DIR --run ID` does. A page whose saved "
                                   "copy cannot be read is left out of both runs, as score leaves it out: named, "
                                   "exit status 1.")
    p.add_argument("--project", required=True, metavar="DIR", help="the project's folder")
    action = p.add_mutually_exclusive_group()
    action.add_argument("--add", metavar="RUN_DIR", help="a folder of predicted N.json to store as a run")
    action.add_argument("--delete", type=int, metavar="ID",
                        help="take run ID out of the project with its predictions and scores; its predictions are "
                             "first written to DIR/removed/runs/ID-METHOD.TIME/, a run folder that --add stores again")
    action.add_argument("--compare", type=int, nargs=2, metavar=("A", "B"),
                        help="the F1 of runs A and B page by page, by difference (B less A, lowest first)")
    p.add_argument("--method", help="the method's name for --add when the folder does not say it")
    p.add_argument("--json", action="store_true",
                   help="print the runs as JSON; with --add, only the run(s) the folder is stored as, each with its "
                        "id and stored_now (false: it was stored already)")
    p.set_defaults(handler=cmd_runs, only_reads=_lists_runs)


def _lists_runs(args: argparse.Namespace) -> bool:
    """`runs` lists the runs (no --add, --delete, nor --compare, which scores runs not scored yet)."""
    return not (args.add or args.delete is not None or args.compare)


def add_score_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--project", metavar="DIR", help="score a run stored in this project against its labels")
    parser.add_argument("--run", type=int, metavar="ID", help="the stored run (see `recordlens runs`)")


def score_project_run(args: argparse.Namespace, progress: Progress = lambda names: names
                      ) -> tuple[DatasetScore, list[str], dict[str, str]] | None:
    """Scores, warnings and the pages the run failed on (page -> why) for `score --project DIR --run ID`; None
    when the folder form is used (checked)."""
    folder_form = {name: getattr(args, name, None) for name in ("pred", "gt", "pages")}
    project_form = {"project": args.project, "run": args.run}
    if not any(v is not None for v in project_form.values()):
        missing = [f"--{name}" for name, value in folder_form.items() if value is None]
        if missing:
            raise RecordLensError(f"score needs --pred, --gt and --pages, or --project and --run "
                                  f"(missing {', '.join(missing)})")
        return None
    if any(v is not None for v in folder_form.values()):
        raise RecordLensError("score takes either --project and --run or --pred, --gt and --pages, not both")
    if None in project_form.values():
        raise RecordLensError("score --project needs --run ID, and --run needs --project DIR")
    say_imports_under_way(args.project, "the figures are")
    with open_project(args.project) as project:
        _refuse_a_run_of_other_pages(project, args.run)  # before any score is stored
        # which refuses a run of two settings; a page whose saved copy cannot be read is left out, as a dataset's is
        return score_stored_run(project, args.run, progress, leave_out_unread=True)


def _refuse_a_run_of_other_pages(project, run_id: int) -> None:  # noqa: ANN001 - a Project
    """A run that holds nothing for any page scored is most likely a run of other pages: refused rather than
    scored 0 (a run that stopped or was interrupted before its first page is scored: its pages count as empty
    predictions)."""
    from ..store.scoring import labelled_page_names

    run = project.runs.get(run_id)
    scored = labelled_page_names(project)
    if run.outcome in ("stopped", INTERRUPTED) or not scored or set(project.runs.page_names(run_id)) & set(scored):
        return
    raise RecordLensError(f"run {run_id} holds no prediction for any of the {len(scored)} page(s) marked labelled "
                          "or reviewed: a run of other pages? (`recordlens runs --project P` lists the runs)")


def cmd_project_copy(args: argparse.Namespace) -> int:
    from ..store.project_copy import copy_project

    _refuse_a_copy_as_given(args)
    copied = copy_project(args.project, args.dest)
    print(shown_bytes(f"copied the project {hint_path(args.project)} to {hint_path(copied.destination)}: "
                      f"{copied.pages} page(s), {copied.labels} label(s) with their history, {copied.runs} run(s), "
                      f"{copied.annotators} other annotator(s), {copied.files} file(s) beside the database"))
    if copied.brought_up_from is not None:  # a colleague's earlier RecordLens, say, could not open the copy
        print(f"recordlens: the copy {hint_path(copied.destination)} is of schema {SCHEMA_VERSION} (brought up from "
              f"the project's schema {copied.brought_up_from}): earlier RecordLens versions cannot open it; the "
              "project copied is left as it was (for the RecordLens that made it, copy its folder as it is, `cp -r`, "
              "while no RecordLens has it open)", file=sys.stderr)
    for note in copied.notes:  # hidden folders of killed copies removed; an unfinished import the copy holds
        print(shown_bytes(f"recordlens: {note}"), file=sys.stderr)
    return 0


def _refuse_a_copy_as_given(args: argparse.Namespace) -> None:
    """`project copy DIR DEST` refused as the user gave it, with the command line to type instead, before the copy's
    own checks (which name the destination by its absolute path, and a source that is no project as one to create):
    the two folders swapped (the project given second), a folder inside the project given for it (its snapshots/),
    a destination the copy refuses (`WRITTEN_FOLDERS`: not empty, inside the project)."""
    source, dest = Path(args.project), Path(args.dest)

    def line(project: object, into: object) -> str:
        return f"`{hint_words(['recordlens', 'project', 'copy', project, into])}`"

    if not (source / PROJECT_DB).is_file():
        holding = project_folder_of(source) if source.is_dir() else None
        if holding is not None:
            raise RecordLensError(f"{hint_path(args.project)} lies in the project {hint_path(holding)}: copy the "
                                  f"project itself, as in {line(holding, args.dest)}")
        if (dest / PROJECT_DB).is_file():
            # the swapped line, into the folder given first when the copy takes it, else into a new one beside it
            swapped = argparse.Namespace(project=args.dest)
            verdict = written_folder_verdict("project copy", "dest", args.project, swapped)
            named, why, into = hint_path(args.project), "", args.project
            if verdict is not None and not verdict[0]:
                why = (f" ({named} {verdict[1].removeprefix('it ')})" if source.is_dir()
                       else f" ({named} is a file: {verdict[1]})")
                into = new_one_taken("project copy", "dest", args.project, swapped) or "NEW"
            raise RecordLensError(f"{hint_path(args.dest)} is the project, and {named} is none: project copy takes "
                                  f"the project first, then the folder to copy it to{why}, as in "
                                  f"{line(args.dest, into)}")
        return  # no project either way: the copy says so
    refused = written_folder_refused("project copy", "dest", args.dest, args, "DEST",
                                     lambda new: f"in {line(args.project, new)}")
    if refused:
        raise RecordLensError(refused)


def cmd_project_init(args: argparse.Namespace) -> int:
    folder = Path(args.dir)
    # what an unfinished init left (an empty project.db, snapshots/), which init takes over, is not the user's
    own = {*PROJECT_DB_FILES, SNAPSHOTS}
    held = sorted(e.name for e in folder.iterdir() if not e.name.startswith(".") and e.name not in own
                  ) if folder.is_dir() else []
    with init_project(folder) as project:
        print(shown_bytes(f"created project {hint_path(project.root)}"))
    if held:  # a dataset's folder made a project by mistake is easier to see now than later
        _warn(f"{hint_path(folder)} held {len(held)} entries already ({listed(held)}); the project's files are beside "
              "them (its pages come in with `recordlens import`)")
    return 0


# What a removed page held, as said: (one, several) of each table's rows
ROW_WORDS = {"records": ("label", "labels"), "label_history": ("history entry", "history entries"),
             "annotator_labels": ("record in another annotator's labels", "records in other annotators' labels"),
             "predictions": ("run prediction", "run predictions"), "scores": ("run score", "run scores")}


def _held(rows: dict[str, int]) -> str:
    """A removed or restored page's rows, per table, as said ("19 labels, 1 history entry")."""
    return ", ".join(counted(n, *ROW_WORDS[table]) for table, n in rows.items() if table in ROW_WORDS) or (
        "no labels, history or runs")


def cmd_remove_page(args: argparse.Namespace) -> int:
    with open_project(args.project) as project:
        # A page removed already (the same command, stopped part way, run again) is said and passed over
        done = {name: kept for name in dict.fromkeys(args.names) if (kept := removed_copy(project, name))}
        wanted = [name for name in dict.fromkeys(args.names) if name not in done]
        for name in wanted:
            check_removable(project, name)  # every page checked before any goes
        for name, kept in done.items():
            print(shown_bytes(f"page {name} was removed already; kept in {hint_path(kept)}"))
        for name in wanted:
            removed = remove_page(project, name)
            again = " (the copy an earlier removal of it, stopped part way, had written)" if removed.left_before else ""
            print(shown_bytes(f"removed page {name} ({_held(removed.rows)}); kept in {hint_path(removed.kept)}{again}"))
    return 0


def cmd_restore_page(args: argparse.Namespace) -> int:
    """Every copy checked before any page is put back: each one refused is said (the file named, and why), the
    others put back. Exit 0 when all were, 1 when some were not, 2 when none was."""
    copies = list(dict.fromkeys(args.copies))
    with open_project(args.project) as project:
        refused = [copy for copy in copies if not _restorable(project, copy)]
        done = 0
        for copy in (copy for copy in copies if copy not in refused):
            try:  # checked, yet another copy of the batch may have put back a page of its name
                restored = restore_page(project, copy)
            except StoreError as error:
                _say_refused(error)
                refused.append(copy)
                continue
            done += 1
            print(shown_bytes(_restored(restored, copy)))
    if refused:
        print(f"{counted(len(refused), 'copy', 'copies')} of {len(copies)} not put back", file=sys.stderr)
    return 0 if not refused else 1 if done else 2


def _restorable(project, copy: Path) -> bool:  # noqa: ANN001 - a Project
    try:
        check_restorable(project, copy)
    except StoreError as error:
        _say_refused(error)
        return False
    return True


def _say_refused(error: StoreError) -> None:
    print(shown_bytes(f"recordlens: error: {error}"), file=sys.stderr)


def _restored(restored: RestoredPage, copy: Path) -> str:
    """What a copy put back did, as said."""
    if restored.back_already:  # a restore killed after its commit, or a second copy of the same page
        return (f"page {restored.name} was restored already (the project holds the page {hint_path(copy)} holds: "
                f"restored from it or another copy of it); its copy moved to {hint_path(restored.moved_to)}")
    gone = (f"; {restored.left_out} prediction(s) and score(s) of runs no longer in the project left out"
            if restored.left_out else "")
    if restored.beside:  # the page was imported again since its removal: the copy's rows went beside its own
        alike = (f"; {listed(list(restored.same_sets))}'s labels of it held already, alike" if restored.same_sets
                 else "")
        return (f"restored page {restored.name} ({_held(restored.rows)}) onto the page {restored.name} the project "
                f"holds now (the same bytes, imported again since it was removed), beside what it holds{alike}{gone}; "
                f"its copy moved to {hint_path(restored.moved_to)}")
    return (f"restored page {restored.name} ({_held(restored.rows)}){gone}; its copy moved to "
            f"{hint_path(restored.moved_to)}")


def cmd_import(args: argparse.Namespace) -> int:
    # Checked before the project is opened: a name is kept as given, or refused (see check_annotator_name).
    annotator = check_annotator_name(args.annotator) if args.annotator is not None else None
    if annotator is not None and args.replace_labels:
        raise RecordLensError("--replace-labels is for the project's own labels; an annotator's are replaced by "
                              "importing them again with --annotator")
    reached = _Reached()
    # the imports of the project stopped part way, said first; but the one this import runs again: it finishes it
    _say_stopped_imports(args.project, AskedImport.of(args.paths, annotator, replace_labels=args.replace_labels))
    with open_project(args.project) as project:
        try:
            report = import_paths(project, args.paths, annotator=annotator, replace_labels=args.replace_labels,
                                  progress=lambda items: reached.counting(progress(items, label="importing",
                                                                                   enabled=not args.quiet), items))
        except COMMAND_STOPS:  # Ctrl+C, SIGTERM, stdout gone: each page comes in whole or not at all
            print(_import_stopped(reached, annotator), file=sys.stderr)
            raise
    for message in report.warning_lines():
        _warn(message)
    for problem in report.problems:
        print(f"not imported: {problem}", file=sys.stderr)
    for line in report.label_lines(annotator):
        print(line)
    print(shown_bytes(report.summary(annotator)))  # a set-aside folder's restore hint names the project
    if report.full_disk:  # stopped at the first page that met it, as every command stops on a full disk
        print(f"recordlens: error: {report.stopped_line()}", file=sys.stderr)
        return 2
    return 1 if report.problems or report.unfinished else 0


def say_stopped_imports(args: argparse.Namespace) -> None:
    """The imports of the command's project that stopped part way (killed, the disk full), said as a command that
    names the project begins, as every command that reads a dataset names an export of it that did not finish;
    `import` says them itself, all but the one it runs again (`cmd_import`)."""
    folder = getattr(args, "project", None)
    if folder is not None and getattr(args, "handler", None) is not cmd_import:
        _say_stopped_imports(folder)


def _say_stopped_imports(folder: str | Path, run_again: AskedImport | None = None) -> None:
    for line in stopped_imports_said(Path(folder), run_again=run_again):
        print(f"recordlens: {line}", file=sys.stderr, flush=True)


def say_imports_under_way(folder: str | Path, what: str) -> None:
    """Each import into the project at `folder` that another process runs now, said as a command that gives `what`
    ("the figures are") of the project's labels begins: of the pages imported so far (`MarkedImport.under_way`)."""
    for found in imports_under_way(Path(folder)):
        _warn(found.under_way(Path(folder), what))


T = TypeVar("T")


def _import_stopped(reached: _Reached, annotator: str | None) -> str:
    """What a stopped import did, and what running it again does."""
    stopped = f"import stopped after {reached.done} of {reached.total} pages"
    if annotator is None and reached.total and reached.done == reached.total:
        # Stopped in its closing steps (the check of the project's labels): "imports the rest" would promise work
        # that is not there
        return (f"import stopped after its last page ({reached.done} of {reached.total} pages): no page is left to "
                "import (running the same command again only says what the project holds of them)")
    if annotator is None:
        return (f"{stopped}; running the same command again imports the rest (the pages already in the project "
                "are left as they are)")
    # An annotator's labels are stored together once every page is read (store_annotator_pages)
    return (f"{stopped}; none of {annotator}'s labels were stored (they are stored together at the end; pages "
            "new to the project are in, without labels): running the same command again imports them all")


class _Reached:
    """How far a command's loop over pages got: for saying, when it is stopped, what it did. A page is done when
    the loop asks for the next one (or ends): the one in hand when it stopped is not."""

    def __init__(self) -> None:
        self.total = 0
        self.done = 0

    def counting(self, iterator: Iterator[T], items: Sized) -> Iterator[T]:
        self.total = len(items)
        for item in iterator:
            yield item
            self.done += 1


def _export_stopped(reached: _Reached, out: str, replacing: Replacing | None) -> str:
    """What a stopped export left: a jsonl or csv export streams its one file into a hidden temporary file that
    replaces the target only once whole (removed when stopped), so nothing (an earlier file stays as it was); a
    nexteval export writes page by page, its folder marked unfinished."""
    stopped = f"export stopped after {reached.done} of {reached.total} pages"
    if replacing is not None:
        kept = f"; the earlier {hint_path(replacing.path)} is left as it was" if replacing.existed else ""
        return (f"{stopped}; nothing was written (the file replaces the target only once whole){kept}: run the same "
                "command again")
    if not (Path(out) / UNFINISHED_EXPORT).exists():  # stopped before its first file
        return f"{stopped}; nothing was written: run the same command again"
    return (f"{stopped}; {hint_path(out)} holds an unfinished export ({UNFINISHED_EXPORT} says so), which a new export "
            f"refuses: remove it (or choose an empty folder) and export again")


def cmd_export(args: argparse.Namespace) -> int:
    writable_folder(args.out, "the export")
    # jsonl and csv: one file, replaced whole (nexteval refuses a folder that holds a dataset)
    replacing = Replacing(export_file(args.out, args.format)) if args.format != "nexteval" else None
    reached = _Reached()
    say_imports_under_way(args.project, "the export is")
    with open_project(args.project) as project:  # only reads: on read-only media, exported where it is
        try:
            summary = export_project(project, args.format, args.out, all_pages=args.all_pages,
                                     progress=lambda items: reached.counting(progress(items, label="exporting",
                                                                                      enabled=not args.quiet), items))
        except COMMAND_STOPS:  # Ctrl+C, SIGTERM, stdout gone
            print(_export_stopped(reached, args.out, replacing), file=sys.stderr)
            raise
    # The file itself for jsonl and csv: --out is the folder it goes in, which a name like labels.jsonl hides
    written = args.out if replacing is None else replacing.path
    print(shown_bytes(f"exported {_exported(summary, args.format, args.all_pages)} as {args.format} to "
                      f"{hint_path(written)}"))
    if replacing is not None:
        replacing.said()
        _say_leftovers_removed(summary, replacing.path)
    if summary.unlabelled:
        names = ", ".join(summary.unlabelled[:10]) + (" …" if len(summary.unlabelled) > 10 else "")
        what = "html only, no gt" if args.all_pages else "left out"
        print(f"{len(summary.unlabelled)} page(s) not labelled ({what}): {names}", file=sys.stderr)
    if summary.unfinished_records:
        _warn(_unfinished_records_left_out(summary.unfinished_records))
    if summary.proposals_left_out or summary.rejected_left_out:
        _warn(f"{summary.proposals_left_out} proposed and {summary.rejected_left_out} rejected record(s) on labelled "
              "pages were not exported (only accepted and edited records are ground truth)")
    # What the format cannot hold, said once, with the way to keep it all.
    held = ("a dataset holds pages and their true records only: statuses, provenance, history" if
            args.format == "nexteval" else f"{args.format} holds the labels with their statuses and provenance: "
            "their history")
    print(f"({held}, other annotators' labels and runs stay in the project; `recordlens project copy` copies it "
          "whole)", file=sys.stderr)
    for message in summary.warnings:
        _warn(message)
    # A page not written is work left undone (the dataset lacks it): each said, and the status says it
    for why in summary.refused.values():
        print(f"not exported: {why}", file=sys.stderr)
    return 1 if summary.refused else 0


def _unfinished_records_left_out(held: dict[str, int]) -> str:
    """The accepted and edited records an export left out on pages not marked labelled, counted as the proposed
    and rejected records it leaves out of labelled pages are: "not labelled" alone reads as "holds no labels"."""
    pages = listed([f"{name} ({counted(count, 'record')})" for name, count in held.items()], 10)
    return (f"{sum(held.values())} accepted or edited record(s) on {counted(len(held), 'page')} not marked labelled "
            f"were not exported ({pages}): they are ground truth once their page is marked labelled; then export "
            "again")


def _say_leftovers_removed(summary: ExportSummary, target: Path) -> None:
    """Name the hidden files that earlier exports of `target`, killed part way, had left and this one removed:
    disk space given back, and files the user may have seen, which are no longer there."""
    removed = summary.leftovers_removed
    if removed.files:
        print(f"removed {counted(removed.files, 'hidden file')} ({_size(removed.size)}) beside {hint_path(target)}, "
              "left by earlier exports killed part way (kill -9)", file=sys.stderr)


def _size(size: int) -> str:
    """A size in bytes as a reader takes it in: "312 bytes", "4.2 MB"."""
    for unit, step in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if size >= step:
            return f"{size / step:.1f} {unit}"
    return counted(size, "byte")


def _exported(summary: ExportSummary, fmt: str, all_pages: bool) -> str:
    """What an export wrote, counted as written: with --all-pages, the pages not labelled apart (html only)."""
    refused = f"; {len(summary.refused)} not exported" if summary.refused else ""  # named below, with why
    if fmt == "nexteval" and all_pages and summary.unlabelled:
        return (f"{summary.pages} labelled page(s) with their {summary.records} record(s) as ground truth and "
                f"{len(summary.unlabelled)} more page(s) without (html only){refused}")
    return f"{summary.pages} page(s), {summary.records} record(s){refused}"


def cmd_runs(args: argparse.Namespace) -> int:
    if args.compare:
        return _compare_runs(args)
    left_out = False
    added: dict[int, bool] = {}  # the runs --add stored or found stored already -> whether it stored them now
    with open_project(args.project) as project:
        folders = _run_folders(Path(args.add)) if args.add else []
        # every seed's lock (and their folder's), before any is stored and until the last is: a run with --seeds is
        # stored whole or not yet, and an extract started into any of them meanwhile is refused
        notes: list[str] = []
        with run_folders_held(folders, ADD_IT_THEN, notes), records_read_once():
            for note in notes:
                _warn(note)
            for folder in folders:  # every seed checked before any is stored
                refuse_a_folder_of_other_settings(folder)
            for folder in folders:
                run_id, stored, lacking = _add_run_folder(project, folder, args.method)
                added[run_id], left_out = stored, left_out or lacking
        if args.delete is not None:
            _delete_run(project, args.delete, args.project)
        runs = project.runs.all()
        stale = {run.id: project.runs.stale_pages(run.id) for run in runs}
        why = {run.id: project.runs.why_stale(run.id) for run in runs if stale[run.id]}
    if args.json and args.add:  # what was added, each run with its id (and whether this command stored it)
        print_json([run_document(run, stale[run.id]) | {"stored_now": added[run.id]} for run in runs
                    if run.id in added])
    elif args.json:
        print_json([run_document(run, stale[run.id]) for run in runs])
    else:
        print(format_runs(runs, args.project, why))
    return 1 if left_out else 0


def _run_folders(folder: Path) -> list[Path]:
    """The runs a folder given to `runs --add` holds: itself, or for a run written with --seeds N (seed-S/
    folders and no run of its own) each seed's folder the run ran, stored as a run of its own (said). A seed begun
    but stopped before any page of it is no seed the run ran (`seeds_that_ran`), as `score` has it: left out, and
    said with the first seed stored; when no seed ran, the seeds are given, each refused with why."""
    seeds = seed_runs(folder)
    if not seeds or holds_a_single_run(folder):
        return [folder]
    ran = seeds_that_ran(folder) or seeds
    asked = seeds_asked(folder)
    held = (f"{len(ran)} of the {len(asked)} seeds asked" if len(asked) > len(ran)
            else counted(len(ran), "seed"))
    print(f"{hint_path(folder)} holds a run written with --seeds ({held}): each seed-S/ is stored as a run of its own",
          file=sys.stderr)
    return list(ran.values())


def _add_run_folder(project, folder: Path, method: str | None) -> tuple[int, bool, bool]:  # noqa: ANN001
    """Store one run folder (`project`: a Project), saying what was stored: the run's id, whether it was stored
    now (not found stored already), and whether files of it were left out (the exit says so)."""
    added = import_run_folder(project, folder, method)
    for message in added.warnings:
        _warn(message)
    # Part of the folder not in the run: its files are named in the warnings above, once (of many files of a
    # kind, the first few: `listed`); this line counts them, and the exit says it too.
    which = "which and why" if len(added.left_out) <= 5 else "why, and name the first of them"
    without = (f" ({counted(len(added.left_out), 'file')} of it not as records: the warnings above say {which})"
               if added.left_out else "")
    # pages of the folder the project lacked when it was stored, brought in now (not extracted since)
    brought = added.now_in_project
    also = (f"; {_pages_named(brought)} {'it' if len(brought) == 1 else 'they'} held then, which the project lacked "
            "(imported since), are in the run now too" if brought else "")
    stored_as = _stored_as(folder, added)
    if added.grown:  # the same run, finished, extracted again over more pages: one run, brought up to date
        print(f"{stored_as} when it held {counted(added.carried_on_from or 0, 'page')}; "
              f"it holds more since (extracted again), those unchanged: run {added.run_id} now holds what the folder "
              f"holds, not a second run beside it (its unchanged pages keep their scores){also}{without}",
              file=sys.stderr)
    elif brought and not added.was_stopped:  # the folder unchanged: pages the project lacked then, imported since
        print(f"{stored_as} when the project lacked {_pages_named(brought)} of it; "
              f"the project holds {'it' if len(brought) == 1 else 'them'} since: run {added.run_id} now holds "
              f"{'its prediction' if len(brought) == 1 else 'their predictions'} too (its other pages keep their "
              f"scores){without}", file=sys.stderr)
    elif added.carried_on_from is not None and added.was_stopped:  # the same run gone on since (resumed)
        print(f"{stored_as} when its extract had stopped "
              f"({counted(added.carried_on_from, 'page')}); the extract went on since: run {added.run_id} now holds "
              f"what the folder holds{also}{without}", file=sys.stderr)
    elif added.carried_on_from is not None:  # finished, its pages' failures said otherwise since: brought up to date
        print(f"{stored_as}; what it holds changed since: run {added.run_id} now holds "
              f"what the folder holds{without}", file=sys.stderr)
    else:
        print(f"stored {hint_path(folder)} as run {added.run_id}{without}" if added.stored else
              f"{hint_path(folder)} is stored already, as run {added.run_id} ({_the_same_run(added)}same method, "
              f"parameters and predictions){without}; nothing stored", file=sys.stderr)
    return added.run_id, added.stored, bool(added.left_out)


def _stored_as(folder: Path, added: RunFolderImport) -> str:
    """"FOLDER was stored as run N", or for a folder moved (or copied) since "FOLDER holds run N, stored from
    WHERE": the run is known by its pages' records, wherever its folder lies."""
    if added.stored_from:
        return f"{hint_path(folder)} holds run {added.run_id}, stored from {hint_path(added.stored_from)}"
    return f"{hint_path(folder)} was stored as run {added.run_id}"


def _the_same_run(added: RunFolderImport) -> str:
    """For a folder found stored: where it was added from, when that is another folder (moved or copied since),
    and its files changed by hand since, which the run keeps its own predictions of."""
    where = (f"added from {hint_path(added.stored_from)}, the same run by its pages' records in _run/: "
             if added.stored_from else "")
    return where + (f"its prediction file{'s' if len(added.changed_by_hand) > 1 else ''} changed by hand aside, as "
                    "said above: " if added.changed_by_hand else "")


def _pages_named(pages: Sequence[str]) -> str:
    return f"page {pages[0]}" if len(pages) == 1 else f"pages {listed(list(pages), 8, total=True)}"


def _known_run(project, run_id: int, where: str) -> RunInfo:  # noqa: ANN001 - a Project
    """Run `run_id`, or an error that names the runs the project holds."""
    try:
        return project.runs.get(run_id)
    except StoreError:
        runs = project.runs.all()
    held = f"its runs are {listed([str(r.id) for r in runs], 12, total=True)}" if runs else "it holds no run"
    raise RecordLensError(f"no run {run_id} in the project {hint_path(where)}: {held} (`recordlens runs "
                          f"{hint_option('--project', where)}` lists them)")


def _delete_run(project, run_id: int, where: str) -> None:  # noqa: ANN001 - a Project
    """Take a run out of the project, saying what went and where it is kept (a run folder `--add` stores)."""
    _known_run(project, run_id, where)
    deleted = project.runs.delete(run_id)
    print(f"deleted {describe_run(deleted.run)}, started {started(deleted.run)}: "
          f"{counted(deleted.predictions, 'page prediction')} and {counted(deleted.scores, 'page score')}; its "
          f"predictions are kept in {hint_path(deleted.kept)} (`recordlens runs {hint_option('--project', where)} "
          f"{hint_option('--add', deleted.kept)}` stores the run again, to be scored again)", file=sys.stderr)


def describe_run(run: RunInfo) -> str:
    """"run 5 (repeats, from run-other)": a run as a sentence names it."""
    origin = run_origin(run.parameters, run.cost)
    return f"run {run.id} ({run.method}{', ' + origin if origin else ''})"


def _compare_runs(args: argparse.Namespace) -> int:
    first, second = args.compare
    if first == second:
        raise RecordLensError(f"--compare needs two different runs (run {first} twice)")
    say_imports_under_way(args.project, "the comparison is")
    with open_project(args.project) as project:
        runs = [_known_run(project, run_id, args.project) for run_id in (first, second)]
        for run in runs:  # both checked before either is scored
            refuse_a_stored_run_of_other_settings(project, run, args.project)
        not_read: dict[str, str] = {}
        for run in runs:
            not_read |= _score_to_the_labels(project, run, args.project)
            other = made_on_other_pages(run.cost)
            if other:  # its predictions of those pages were made on other pages: their difference says nothing
                said = other_pages_message(other, "the project's")
                _warn(f"run {run.id}: {said}")
        # a page that cannot be read is left out of both (`LEFT_OUT_UNREAD`), as `score --project` leaves it out
        comparison = compare_stored_runs(project, first, second, not_read)
        runs = [project.runs.get(run_id) for run_id in (first, second)]
    if comparison.not_read:  # said on stderr too, as `score` says it: --json would otherwise pass for every page
        _warn(pages_not_read_message(comparison.not_read, comparison.page_count))
    if args.json:
        print_json(comparison.as_dict())
    else:
        print(format_comparison(comparison, runs))
    return 1 if comparison.not_read else 0


def _score_to_the_labels(project, run: RunInfo, where: str) -> dict[str, str]:  # noqa: ANN001 - a Project
    """Score a run not scored yet, or whose pages' labels changed since, as `score --project` does (said): a
    comparison of figures made against two states of the labels would compare the labels too. The pages the score
    left out as it cannot read them (page -> why; none when the run needs no score)."""
    stale = project.runs.stale_pages(run.id)
    if run.scored_pages and not stale:
        return {}
    said = (f"{project.runs.why_stale(run.id)}: scored again" if run.scored_pages
            else "not scored yet: scored now against the project's labels")
    _refuse_a_run_of_other_pages(project, run.id)
    print(f"{describe_run(run)}: {said}, as `recordlens score {hint_option('--project', where)} --run {run.id}` does",
          file=sys.stderr)
    enabled = sys.stderr.isatty()
    scores, _, _ = score_stored_run(project, run.id, lambda names: progress(names, label=f"scoring run {run.id}",
                                                                           enabled=enabled), leave_out_unread=True)
    return scores.not_read


def format_comparison(comparison: RunComparison, runs: Sequence[RunInfo]) -> str:
    """Two runs' F1 page by page, by difference, then the means over the pages both scored and over those both
    hold a prediction for (where neither run's coverage weighs in)."""
    first, second = (f"run {run.id}" for run in runs)
    width = max(7, len(first), len(second))
    named = column_width([page.page for page in comparison.pages], least=12)
    lines = [f"F1 per page of {describe_run(runs[0])} and {describe_run(runs[1])}, by difference ({second} less "
             f"{first}, lowest first):",
             f"{cell('page', named)} {first:>{width}} {second:>{width}} {'diff':>7}"]
    for page in comparison.pages:
        none = [name for name, held in zip((first, second), page.predicted, strict=True) if not held]
        lacking = f"  (no prediction in {' or '.join(none)}: scored as an empty one)" if none else ""
        lines.append(f"{cell(page.page, named)} {page.f1[0]:{width}.4f} {page.f1[1]:{width}.4f} {page.difference:+7.4f}"
                     f"{lacking}")
    for pages, what in ((comparison.pages, f"both scored{_of_the_pages(comparison)}"),
                        (comparison.both_predicted, "both hold a prediction for")):
        mean = mean_f1s(pages)
        if mean["f1"] is None:
            lines.append(f"{cell('mean', named)} no page {what}")
            continue
        f1 = mean["f1"]
        lines.append(f"{cell('mean', named)} {f1[0]:{width}.4f} {f1[1]:{width}.4f} {mean['difference']:+7.4f}  "
                     f"(the {counted(len(pages), 'page')} {what})")
    if comparison.one_sided:
        lines.append(f"(left out: {counted(len(comparison.one_sided), 'page')} only one of the runs has a score for: "
                     f"{listed(comparison.one_sided)})")
    return "\n".join(lines + format_not_read(comparison.not_read))


def _of_the_pages(comparison: RunComparison) -> str:
    """After the mean over every page compared, when some cannot be read: over how many of how many, as `score`
    says its figures (the pages left out named below, as `score` names them)."""
    if not comparison.not_read:
        return ""
    return f"; pages {len(comparison.pages)} of {comparison.page_count}: {len(comparison.not_read)} left out, below"


def run_document(run: RunInfo, stale: list[str]) -> dict[str, object]:
    """A run as `runs --json` gives it: "status" as the table says it (a run that ended before its last page is
    "stopped"), and its pages counted as the table counts them, each field named for what it counts (the store's
    `predicted_pages` counts the failed pages too, so it is given as `pages_stored`). The store's change stamp
    (`predictions_stamp`, a row id that moves with every prediction stored) means nothing to a reader: left out.
    Its cost gives the model requests it sent (`REQUESTS`: every attempt, where "calls" counts call records), for a
    run stored before they were kept too, from its pages' records."""
    cost = {key: value for key, value in run.cost.items() if key not in MATCHING_ONLY}
    requests = cost_requests(run.cost)
    document = vars(run) | {"status": run.outcome, "stored_status": run.status,
                            "cost": cost | ({REQUESTS: requests} if requests is not None else {})}
    stored = document.pop("predicted_pages")
    document.pop("predictions_stamp", None)
    return document | {"pages_stored": stored, "pages_with_records": run.predicted_pages - run.failed_pages,
                       "failed_pages": run.failed_pages, "stale_pages": stale}


def started(run: RunInfo) -> str:
    """When a run started, to the minute, as one word ("2026-12-05T06:31Z", UTC as the project stores it)."""
    return run.started_at[:16] + "Z" if len(run.started_at) >= 16 else run.started_at


SETTINGS_WIDTH = 74  # a run's settings on its own line below its row: the table stays within 80 columns


def format_runs(runs: Sequence[RunInfo], project: str = "P", stale: dict[int, str] | None = None) -> str:
    """One row per run (within 80 columns), its origin and settings on the line below it, what a model's run spent
    (its requests and tokens) on the next, then notes. `stale`: why a run's stored scores no longer hold (its labels
    changed since, say), by run: its figures are marked (`STALE_MARK`) where they are, not only in a note below."""
    stale = {run_id: why for run_id, why in (stale or {}).items() if why}
    named = folders_told_apart(runs)  # two folders of one name, each with the folder above it
    lines = [f"{'id':>3} {'method':<8} {'status':<11} {'started':<17} {'pages':>5} {'failed':>6} {'F1 all':>6} "
             f"{'predicted':>9} {'F1 pred':>7}"]
    for run in runs:
        out_of_date = run.id in stale
        lines.append(f"{run.id:>3} {shortened(run.method, 8):<8} {run.outcome:<11} {started(run):<17} "
                     f"{run.predicted_pages - run.failed_pages:>5} {run.failed_pages:>6} "
                     f"{_figure(run.f1, 6, out_of_date)} {_coverage(run):>9} "
                     f"{_figure(run.f1_with_prediction, 7, out_of_date)}")
        settings = settings_line(run.parameters, run.cost, named)
        if settings:
            lines.append(f"    {settings}")
        if run.spent:  # what a model's run paid for, on its own line: it says why a figure is unknown, unshortened
            lines.append(f"    spent {run.spent}")
    if not runs:
        lines.append("(no runs yet)")
    if any(run.scored_with_prediction < run.scored_pages and run.f1 is not None for run in runs):  # they differ
        lines.append("(F1 all counts a scored page the run has no prediction for as an empty one; F1 pred is the "
                     "mean over the scored pages it has one for (predicted), `score`'s \"without failed\")")
    for run in runs:
        if run.outcome == "stopped":  # its F1 counts the pages it never reached as empty, as NEXT-EVAL does
            # whole, never cut: its end says what to do
            lines.append(f"(run {run.id} stopped before its last page: {run.cost.get(STOPPED)})")
        elif run.outcome == INTERRUPTED:  # its process ended (killed, crashed, power lost) while it ran
            lines.append(f"(run {run.id} was interrupted: the process running it ended before it finished; the "
                         "pages it reached are kept)")
    if any(run.failed_pages for run in runs):
        lines.append("(pages: pages with a prediction; failed: pages the method failed on, scored as empty "
                     "predictions)")
    dropped = {run.id: run.scores_dropped for run in runs if run.scores_dropped}
    for run_id, why in stale.items():  # labels changed since, or another page reader: the figures are of the
        # pages as they were
        if run_id not in dropped:
            lines.append(f"({STALE_MARK} run {run_id}'s figures are out of date: {why}; `recordlens score "
                         f"{hint_option('--project', project)} --run {run_id}` scores it again)")
    for run_id, pages in dropped.items():  # a mean of the scores left would be a figure the run never had: none
        why = stale.get(run_id) or f"the run's predictions of {counted(pages, 'page')} changed since it was scored"
        lines.append(f"(run {run_id}'s figures: none until it is scored again: {why}, and a mean of the scores it "
                     f"still holds would be a figure it never had; `recordlens score "
                     f"{hint_option('--project', project)} --run {run_id}` scores it again)")
    unscored = [str(run.id) for run in runs if run.f1 is None and not run.scores_dropped]
    if unscored:  # "-" is not a score of nothing: say how a run gets its figures, naming every run that lacks them
        which, run_id = ("", unscored[0]) if len(unscored) == 1 else (
            f"runs {listed(unscored, 12, total=True)} ", "ID")
        lines.append(f"(F1 -: {which}not scored yet; `recordlens score {hint_option('--project', project)} --run "
                     f"{run_id}` scores a run against the project's labels, as the app's Review does)")
    return shown_bytes("\n".join(lines))  # the project's folder named as the runs' folders are, and messages


def settings_line(parameters: dict[str, object], cost: dict[str, object] | None = None,
                  named: Mapping[str, str] | None = None) -> str:
    """A run's origin and settings in SETTINGS_WIDTH characters (whole in --json): the origin first, as it is
    what tells runs of one method apart (`cost`: a run stored again from its deleted copy names the folder it was
    first added from; `named`: the list's folders told apart, `runs.folders_told_apart`), then as many settings as
    fit, cut after a word."""
    origin, settings = run_origin(parameters, cost, named), method_settings(parameters)
    if len(origin) > SETTINGS_WIDTH:  # a folder name too long for the line keeps its start
        return origin[:SETTINGS_WIDTH - 1] + "…"
    room = SETTINGS_WIDTH - len(origin) - (2 if origin else 0)
    if settings and room < 12:  # too little room for a setting that says anything
        settings = "…"
    return "; ".join(part for part in (origin, shortened(settings, room)) if part)


STALE_MARK = "*"  # after a figure of `runs` scored before the labels (or the page reader) changed


def _figure(value: float | None, width: int, out_of_date: bool = False) -> str:
    """A mean F1 in `width` columns; one `out_of_date` marked, to 3 decimals so that the mark keeps the table in 80
    columns (the figure is of labels as they were: `score` gives it again, to 4)."""
    if value is None:
        return f"{'-':>{width}}"
    return f"{value:{width - 1}.3f}{STALE_MARK}" if out_of_date else f"{value:{width}.4f}"


def _coverage(run: RunInfo) -> str:
    """"4/5": of the pages scored, those the run has a prediction for ("-" before it is scored, and while some of
    its scores are gone: `RunInfo.scores_dropped`)."""
    return f"{run.scored_with_prediction}/{run.scored_pages}" if run.scored_pages and run.f1 is not None else "-"


def _warn(message: str) -> None:
    print(f"warning: {message}", file=sys.stderr)
