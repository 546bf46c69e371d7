"""What a page loaded online (online_page.py: saving a page, capturing a site) may not do, whatever its scripts
try: stop the process on a dialog, leave a service worker behind, or send data anywhere.

- `QuietPage` answers the page's dialogs itself: `alert` is ignored, `confirm` and `prompt` are answered as Cancel.
  Qt's own answer is a modal message box, whose event loop never returns to the process's wait on a screen no one
  sees: the load, its --timeout and SIGTERM would all wait for good.
- `SendNothing` blocks every request but GET, HEAD and OPTIONS (a form posted by a script, a POST fetch, a beacon)
  and every WebSocket (its handshake is a GET, but what follows it is data sent): reading a page must not submit
  anything to its site. It also blocks service workers' scripts, so none registers: one registered by a page of a
  capture would answer the loads of every later page of it.
- `REFUSE_SENDING_JS`, run in every document of the page before its own scripts (`refuse_sending`): what no request
  interceptor sees. A form its script submits by POST is not submitted at all (a navigation that starts, even one
  refused later, stops the parsing of the page, which would be kept cut where its script ran); WebRTC
  (`RTCPeerConnection`: STUN and TURN servers a page names reach any host and port, its data channels any peer) and
  WebTransport (HTTP/3 over UDP) are refused as they are made. The process's Chromium also sends no WebRTC over UDP
  (site_saver.py's flags). Each refusal is said to the page's console under `_REFUSED`, which `QuietPage` reads.

Each keeps what it did (`QuietPage.dialogs`, `SendNothing.blocked`, which `QuietPage` adds the script's refusals
to) for the process to say per page. Imported when an online page is made (the module imports the Qt web modules).
"""

from __future__ import annotations

import json

from PySide6.QtCore import QObject, QUrl
from PySide6.QtWebEngineCore import (
    QWebEnginePage,
    QWebEngineProfile,
    QWebEngineScript,
    QWebEngineUrlRequestInfo,
    QWebEngineUrlRequestInterceptor,
)

SAFE_METHODS = (b"GET", b"HEAD", b"OPTIONS")
_SHOWN_TEXT = 80  # characters of a dialog's message said
SERVICE_WORKER = "service worker"
WEBSOCKET = "WebSocket"
FORM = "form"  # a form submitted by POST (its URL: where it would have gone)
_REFUSED = "recordlens:refused:"  # a console message of REFUSE_SENDING_JS: what it refused, as JSON [what, URL]

# Locked in (not writable, not configurable) so that the page's scripts cannot put the originals back; run twice in
# a document (a Qt script and DevTools' for the capture), the second run's locks fail and are left: the first's
# hold. The page's own accessors are taken first: a form may hide them (`<input name=method>` is `form.method`).
REFUSE_SENDING_JS = """(() => {
  const say = console.debug.bind(console), text = JSON.stringify, apply = Reflect.apply;
  const refused = (what, where) => say('__REFUSED__' + text([what, String(where)]));
  const lock = (owner, name, value) => {
    try { Object.defineProperty(owner, name, {value, writable: false, configurable: false}); } catch (e) {}
  };
  const refuser = (name, what, where) => function () {
    refused(what, where(arguments));
    throw new DOMException(name + ' is not allowed while the page is saved', 'NotAllowedError');
  };
  const servers = (config) => {
    try {
      const urls = [].concat(...((config && config.iceServers) || []).map((s) => [].concat(s.urls || s.url || [])));
      return urls.length ? urls.join(', ') : 'a peer-to-peer connection';
    } catch (e) { return 'a peer-to-peer connection'; }
  };
  for (const name of ['RTCPeerConnection', 'webkitRTCPeerConnection']) {
    if (name in self) lock(self, name, refuser(name, 'WebRTC', (args) => servers(args[0])));
  }
  if ('WebTransport' in self) lock(self, 'WebTransport', refuser('WebTransport', 'WebTransport', (args) => args[0]));
  if (!self.HTMLFormElement) return;
  const form = HTMLFormElement.prototype, attribute = Element.prototype.getAttribute;
  const accessor = (owner, name) => Object.getOwnPropertyDescriptor(owner, name).get;
  const method = accessor(form, 'method'), action = accessor(form, 'action'), submit = form.submit;
  const posts = (target, submitter) => {
    const asked = submitter && apply(attribute, submitter, ['formmethod']);
    return String(asked || apply(method, target, [])).toLowerCase() === 'post';
  };
  const target = (element, submitter) => (submitter && apply(attribute, submitter, ['formaction']) !== null
                                          ? submitter.formAction : apply(action, element, []));
  lock(form, 'submit', function () {
    if (posts(this)) return refused('__FORM__', target(this));
    return apply(submit, this, arguments);
  });
  addEventListener('submit', (event) => {
    if (event.target instanceof HTMLFormElement && posts(event.target, event.submitter)) {
      event.preventDefault();
      refused('__FORM__', target(event.target, event.submitter));
    }
  }, true);
})();""".replace("__REFUSED__", _REFUSED).replace("__FORM__", FORM)


