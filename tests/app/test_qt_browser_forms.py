"""The Qt browser and core's text browser show a page of forms alike and reach the same URL by the same actions
(tests/core/forms_page.py: selects, checkboxes, buttons, text areas, Enter, constraints, encodings, links). The text
browser used to send a select as "", a text area's text as "", every named button but the one used only when
that was no button, and to submit on Enter whatever the form held, where Chromium does not; som.js numbered the
fields of a disabled fieldset, which take no click or key, and refused typing into a field of an unknown type,
which Chromium reads as a text field."""

from __future__ import annotations

import pytest

from recordlens.annotator.agent.qt_browser import QtSiteBrowser
from recordlens.core.agent.sites import normalise_url
from recordlens.core.agent.text_browser import HtmlSiteBrowser
from tests.core.forms_page import BASE, CASES, HOME, forms_site, steps

pytestmark = pytest.mark.app


def test_both_browsers_show_the_forms_alike_and_reach_the_same_urls(qapp, tmp_path):
    site = forms_site(tmp_path)
    text = HtmlSiteBrowser(site)
    with QtSiteBrowser(site) as browser:
        browser.open(HOME)
        whole = browser.browser.mark(whole_page=True, draw=False).elements
        text.open(HOME)
        seen = text.observe().elements
        assert [(e.role, e.name, e.text, e.xpath) for e in whole] == [(e.role, e.name, e.text, e.xpath) for e in seen]
        reached = {}
        for why, actions, _ in CASES:
            browser.open(HOME)
            text.open(HOME)
            for step in steps(actions, whole):
                browser.perform(step)
                text.perform(step)
            reached[why] = (browser.url, text.url)
        assert {why: qt for why, (qt, _) in reached.items()} == {why: url for why, _, url in CASES}
        assert {why: qt for why, (qt, _) in reached.items()} == {why: ours for why, (_, ours) in reached.items()}

        # Typing letters outside ASCII aborted the process (QTest's keyClicks knows ASCII only). `~` and those
        # letters: Chromium sends them %-encoded, as the text browser does; the Qt browser shows the URL in QUrl's
        # pretty form, with them decoded. The same URL.
        for browser_now in (browser, text):
            browser_now.open(HOME)
            browser_now.perform(steps([("type", "Search", "tea ~ café 日本")], whole)[0])
        assert browser.url.startswith(BASE + "results?q=tea+~+café+日本&")
        assert normalise_url(browser.url) == normalise_url(text.url)
