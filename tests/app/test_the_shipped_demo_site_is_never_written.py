"""The agent window never writes the demo site RecordLens ships (inside the installed folder, read-only there).
"Save this page to the site" on it rewrote its home.mhtml and site.json in place (and, on a read-only install, said
"not saved: [Errno 30] Read-only file system"): it saves into the user's copy of the demo site, made then in the
user data folder (as the demo project is), which is the site open from then on; a data folder that cannot be
written is said, and the shipped site stays. Nor does "Save a page from the web…", the folder chosen being the
shipped one, nor the saver process given it.

The shipped resources are a copy in the test's folder (`resource_files` looks there), so that a failing test
changes no file of the source tree."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from recordlens.annotator.agent import site_saver
from recordlens.annotator.agent.demo_site import demo_site_folder, demo_tasks_file
from recordlens.annotator.agent.window import AgentWindow
from recordlens.annotator.settings import Settings
from recordlens.core import resource_files
from recordlens.core.agent import load_site
from recordlens.core.command_hints import hint_path
from tests.app.agent_helpers import wait_for

pytestmark = pytest.mark.app

HOME = "https://papers.example.org/"


@pytest.fixture
def shipped(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """The resources folder RecordLens ships, as a copy of its own that `resource_files` takes for it; the
    user data folder in the test's folder too. The shipped demo site's folder."""
    resources = tmp_path / "install" / "resources"
    shutil.copytree(resource_files.resource_path(), resources)
    monkeypatch.setattr(resource_files, "_resources_folder", lambda: resources)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert demo_site_folder() == resources / "agent" / "demo-site"
    return demo_site_folder()


def digests(folder: Path) -> dict[str, str]:
    return {path.relative_to(folder).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(folder.rglob("*")) if path.is_file()}


def demo_window(tmp_path: Path) -> AgentWindow:
    """The agent window as the app opens it the first time: on the demo, with settings to remember what it opens."""
    settings_file = tmp_path / "settings.json"
    window = AgentWindow(settings=Settings.load(settings_file), settings_file=settings_file)
    window.show()
    assert window.browser.wait_until_loaded()
    assert window.browser.url == HOME and "(shipped demo)" in window.windowTitle()
    return window


def save_this_page(window: AgentWindow) -> str:
    """ "Save this page to the site" clicked: what the status bar says."""
    QTest.mouseClick(window.browser.save_button, Qt.MouseButton.LeftButton)
    wait_for(lambda: window.statusBar().currentMessage().startswith(("saved ", "not saved")), 60_000)
    return window.statusBar().currentMessage()


@pytest.mark.timeout(240)
def test_a_page_saved_on_the_shipped_demo_goes_into_the_users_copy(qapp, shipped: Path, tmp_path: Path) -> None:
    before = digests(shipped)
    copy = tmp_path / "data" / "recordlens" / "demo-site-1"
    window = demo_window(tmp_path)
    try:
        said = save_this_page(window)
        assert digests(shipped) == before  # not a byte of the install changed, nor a file added to it
        assert said == (f"saved {HOME} to {hint_path(copy / 'home.mhtml')}, your copy of the demo site (the one "
                        "RecordLens ships is never changed)"), said
        assert (copy / "home.mhtml").read_bytes() != (shipped / "home.mhtml").read_bytes()  # the page as rendered
        assert load_site(copy).name == "demo-site" and set(digests(copy)) == set(before)
        # The copy is the site open: its page on show, the title naming its folder, the settings remembering it
        assert window.browser.site.root.resolve() == copy.resolve() and window.browser.url == HOME
        assert "shipped demo)" not in window.windowTitle().split(" — tasks")[0]
        assert hint_path(copy) in window.windowTitle()
        assert window.settings.agent_site == str(copy.resolve())
        # A second save writes the copy again, not the install
        assert save_this_page(window).startswith(f"saved {HOME} to {hint_path(copy / 'home.mhtml')}")
        assert digests(shipped) == before
    finally:
        window.close()
    again = AgentWindow(settings=Settings.load(tmp_path / "settings.json"), settings_file=tmp_path / "settings.json")
    try:  # reopened on the copy, with the demo's tasks (which go with it)
        assert again.browser.site.root.resolve() == copy.resolve()
        assert again.task_editor.path == demo_tasks_file() and again.task_editor.table.rowCount() == 12
    finally:
        again.close()


@pytest.mark.timeout(240)
def test_a_data_folder_that_cannot_be_written_is_said_and_the_shipped_site_stays(
        qapp, shipped: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")  # a folder under a file cannot be made, by root either
    monkeypatch.setenv("XDG_DATA_HOME", str(blocker / "data"))
    before = digests(shipped)
    window = demo_window(tmp_path)
    try:
        said = save_this_page(window)
        assert said.startswith(f"not saved: {hint_path(shipped)} is inside the files RecordLens ships, which are "
                               f"never changed; its copy cannot be made: {hint_path(blocker / 'data' / 'recordlens')} "
                               "cannot be written (Not a directory): set XDG_DATA_HOME (or HOME) to a folder you "
                               "can write"), said
        assert digests(shipped) == before
        assert window.browser.site.root.resolve() == shipped.resolve() and "(shipped demo)" in window.windowTitle()
    finally:
        window.close()


def test_a_page_from_the_web_is_never_saved_into_the_shipped_site(qapp, shipped: Path, tmp_path: Path) -> None:
    window = demo_window(tmp_path)
    try:
        assert not window.save_from_web("http://127.0.0.1:9/", shipped)  # the folder chosen: the shipped one
        assert not window.web_saver.running and window.save_progress is None
        assert window.statusBar().currentMessage() == (
            f"not saved: {hint_path(shipped)} is inside the files RecordLens ships, which are never changed: choose "
            "another folder")
    finally:
        window.close()
    with pytest.raises(site_saver.SaveError, match="ships, which are never changed: give another folder"):
        site_saver.save_from_web("http://127.0.0.1:9/", shipped)  # the saver process, given it by hand
