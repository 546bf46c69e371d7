"""A page view whose overlay.js cannot be read (missing from the app's folder) says so in one line, as it did, and
leaves no browser page behind: it used to make its OfflinePage first and raise with it unclosed, which Qt then
deleted in the collector's order, the profile before its page ("Release of profile requested but WebEnginePage
still not deleted. Expect troubles !" on stderr)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from recordlens.annotator.install_check import IncompleteInstall
from recordlens.annotator.labelling import page_view
from recordlens.annotator.qt.page_loader import OfflinePage
from recordlens.core.command_hints import hint_path
from recordlens.core.resource_files import resource_path
from tests.conftest import ROOT

pytestmark = pytest.mark.app

GONE = "overlay-that-is-not-there.js"
CHILD_TIMEOUT_S = 300  # Chromium's start, on two busy cores
UNDELETED = "Release of profile requested but WebEnginePage still not deleted"
# A page view made where its overlay script is missing, then the collector and the event loop given their turn, as
# an app that goes on (or quits) would give them
MADE_WITHOUT_ITS_SCRIPT = textwrap.dedent("""
    import gc
    from recordlens.annotator.qt import env as qt_env
    qt_env.prepare()
    from recordlens.annotator.install_check import IncompleteInstall
    from recordlens.annotator.labelling import page_view
    from recordlens.annotator.qt.event_loop import spin

    app = qt_env.create_application(["recordlens-tests"])
    page_view.OVERLAY = {gone!r}
    try:
        page_view.PageView()
    except IncompleteInstall as error:
        print(error, flush=True)
    gc.collect()
    spin(300)
    print("ended", flush=True)
""").format(gone=GONE)


class CountedPage(OfflinePage):
    made: list[CountedPage] = []

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        CountedPage.made.append(self)


def test_the_missing_script_is_said_and_no_page_is_left_open(qapp, monkeypatch) -> None:
    monkeypatch.setattr(page_view, "OVERLAY", GONE)
    monkeypatch.setattr(page_view, "OfflinePage", CountedPage)
    CountedPage.made.clear()
    try:
        with pytest.raises(IncompleteInstall) as raised:
            page_view.PageView()
        assert str(raised.value).startswith(f"{hint_path(resource_path('js', GONE))} is missing: the RecordLens "
                                            "installation is incomplete; ")
        assert all(made.view is None for made in CountedPage.made), "a page made for the view was left open"
    finally:
        for made in CountedPage.made:  # in Qt's order, whatever the test found
            made.close()


def test_no_browser_page_is_left_for_qt_to_delete_out_of_order(tmp_path) -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "XDG_CONFIG_HOME": str(tmp_path / "config")}
    done = subprocess.run([sys.executable, "-c", MADE_WITHOUT_ITS_SCRIPT], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=CHILD_TIMEOUT_S)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.splitlines()[-1] == "ended", done.stdout
    assert f"{GONE} is missing" in done.stdout, done.stdout
    assert UNDELETED not in done.stderr, done.stderr[-3000:]
