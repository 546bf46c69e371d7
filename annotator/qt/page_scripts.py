"""The JavaScript the app injects into pages (resources/js), and typed results of running it."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache

from PySide6.QtCore import QFile, QIODevice
from PySide6.QtWebEngineCore import QWebEngineScript

from ...core.resource_files import read_resource
from ..install_check import IncompleteInstall
from .page_loader import APPLICATION_WORLD, OfflinePage

DOM_RULES = "dom_rules.js"
BRIDGE = "bridge.js"
SHADOW_HOST = "shadow_host.js"
QWEBCHANNEL_RESOURCE = ":/qtwebchannel/qwebchannel.js"
QWEBCHANNEL_JS = "qwebchannel.js (in Qt's QtWebChannel library)"  # a Qt resource, inside a library, not a file


@cache
def read_script(name: str) -> str:
    return read_resource("js", name)


class PageScriptError(RuntimeError):
    pass


def qwebchannel_js() -> str:
    """Qt's qwebchannel.js; IncompleteInstall when Qt's QtWebChannel library lacks it (an install cut short)."""
    source = QFile(QWEBCHANNEL_RESOURCE)
    if not source.open(QIODevice.OpenModeFlag.ReadOnly):
        raise IncompleteInstall(QWEBCHANNEL_JS)
    try:
        return bytes(source.readAll()).decode("utf-8")
    finally:
        source.close()


def document_script(name: str, *scripts: str) -> QWebEngineScript:
    """One ApplicationWorld script for every new document of a page: qwebchannel.js, dom_rules.js, bridge.js
    and shadow_host.js, then `scripts`, in that order (one script, so the order holds).

    At creation the document is still empty, so dom_rules.js's own walk costs nothing, and listeners are in
    place before the user can click."""
    script = QWebEngineScript()
    script.setName(name)
    parts = [qwebchannel_js(), read_script(DOM_RULES), read_script(BRIDGE), read_script(SHADOW_HOST),
             *(read_script(s) for s in scripts)]
    script.setSourceCode(";\n".join(parts))
    script.setInjectionPoint(QWebEngineScript.InjectionPoint.DocumentCreation)
    script.setWorldId(APPLICATION_WORLD)
    script.setRunsOnSubFrames(False)
    return script


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
