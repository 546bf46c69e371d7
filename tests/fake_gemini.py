"""A real HTTP server on 127.0.0.1 that speaks Gemini's `generateContent` and `countTokens`, scripted per test.

Point google-genai at it with `HttpOptions(base_url=server.url)`. Each request takes the next scripted step
(an answer, an HTTP error, a hang); requests are recorded so tests can check what the SDK really sent.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tests.loopback import SHUTDOWN_POLL_S


@dataclass
class Step:
    kind: str  # "answer", "status", "hang", "body"
    text: str = ""
    status: int = 200
    seconds: float = 0.0
    usage: tuple[int, int] = (100, 20)
    # The answer computed from the request body: a text, or a whole Step (a refusal for one page only).
    respond: Callable[[dict[str, Any]], str | Step] | None = None
    headers: dict[str, str] = field(default_factory=dict)
    finish_reason: str = "STOP"
    candidates: bool = True  # False: a 200 answer with no candidates (a prompt blocked before generation)
    body: bytes = b""  # kind "body": sent as it is, with HTTP 200 (a proxy's HTML page, a truncated answer)
    details: list[dict[str, Any]] = field(default_factory=list)  # kind "status": the error's `details` (RetryInfo)


def answer(text: str, usage: tuple[int, int] = (100, 20)) -> Step:
    return Step("answer", text=text, usage=usage)


def refused(finish_reason: str, text: str = "") -> Step:
    """A 200 answer the model did not finish: SAFETY, RECITATION, MAX_TOKENS, OTHER (text may be partial)."""
    return Step("answer", text=text, finish_reason=finish_reason)


def no_candidates() -> Step:
    return Step("answer", candidates=False)


def raw_body(body: bytes, content_type: str = "text/html") -> Step:
    """HTTP 200 with a body that is not Gemini's JSON (a captive portal, a proxy's error page)."""
    return Step("body", body=body, headers={"Content-Type": content_type})


def answer_with(respond: Callable[[dict[str, Any]], str | Step]) -> Step:
    return Step("answer", respond=respond)


def status(code: int, message: str = "scripted error", headers: dict[str, str] | None = None,
           details: list[dict[str, Any]] | None = None) -> Step:
    """An HTTP error; `details` as Gemini adds them to its error object (`google.rpc.RetryInfo`, `QuotaFailure`)."""
    return Step("status", status=code, text=message, headers=headers or {}, details=details or [])


def quota_spent(retry_delay: str) -> Step:
    """Gemini's own answer to a spent per-minute quota: a 429 whose wait is the body's RetryInfo, no Retry-After."""
    return status(429, "You exceeded your current quota", details=[
        {"@type": "type.googleapis.com/google.rpc.QuotaFailure", "violations": [{"quotaId": "PerMinute"}]},
        {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": retry_delay}])


def trickle(text: str, seconds: float) -> Step:
    """An answer of `text` whose body is sent a byte at a time over `seconds` (a slow proxy, a stalling link): each
    read is quick, the whole answer is not."""
    return Step("trickle", text=text, seconds=seconds)


def hang(seconds: float) -> Step:
    return Step("hang", seconds=seconds)


@dataclass
class Request:
    path: str
    body: dict[str, Any]
    api_key: str | None

    @property
    def model(self) -> str:
        return self.path.split("/models/", 1)[1].split(":", 1)[0]

    @property
    def prompt_text(self) -> str:
        parts = [p.get("text", "") for c in self.body.get("contents", []) for p in c.get("parts", [])]
        return "\n".join(parts)

    @property
    def system_text(self) -> str:
        system = self.body.get("systemInstruction") or self.body.get("system_instruction") or {}
        return "\n".join(p.get("text", "") for p in system.get("parts", []))

    @property
    def generation_config(self) -> dict[str, Any]:
        return self.body.get("generationConfig", {})


class FakeGemini:
    def __init__(self, steps: list[Step] | None = None, *, default: Step | None = None,
                 counts_tokens: bool = True, port: int = 0) -> None:
        """`port`: an earlier server's (`.port`), so a run resumed through this one is asked at the same endpoint
        (`script` on the one server does the same without binding a freed port again, which is safer)."""
        self.steps = list(steps or [])
        self.counts_tokens = counts_tokens  # False: countTokens answers without totalTokens
        self.default = default
        self.requests: list[Request] = []
        self._release = threading.Event()
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", port), self._handler_class())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, args=(SHUTDOWN_POLL_S,), daemon=True)

    @property
    def port(self) -> int:
        return self._server.server_address[1]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> FakeGemini:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._release.set()
        self._server.shutdown()
        self._server.server_close()

    def script(self, steps: list[Step] | None = None, *, default: Step | None = None) -> None:
        """Replace the steps still to come, and the default, on the live server: a test that runs a command again
        against another script keeps the same endpoint (a run names its --base-url), and no port is freed and
        bound again, which another process may take meanwhile. The requests recorded so far are kept."""
        with self._lock:
            self.steps = list(steps or [])
            self.default = default

    def next_step(self) -> Step:
        with self._lock:
            if self.steps:
                return self.steps.pop(0)
        if self.default is None:
            return status(500, "the fake server's script is used up")
        return self.default

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:  # keep test output clean
                pass

            def do_POST(self) -> None:  # noqa: N802 - http.server's naming
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b"{}"
                body = json.loads(raw or b"{}")
                request = Request(self.path, body, self.headers.get("x-goog-api-key"))
                with fake._lock:
                    fake.requests.append(request)
                if self.path.endswith(":countTokens"):
                    words = len(request.prompt_text.split())
                    self._send(200, {"totalTokens": words} if fake.counts_tokens else {})
                    return
                step = fake.next_step()
                if step.respond is not None:
                    result = step.respond(body)
                    step = result if isinstance(result, Step) else Step("answer", text=result, usage=step.usage)
                if step.kind == "hang":
                    fake._release.wait(step.seconds)
                    return
                if step.kind == "status":
                    error = {"code": step.status, "message": step.text, "status": "SCRIPTED"}
                    self._send(step.status, {"error": {**error, **({"details": step.details} if step.details
                                                                   else {})}}, step.headers)
                    return
                if step.kind == "body":
                    self._send_raw(200, step.body, step.headers)
                    return
                text = step.text
                prompt_tokens, completion_tokens = step.usage
                candidate = {"content": {"role": "model", "parts": [{"text": text}] if text else []},
                             "finishReason": step.finish_reason, "index": 0}
                payload = {
                    "candidates": [candidate] if step.candidates else [],
                    "usageMetadata": {"promptTokenCount": prompt_tokens, "candidatesTokenCount": completion_tokens,
                                      "totalTokenCount": prompt_tokens + completion_tokens},
                    "modelVersion": request.model,
                }
                if step.kind == "trickle":
                    self._trickle(json.dumps(payload).encode(), step.seconds)
                    return
                self._send(200, payload)

            def _trickle(self, data: bytes, seconds: float) -> None:
                """`data` with HTTP 200, its body a byte at a time over `seconds` (cut short when the server ends)."""
                try:
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.flush()
                    for index in range(len(data)):
                        if fake._release.wait(seconds / len(data)):
                            return
                        self.wfile.write(data[index:index + 1])
                        self.wfile.flush()
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up, as a whole-request timeout does

            def _send(self, code: int, payload: dict[str, Any], headers: dict[str, str] | None = None) -> None:
                self._send_raw(code, json.dumps(payload).encode(), {"Content-Type": "application/json",
                                                                    **(headers or {})})

            def _send_raw(self, code: int, data: bytes, headers: dict[str, str]) -> None:
                try:
                    self.send_response(code)
                    self.send_header("Content-Length", str(len(data)))
                    for name, value in headers.items():
                        self.send_header(name, value)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout test): nothing to tell it

        return Handler
