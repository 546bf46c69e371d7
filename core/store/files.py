"""Snapshot files in a project: content-addressed by sha256, written atomically, read-only once stored.

`snapshots/ab/abcdef....mhtml`: the two-character folder keeps any one directory small. Identical bytes are
stored once however many pages or imports refer to them, and a stored file is never rewritten, so a label
made on a page can always be checked against exactly the page it was made on.
"""

from __future__ import annotations

import hashlib
import stat
from pathlib import Path

from .. import atomic

SNAPSHOTS = "snapshots"


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
