"""Helpers for the agent-benchmark app tests: the demo site, real input on a SiteBrowser, waiting, a candidates
file to review."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QImage
from PySide6.QtTest import QTest

from recordlens.annotator.agent.site_browser import SiteBrowser
from recordlens.annotator.agent.window import AgentWindow
from recordlens.annotator.qt.event_loop import spin
from recordlens.core.agent.candidates import Candidate, save_candidates
from recordlens.core.agent.model import Observation, Task
from recordlens.core.agent.sites import build_site
from recordlens.core.agent.targets import Target
from recordlens.core.page.mhtml_writer import write_mhtml
from tests.app.agent_site import make_site
from tests.app.page_helpers import turn_wheel

ROOT = Path(__file__).resolve().parents[2]
DEMO_SITE = ROOT / "resources" / "agent" / "demo-site"
DEMO_TASKS = ROOT / "resources" / "agent" / "demo-tasks.jsonl"
DEMO_REFERENCE = ROOT / "resources" / "agent" / "reference"
HOME = "https://papers.example.org/"


def shown_browser(site: Path, size: tuple[int, int]) -> Iterator[SiteBrowser]:
    """A SiteBrowser on `site`, shown and active at `size`, disposed afterwards (for a `browser` fixture)."""
    view = SiteBrowser(site)
    view.resize(*size)
    view.show()
    view.activateWindow()
    yield view
    view.dispose()


@contextmanager
def agent_window_on_shop(site_root: Path) -> Iterator[AgentWindow]:
    """The agent window on the small shop site (agent_site.make_site) written to `site_root`, shown with its
    start page loaded; closed afterwards."""
    make_site(site_root)
    window = AgentWindow(site=site_root)
    try:
        window.show()
        assert window.browser.wait_until_loaded()
        yield window
    finally:
        window.close()


def element(observation: Observation, name: str) -> Target:
    found = [e for e in observation.elements if e.name == name or e.text == name]
    assert found, f"no element named {name!r} among {[e.name for e in observation.elements]}"
    return found[0]


def point_of(browser: SiteBrowser, target: Target) -> QPoint:
    """The element's centre in the view, and a check that a click there hits this very element."""
    raw = browser.js_json(f"__recordlens.som.pointFor({json.dumps(target.xpath)})")
    assert raw is not None, f"{target.xpath} cannot be clicked"
    point = QPoint(round(raw[0]), round(raw[1]))
    hit = browser.run_js(f"__recordlens.xpathOf(document.elementFromPoint({point.x()}, {point.y()})"
                         f".closest('a,button,input,select,textarea') || document.body)")
    assert hit == target.xpath, (hit, target.xpath)
    return point


def click(browser: SiteBrowser, target: Target) -> None:
    QTest.mouseClick(browser.view.focusProxy(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     point_of(browser, target))


def type_text(browser: SiteBrowser, target: Target, text: str, *, enter: bool = True) -> None:
    click(browser, target)
    spin(50)
    proxy = browser.view.focusProxy()
    QTest.keyClick(proxy, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClicks(proxy, text)
    if enter:
        QTest.keyClick(proxy, Qt.Key.Key_Return)


def wheel(browser: SiteBrowser, notches: int, at: tuple[int, int] = (600, 400)) -> None:
    """Turn the mouse wheel over the page (`notches` > 0 scrolls down), one event per notch."""
    turn_wheel(browser.view.focusProxy(), [-120 if notches > 0 else 120] * abs(notches), QPoint(*at))


def alt_left(browser: SiteBrowser) -> None:
    QTest.keyClick(browser.view.focusProxy(), Qt.Key.Key_Left, Qt.KeyboardModifier.AltModifier)


def wait_for(condition, timeout_ms: int = 10_000) -> None:  # noqa: ANN001 - a callable returning bool
    waited = 0
    while not condition():
        assert waited < timeout_ms, "timed out"
        spin(20)
        waited += 20


def candidates_file(tmp_path: Path, *seeds: str) -> Path:
    """A candidates file (tmp_path/candidates.jsonl) of two tasks made from `seeds`, gen-1 and gen-2, by the model
    "fake"."""
    path = tmp_path / "candidates.jsonl"
    task = Task(id="gen-1", instruction="Who wrote Sparse Lattice Attention first?", answer="Ilse Marrow",
                category="lookup", start_url="https://papers.example.org/", site="demo-site")
    other = Task(id="gen-2", instruction="What is the deadline?", answer="never", category="lookup",
                 start_url="https://papers.example.org/", site="demo-site")
    save_candidates(path, [Candidate(task=task, seeds=seeds, model="fake"),
                           Candidate(task=other, seeds=seeds, model="fake")])
    return path


def three_questions(path: Path) -> Path:
    """A candidates file at `path` of three candidates not reviewed yet, gen-1 to gen-3 ("Question N?")."""
    save_candidates(path, [Candidate(task=Task(id=f"gen-{n}", instruction=f"Question {n}?", answer=f"answer {n}",
                                               category="lookup", start_url=HOME, site="demo-site"),
                                     seeds=("lookup-1",), model="fake") for n in (1, 2, 3)])
    return path


def short_waits(monkeypatch) -> None:
    """A Wait a recording or a replay carries out gives the page 0.2 s rather than its second (snapshots do not
    change): for tests whose point is not how long a Wait lasts."""
    from recordlens.annotator.agent import qt_browser, recorder

    monkeypatch.setattr(recorder, "WAIT_MS", 200)
    monkeypatch.setattr(qt_browser, "WAIT_MS", 200)


def texts_of_both_browsers(site_root: Path, url: str) -> tuple[str, str]:
    """The observation text of `url` in the Qt browser and in the text browser, in that order."""
    from recordlens.annotator.agent.qt_browser import QtSiteBrowser
    from recordlens.core.agent.sites import build_site
    from recordlens.core.agent.text_browser import HtmlSiteBrowser

    with QtSiteBrowser(site_root) as qt:
        qt.open(url)
        rendered = qt.observe().text
    text = HtmlSiteBrowser(build_site(site_root))
    text.open(url)
    return rendered, text.observe().text


BANK_LOGIN = "https://bank.example.com/login"
BANK_ACCOUNT = "https://bank.example.com/account/"


def make_login_site(root: Path, *, username: bool = False) -> None:
    """A bank's sign-in page as a snapshot site: a password field (after a username field, with `username`) and a
    Sign in button whose form leads to the account page."""
    user = "<p><input aria-label='Username' style='font-size:18px'></p>" if username else ""
    form = ("<!DOCTYPE html><html><head><meta charset='utf-8'><title>Sign in</title></head>"
            "<body style='font:18px sans-serif;margin:24px'><h1>Sign in</h1>"
            f"<form action='/account/' method='get'>{user}"
            "<p><input type='password' aria-label='Password' style='font-size:18px'></p>"
            "<button type='submit'>Sign in</button></form></body></html>")
    account = ("<!DOCTYPE html><html><head><meta charset='utf-8'><title>Account</title></head>"
               "<body style='font:18px sans-serif;margin:24px'><h1>Your account</h1></body></html>")
    root.mkdir(parents=True, exist_ok=True)
    write_mhtml(root / "login.mhtml", form, url=BANK_LOGIN, resources=[])
    write_mhtml(root / "account.mhtml", account, url=BANK_ACCOUNT, resources=[])
    build_site(root)


def field_pixels(png: bytes, field: Target) -> QImage:
    """The part of a screenshot that a field's box covers (to tell whether what was typed shows)."""
    assert field.bbox is not None
    x, y, w, h = (round(v) for v in field.bbox)
    return QImage.fromData(png).copy(x, y, w, h)
