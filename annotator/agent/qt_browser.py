"""`QtSiteBrowser`: core's `Browser` protocol on QtWebEngine, for `recordlens agent run`, replay and tests.

It drives a `SiteBrowser` (a snapshot site in a web view, set-of-mark numbers, nothing from the network) the
way a person would: clicks are real mouse events at the element's centre on the view's input widget, typing is
real key events (select all, the text, Enter unless the Type says "(no Enter)"), so pages see what they would see
from a user. Typing into an element that is no text field (som.js's `isTextField`: a link, a button, a list box) is
refused before any key is pressed (`NotATextFieldError`, as core's text browser refuses it): Enter on a link
would follow it. Scrolling moves the window or an element by two thirds of its height, as WebVoyager does. Only the
elements in view are numbered (a set-of-mark screenshot shows the view); an observation says how many more lie
above and below it (`elements_out_of_view`), so that the agent can be told a Scroll reaches them.

The agent loop resolves a step's target on the latest observation before `perform`; `locate` also looks
beyond the viewport, which replay needs when a recorded page was scrolled differently.

`recordlens agent run` imports this module only when it runs, so the core never loads Qt.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QPoint, Qt, qFormatLogMessage, qInstallMessageHandler
from PySide6.QtTest import QTest

from ...core.agent import (
    CAPTURE_VIEWPORT,
    NotATextFieldError,
    Observation,
    Site,
    Step,
    Target,
    TargetNotFoundError,
    find_target,
)
from ..qt.event_loop import spin
from ..qt.widgets import web_input_widget
from .site_browser import SiteBrowser

# The capture's view: the boxes and screenshots of a run, of its references and of the site's stored pages are
# then of one layout (a narrower view wraps and moves everything).
DEFAULT_VIEWPORT = CAPTURE_VIEWPORT
WAIT_MS = 1000  # what "Wait" gives the page: snapshots do not change, but a person's Wait is about this long
# What Qt's offscreen platform says each time a window's size limits change (it has no window manager to pass
# them to): nothing about the run, printed between the lines `agent run` prints per run. Qt says it in its
# default category, so only its words can tell it from a warning that matters.
_PLATFORM_NOTES = frozenset({"This plugin does not support propagateSizeHints()"})


class QtSiteBrowser:
    """A `Browser` over a snapshot site in QtWebEngine. Create it after the QApplication (it makes one if there
    is none); `close()` releases the web page. Pass `browser` to drive a SiteBrowser that is already on screen."""

    def __init__(self, site: Site | str | Path | None = None, *, viewport: tuple[int, int] = DEFAULT_VIEWPORT,
                 browser: SiteBrowser | None = None, show: bool = True) -> None:
        from PySide6.QtWidgets import QApplication

        from ..qt import env as qt_env

        if QApplication.instance() is None:  # a process of its own (`agent run`): the app's messages stay its own
            qInstallMessageHandler(_without_platform_notes)
        qt_env.create_application()
        self._owned = browser is None
        self.browser = browser if browser is not None else SiteBrowser()
        if site is not None:
            self.browser.set_site(site)
        if self._owned:
            self._fit(viewport)
            if show:
                # Chromium renders (and hit-tests, and takes keys) only in a shown widget; offscreen it is invisible.
                self.browser.show()
        self.last: Observation | None = None

    def _fit(self, viewport: tuple[int, int]) -> None:
        """Size the widget so that the page itself gets exactly `viewport` (the bar above takes the rest)."""
        self.browser.resize(*viewport)
        layout = self.browser.layout()
        layout.activate()
        view = self.browser.view.size()
        self.browser.resize(2 * viewport[0] - view.width(), 2 * viewport[1] - view.height())
        layout.activate()

    # -- the protocol -----------------------------------------------------------------------------------------

    @property
    def url(self) -> str:
        return self.browser.url

    @property
    def viewport(self) -> tuple[int, int]:
        """The page's view in CSS pixels (a run records it)."""
        view = self.browser.view.size()
        return view.width(), view.height()

    def open(self, url: str) -> None:
        self.browser.open(url, fresh=True)
        self._settle()

    def observe(self) -> Observation:
        """The numbered elements in view, with how many more lie above and below the view (the agent is told: a
        Scroll brings them in), counted by the marking that numbered them; the screenshot and the page's text."""
        self.last = self.browser.observe()
        return self.last

    def perform(self, step: Step) -> None:
        action = step.action
        if action == "click":
            self._click(self._need(step))
        elif action == "type":
            self._type(self._need(step), step.value or "", submit=step.submit)
        elif action == "scroll":
            self._scroll(step.target, step.value or "down")
        elif action == "wait":
            spin(WAIT_MS)
            self._settle()
        elif action == "go_back":
            self.go_back()
        elif action != "answer":
            raise TargetNotFoundError(f"cannot perform {action or 'an empty action'!r}")

    def go_back(self) -> None:
        self.browser.back()
        self._settle()

    # -- beyond the protocol ----------------------------------------------------------------------------------

    def is_password_field(self, target: Target) -> bool:
        """Whether `target` is a password field of the page on show, found by its XPath: the agent loop keeps what
        is typed into one masked (core's `masked_password`); the field gets the real keys. A target known by its
        box alone cannot be asked about (the loop's targets all have an XPath)."""
        if not target.xpath:
            return False
        found = self.browser.js_json("JSON.stringify((() => { const el = __recordlens.som.resolve("
                                     f"{json.dumps(target.xpath)}); return !!el && el.localName === 'input' && "
                                     "el.type === 'password'; })())")
        return found is True

    def locate(self, target: Target) -> Target | None:
        """The element `target` names by core's identity rule, its XPath first over the whole page: among the
        numbered elements in view, then among every interactive element of the page (a recording may have
        scrolled differently). Only then its other identities, in view first. An XPath out of view must win
        over whatever now sits at the recorded box in view (another row of a long list)."""
        observation = self.last or self.observe()
        whole: list[Target] | None = None

        def whole_page() -> list[Target]:
            nonlocal whole
            if whole is None:
                whole = [replace(e, label=None) for e in self.browser.mark(whole_page=True, draw=False).elements]
                self.browser.mark()  # the marks shown again are the viewport's
            return whole

        if target.xpath:
            found = _by_xpath(target.xpath, observation.elements) or _by_xpath(target.xpath, whole_page())
            if found is not None:
                return found
        # Numbers are per screenshot: an element beyond the view has none (`label=None`).
        return find_target(target, observation.elements) or find_target(target, whole_page())

    def close(self) -> None:
        if self._owned:
            self.browser.dispose()

    def __enter__(self) -> QtSiteBrowser:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- actions ----------------------------------------------------------------------------------------------

    def _need(self, step: Step) -> Target:
        if step.target is None:
            raise TargetNotFoundError(f"{step.action} needs a target element")
        return step.target

    def _point(self, target: Target) -> QPoint:
        """Where to click: the element's centre, found by XPath (scrolled into view), else its box."""
        if target.xpath:
            raw = self.browser.js_json(f"__recordlens.som.pointFor({json.dumps(target.xpath)})")
            if raw is not None:
                return QPoint(round(raw[0]), round(raw[1]))
            raise TargetNotFoundError(f"element {_name(target)} is not on {self.url} or cannot be clicked")
        if target.bbox is not None:
            x, y, w, h = target.bbox
            return QPoint(round(x + w / 2), round(y + h / 2))
        raise TargetNotFoundError(f"element {_name(target)} has no XPath or box to find it by on {self.url}")

    def _input(self):  # noqa: ANN202 - the view's focus proxy (a QWidget)
        proxy = web_input_widget(self.browser.view)
        if proxy is None:
            raise TargetNotFoundError("the browser view is not shown, so it cannot be clicked")
        return proxy

    def _click(self, target: Target) -> None:
        point = self._point(target)
        QTest.mouseClick(self._input(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point)
        self._settle()

    def _type(self, target: Target, text: str, *, submit: bool = True) -> None:
        self._refuse_unless_text_field(target)
        point = self._point(target)
        widget = self._input()
        QTest.mouseClick(widget, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point)
        spin(30)
        # The grammar's Type clears the field first: select all, and the first typed key replaces it.
        QTest.keyClick(widget, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
        if text:
            _key_clicks(widget, text)
        else:
            QTest.keyClick(widget, Qt.Key.Key_Delete)
        if submit:  # not for "Type [n]; text (no Enter)": an agent's that said so, a person's that left the field
            QTest.keyClick(widget, Qt.Key.Key_Return)
        # Not left by script: a blur run as JavaScript can overtake the keys on their way to the page. The next
        # step's click leaves the field, as the person's did.
        self._settle()

    def _refuse_unless_text_field(self, target: Target) -> None:
        """A Type into an element the page says takes no text is refused, nothing pressed. A target known by its
        box alone (no XPath) cannot be asked about, and is typed into as before."""
        if not target.xpath:
            return
        found = self.browser.js_json("JSON.stringify((() => { const el = __recordlens.som.resolve("
                                     f"{json.dumps(target.xpath)}); return el ? __recordlens.som.identities(el) : "
                                     "null; })())")
        if isinstance(found, dict) and found.get("field") is False:
            raise NotATextFieldError.of(replace(target, role=target.role or str(found.get("role") or "")))

    def _scroll(self, target: Target | None, direction: str) -> None:
        xpath = json.dumps(target.xpath if target is not None else None)
        if target is not None and not target.xpath:
            raise TargetNotFoundError(f"element {_name(target)} has no XPath to scroll it by")
        self.browser.run_js(f"__recordlens.som.scroll({xpath}, {json.dumps(direction)})")
        self._settle(quiet_ms=150)

    def _settle(self, quiet_ms: int = 250) -> None:
        self.browser.settle(quiet_ms=quiet_ms)


def _without_platform_notes(kind, context, message: str) -> None:  # noqa: ANN001 - QtMsgType, QMessageLogContext
    """Qt's messages as Qt would print them, but the platform's notes (`_PLATFORM_NOTES`)."""
    if message not in _PLATFORM_NOTES:
        print(qFormatLogMessage(kind, context, message), file=sys.stderr, flush=True)


def _key_clicks(widget, text: str) -> None:  # noqa: ANN001 - the view's focus proxy (a QWidget)
    """`text` typed as key events. QTest's keyClicks knows ASCII only (any other character aborts the process in
    Qt's own assertion): each other character is a key press and release carrying it, as a keyboard layout or an
    input method sends it."""
    for run in re.findall(r"[\x00-\x7f]+|[^\x00-\x7f]", text):
        if run.isascii():
            QTest.keyClicks(widget, run)
            continue
        for action in (QTest.KeyAction.Press, QTest.KeyAction.Release):
            QTest.sendKeyEvent(action, widget, Qt.Key.Key_unknown, run, Qt.KeyboardModifier.NoModifier)


def _by_xpath(xpath: str, elements: Sequence[Target]) -> Target | None:
    return next((e for e in elements if e.xpath == xpath), None)


def _name(target: Target) -> str:
    if target.label is not None:
        return f"[{target.label}]"
    return repr(target.name or target.text or target.xpath or "?")
