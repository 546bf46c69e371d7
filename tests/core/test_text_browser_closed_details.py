"""The text browser numbered the links and fields inside a closed `<details>`, where the page shows only its summary
(its first `<summary>` child): the Qt browser's set-of-mark never numbers them (Chromium shows nothing of that part),
so the agent was offered elements it could not see. Now, as in the Qt browser, a summary is numbered (a button, what
lies inside it left to it), the rest of a closed `<details>` is not, and a click on the summary opens it (and
closes it again). tests/app/test_qt_browser_agrees_on_hidden_parts.py holds the Qt browser to the same page."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.core.agent.actions import Step
from recordlens.core.agent.loop import LOOP_RULES
from recordlens.core.agent.sites import Site
from recordlens.core.agent.targets import Target, TargetNotFoundError
from recordlens.core.agent.text_browser import HtmlSiteBrowser
from tests.core.hidden_parts_page import DETAILS_CLOSED as CLOSED
from tests.core.hidden_parts_page import DETAILS_HOME as HOME
from tests.core.hidden_parts_page import DETAILS_OPENED as OPENED
from tests.core.hidden_parts_page import DETAILS_PAGE, one_page_site


def details_site(folder: Path) -> Site:
    return one_page_site(folder, DETAILS_PAGE, HOME)


def roles_and_names(browser: HtmlSiteBrowser) -> list[tuple[str, str]]:
    return [(e.role, e.name) for e in browser.observe().elements]


def test_only_the_summary_of_a_closed_details_is_numbered_until_it_is_clicked(tmp_path: Path) -> None:
    browser = HtmlSiteBrowser(details_site(tmp_path / "site"))
    browser.open(HOME)
    assert roles_and_names(browser) == CLOSED
    with pytest.raises(TargetNotFoundError):  # what is not numbered cannot be clicked by its XPath either
        browser.perform(Step("click", Target(xpath="/body[1]/details[1]/p[1]/a[1]")))
    assert browser.url == HOME

    browser.perform(Step("click", browser.observe().element(2)))  # the summary: the details opens
    assert roles_and_names(browser) == OPENED
    assert browser.observe().element(3).xpath == "/body[1]/details[1]/p[1]/a[1]"
    browser.perform(Step("click", browser.observe().element(6)))  # a <summary> that is no summary does nothing
    assert roles_and_names(browser) == OPENED
    browser.perform(Step("click", browser.observe().element(9)))  # an open one closes
    assert roles_and_names(browser) == OPENED[:8] + [("button", "Returns"), ("link", "After")]
    browser.perform(Step("click", browser.observe().element(2)))
    assert roles_and_names(browser) == [("link", "Before"), ("button", "Shipping rates"), ("button", "Returns"),
                                        ("link", "After")]
    assert LOOP_RULES["numbers_closed_details_summary"] is True


def test_a_page_loaded_again_shows_its_details_as_saved(tmp_path: Path) -> None:
    browser = HtmlSiteBrowser(details_site(tmp_path / "site"))
    browser.open(HOME)
    browser.perform(Step("click", browser.observe().element(2)))
    browser.open(HOME)
    assert roles_and_names(browser) == CLOSED
