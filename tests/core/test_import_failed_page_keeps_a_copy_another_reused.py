"""Two imports of the same page at once, the first failing to store its row (a full disk, a file-size limit): the
saved copy it wrote, which the second found stored and reused (content-addressed, the same bytes), is no longer
taken away by the first's clean-up, which would leave the second's page naming a file that is gone. A failed import
that nobody else's page reused still takes its copy away."""

from __future__ import annotations

import errno
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from recordlens.core.store.files import SNAPSHOTS
from recordlens.core.store.importer import ImportReport, import_paths
from recordlens.core.store.project import init_project, open_project

PAGE = "<html><body><ul><li>Alpha</li><li>Beta</li></ul></body></html>"
WAIT_S = 120.0  # generous: a busy 2-core machine


def saved_copies(root: Path) -> list[Path]:
    return sorted(path for path in (root / SNAPSHOTS).rglob("*") if path.is_file())


def in_a_thread(work: Callable[[], None], failures: list[BaseException]) -> threading.Thread:
    def run() -> None:
        try:
            work()
        except BaseException as error:  # noqa: BLE001 - handed to the test, which fails with it
            failures.append(error)
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def test_a_copy_another_import_reused_is_kept_when_the_import_that_wrote_it_fails(tmp_path: Path) -> None:
    folder = tmp_path / "pages"
    folder.mkdir()
    (folder / "shop.html").write_text(PAGE, encoding="utf-8")
    init_project(tmp_path / "P").close()
    first_writing, second_at_its_row, first_done = threading.Event(), threading.Event(), threading.Event()
    reports: dict[str, ImportReport] = {}
    failures: list[BaseException] = []

    def first() -> None:
        """Writes the copy, then fails to store the page's row once the second import has found the copy."""
        with open_project(tmp_path / "P") as project:
            def add_page(*args: object, **kwargs: object) -> None:
                first_writing.set()
                assert second_at_its_row.wait(WAIT_S), "the second import never came to its row"
                raise OSError(errno.EFBIG, "File too large")
            project.add_page = add_page  # type: ignore[method-assign]
            try:
                reports["first"] = import_paths(project, [folder])
            finally:
                first_done.set()

    def second() -> None:
        """Finds the copy the first wrote, and stores its row only once the first has failed and cleaned up."""
        with open_project(tmp_path / "P") as project:
            writing = project.writing
            paused: list[bool] = []

            @contextmanager
            def held_back() -> Iterator[object]:
                if not paused:  # its first write is the page's row (the copy found stored already)
                    paused.append(True)
                    assert saved_copies(tmp_path / "P"), "the second import came to its row with no copy stored"
                    second_at_its_row.set()
                    assert first_done.wait(WAIT_S), "the first import never ended"
                with writing() as db:
                    yield db
            project.writing = held_back  # type: ignore[method-assign]
            reports["second"] = import_paths(project, [folder])

    threads = [in_a_thread(first, failures)]
    assert first_writing.wait(WAIT_S), failures
    threads.append(in_a_thread(second, failures))
    for thread in threads:
        thread.join(WAIT_S)
    assert not failures, failures
    assert not any(thread.is_alive() for thread in threads)
    assert reports["first"].imported == [] and len(reports["first"].problems) == 1, reports["first"]
    assert reports["second"].imported == ["shop"], reports["second"]
    with open_project(tmp_path / "P") as project:
        assert project.page_names() == ["shop"]
        assert project.snapshot_file("shop").is_file(), "the page's saved copy was removed by the failed import"
        assert project.load("shop").snapshot is not None
    assert len(saved_copies(tmp_path / "P")) == 1


def test_a_copy_no_other_import_reused_goes_when_its_page_fails(tmp_path: Path) -> None:
    folder = tmp_path / "pages"
    folder.mkdir()
    (folder / "shop.html").write_text(PAGE, encoding="utf-8")
    with init_project(tmp_path / "P") as project:
        def add_page(*args: object, **kwargs: object) -> None:
            raise OSError(errno.EFBIG, "File too large")
        project.add_page = add_page  # type: ignore[method-assign]
        report = import_paths(project, [folder])
        assert report.imported == [] and len(report.problems) == 1
        assert project.page_names() == []
    assert saved_copies(tmp_path / "P") == []
