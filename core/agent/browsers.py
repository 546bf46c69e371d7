"""Which browsers `recordlens agent run` can drive, by name.

Core offers `text` (its own HTML browser over the site, no screenshot). The app adds `qt` (QtWebEngine with
set-of-mark screenshots) when the `recordlens` command is assembled with it (recordlens.annotator.cli), so that
core names no module of the app and the Qt side is imported only when a run asks for it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..errors import RecordLensError
from .model import Browser
from .sites import Site
from .text_browser import HtmlSiteBrowser

BrowserFactory = Callable[[Site], Browser]


@dataclass(frozen=True)
class BrowserKind:
    factory: BrowserFactory
    description: str
    screenshots: bool


_BROWSERS: dict[str, BrowserKind] = {
    "text": BrowserKind(HtmlSiteBrowser, "core's HTML browser over the site, page text instead of a screenshot",
                        screenshots=False),
}


def register_browser(name: str, factory: BrowserFactory, description: str, *, screenshots: bool) -> None:
    _BROWSERS[name] = BrowserKind(factory, description, screenshots)


def browser_names() -> list[str]:
    return list(_BROWSERS)


def default_browser() -> str:
    return "qt" if "qt" in _BROWSERS else "text"


def rendered_viewport(browser: object) -> list[int] | None:
    """The width and height a browser lays pages out at, as a run records it; None for one without a layout
    (core's text browser)."""
    size = getattr(browser, "viewport", None)
    return [int(v) for v in size] if size is not None else None


def browser_kind(name: str) -> BrowserKind:
    try:
        return _BROWSERS[name]
    except KeyError:
        raise RecordLensError(f"no browser {name!r} here (available: {', '.join(_BROWSERS)}); the Qt browser "
                              "comes with the app's `recordlens` command") from None
