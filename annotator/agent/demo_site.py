"""The demo site RecordLens ships (resources/agent/demo-site/, with its tasks), and the user's copy of it.

The shipped site lies inside the installed folder (read-only there, tracked by git in a checkout) and is never
written: "Save this page to the site" on it saves into the user's copy, in the user data folder beside the demo
project, made at that first save and the site open from then on. Made then rather than when the agent window
opens the demo: browsing and recording write nothing, so they need no writable folder, and a demo nobody changed
stays the one the RecordLens installed ships (a later version's too, after an upgrade). No Qt here.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from ...core.errors import RecordLensError
from ...core.resource_files import never_changed, resource_path
from ..settings import cannot_write, user_data_folder

# A new name whenever the shipped demo site changes, so that nobody's copy of an older one is taken for it
DEMO_SITE_COPY = "demo-site-1"


class DemoCopyError(RecordLensError):
    """The user's copy of the demo site cannot be made (the user data folder cannot be written)."""


def demo_site_folder() -> Path:
    return resource_path("agent", "demo-site")


def demo_tasks_file() -> Path:
    return resource_path("agent", "demo-tasks.jsonl")


def demo_site_copy_folder() -> Path:
    return user_data_folder() / DEMO_SITE_COPY


def is_the_demo(site: Path) -> bool:
    """Whether the site folder `site` is the shipped demo site or the user's copy of it (the demo tasks' site)."""
    return site.resolve() in (demo_site_folder().resolve(), demo_site_copy_folder().resolve())


def in_the_demo_copy(path: Path) -> bool:
    """Whether `path` is a file of the user's copy of the demo site."""
    return path.resolve().is_relative_to(demo_site_copy_folder().resolve())


def copy_demo_site() -> Path:
    """The user's copy of the shipped demo site, made the first time (beside its place, then renamed into it: never
    half a copy); one made before holds the pages saved into it, and is used as it is. Its files are made as any
    new file (the umask's mode), not with the install's, which may be read-only."""
    target = demo_site_copy_folder()
    if target.is_dir():
        return target
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    except OSError as error:
        raise DemoCopyError(f"{never_changed(demo_site_folder())}; its copy cannot be made: "
                            f"{cannot_write(target.parent, error, 'XDG_DATA_HOME')}") from None
    try:
        _copy_files(demo_site_folder(), staging / target.name)
        (staging / target.name).rename(target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return target


def _copy_files(source: Path, target: Path) -> None:
    target.mkdir()
    for path in sorted(source.rglob("*")):
        if path.is_dir():
            (target / path.relative_to(source)).mkdir()
        else:
            shutil.copyfile(path, target / path.relative_to(source))
