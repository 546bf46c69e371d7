"""The store's times (UTC, `core.store.db.now`) as the app shows them: in the person's own clock and zone, the
same way on every screen (the command line says UTC, and says so)."""

from __future__ import annotations

from datetime import UTC, datetime


def local_time(at: str, *, seconds: bool = True, zone: bool = False) -> str:
    """`at` (an ISO time, UTC when it names no zone) in local time, "2026-12-05 13:39:47", without its seconds
    (`seconds` False), with the zone's name (`zone`: "2026-12-05 13:39 NST"); `at` as it is when it is no time."""
    try:
        moment = datetime.fromisoformat(at.replace("Z", "+00:00"))
    except ValueError:
        return at
    local = (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).astimezone()
    text = local.strftime("%Y-%m-%d %H:%M:%S" if seconds else "%Y-%m-%d %H:%M")
    return f"{text} {local.strftime('%Z')}" if zone else text
