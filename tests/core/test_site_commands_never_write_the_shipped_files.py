"""`recordlens site capture --site DIR` and `recordlens site build DIR` never write inside the files RecordLens
ships (the demo site, `resources/agent/demo-site/`, inside the installed folder or the source checkout): they are
refused before any work (no Chromium started, no folder made, no site.json written), saying so and what to do
instead. The app's "Capture a site from the web…" runs the same command, and core's `capture_site` and
`build_site` refuse it too (a caller of its own). Reading the shipped site (`load_site`, `build_site(write=False)`)
stays as it was.

The shipped resources are a copy in the test's folder (`resource_files` looks there), so that a failing test
changes no file of the source tree."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from recordlens.core import resource_files
from recordlens.core.agent import capture
from recordlens.core.agent.capture import CaptureError, CaptureRules, capture_site
from recordlens.core.agent.sites import SiteError, build_site, load_site
from recordlens.core.command_hints import hint_path
from tests.core.cli_runs import folder_files, run

NEVER_CHANGED = "is inside the files RecordLens ships, which are never changed"


@pytest.fixture
def shipped(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """The resources folder RecordLens ships, as a copy of its own that `resource_files` takes for it; the shipped
    demo site's folder in it."""
    resources = tmp_path / "install" / "resources"
    shutil.copytree(resource_files.resource_path("agent"), resources / "agent")
    monkeypatch.setattr(resource_files, "_resources_folder", lambda: resources)
    assert resource_files.is_shipped(resources / "agent" / "demo-site")
    return resources / "agent" / "demo-site"


class NoChromium:
    """A capture runner (and a renderer) that a refused capture never reaches."""

    def __call__(self, *args: object, **kwargs: object) -> None:
        raise AssertionError("the capture started")

    def render(self, *args: object, **kwargs: object) -> None:
        raise AssertionError("a page was loaded")


def test_site_build_refuses_the_shipped_site(shipped: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = folder_files(shipped)
    code, out, err = run(capsys, "site", "build", str(shipped))
    assert (code, out) == (2, "")
    assert err.splitlines() == [f"recordlens: error: {hint_path(shipped)} {NEVER_CHANGED}: build a copy of it "
                                f"(`cp -r {hint_path(shipped)} my-site`, then `recordlens site build my-site`)"]
    assert folder_files(shipped) == before  # not a byte changed, nor a file added
    (shipped / "site.json").unlink()  # an index gone from the install is not made there either
    assert run(capsys, "site", "build", str(shipped))[0] == 2
    assert not (shipped / "site.json").exists()


def test_site_build_refuses_a_folder_inside_it(shipped: Path, capsys: pytest.CaptureFixture[str]) -> None:
    inner = shipped.parent  # resources/agent: the demo site below it, and the demo tasks
    code, _, err = run(capsys, "site", "build", str(inner))
    assert code == 2 and f"{hint_path(inner)} {NEVER_CHANGED}" in err
    assert not (inner / "site.json").exists()


def test_the_shipped_site_is_still_read(shipped: Path) -> None:
    assert len(load_site(shipped).pages) == len(build_site(shipped, write=False).pages) == 36


def test_a_copy_of_it_is_built(shipped: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copytree(shipped, tmp_path / "my-site")
    code, out, _ = run(capsys, "site", "build", str(tmp_path / "my-site"))
    assert code == 0 and out.startswith(f"{hint_path(tmp_path / 'my-site' / 'site.json')}: 36 pages")


def test_site_capture_refuses_the_shipped_site_before_chromium_starts(
        shipped: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(capture._RUNNERS, "chromium", NoChromium())
    before = folder_files(shipped)
    code, out, err = run(capsys, "site", "capture", "http://127.0.0.1:9/", "--site", str(shipped))
    assert (code, out) == (2, "")
    assert err.splitlines() == [
        f"recordlens: error: {hint_path(shipped)} {NEVER_CHANGED}: choose another --site folder, outside them (to "
        f"add pages to the site there, copy it first, `cp -r {hint_path(shipped)} my-site`, and capture into the "
        "copy)"]
    assert folder_files(shipped) == before


def test_site_capture_makes_no_new_folder_inside_them(
        shipped: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(capture._RUNNERS, "chromium", NoChromium())
    new = shipped.parent / "another-site"
    code, _, err = run(capsys, "site", "capture", "http://127.0.0.1:9/", "--site", str(new))
    assert code == 2
    assert err.splitlines() == [f"recordlens: error: {hint_path(new)} {NEVER_CHANGED}: choose another --site "
                                "folder, outside them"]
    assert not new.exists()


def test_core_capture_refuses_it_too(shipped: Path) -> None:
    before = folder_files(shipped)
    with pytest.raises(CaptureError, match=f"{NEVER_CHANGED}: choose another --site folder"):
        capture_site(["http://127.0.0.1:9/"], shipped, NoChromium(), CaptureRules())
    with pytest.raises(CaptureError, match=NEVER_CHANGED):
        capture_site(["http://127.0.0.1:9/"], shipped / "more", NoChromium(), CaptureRules())
    assert folder_files(shipped) == before and not (shipped / "more").exists()


def test_core_build_refuses_it_too(shipped: Path) -> None:
    before = folder_files(shipped)
    with pytest.raises(SiteError, match=NEVER_CHANGED):
        build_site(shipped)
    assert folder_files(shipped) == before
