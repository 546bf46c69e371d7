"""The store's times (UTC, `core.moments.now`) as the app shows them: in the person's own clock and zone, the
same way on every screen (the command line says UTC, and says so)."""

from __future__ import annotations

from ...core.moments import stored_moment  # the main window and the history read stored times here


def local_time(at: str, *, seconds: bool = True, zone: bool = False) -> str:
    """`at` (an ISO time, UTC when it names no zone) in local time, "2026-12-05 13:39:47", without its seconds
    (`seconds` False), with the zone's name (`zone`: "2026-12-05 13:39 NST"); `at` as it is when it is no time."""
    moment = stored_moment(at)
    if moment is None:
        return at
    local = moment.astimezone()
    text = local.strftime("%Y-%m-%d %H:%M:%S" if seconds else "%Y-%m-%d %H:%M")
    return f"{text} {local.strftime('%Z')}" if zone else text


def zone_name(at: str) -> str:
    """The name of the local zone at `at` ("NST", "NDT" in its summer time), for a list that names it once;
    "" when `at` is no time."""
    moment = stored_moment(at)
    return moment.astimezone().strftime("%Z") if moment is not None else ""
