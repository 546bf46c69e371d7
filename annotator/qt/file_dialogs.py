"""The app's file dialogs: Qt's own dialog, made so that it never opens a file it lists, and never hands back a
file of a database this process may have open (the open project's database, its write-ahead log).

Why: on Linux, closing any descriptor a process has on a file drops every POSIX (fcntl) lock the process holds
on that file. SQLite keeps its locks on `project.db` and `project.db-shm` that way, and a `recordlens` command
that finds none believes it is the project's last user: it folds the write-ahead log into the database and
deletes it while the app goes on writing to the deleted file, and edits the app said were saved are lost. Qt's
file dialog tells a file's kind by reading its first bytes (QMimeDatabase, asked by the icon provider's `type`
for every file the folder holds), which opened and closed the project's database files as soon as the dialog
showed the project's folder (Ctrl+O starts there). The desktop's own dialog (GTK's, through the platform theme)
runs in this process too and takes no icon provider, so the app always uses Qt's.

`FileDialog` keeps the names and signatures of QFileDialog's static functions, so that a module imports it under
QFileDialog's name and calls it as before. A file chosen that core's readers would refuse as a file of a database
this process may have open (`file_kinds.sqlite_file_in_use`: by the names SQLite keeps beside it, or by the
registry of the databases this process opened) is refused in the dialog, in their words. What is left of the
danger after a dialog closes is said (`say_locks_lost`), not mended: SQLite keeps one record of its locks per file
and process, shared by every connection, so opening the project again while any connection to it is open takes
no lock again. That check alone asks Linux's /proc: whether the locks are still held is the kernel's to say (the
registry knows what was opened, not what a stray open and close dropped since), and /proc/self/fd names each file
as it is called now (a project folder moved while open) and knows every connection, those that never went through
the registry too.
"""

from __future__ import annotations

import os
import sys
from collections import Counter
from pathlib import Path

from PySide6.QtCore import QFileInfo, QMimeDatabase
from PySide6.QtGui import QAbstractFileIconProvider, QIcon
from PySide6.QtWidgets import QFileDialog, QFileIconProvider, QMessageBox, QWidget

from ...core.file_kinds import sqlite_file_in_use

PROC_LOCKS = Path("/proc/locks")  # Linux: every lock of the machine, with its process and its file's inode


def posix_locks_held(path: Path) -> int:
    """How many POSIX locks (byte ranges) this process holds on the file at `path`, as the kernel says (0 where
    it cannot be read, or there is no file)."""
    try:
        return posix_locks_by_inode()[path.stat().st_ino]
    except OSError:
        return 0


def posix_locks_by_inode(pid: int | None = None) -> Counter[int]:
    """How many POSIX locks process `pid` (this one by default) holds on each file, by the file's inode; none
    where /proc/locks cannot be read. By inode alone: the device /proc/locks names is not the one stat gives on
    every file system (btrfs), and one process holding locks on two files of the same number on two file
    systems is not a case that arises."""
    pid = os.getpid() if pid is None else pid
    try:
        lines = PROC_LOCKS.read_text().splitlines()
    except OSError:
        return Counter()
    return Counter(inode for owner, inode in filter(None, map(_lock_of, lines)) if owner == pid)


def _lock_of(line: str) -> tuple[int, int] | None:
    """(pid, inode) of a POSIX lock held, from a line of /proc/locks ("3: POSIX ADVISORY READ 20344 fe:00:2262016
    128 128"); None for another kind of lock (flock, open file description) or a lock waited for ("->")."""
    fields = line.split()
    if len(fields) < 6 or fields[1] != "POSIX":
        return None
    try:
        return int(fields[4]), int(fields[5].rsplit(":", 1)[1])
    except (ValueError, IndexError):
        return None


