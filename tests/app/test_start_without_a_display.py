"""`recordlens-annotator` where no window can be shown. With no display it ran an invisible offscreen window for
ever and said nothing; with a display it could not reach (a stale DISPLAY, an ended `ssh -X`) Qt aborted (exit
134) advising to reinstall. Both now say so in one line and exit 2, before Qt is started. A platform chosen
explicitly (QT_QPA_PLATFORM, as the tests and CI set it) and a --screenshot keep the offscreen fallback."""

from __future__ import annotations

import ctypes.util
import os
import sys
from pathlib import Path

import pytest

from recordlens.annotator import app
from recordlens.annotator.qt.env import display_problem

pytestmark = pytest.mark.app

UNSERVED = ":7391"  # no X server listens there (checked below)


def _unserved() -> str:
    assert not Path(f"/tmp/.X11-unix/X{UNSERVED[1:]}").exists()
    return UNSERVED


def test_no_display_is_a_problem_for_the_window_only() -> None:
    assert display_problem({}) == "no display (DISPLAY is not set)"
    assert display_problem({}, headless_allowed=True) is None  # --screenshot: offscreen takes the picture
    assert display_problem({"QT_QPA_PLATFORM": "offscreen"}) is None  # asked for: the tests', a CI's
    assert display_problem({"WAYLAND_DISPLAY": "wayland-0"}) is None  # Qt's own to try


# Without libxcb no X display can be asked for, and the annotator leaves it to Qt (which would abort the run)
NEEDS_XCB = pytest.mark.skipif(ctypes.util.find_library("xcb") is None, reason="libxcb is not installed")


def test_macos_and_windows_show_windows_with_no_display_named(monkeypatch: pytest.MonkeyPatch) -> None:
    for platform in ("darwin", "win32"):
        monkeypatch.setattr(sys, "platform", platform)
        assert display_problem({}) is None


@NEEDS_XCB
def test_an_x_display_nobody_serves_is_said_before_qt_aborts() -> None:
    display = _unserved()
    for headless_allowed in (False, True):  # a screenshot needs the display it is given as much as a window
        assert display_problem({"DISPLAY": display}, headless_allowed=headless_allowed) == (
            f"cannot connect to display {display} (a stale DISPLAY, or an `ssh -X` session that has ended?)")
    assert display_problem({"DISPLAY": display, "QT_QPA_PLATFORM": "xcb"}) is None  # explicit: Qt says it


@NEEDS_XCB
@pytest.mark.parametrize("environment", [{}, {"DISPLAY": UNSERVED}])
def test_the_annotator_says_it_needs_a_screen_and_exits_2(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path,
        environment: dict[str, str]) -> None:
    _unserved()
    for name in ("QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    assert app.main([str(tmp_path / "project")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("recordlens-annotator: error: ")
    assert ("no display" if not environment else f"cannot connect to display {UNSERVED}") in err
    assert "--screenshot FILE" in err and "xvfb-run -a" in err
    assert "QT_QPA_PLATFORM" not in os.environ  # Qt was not started: no offscreen fallback chosen
