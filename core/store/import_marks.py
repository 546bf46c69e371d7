"""The mark an import keeps in the project while it runs, so that one stopped part way (killed, SIGTERM, the app quit,
the disk full; not the app's Cancel) is said by whatever opens the project next: which import, how many of its pages
are in, and that running the same import again finishes it (`stopped_imports_said`; in a project on a read-only
mount, where it can be finished: a copy of the project, or the project mounted writable). An import under way is said
by a command that gives figures of the labels it is bringing in (`imports_under_way`): they are of the pages imported
so far.

An import's mark is two files in the project's hidden `.running/` (beside the marks of the runs a process carries
out, `runs.RUNNING_MARKS`): `import-TOKEN`, a lock of `owner_files` the importing process holds while it runs (the
system frees it however the process ends, so a live import is never taken for a stopped one, and a reused process
id fools nothing), and `import-TOKEN.json`, what it imports: the paths, the pages found there, for whom the labels
are. The description is written once the lock is held and removed before it is given up, so a description whose
lock no live process holds is an import that did not go through all its pages. An import that does removes both;
one that stops keeps its description. The next import of the same paths (and labels for the same set) takes it over
(its own mark stands for the same work) and, once through, says that it finished it.

An export marks its unfinished dataset with a fixed file in the dataset (`page.dataset.UNFINISHED_EXPORT`), which
every reader of the dataset names; an import's mark is in the project, where several imports may run at once and
one under way must not be said to have stopped: hence a lock per import, as the runs' marks. A mark is a help to the
user, never a condition of the import: one that cannot be written (a read-only `.running/`, a full disk) leaves the
import to run unmarked, and one that cannot be read is not said.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from ..command_hints import hint_option, hint_path
from ..wording import counted, listed
from .db import StoreError, connect, only_readable
from .project import PROJECT_DB
from .work_marks import WorkMark, forget_work, mark_work, stopped_work, unmark_work, work_under_way

__all__ = ["AskedImport", "ImportMark", "MarkedImport", "StoppedImport", "imports_under_way", "mark_import",
           "stopped_imports", "stopped_imports_said", "unmark_import"]

_PREFIX = "import-"


ImportMark = WorkMark  # the mark of an import this process runs now (`mark_import`), until `unmark_import`


@dataclass(frozen=True)
class AskedImport:
    """What an import was asked to do; the same asked again is the same import, run again."""

    paths: tuple[str, ...]  # as given, made absolute (a command run elsewhere names the same folder), not resolved
    annotator: str | None = None  # whose label set its labels go to (None: the project's own)
    replace_labels: bool = False

    @classmethod
    def of(cls, paths: Iterable[str | Path], annotator: str | None = None, *,
           replace_labels: bool = False) -> AskedImport:
        return cls(tuple(str(Path(path).absolute()) for path in paths), annotator, replace_labels)


@dataclass(frozen=True)
class MarkedImport:
    """An import of the project, as its mark says it: what it imports, and since when and in which process."""

    description: Path  # its file in `.running/`
    asked: AskedImport
    pages: tuple[str, ...]  # the pages it found there, in the order it imports them
    started: str  # when it began (`db.now`)
    process: int  # the process that ran it

    @property
    def paths(self) -> tuple[str, ...]:
        return self.asked.paths

    @property
    def annotator(self) -> str | None:
        return self.asked.annotator

    @property
    def replace_labels(self) -> bool:
        return self.asked.replace_labels

    def held(self, names: Collection[str]) -> int:
        """How many of its pages the project holds (`names`: the project's pages)."""
        return sum(1 for page in self.pages if page in names)

    def command(self, root: Path) -> str:
        """The command that runs this import again."""
        words = ["recordlens", "import", *map(hint_path, self.paths), hint_option("--project", root)]
        words += [hint_option("--annotator", self.annotator)] if self.annotator is not None else []
        words += ["--replace-labels"] if self.replace_labels else []
        return " ".join(words)

    def under_way(self, root: Path, what: str) -> str:
        """What a command that reads the project's labels while this import runs says as it begins: what it gives
        (`what`: "the figures are") is of the pages imported so far, which nothing else says then (a run scored
        now is found stale once more of its pages come in labelled, and `runs` says so then)."""
        return (f"an import of {listed(self.paths, 3)} into {root} is under way (begun {self.started} by process "
                f"{self.process}, {counted(len(self.pages), 'page')} in all): {what} of the pages it has imported so "
                "far, not of all its pages: run this again once it has finished")


@dataclass(frozen=True)
class StoppedImport(MarkedImport):
    """An import of the project that did not go through all its pages."""

    def message(self, root: Path, names: Collection[str], *, writable: bool = True) -> str | None:
        """What the project's next opening says of it; None when there is nothing to say any more: a plain
        import whose every page is in the project (stopped in its closing steps, or finished by another import).
        Not `writable` (a read-only mount), it is said with where it can be finished, not "run it again" there."""
        held, total = self.held(names), len(self.pages)
        if held == total and self.annotator is None and not self.replace_labels:
            return None
        what = f"an import of {listed(self.paths, 3)} into {root}"
        when = f" (begun {self.started} by process {self.process})"
        of = f"{held} of its {counted(total, 'page')} {'is' if held == 1 else 'are'} in the project"
        if self.annotator is not None:  # stored together once every page is read (importer.store_annotator_pages)
            how = (f"{what} of {self.annotator}'s labels was stopped part way{when}, before their labels were "
                   f"stored ({of}, none with {self.annotator}'s labels from it)")
            again = ": running the same import again imports them"
        elif self.replace_labels:
            how = (f"{what} taking the labels of its pages (--replace-labels) was stopped part way{when}: the "
                   f"labels of some of its {counted(total, 'page')} may be the project's earlier ones still")
            again = ("; running the same import again finishes it (pages whose labels are the dataset's already are "
                     "left as they are)")
        else:
            how = f"{what} was stopped part way{when}: {of}"
            again = "; running the same import again finishes it (it skips the pages already there)"
        return f"{how}{again}: `{self.command(root)}`" if writable else f"{how}; {self._finished_elsewhere(root)}"

    def _finished_elsewhere(self, root: Path) -> str:
        """Where an import stopped in a project that cannot be written here (a read-only mount) can be finished:
        in a copy of the project, or in the project once mounted writable."""
        copy = Path("NEW")
        return ("the project cannot be changed here (its folder or database is read-only), so the import cannot be "
                f"finished where it is: `recordlens project copy {hint_path(root)} {copy}` copies the project to a "
                f"folder you can write to, where `{self.command(copy)}` finishes it; or, once {root} is mounted "
                f"writable, `{self.command(root)}`")

    def forget(self) -> None:
        """Take its mark away: the same import run again holds one of its own (or it has nothing left to do)."""
        forget_work(self.description)


def mark_import(root: Path, asked: AskedImport, pages: Sequence[str]) -> ImportMark | None:
    """Mark an import of `pages` (found in the paths `asked`) as under way in the project at `root`; None when no
    mark can be written there (the import runs unmarked: see the module notes)."""
    return mark_work(root, _PREFIX, {"paths": list(asked.paths), "pages": list(pages), "annotator": asked.annotator,
                                     "replace_labels": asked.replace_labels})


def unmark_import(mark: ImportMark, *, finished: bool) -> None:
    """The import has ended: `finished`, it went through all its pages, and its mark goes; else its description
    stays, to be said (the lock is given up all the same: this process may live on, as the app does)."""
    unmark_work(mark, done=finished)


def stopped_imports(root: Path) -> list[StoppedImport]:
    """The imports of the project at `root` that stopped part way, oldest first (`work_marks.stopped_work`)."""
    stopped = [found for path, held in stopped_work(root, _PREFIX)
               if (found := _read(path, held, StoppedImport)) is not None]
    return sorted(stopped, key=lambda found: found.started)


def imports_under_way(root: Path) -> list[MarkedImport]:
    """The imports into the project at `root` that a live process runs now, oldest first
    (`work_marks.work_under_way`)."""
    running = [found for path, held in work_under_way(root, _PREFIX)
               if (found := _read(path, held, MarkedImport)) is not None]
    return sorted(running, key=lambda found: found.started)


def stopped_imports_said(root: Path, names: Collection[str] | None = None, *,
                         run_again: AskedImport | None = None) -> list[str]:
    """What opening the project at `root` says of the imports stopped part way in it, one line each (none when
    there are none, or they cannot be read); `names`: the project's pages, read from its database when not given;
    `run_again`: an import about to run, which finishes the stopped import it is (and says so) rather than hear of
    it. Reads only: a project on read-only media is told of them too, with where they can be finished."""
    stopped = [found for found in stopped_imports(root) if found.asked != run_again]
    if not stopped:
        return []
    if names is None:
        try:
            names = _page_names(Path(root))
        except (OSError, sqlite3.Error, StoreError):
            return []
    writable = not only_readable(Path(root) / PROJECT_DB)
    return [said for found in stopped if (said := found.message(Path(root), names, writable=writable)) is not None]


def _page_names(root: Path) -> set[str]:
    db = connect(root / PROJECT_DB, read_only=True)
    try:
        return {str(name) for (name,) in db.execute("SELECT name FROM pages")}
    finally:
        db.close()


Marked = TypeVar("Marked", bound=MarkedImport)


def _read(path: Path, held: dict, kind: type[Marked]) -> Marked | None:
    """An import's description, as a `kind` (stopped, or under way); None for one that does not say what an
    import's says."""
    try:
        annotator = None if held.get("annotator") is None else str(held["annotator"])
        asked = AskedImport(tuple(str(p) for p in held["paths"]), annotator, bool(held.get("replace_labels")))
        return kind(path, asked, tuple(str(p) for p in held["pages"]), str(held.get("started", "")),
                    int(held.get("process", 0)))
    except (ValueError, KeyError, TypeError):
        return None
