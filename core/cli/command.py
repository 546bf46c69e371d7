"""The `recordlens` command. stdout holds only the document asked for; progress, warnings and logs go to stderr.

Each command group is a module of this package with a `register(subparsers)`; this one assembles them."""

from __future__ import annotations

import argparse
import contextlib
import logging
import signal
import sqlite3
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from ..command_hints import hint_path
from ..errors import RecordLensError, full_disk, is_disk_full, os_error_said
from ..interruption import Terminated
from ..lazy_import import interruption_behind
from ..runs.engines import ClusterLostError
from ..store import db as store_db
from ..store import take_upgrades
from ..store.db import database_problem
from ..store.project import PROJECT_DB, reading_as_it_is
from ..version import version_line
from . import agent, agreement, annotators, demo, evaluation, extraction, labels, pages, project, synth, train
from .argument_advice import CommandParser, advise_among
from .output import OutputLost, command_streams, end_on_lost_output, warn

Handler = Callable[[argparse.Namespace], int]


def _say_waiting() -> None:
    """Once per command: a batch that waits at every page would otherwise say it at every page."""
    print("recordlens: waiting for the project's database: another process (the app, or another command) is "
          f"writing to it (up to {store_db.BUSY_TIMEOUT_SECONDS:.0f} s at a time)", file=sys.stderr, flush=True)
    store_db.waiting_notice = None




_terminated: list[int] = []  # SIGTERM met while the command runs (Ray's waits re-raise an interruption as Ctrl+C's)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="recordlens",
        description="Label, extract and score web data records on saved pages (NEXT-EVAL compatible).")
    parser.add_argument("--version", action="version", version=version_line("recordlens"))
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True, parser_class=CommandParser)
    for group in (pages, evaluation, extraction, train, labels, demo, project, agreement, annotators, agent, synth):
        group.register(sub)
    _described(parser)
    advise_among(parser)
    return parser


def _described(parser: argparse.ArgumentParser) -> None:
    """Each command and action whose parser has no description of its own is described, at the top of its
    `--help`, by the line its parent's list gives it (argparse would show none), so no `--help` starts bare."""
    for action in parser._actions:
        if not isinstance(action, argparse._SubParsersAction):
            continue
        said = {choice.dest: choice.help for choice in action._choices_actions}
        for name, command in action.choices.items():
            if not command.description and said.get(name):
                command.description = said[name][:1].upper() + said[name][1:] + "."
            _described(command)


def main(argv: Sequence[str] | None = None) -> int:
    # No argv: the process's own command line (the installed `recordlens`), which the process ends with
    with command_streams(), _logged_warnings_said(), _sigterm_as_interruption(process_ends=argv is None):
        try:
            return _flushed(_parsed_and_run(argv))
        except OutputLost as lost:  # `--help` or `--version` into a closed pipe or onto a full disk
            return end_on_lost_output(lost)


class _SaidAsWarnings(logging.Handler):
    """Each record logged while the command runs, said as the command's other warnings (`warning: ...`, `warn`) on
    the stderr of the moment (a command's own, `command_streams`): a record never stops a command."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            warn(self.format(record))
        except Exception:  # noqa: BLE001 - logging's own way: a line that cannot be said is reported, not raised
            self.handleError(record)


@contextlib.contextmanager
def _logged_warnings_said() -> Iterator[None]:
    """What core logs (`logging.getLogger(__name__).warning`: a run left unmarked, a killed process's file removed)
    said as the command's other warnings while it runs, where the program running it set no logging up (the
    installed `recordlens`), rather than Python's last resort, which prints the bare message. A program that set
    its logging up (the app, pytest's log capture) keeps its own; the handler goes with the command, not at import."""
    if logging.getLogger(__name__).hasHandlers():  # as core's loggers look for one (fit_pool's fallback too)
        yield
        return
    root = logging.getLogger()
    handler = _SaidAsWarnings(logging.WARNING)
    root.addHandler(handler)
    try:
        yield
    finally:
        root.removeHandler(handler)


def _parsed_and_run(argv: Sequence[str] | None) -> int:
    try:
        args = build_parser().parse_args(argv)
    except KeyboardInterrupt as interruption:  # while the commands' modules load: said as an interruption later is
        return _interrupted(interruption)
    except SystemExit:  # --help, --version, a refused option: what argparse wrote is to reach stdout first
        sys.stdout.flush()
        raise
    store_db.waiting_notice = _say_waiting
    try:
        return _handled(args)
    finally:
        _say_upgrades()


def _flushed(status: int) -> int:
    """`status`, once what the command wrote to stdout has left this process (a closed pipe or a full disk met at
    the interpreter's exit would turn into its exit 120 and a message that names no command)."""
    sys.stdout.flush()
    return status


@contextlib.contextmanager
def _sigterm_as_interruption(*, process_ends: bool = False) -> Iterator[None]:
    """SIGTERM raises `Terminated` while the command runs, so that it stops as on Ctrl+C (what was done is kept
    and said) instead of dying without a word. Once: further SIGTERMs (a scheduler's, an impatient `kill` again)
    are ignored until the command ends, since one raised inside the clean-up (an `except`, a `finally`) would
    skip the rest of it: a lock left behind, a cost not recorded, the lines that say what to do next. When the
    process ends with the command (`process_ends`), they stay ignored after a SIGTERM: the interpreter's own end
    (its threads joined, its modules let go) takes some 0.2 s, and a SIGTERM met there, with the handler given
    back, killed the process by the signal instead of the exit 143 the command said. A caller that goes on (a
    test, an embedding program) gets its handler back."""
    def stop(signum: int, frame: object) -> None:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)  # until the command ends, or its process (below)
        _terminated.append(signum)  # remembered: a library's own handler may raise a plain KeyboardInterrupt again
        raise Terminated

    _terminated.clear()

    try:
        before = signal.signal(signal.SIGTERM, stop)
    except ValueError:  # not the main thread (a test's, an embedding program's): SIGTERM is left as it was
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_IGN if process_ends and _terminated else before)