class NameOnlyIcons(QFileIconProvider):
    """A file's icon and kind from its name alone (`MatchExtension`): Qt's own provider reads the first bytes of
    every file whose name does not tell its kind (`project.db`, `project.db-shm`), which drops the locks this
    process holds on it (see the module's doc)."""

    def __init__(self) -> None:
        super().__init__()
        self._types = QMimeDatabase()

    def icon(self, of: QFileInfo | QAbstractFileIconProvider.IconType) -> QIcon:  # type: ignore[override]
        if not isinstance(of, QFileInfo) or not of.isFile():
            return super().icon(of)  # a kind of icon, a folder or a drive: nothing read
        kind = self._types.mimeTypeForFile(of, QMimeDatabase.MatchMode.MatchExtension)
        plain = super().icon(QAbstractFileIconProvider.IconType.File)
        return QIcon.fromTheme(kind.iconName(), QIcon.fromTheme(kind.genericIconName(), plain))

    def type(self, info: QFileInfo) -> str:  # noqa: A003 (Qt's name)
        if not info.isFile():
            return super().type(info)  # a folder, a drive, a link to nothing: nothing read
        kind = self._types.mimeTypeForFile(info, QMimeDatabase.MatchMode.MatchExtension)
        return kind.comment() or kind.name()


_SHOW_DIRS_ONLY = QFileDialog.Option.ShowDirsOnly
_NO_OPTIONS = QFileDialog.Option(0)


class FileDialog(QFileDialog):
    """Qt's file dialog that reads no file it lists (`NameOnlyIcons`) and refuses a file this process holds locks
    on; its static functions are QFileDialog's, with the same arguments and results."""

    def __init__(self, parent: QWidget | None = None, caption: str = "", directory: str = "",
                 filter: str = "") -> None:  # noqa: A002 (Qt's name)
        super().__init__(parent, caption, directory, filter)
        # The desktop's dialog runs in this process too and takes no icon provider: Qt's own, always
        self.setOption(QFileDialog.Option.DontUseNativeDialog)
        self._icons = NameOnlyIcons()  # the dialog keeps a pointer to it, not the object: kept here
        self.setIconProvider(self._icons)

    def accept(self) -> None:
        """Refuse a file of a database this process may have open: what the app does with a chosen file (reads
        it, checks its first bytes before writing over it) would open it and drop this process's locks on it, and
        core's readers and writers refuse it anyway (`file_kinds.sqlite_file_in_use`)."""
        if self.fileMode() != QFileDialog.FileMode.Directory and (refused := self._database_file_chosen()):
            QMessageBox.warning(self, self.windowTitle() or "RecordLens", f"{refused}: choose another file")
            return
        super().accept()

    def _database_file_chosen(self) -> str | None:
        """"/p/project.db-wal is SQLite's write-ahead log of the database project.db" for the first file chosen
        that is one of a database's files; None when none is."""
        for name in self.selectedFiles():
            if (what := sqlite_file_in_use(Path(name))) is not None:
                return f"{name} is {what}"
        return None

    # -- QFileDialog's static functions, on this dialog ---------------------------------------------------------

    @staticmethod
    def getExistingDirectory(parent: QWidget | None = None, caption: str = "", dir: str = "",  # noqa: A002, N802
                             options: QFileDialog.Option = _SHOW_DIRS_ONLY) -> str:
        dialog = FileDialog(parent, caption, dir)
        dialog.setFileMode(QFileDialog.FileMode.Directory)
        chosen, _ = _ask(dialog, options)
        return chosen[0] if chosen else ""

    @staticmethod
    def getOpenFileName(parent: QWidget | None = None, caption: str = "", dir: str = "",  # noqa: A002, N802
                        filter: str = "", selectedFilter: str = "",  # noqa: A002, N803
                        options: QFileDialog.Option = _NO_OPTIONS) -> tuple[str, str]:
        dialog = _file_dialog(parent, caption, dir, filter, selectedFilter,
                              QFileDialog.FileMode.ExistingFile)
        chosen, name_filter = _ask(dialog, options)
        return (chosen[0] if chosen else ""), name_filter

    @staticmethod
    def getOpenFileNames(parent: QWidget | None = None, caption: str = "", dir: str = "",  # noqa: A002, N802
                         filter: str = "", selectedFilter: str = "",  # noqa: A002, N803
                         options: QFileDialog.Option = _NO_OPTIONS) -> tuple[list[str], str]:
        dialog = _file_dialog(parent, caption, dir, filter, selectedFilter,
                              QFileDialog.FileMode.ExistingFiles)
        return _ask(dialog, options)

    @staticmethod
    def getSaveFileName(parent: QWidget | None = None, caption: str = "", dir: str = "",  # noqa: A002, N802
                        filter: str = "", selectedFilter: str = "",  # noqa: A002, N803
                        options: QFileDialog.Option = _NO_OPTIONS) -> tuple[str, str]:
        dialog = _file_dialog(parent, caption, dir, filter, selectedFilter,
                              QFileDialog.FileMode.AnyFile)
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        chosen, name_filter = _ask(dialog, options)
        return (chosen[0] if chosen else ""), name_filter


