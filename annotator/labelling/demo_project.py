"""The demo project the app opens when it is given none, built once from resources/demo/dataset and its
synthetic variants (resources/demo/synthetic, made by `recordlens synth`).

It shows every stage of the work on four small invented pages: pages 1 and 3 come labelled (their ground
truth imported), page 2 carries the offline extractor's proposals waiting for review, page 4 is new; the
synthetic variants (`N_vK`) come labelled, their labels having followed the records through the
transformations. Two runs (the offline extractor and MDR) over all the pages are stored and scored, so review
mode has something to show (page 3 is the one where the offline extractor misses a record: the sponsored item).
The folder is built beside its final place and renamed into it, so an interrupted build leaves no half project.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from ...core import extract
from ...core.errors import RecordLensError
from ...core.resource_files import resource_path
from ...core.store import (
    ImportReport,
    PageSource,
    Project,
    find_sources,
    import_page,
    init_project,
    open_project,
    score_stored_run,
)
from ..install_check import check_files, how_to_install_again
from ..program import PROG
from ..settings import MDR, cannot_write, offline_default_method, user_data_folder
from .propose import proposal_provenance

# Built once and then only opened: a new name whenever what the demo holds changes, so nobody keeps an old one.
DEMO_FOLDER = "demo-project-3"
LABELLED = ("1", "3")
PROPOSED = ("2",)


def demo_dataset() -> Path:
    return resource_path("demo", "dataset")


def demo_synthetic() -> Path:
    return resource_path("demo", "synthetic")


def demo_page_files() -> list[Path]:
    """The files the demo's pages are made of: each page's HTML, and the labels of each page that comes labelled.
    Its pages are those a file in its two folders names (a page's HTML, its labels) and those it gives a part
    (LABELLED, PROPOSED): a page with one of its files gone is said to miss it, rather than built without it."""
    files = []
    for folder in (demo_dataset(), demo_synthetic()):
        named = {path.stem for path in [*folder.glob("html/*.html"), *folder.glob("gt/*.json")]}
        if folder == demo_dataset():
            named |= {*LABELLED, *PROPOSED}
        for name in sorted(named):
            files.append(folder / "html" / f"{name}.html")
            if _comes_labelled(name):
                files.append(folder / "gt" / f"{name}.json")
    return files


def _comes_labelled(name: str) -> bool:
    return name in LABELLED or "_v" in name


class DemoNotBuilt(RecordLensError):
    """The demo project's folder cannot be made: the user's data folder cannot be written."""

    # What a dialog says above it, where the app would otherwise say that a project cannot be opened
    heading = "RecordLens cannot start: the demo project cannot be built."


def default_demo_folder() -> Path:
    return user_data_folder() / DEMO_FOLDER


def open_demo_project(folder: Path | None = None) -> Project:
    """The demo project in `folder` (the user data folder by default), built first if it is not there."""
    target = folder or default_demo_folder()
    if not (target / "project.db").is_file():
        build_demo_project(target)
    return open_project(target)


def build_demo_project(target: Path) -> Path:
    staging = _staging_folder(target)
    try:
        with init_project(staging / "p") as project:
            _fill(project)
        if target.exists():  # an empty or broken earlier attempt (no project.db)
            shutil.rmtree(target)
        (staging / "p").rename(target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return target


def _staging_folder(target: Path) -> Path:
    """A new hidden folder beside `target` to build the demo in; an unwritable data folder (a read-only HOME, one
    of another user) is said with what to do, rather than as the traceback of the first start."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        return Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    except OSError as error:
        raise DemoNotBuilt(f"the demo project cannot be built: {cannot_write(target.parent, error, 'XDG_DATA_HOME')}"
                           f", or open a project folder of yours: {PROG} PROJECT") from None


def _fill(project: Project) -> None:
    # A file of the demo missing from the app's folder is an incomplete install, said as such (IncompleteInstall),
    # not as a problem of the import (ground truth without its page) or a page missing further down
    check_files(demo_page_files())
    report = ImportReport()
    for source in find_sources([demo_dataset(), demo_synthetic()], report):
        labelled = _comes_labelled(source.name)
        import_page(project, source if labelled else PageSource(source.name, source.path), report)
    if report.problems:  # every file there, but one of them not as shipped
        raise RecordLensError(f"the demo project could not be built from the app's folder: {report.problems[0]}; "
                              f"{how_to_install_again()}")
    names = [p.name for p in project.pages()]
    for method in dict.fromkeys((offline_default_method(), MDR)):
        extractor = extract.create(method)
        predictions = {name: extractor.extract(project.load(name).page) for name in names}
        run_id = project.runs.add(method, {"version": extractor.version, "source": "demo"})
        project.runs.add_predictions(run_id, {name: e.records for name, e in predictions.items()})
        project.runs.finish(run_id)
        score_stored_run(project, run_id)
        if method == offline_default_method():
            for name in PROPOSED:
                found = predictions[name]
                project.add_records(name, found.records, proposal_provenance(found))
