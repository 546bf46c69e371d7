"""A piece of work's mark in a project's hidden `.running/` (an import's, `import_marks`; a Propose over the new
pages', `propose_marks`), so that work stopped part way is found, and said, by whatever opens the project next (and
work under way by a command that reads what it changes: `work_under_way`).

A mark is two files beside the marks of the runs (`runs.RUNNING_MARKS`): `PREFIX-TOKEN`, a lock of `owner_files`
the working process holds while it runs (the system frees it however the process ends, so work under way is never
taken for stopped work, and a reused process id fools nothing), and `PREFIX-TOKEN.json`, what the work is. The
description is written once the lock is held; work that went through removes both, work that stopped keeps its
description. A description whose lock no live process holds is stopped work. A mark is a help to the user, never a
condition of the work: one that cannot be written leaves the work to run unmarked, one that cannot be read is not
said.
"""

from __future__ import annotations

import contextlib
import json
import os
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import atomic
from .db import now
from .runs import RUNNING_MARKS, keep_unmarked, mark_gone, release_mark, take_mark

__all__ = ["WorkMark", "forget_work", "mark_work", "remove_bare_locks", "stopped_work", "unmark_work", "work_under_way"]

_DESCRIBED = ".json"


@dataclass(frozen=True)
class WorkMark:
    """The mark of work this process does now (`mark_work`), until `unmark_work`."""

    lock: Path
    description: Path


def mark_work(root: Path, prefix: str, described: Mapping[str, Any]) -> WorkMark | None:
    """Mark work of the kind `prefix` ("import-") as under way in the project at `root`, `described` (with when it
    began, "started", and by which process, "process"); None when no mark can be written there (it runs unmarked)."""
    lock = Path(root) / RUNNING_MARKS / f"{prefix}{uuid.uuid4().hex[:12]}"
    description = _described(lock)
    remove_bare_locks(lock.parent, prefix)
    try:
        try:
            take_mark(lock)
        except OSError:  # a file system without locks: named in its file, judged by that line (`owner_files`)
            keep_unmarked(lock)
        # ASCII escapes: a name or path that is not UTF-8 (its bytes kept as surrogates) is written and read back
        atomic.write_text(description, json.dumps({**described, "started": now(), "process": os.getpid()}),
                          durable=False)
    except OSError:
        release_mark(lock)
        return None
    return WorkMark(lock, description)


def unmark_work(mark: WorkMark, *, done: bool) -> None:
    """The work has ended: `done` (through, or said by its window), its mark goes; else its description stays, to
    be said. The lock is given up all the same: this process may live on, as the app does."""
    if done:
        with contextlib.suppress(OSError):
            mark.description.unlink()
    release_mark(mark.lock)


def stopped_work(root: Path, prefix: str) -> list[tuple[Path, dict[str, Any]]]:
    """The work of the kind `prefix` in the project at `root` that stopped part way, each description's file and
    what it holds: no live process holds its lock (this process's own work under way is not looked at: see
    `runs.mark_gone`). A description that cannot be read (half written by a power cut) is left out."""
    return _marked_work(root, prefix, stopped=True)


def work_under_way(root: Path, prefix: str) -> list[tuple[Path, dict[str, Any]]]:
    """The work of the kind `prefix` in the project at `root` that a live process does now (its lock held),
    described as `stopped_work` describes stopped work: for a command that reads what that work is changing (a
    score while pages come in) to say so."""
    return _marked_work(root, prefix, stopped=False)


def _marked_work(root: Path, prefix: str, *, stopped: bool) -> list[tuple[Path, dict[str, Any]]]:
    try:
        described = sorted((Path(root) / RUNNING_MARKS).glob(f"{prefix}*{_DESCRIBED}"))
    except OSError:
        return []
    return [(path, held) for path in described if mark_gone(_lock_of(path)) == stopped
            and (held := _read(path)) is not None]


def forget_work(description: Path) -> None:
    """Take a stopped work's mark away: other work has taken it over (or it has nothing left to do)."""
    with contextlib.suppress(OSError):
        description.unlink()
    with contextlib.suppress(OSError):
        _lock_of(description).unlink()


def remove_bare_locks(folder: Path, prefix: str) -> None:
    """The locks of work killed between taking its lock and describing itself (or between the two as it ended),
    which say nothing: removed by the next work of the kind."""
    with contextlib.suppress(OSError):
        for lock in folder.glob(f"{prefix}*"):
            if not lock.name.endswith(_DESCRIBED) and not _described(lock).exists() and mark_gone(lock):
                lock.unlink(missing_ok=True)


def _read(path: Path) -> dict[str, Any] | None:
    try:
        held = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return held if isinstance(held, dict) else None


def _lock_of(description: Path) -> Path:
    return description.with_name(description.name.removesuffix(_DESCRIBED))


def _described(lock: Path) -> Path:
    return lock.with_name(lock.name + _DESCRIBED)