def _quoted(message: str) -> str:
    text = " ".join(message.split())
    return repr(text if len(text) <= _SHOWN_TEXT else text[:_SHOWN_TEXT - 1] + "…")


class QuietPage(QWebEnginePage):
    """A page whose scripts' dialogs never wait for anyone; `dialogs` says each one and how it was answered.
    `blocked`: the list the refusals of `REFUSE_SENDING_JS` are added to, as (what, URL) (SendNothing's)."""

    def __init__(self, profile: QWebEngineProfile, blocked: list[tuple[str, str]]) -> None:
        super().__init__(profile)
        self.dialogs: list[str] = []
        self.blocked = blocked

    def javaScriptAlert(self, _origin: QUrl, message: str) -> None:  # noqa: N802 (Qt override)
        self.dialogs.append(f"alert({_quoted(message)}) ignored")

    def javaScriptConfirm(self, _origin: QUrl, message: str) -> bool:  # noqa: N802 (Qt override)
        self.dialogs.append(f"confirm({_quoted(message)}) answered Cancel")
        return False

    def javaScriptPrompt(self, _origin: QUrl, message: str, _default: str) -> tuple[bool, str]:  # noqa: N802
        self.dialogs.append(f"prompt({_quoted(message)}) answered Cancel")
        return False, ""

    def javaScriptConsoleMessage(self, level, message: str, line: int, source: str) -> None:  # noqa: ANN001, N802
        refused = _refusal(message)
        if refused is None:
            super().javaScriptConsoleMessage(level, message, line, source)
        else:
            self.blocked.append(refused)


def _refusal(message: str) -> tuple[str, str] | None:
    """(what, URL) of a console message of REFUSE_SENDING_JS; None for any other message."""
    if not message.startswith(_REFUSED):
        return None
    try:
        what, where = json.loads(message.removeprefix(_REFUSED))
    except (ValueError, TypeError):
        return None
    return str(what), str(where)


def refuse_sending(page: QWebEnginePage) -> None:
    """Run REFUSE_SENDING_JS in every document of `page` (its frames' too, whatever their origin), as each is created,
    before the document's own scripts."""
    script = QWebEngineScript()
    script.setName("recordlens-refuse-sending")
    script.setSourceCode(REFUSE_SENDING_JS)
    script.setInjectionPoint(QWebEngineScript.InjectionPoint.DocumentCreation)
    script.setWorldId(QWebEngineScript.ScriptWorldId.MainWorld)  # the page's own: where its scripts find them
    script.setRunsOnSubFrames(True)
    page.scripts().insert(script)


class SendNothing(QWebEngineUrlRequestInterceptor):
    """Blocks a request that sends data (any method but `SAFE_METHODS`, and a WebSocket) and a service worker's
    script; `blocked` lists each one as (what, URL): ("POST", "http://..."), (`WEBSOCKET`, "ws://..."),
    (`SERVICE_WORKER`, "http://.../sw.js")."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.blocked: list[tuple[str, str]] = []

    def interceptRequest(self, info: QWebEngineUrlRequestInfo) -> None:  # noqa: N802 (Qt override)
        method = bytes(info.requestMethod()).upper()
        kind = info.resourceType()
        if method not in SAFE_METHODS:
            what = method.decode("ascii", "replace")
        elif kind == QWebEngineUrlRequestInfo.ResourceType.ResourceTypeWebSocket:
            what = WEBSOCKET
        elif kind == QWebEngineUrlRequestInfo.ResourceType.ResourceTypeServiceWorker:
            what = SERVICE_WORKER
        else:
            return
        info.block(True)
        self.blocked.append((what, info.requestUrl().toString()))
