"""A small client for Chromium's DevTools protocol as QtWebEngine exposes it on a loopback port.

QtWebEngine starts its DevTools server when `QTWEBENGINE_REMOTE_DEBUGGING=127.0.0.1:PORT` is set before the
QApplication exists (`enable_remote_debugging`). The server runs in this very process and answers only while
Qt's event loop turns, so every wait here spins the loop: the target list is fetched by a Python thread, and
the page's websocket is a QWebSocket, whose messages arrive through the event loop.

Every wait asks `cancelled()` as it spins (every 10-20 ms, in plain Python, never inside a slot): true, the wait
ends with `DevToolsError`; a `cancelled` that raises (a DeferredInterruption's `check`: Ctrl+C, SIGTERM) ends it
with what it raises.
"""

from __future__ import annotations

import json
import os
import socket
import threading
import time
import urllib.request
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QUrl

from ..qt.event_loop import spin

ENV = "QTWEBENGINE_REMOTE_DEBUGGING"
Cancelled = Callable[[], bool]


def _never() -> bool:
    return False


class DevToolsError(RuntimeError):
    """The DevTools server or a protocol call failed; the message says which and why."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def enable_remote_debugging(port: int | None = None) -> int:
    """Ask QtWebEngine for its DevTools server on 127.0.0.1 (only: never on another interface). Before the
    QApplication exists; returns the port."""
    port = port or free_port()
    os.environ[ENV] = f"127.0.0.1:{port}"
    return port


def debugging_port() -> int | None:
    value = os.environ.get(ENV, "")
    host, _, port = value.rpartition(":")
    return int(port) if port.isdigit() and host in ("127.0.0.1", "localhost") else None


def _get_json(url: str, timeout_s: float, cancelled: Cancelled = _never) -> Any:
    box: list[Any] = []
    # The loopback server must never go through a proxy the environment names.
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))

    def fetch() -> None:
        try:
            box.append(json.loads(opener.open(url, timeout=timeout_s).read()))
        except (OSError, ValueError) as error:
            box.append(error)

    thread = threading.Thread(target=fetch, daemon=True)
    thread.start()
    deadline = time.monotonic() + timeout_s + 1
    while thread.is_alive() and time.monotonic() < deadline:
        if cancelled():
            raise DevToolsError(f"cancelled while waiting for {url}")
        spin(20)  # the DevTools server answers from this process's event loop
    if not box or isinstance(box[0], Exception):
        raise DevToolsError(f"the DevTools server at {url} did not answer: {box[0] if box else 'timed out'}")
    return box[0]


def page_targets(port: int, timeout_s: float = 10, cancelled: Cancelled = _never) -> list[dict[str, Any]]:
    return [t for t in _get_json(f"http://127.0.0.1:{port}/json/list", timeout_s, cancelled)
            if t.get("type") == "page"]


class DevToolsSession:
    """One websocket to one page target: `call` a method and wait for its result; `events` collects the
    events the enabled domains send (cleared by the caller). `cancelled`: asked by every wait (module notes)."""

    def __init__(self, websocket_url: str, *, timeout_s: float = 10, cancelled: Cancelled = _never) -> None:
        from PySide6.QtNetwork import QAbstractSocket
        from PySide6.QtWebSockets import QWebSocket

        self.socket = QWebSocket()
        self.results: dict[int, dict[str, Any]] = {}
        self.cancelled = cancelled
        self.events: list[dict[str, Any]] = []
        self._next = 0
        self.socket.textMessageReceived.connect(self._on_message)
        self.socket.open(QUrl(websocket_url))
        deadline = time.monotonic() + timeout_s
        connected = QAbstractSocket.SocketState.ConnectedState
        while self.socket.state() != connected:
            if time.monotonic() > deadline:
                raise DevToolsError(f"cannot connect to {websocket_url}: {self.socket.errorString()}")
            self._check(f"connecting to {websocket_url}")
            spin(10)

    @classmethod
    def for_page(cls, port: int, url: str | None = None, timeout_s: float = 10,
                 cancelled: Cancelled = _never) -> DevToolsSession:
        """A session on the page target showing `url` (or the only page there is)."""
        targets = page_targets(port, timeout_s, cancelled)
        chosen = [t for t in targets if url is None or t.get("url") == url] or targets
        if not chosen:
            raise DevToolsError("the DevTools server lists no page")
        return cls(str(chosen[-1]["webSocketDebuggerUrl"]), timeout_s=timeout_s, cancelled=cancelled)

    def _check(self, waiting_for: str) -> None:
        if self.cancelled():
            raise DevToolsError(f"cancelled while {waiting_for}")

    def _on_message(self, text: str) -> None:
        try:
            message = json.loads(text)
        except ValueError:
            return
        if "id" in message:
            self.results[int(message["id"])] = message
        else:
            self.events.append(message)

    def call(self, method: str, params: dict[str, Any] | None = None, *, timeout_s: float = 30) -> dict[str, Any]:
        self._next += 1
        ident = self._next
        self.socket.sendTextMessage(json.dumps({"id": ident, "method": method, "params": params or {}}))
        deadline = time.monotonic() + timeout_s
        while ident not in self.results:
            if time.monotonic() > deadline:
                raise DevToolsError(f"{method} got no answer within {timeout_s:g} s")
            self._check(f"waiting for {method}")
            spin(10)
        message = self.results.pop(ident)
        if "error" in message:
            raise DevToolsError(f"{method} failed: {message['error'].get('message', message['error'])}")
        return message.get("result", {})

    def close(self) -> None:
        self.socket.close()