def _interrupted(interruption: KeyboardInterrupt) -> int:
    """Ctrl+C (exit 130) or SIGTERM (exit 143), said in one line."""
    terminated = isinstance(interruption, Terminated) or bool(_terminated)
    print("recordlens: interrupted" + (" (SIGTERM)" if terminated else ""), file=sys.stderr)
    return Terminated.status if terminated else 130


def _say_upgrades() -> None:
    """Each project the command brought up from an earlier schema, said once, whichever command opened it (the
    store notes them: `take_upgrades`): the RecordLens that made it can no longer open it, and how to go back."""
    for upgrade in take_upgrades():
        print(f"recordlens: {upgrade.message()}", file=sys.stderr, flush=True)


def only_reads(args: argparse.Namespace) -> bool:
    """Whether the command asked only reads the projects it opens, as its parser says (`only_reads`: True, or a
    function of its arguments for a command that writes with some): a project of an earlier RecordLens is then read
    as it is, never brought up to date (`reading_as_it_is`), which a command that writes does."""
    said = getattr(args, "only_reads", False)
    return bool(said(args) if callable(said) else said)


def _handled(args: argparse.Namespace) -> int:
    """The command run, each failure said in one line with its exit status."""
    handler: Handler = args.handler
    try:
        project.say_stopped_imports(args)  # an import of its project stopped part way: said as it begins
        with reading_as_it_is() if only_reads(args) else contextlib.nullcontext():
            return _flushed(handler(args))
    except OutputLost as lost:  # the reader went away (exit 141, silently, as `| head` expects), a full disk
        return end_on_lost_output(lost)
    except ClusterLostError as error:  # the run stopped early and resumes, as on a failed model endpoint
        print(f"recordlens: error: {error}", file=sys.stderr)
        return error.exit_status
    except RecordLensError as error:
        print(f"recordlens: error: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"recordlens: error: {_write_failed(error, args)}", file=sys.stderr)
        return 2
    except sqlite3.Error as error:
        # The project's database refused: another process holds it, its disk is full, or a query deep inside the
        # command met it damaged. One line, and what to do (with a damaged one, the file named).
        print(f"recordlens: error: {database_problem(error, database=_project_database(args))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as interruption:
        return _interrupted(interruption)
    except ImportError as error:
        # A module loaded part way through the command (not through `lazy_import.load`) that a Ctrl+C or SIGTERM
        # met while it loaded: the extension's loader made the stop an ImportError, which it is not. A SIGTERM is
        # remembered (`_terminated`) even where a loader kept no trace of it.
        stop = interruption_behind(error) or (Terminated() if _terminated else None)
        if stop is None:
            raise
        return _interrupted(stop)


def _project_database(args: argparse.Namespace) -> Path | None:
    """The database of the project the command was given (`--project P`, or the database itself, as `open_project`
    takes it), None for a command given none."""
    folder = getattr(args, "project", None)
    if not folder:
        return None
    given = Path(folder)
    return given if given.name == PROJECT_DB and given.is_file() else given / PROJECT_DB


def _write_failed(error: OSError, args: argparse.Namespace) -> str:
    """What the up-front checks of each command could not foresee (a disk full, a permission, a folder made in
    the meantime): one line that names the file, not a traceback; a full disk is said as such, with the folder
    whose disk it is and what to do then for this command (a file's write() names no file: the command's folder
    is named)."""
    said = os_error_said(error)
    named = error.filename2 or error.filename  # a failed rename's: the file it was to become (`os_error_said`)
    if not is_disk_full(error):
        return said
    # What to do names the command's folder (an unfinished export is the whole of --out, not the file's folder)
    folder = next((getattr(args, key) for key in ("out", "site", "project") if getattr(args, key, None)), None)
    then = _after_a_full_disk(args, folder if folder is not None else Path(named).parent if named else None)
    if named:
        return f"{said}; {full_disk(hint_path(Path(named).parent), then=then)}"
    return full_disk(None if folder is None else hint_path(folder), detail=error.strerror, then=then)


def _after_a_full_disk(args: argparse.Namespace, folder: object) -> str:
    """What to do once space is freed, for the command a full disk stopped: what it wrote is kept either way."""
    if args.command == "extract" or (args.command == "site" and getattr(args, "site_command", "") == "capture"):
        return "run the same command again: it goes on from where it stopped (what it wrote is kept)"
    if args.command == "export" and getattr(args, "format", "") == "nexteval":
        # An unfinished dataset is refused as the folder of another export (a page might be missing from it)
        return f"export again into an empty folder ({hint_path(folder)} holds an unfinished export: remove it first)"
    return "run the command again"


if __name__ == "__main__":
    sys.exit(main())
