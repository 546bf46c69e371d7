"""A form without an action (or with `action=""`) goes to the page's own URL with its new query, by HTML's rule,
in the Qt browser as in the text browser. The Qt browser used to do nothing: its document's URL is the served
`recordlens-page:` one, and a navigation to that was dropped; it now stands for the snapshot page's real URL."""

from __future__ import annotations

import pytest

from recordlens.annotator.agent.qt_browser import QtSiteBrowser
from recordlens.core.agent.sites import build_site
from recordlens.core.agent.text_browser import HtmlSiteBrowser
from recordlens.core.page.mhtml_writer import write_mhtml
from tests.core.forms_page import steps

pytestmark = pytest.mark.app

HOME = "https://x.example.org/p?old=1"
OTHER = "https://x.example.org/p?b=x"
PAGE = ('<form><input name="a" aria-label="A"></form>'
        '<form action=""><input name="b" aria-label="B"></form>')


def test_a_form_without_an_action_goes_to_the_page_itself_in_both_browsers(qapp, tmp_path):
    write_mhtml(tmp_path / "p.mhtml", PAGE, url=HOME)
    write_mhtml(tmp_path / "b.mhtml", "<p>Found</p>", url=OTHER)  # the page `action=""` leads to is saved too
    site = build_site(tmp_path)
    text = HtmlSiteBrowser(site)
    with QtSiteBrowser(site) as browser:
        reached = {}
        for name in ("A", "B"):
            for browser_now in (browser, text):
                browser_now.open(HOME)
                browser_now.perform(steps([("type", name, "x")], browser_now.observe())[0])
            reached[name] = (browser.url, text.url, browser.browser.in_site)
        assert reached == {
            "A": ("https://x.example.org/p?a=x", "https://x.example.org/p?a=x", False),  # not saved: refused
            "B": (OTHER, OTHER, True),  # saved: shown
        }
