"""Snapshot files in a project: content-addressed by sha256, written atomically, read-only once stored.

`snapshots/ab/abcdef....mhtml`: the two-character folder keeps any one directory small. Identical bytes are
stored once however many pages or imports refer to them, and a stored file is never rewritten, so a label
made on a page can always be checked against exactly the page it was made on.
"""

from __future__ import annotations

import hashlib
import stat
import time
from pathlib import Path

from .. import atomic

SNAPSHOTS = "snapshots"
# A temporary snapshot file untouched this long belongs to a write that was stopped (a write touches its file
# as it goes); younger ones may be another import's, running now, and are left alone.
STALE_TEMPORARY_S = 300.0


def content_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def snapshot_path(root: Path, digest: str, suffix: str) -> Path:
    return root / SNAPSHOTS / digest[:2] / f"{digest}{suffix}"


def store_snapshot(root: Path, data: bytes, suffix: str) -> str:
    """Write `data` under its hash unless it is already there; returns the hash."""
    digest = content_hash(data)
    path = snapshot_path(root, digest, suffix)
    if path.is_file() and path.stat().st_size == len(data):
        return digest
    # Read-only tells people and tools that a stored snapshot is evidence, not a working copy.
    atomic.write_bytes(path, data, mode=atomic.file_mode() & (stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH))
    return digest


def remove_stale_temporaries(root: Path, older_than_s: float = STALE_TEMPORARY_S) -> int:
    """Remove the temporary files (`.NAME.*.tmp`, see core/atomic) of snapshot writes that never finished;
    returns how many were removed."""
    removed = 0
    now = time.time()
    for temporary in (root / SNAPSHOTS).glob("*/.*.tmp"):
        try:
            if now - temporary.lstat().st_mtime >= older_than_s:
                temporary.unlink()
                removed += 1
        except OSError:
            continue  # gone already (another import cleaned it), or not ours to remove
    return removed