def _file_dialog(parent: QWidget | None, caption: str, directory: str, name_filter: str, selected_filter: str,
                 mode: QFileDialog.FileMode) -> FileDialog:
    dialog = FileDialog(parent, caption, directory, name_filter)
    dialog.setFileMode(mode)
    if selected_filter:
        dialog.selectNameFilter(selected_filter)
    return dialog


def _ask(dialog: FileDialog, options: QFileDialog.Option) -> tuple[list[str], str]:
    """What the user chose in `dialog`, shown with QFileDialog's `options` (nothing when it was cancelled), and
    the name filter then chosen; what the process lost of its locks meanwhile is said (`say_locks_lost`)."""
    dialog.setOptions(options | QFileDialog.Option.DontUseNativeDialog)  # Qt's own, always (`FileDialog`)
    before = _locks_by_open_file()
    try:
        accepted = dialog.exec() == QFileDialog.DialogCode.Accepted
        chosen = dialog.selectedFiles() if accepted else []
        return chosen, dialog.selectedNameFilter()
    finally:
        dialog.deleteLater()
        say_locks_lost(before, dialog.parentWidget())


def _locks_by_open_file() -> dict[Path, int]:
    """Every file this process has open and holds POSIX locks on, with how many: SQLite's database files."""
    held = posix_locks_by_inode()
    return {path: held[inode] for path, inode in _open_files().items() if held[inode]}


def _open_files() -> dict[Path, int]:
    """The files this process has open, with their inodes (Linux's /proc/self/fd; none elsewhere)."""
    try:
        descriptors = os.listdir("/proc/self/fd")
    except OSError:
        return {}
    files = {}
    for fd in descriptors:
        try:  # the link, then its file's inode, without opening the file (an open would be the harm itself)
            target, inode = Path(os.readlink(f"/proc/self/fd/{fd}")), os.stat(f"/proc/self/fd/{fd}").st_ino
        except OSError:
            continue
        if target.is_absolute() and target.is_file():  # not a pipe, a socket, or a file deleted meanwhile
            files[target] = inode
    return files


def say_locks_lost(before: dict[Path, int], parent: QWidget | None) -> None:
    """Say, on stderr and in a message box, each file that held this process's locks in `before` (a database it
    has open) and holds none now while the process still has it open: a later `recordlens` command would take
    itself for the project's last user and delete its write-ahead log, so the app must be quit and started again
    (closing every connection, then opening the project, takes the locks again)."""
    held, still_open = posix_locks_by_inode(), _open_files()
    lost = [path for path in before if path in still_open and not held[still_open[path]]]
    if not lost:
        return
    names = ", ".join(str(path) for path in lost)
    message = (f"RecordLens lost its locks on {names} while a file dialog was open: quit RecordLens and start it "
               "again before any recordlens command uses this project, else edits made from now on may be lost")
    print(f"recordlens-annotator: {message}", file=sys.stderr)
    QMessageBox.warning(parent, "RecordLens", message)
