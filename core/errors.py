"""The one exception family RecordLens raises for bad input: callers show `str(error)` to a person."""


class RecordLensError(Exception):
    """Base class: the message is a complete sentence a user can act on."""


class SnapshotError(RecordLensError):
    """A saved page (MHTML or HTML) cannot be read: truncated, not multipart, undecodable, too large..."""


class DatasetError(RecordLensError):
    """A dataset or run folder does not have the expected layout, or a records file is malformed."""


class AgentError(RecordLensError):
    """Something about a task, a trajectory or an episode that a person can fix or should know."""


def shortened(text: str, limit: int = 80) -> str:
    """A piece of input quoted in a message, cut to `limit` characters (a MIME boundary can be a million long)."""
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"
