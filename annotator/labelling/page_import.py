"""Importing pages from the window: files (Ctrl+I), a folder or a dataset with its labels (Ctrl+Shift+I), or files
and folders dropped on the window. The core's import runs as a background job on its own Project; the page list
grows when it ends, the status bar says what was imported, and every warning, refusal and label finding is kept
under Recent messages.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QMimeData

from ...core.store import ImportReport, Project, import_paths
from ...core.wording import counted, named_and_more
from ..qt.file_dialogs import FileDialog as QFileDialog  # Qt's, never opening a file it lists (see there)
from ..qt.jobs import BackgroundJob

if TYPE_CHECKING:
    from .window_parts import LabellingWindow

PAGE_FILTER = "Saved pages (*.mhtml *.mht *.html *.htm);;All files (*)"


@dataclass
class ImportProgress:
    """How far an import has come, as its thread goes through the pages (read by the interface thread at a quit):
    `total` None until its pages are found."""

    total: int | None = None
    gone_through: int = 0  # pages imported (or refused, or found in the project already); the next one is under way

    def lost_at_quit(self, named: str) -> str:
        """What a quit now loses, the window's question's details: a cancel stops the import after the page under
        way, and those not gone through are not imported; "" when no page is left (nothing to ask)."""
        again = "importing the same again brings them in (the pages already in the project are skipped)"
        if self.total is None:
            return f"No page of {named} is imported yet, and none will be: {again}."
        kept = min(self.gone_through + 1, self.total)  # the page under way is finished first
        left = self.total - kept
        if not left:
            return ""
        return (f"The import stops after the page under way: {kept:,} of the {counted(self.total, 'page')} found "
                f"in {named} are gone through by then (imported, each whole, and kept); the other {left:,} "
                f"{'is' if left == 1 else 'are'} not imported: {again}.")


def dropped_paths(mime: QMimeData) -> list[Path]:
    """The local files and folders a drag carries (links to the web are not pages to import)."""
    return [Path(url.toLocalFile()) for url in mime.urls() if url.isLocalFile()] if mime.hasUrls() else []


class PageImport:
    """The window's import: its two actions (`do_import_pages`, `do_import_folder`) and `import_paths`, which a
    drop calls too. Owned by the window as `window.importing`."""

    def __init__(self, window: LabellingWindow) -> None:
        self.window = window
        self.last_report: ImportReport | None = None

    def do_import_pages(self) -> None:
        files, _ = QFileDialog.getOpenFileNames(self.window, "Import saved pages into the project",  # type: ignore[arg-type]
                                                self._start_folder(), PAGE_FILTER)
        if files:
            self.import_paths([Path(f) for f in files])

    def do_import_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(  # type: ignore[call-overload]
            self.window, "Import a folder of pages, or a dataset (html/ and gt/)", self._start_folder())
        if folder:
            self.import_paths([Path(folder)])

    def _start_folder(self) -> str:
        """Where the dialogs open: where pages were last imported from, while it is still there."""
        last = Path(self.window.settings.import_folder) if self.window.settings.import_folder else None
        return str(last if last is not None and last.is_dir() else Path.home())

    def import_paths(self, paths: Sequence[Path]) -> BackgroundJob | None:
        """Import `paths` in the background (each page whole or not at all, as `recordlens import` does)."""
        if not paths:
            self.window.message("nothing to import: drop saved pages (.mhtml, .html) or folders of them")
            return None
        reports: list[ImportReport] = []
        root = self.window.project.root
        progress = ImportProgress()

        def work(project: Project, job: BackgroundJob) -> None:
            def each(sources):  # noqa: ANN001, ANN202 - the core's progress wrapper over its page sources
                sources = list(sources)
                progress.total = len(sources)
                for done, source in enumerate(sources):
                    if job.cancelled:  # stop between pages: those imported so far stay, and so does their report
                        return
                    progress.gone_through = done
                    job.report(done, len(sources), source.name)
                    yield source
                progress.gone_through = len(sources)

            # Only the user's Cancel releases the mark of an import stopped part way: a quit, SIGTERM or another
            # project opened leave it, so that the next opening and every command say it and how to finish it
            reports.append(import_paths(project, paths, each, stopped_by_user=lambda: job.cancelled_by_user))

        job = BackgroundJob(root, work)
        job.done.connect(lambda _cancelled, _failure: self._imported(root, reports))
        named = named_and_more([path.name for path in paths], 1)
        # A quit (or opening another project) cancels the import between pages: asked first, as for Learn, with
        # what is in so far and what is not
        if not self.window.jobs.start(job, f"importing {named}", done=lambda: self._summary(reports),
                                      at_quit=lambda: progress.lost_at_quit(named)):
            return None
        # The next dialog opens beside what was imported (a file's folder; a folder's or a dataset's parent).
        self.window.settings.import_folder = str(paths[0].absolute().parent)
        self.window.save_where_the_user_was()
        return job

    def _imported(self, root: Path, reports: list[ImportReport]) -> None:
        """The job has ended (also when cancelled: the pages imported before the cancel are in the project, and
        the report says which)."""
        window = self.window
        # The window closed its project (a quit) or opened another meanwhile: this import is not its news
        if not window.shows_project(root):
            return
        window.refresh_pages()
        if not reports:
            return
        report = self.last_report = reports[0]
        for line in (report.warning_lines() + [f"not imported: {p}" for p in report.problems]
                     + report.label_lines()):
            window.messages.add(line)
        window.tools.refresh_messages()
        if window.page_name is None and report.imported:
            window.open_page(report.imported[0])

    def _summary(self, reports: list[ImportReport]) -> str:
        if not reports:
            return "import ended"
        report = reports[0]
        details = len(report.warning_lines()) + len(report.problems) + len(report.label_lines())
        more = f" ({details} more line(s) under Recent messages, {self.window.messages_keys()})" if details else ""
        # A full disk stopped it: said first (a status bar cuts a long message at its end), with what to do
        stopped = f"{report.stopped_line()}; " if report.full_disk else ""
        return stopped + report.summary() + more
