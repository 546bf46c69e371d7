"""A page saved into a site names its file and the site's folder as a hint writes a path
(`core.command_hints.hint_path`): "Save a page from the web" (`SavedPage.message`, printed by its process and shown
in the status bar) and the site browser's "Save this page". Written raw, Qt dropped the byte of a folder named in
Latin-1 (`caf\\xe9 x` read as `caf x`, another folder) and the saver's process could not print it at all under a
UTF-8 stdout; a space ran the name into the words around it."""

from __future__ import annotations

import os
from pathlib import Path
from types import SimpleNamespace

import pytest

from recordlens.annotator.agent.site_browser import SiteBrowser
from recordlens.annotator.agent.site_saver import SavedPage
from recordlens.core.command_hints import hint_path
from tests.shell_words import made_folder, read_back

pytestmark = pytest.mark.app

LATIN_1 = "caf\udce9 x"  # `caf\xe9 x` as Python keeps a name that is not UTF-8 (surrogateescape), with a space


def test_a_page_saved_from_the_web_names_its_file_and_site_as_hints(tmp_path: Path) -> None:
    site = made_folder(tmp_path / LATIN_1)
    saved = SavedPage(url="https://x.org/a", requested="https://x.org/a", file="pages/a b.mhtml", site=str(site),
                      title="A", bytes=2048, resources=1, pages=1, replaced=False)
    said = saved.message()
    assert said.startswith(f"https://x.org/a saved as {hint_path('pages/a b.mhtml')} in {hint_path(site)}: "), said
    assert read_back(hint_path(site)) == [os.fsencode(site)] and str(site) not in said
    said.encode("utf-8")  # printable by the saver's process on any stdout


def test_the_site_browser_names_the_page_it_saved_as_a_hint(tmp_path: Path) -> None:
    page = made_folder(tmp_path / LATIN_1) / "home.mhtml"
    said: list[str] = []
    browser = SimpleNamespace(save_page=lambda: page, last_saved_meta=None, _url="https://x.org/",
                              message=SimpleNamespace(emit=said.append))
    SiteBrowser._save_clicked(browser)  # type: ignore[arg-type]
    assert said == [f"saved https://x.org/ to {hint_path(page)}"]
    assert read_back(hint_path(page)) == [os.fsencode(page)]
