"""The JavaScript the app injects into pages (resources/js), and typed results of running it."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib.resources import files

from .page_loader import OfflinePage

DOM_RULES = "dom_rules.js"


@cache
def read_script(name: str) -> str:
    return (files("recordlens.resources") / "js" / name).read_text(encoding="utf-8")


class PageScriptError(RuntimeError):
    pass


@dataclass(frozen=True)
class BrowserDom:
    """What the browser says the page is under the NEXT-EVAL rules (see resources/js/dom_rules.js)."""

    xpaths: list[str]
    text_map: dict[str, str]


def browser_dom(page: OfflinePage, timeout_ms: int = 60_000) -> BrowserDom:
    """Run dom_rules.js on the loaded page: every element's XPath in document order, and the text map."""
    raw = page.run_js(read_script(DOM_RULES), timeout_ms)
    if not isinstance(raw, str):
        raise PageScriptError(f"{DOM_RULES} returned {type(raw).__name__}, not JSON text")
    data = json.loads(raw)
    if "error" in data:
        raise PageScriptError(f"{DOM_RULES} failed in the page: {data['error']}")
    return BrowserDom(xpaths=data["xpaths"], text_map=dict(data["textmap"]))
