"""What a folder given to `recordlens import` is when it is not what an import reads, said before anything is read:
a RecordLens project (or a folder inside one), a dataset whose `html/` or `gt/` is there but is no folder (a
symbolic link to a folder that moved, a file, a FIFO), and the files of a folder of pages that are no page.

Each is said as the reason the import refuses it, or as one line of its report: an import that went on would take a
project's snapshots under their hash names, or a dataset's pages without their labels, with exit 0.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Iterable
from pathlib import Path

from ..agent.sites import CAPTURE_STATE_FILE, INDEX_FILE, SIDE_SUFFIXES
from ..command_hints import hint_option, hint_path
from ..file_kinds import other_kind
from ..output_paths import overlap
from ..page.dataset import PAGE_SUFFIXES, natural_key
from ..wording import counted, listed
from .files import SNAPSHOTS
from .project import PROJECT_DB


def project_folder_of(folder: Path) -> Path | None:
    """The RecordLens project that `folder` is, or whose `snapshots/` (or a folder inside it) `folder` is; None for
    any other folder."""
    for project in (folder, folder.parent, folder.parent.parent):
        if (project / PROJECT_DB).is_file() and (project == folder or _inside(folder, project / SNAPSHOTS)):
            return project
    return None


def project_of_a_saved_copy(file: Path) -> Path | None:
    """The RecordLens project in whose `snapshots/` `file` is; None for any other file."""
    project = project_folder_of(file.parent)
    return project if project is not None and project != file.parent else None


def _inside(folder: Path, parent: Path) -> bool:
    return overlap(folder, parent) in ("is", "lies inside")


def a_project_refused(folder: Path, project: Path) -> str:
    """Why an import refuses a project's folder (or a saved copy in it), and what moves its pages and labels
    instead."""
    what = ("a RecordLens project (it holds project.db), not a folder of pages" if folder == project else
            f"one of the saved copies ({SNAPSHOTS}/) of the RecordLens project {hint_path(project)}, named by a hash "
            "of their bytes rather than by page, and without their labels")
    return f"{what}: nothing imported; {_how_to_move(project)}"


def _how_to_move(project: Path) -> str:
    """How a project's pages and labels go into another project: never through its snapshots, which hold no page
    name and no label."""
    return (f"move it whole with `recordlens project copy {hint_path(project)} DEST`, or take its labelled pages "
            f"into this project with `recordlens export {hint_option('--project', project)} --format nexteval "
            "--out DIR` and then `recordlens import DIR`")


def not_a_folder_there(path: Path) -> str | None:
    """What `path` is when it is there but is no folder to read (a symbolic link to a folder that does not exist,
    a file, a FIFO); None when it is a folder, or when nothing has that name."""
    if path.is_dir() or not (path.is_symlink() or path.exists()):
        return None
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return f"a symbolic link to a folder that does not exist ({_target(path)})"
    except OSError as error:
        if error.errno == errno.ELOOP:
            return "a symbolic link loop"
        return f"cannot be read ({error.strerror or error})"
    return f"{other_kind(mode) or 'a file'}, not a folder"


def _target(link: Path) -> str:
    """Where the symbolic link `link` points, as a hint names a path."""
    try:
        return hint_path(os.readlink(link))
    except OSError:
        return "its target is gone"


def broken_dataset_folder(root: Path, name: str, holds: str) -> str:
    """Why a dataset whose `name` entry (`html`, `gt`) is there but is no folder is not imported at all: half of it
    (its pages without their labels) would pass for the whole."""
    what = not_a_folder_there(root / name)
    return (f"its {name} is {what}; a dataset's {name}/ is the folder of its {holds}: nothing of the dataset imported "
            f"(put the folder back, or point {hint_path(root / name)} to where it is now)")


def files_not_pages(folder: Path) -> list[str]:
    """The names of a folder's files that an import of it does not read: not pages (`PAGE_SUFFIXES`), not label
    files (`N.json`), not hidden, not a snapshot site's own (`site_files`)."""
    try:
        entries = list(folder.iterdir())
    except OSError:
        return []
    pages = [p.stem for p in entries if p.suffix.lower() in PAGE_SUFFIXES]
    own = site_files((p.name for p in entries), pages)
    return sorted((p.name for p in entries if not p.name.startswith(".") and p.suffix.lower() not in PAGE_SUFFIXES
                   and p.suffix.lower() != ".json" and p.name not in own and not p.is_dir()), key=natural_key)


def site_files(names: Iterable[str], pages: Iterable[str]) -> set[str]:
    """Of a folder's file names, those a snapshot site keeps beside its pages (`pages`: their names), which an
    import neither reads nor needs to name: the site's index and a capture's state (`site.json`, `capture.json`),
    and the files a capture keeps beside each page (`NAME.axtree.json`, `NAME.png`, `NAME.meta.json`), of a page
    in the folder or one whose `NAME.meta.json` (only a capture writes it) says it was captured."""
    names = set(names)
    meta = SIDE_SUFFIXES["meta"]
    captured = {*pages, *(name.removesuffix(meta) for name in names if name.endswith(meta))}
    return {name for name in names if name in (INDEX_FILE, CAPTURE_STATE_FILE) or _beside(name, captured)}


def _beside(name: str, pages: set[str]) -> bool:
    """Whether `name` is a file a capture keeps beside one of `pages` (`NAME.png`...)."""
    return any(name.endswith(suffix) and name.removesuffix(suffix) in pages for suffix in SIDE_SUFFIXES.values())


def files_not_pages_line(folder: Path, names: list[str]) -> str:
    """The one line that names a folder's files not imported, with the kinds it reads."""
    suffixes = sorted({Path(name).suffix.lower() or "(no suffix)" for name in names})
    return (f"{hint_path(folder)}: {counted(len(names), 'file')} not imported, as "
            f"{'it is' if len(names) == 1 else 'they are'} no page ({listed(suffixes)}): {listed(names, 8)}; an "
            "import reads .mhtml, .mht, .html and .htm pages (and their N.json labels); a page saved under another "
            "suffix is imported once renamed")


def labels_without_pages_line(folder: Path, names: list[str], *, onto: bool) -> str:
    """The one line that names a folder of pages' `.json` files that are no page's labels there (`onto`: nor the
    project's pages', for an import that puts labels onto them)."""
    pages = "page of their name in the folder or the project" if onto else "page of their name in the folder"
    how = "" if onto else (" (labels of pages the project has go onto them with --annotator NAME, or with "
                           "--replace-labels as the project's own)")
    return (f"{hint_path(folder)}: {counted(len(names), 'JSON file')} not imported, with no {pages} "
            f"({listed(names, 8)}): a folder's N.json is read as the labels of its page N.html or N.mhtml{how}")
