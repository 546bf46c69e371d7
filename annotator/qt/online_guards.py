"""What a page loaded online (online_page.py: saving a page, capturing a site) may not do, whatever its scripts
try: stop the process on a dialog, leave a service worker behind, or send data to its server.

- `QuietPage` answers the page's dialogs itself: `alert` is ignored, `confirm` and `prompt` are answered as Cancel.
  Qt's own answer is a modal message box, whose event loop never returns to the process's wait on a screen no one
  sees: the load, its --timeout and SIGTERM would all wait for good.
- `SendNothing` blocks every request but GET, HEAD and OPTIONS (a form posted by a script, a POST fetch, a beacon):
  reading a page must not submit anything to its site. It also blocks service workers' scripts, so none
  registers: one registered by a page of a capture would answer the loads of every later page of it.

Each keeps what it did (`QuietPage.dialogs`, `SendNothing.blocked`) for the process to say per page. Imported
when an online page is made (the module imports the Qt web modules).
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QUrl
from PySide6.QtWebEngineCore import (
    QWebEnginePage,
    QWebEngineProfile,
    QWebEngineUrlRequestInfo,
    QWebEngineUrlRequestInterceptor,
)

SAFE_METHODS = (b"GET", b"HEAD", b"OPTIONS")
_SHOWN_TEXT = 80  # characters of a dialog's message said


def _quoted(message: str) -> str:
    text = " ".join(message.split())
    return repr(text if len(text) <= _SHOWN_TEXT else text[:_SHOWN_TEXT - 1] + "…")


class QuietPage(QWebEnginePage):
    """A page whose scripts' dialogs never wait for anyone; `dialogs` says each one and how it was answered."""

    def __init__(self, profile: QWebEngineProfile) -> None:
        super().__init__(profile)
        self.dialogs: list[str] = []

    def javaScriptAlert(self, _origin: QUrl, message: str) -> None:  # noqa: N802 (Qt override)
        self.dialogs.append(f"alert({_quoted(message)}) ignored")

    def javaScriptConfirm(self, _origin: QUrl, message: str) -> bool:  # noqa: N802 (Qt override)
        self.dialogs.append(f"confirm({_quoted(message)}) answered Cancel")
        return False

    def javaScriptPrompt(self, _origin: QUrl, message: str, _default: str) -> tuple[bool, str]:  # noqa: N802
        self.dialogs.append(f"prompt({_quoted(message)}) answered Cancel")
        return False, ""


SERVICE_WORKER = "service worker"


class SendNothing(QWebEngineUrlRequestInterceptor):
    """Blocks a request that sends data (any method but `SAFE_METHODS`) and a service worker's script; `blocked`
    lists each one as (what, URL): ("POST", "http://..."), (`SERVICE_WORKER`, "http://.../sw.js")."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.blocked: list[tuple[str, str]] = []

    def interceptRequest(self, info: QWebEngineUrlRequestInfo) -> None:  # noqa: N802 (Qt override)
        method = bytes(info.requestMethod()).upper()
        if method not in SAFE_METHODS:
            what = method.decode("ascii", "replace")
        elif info.resourceType() == QWebEngineUrlRequestInfo.ResourceType.ResourceTypeServiceWorker:
            what = SERVICE_WORKER
        else:
            return
        info.block(True)
        self.blocked.append((what, info.requestUrl().toString()))
