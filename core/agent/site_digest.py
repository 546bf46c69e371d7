"""A digest of a snapshot site's contents: two runs on the same digest saw the same pages, so their figures are
those of one benchmark; a re-captured copy with changed pages gets another digest even under the same name."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from ..file_kinds import open_regular_file
from .sites import Site

# The side files that change what an agent can be shown. The full-page screenshot is left out (the largest file,
# and the capture's meta.json, hashed here, records its sha256 already).
_HASHED_SIDE = ("axtree", "meta")


def site_digest(site: Site) -> str:
    """sha256 over the site's index (its pages' URLs, files, titles, side files, aliases; not its name, so that a
    copy indexed under another name still reads as the same snapshot) and the bytes of every page and hashed side
    file, in the index's order."""
    digest = hashlib.sha256()
    index = [page.as_dict() for page in site.pages]
    digest.update(json.dumps(index, sort_keys=True, ensure_ascii=False).encode("utf-8"))
    for page in site.pages:
        files = [page.file, *(page.side_file(kind) for kind in _HASHED_SIDE)]
        for relative in files:
            if relative is not None:
                digest.update(_file_hash(site.root / relative))
    return digest.hexdigest()


def _file_hash(path: Path) -> bytes:
    """The file's own sha256 (one fixed-size entry per file, read in chunks), or a mark that it cannot be read:
    missing, or no regular file, which the agent is shown no more of than of a missing one. Opened through the
    guarded reader, as a site's folder is the user's: a FIFO there is not waited on (the run would never start),
    and a hard link to a file of a database this process has open is not opened (closing it would drop this
    process's SQLite locks on that database)."""
    try:
        with open_regular_file(path) as stream:
            return hashlib.file_digest(stream, "sha256").digest()
    except OSError:
        return b"missing:" + path.name.encode("utf-8")


def short(digest: str) -> str:
    """The first 12 hex digits: enough to tell two snapshots apart in a message."""
    return digest[:12]
