"""A moment as the project writes it and reads it back: UTC to the millisecond, ending in `Z`, sortable as text.

The store's rows, an agent's episode and a person's recording all say when in this one form, so that their times
read and order alike. A time written before (a recording's `+00:00`, a hand-written one with no zone) is still read.
"""

from __future__ import annotations

from datetime import UTC, datetime


def now() -> str:
    """UTC, to the millisecond as a step's `seconds` are kept (a step of 0.4 s is not one of 0 or 1 between its
    neighbours' times), sortable as text."""
    return stamp(datetime.now(UTC))


def stamp(moment: datetime) -> str:
    """A moment as the project stores every time (`now`); one without a zone is taken as UTC."""
    moment = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def stored_moment(at: str | None) -> datetime | None:
    """`at` (an ISO time: `Z`, `+00:00` or another zone; UTC when it names none) as a moment to compare; None when it
    is no time (missing, or changed by hand)."""
    if not isinstance(at, str):  # a column left empty, or given a number by hand
        return None
    try:
        moment = datetime.fromisoformat(at)
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
