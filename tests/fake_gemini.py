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


@dataclass
class Step:
    kind: str  # "answer", "status", "hang"
    text: str = ""
    status: int = 200
    seconds: float = 0.0
    usage: tuple[int, int] = (100, 20)
    respond: Callable[[dict[str, Any]], str] | None = None  # answer computed from the request body
    headers: dict[str, str] = field(default_factory=dict)


def answer(text: str, usage: tuple[int, int] = (100, 20)) -> Step:
    return Step("answer", text=text, usage=usage)


def answer_with(respond: Callable[[dict[str, Any]], str]) -> Step:
    return Step("answer", respond=respond)


def status(code: int, message: str = "scripted error", headers: dict[str, str] | None = None) -> Step:
    return Step("status", status=code, text=message, headers=headers or {})


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
    def __init__(self, steps: list[Step] | None = None, *, default: Step | None = None) -> None:
        self.steps = list(steps or [])
        self.default = default
        self.requests: list[Request] = []
        self._release = threading.Event()
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def __enter__(self) -> FakeGemini:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._release.set()
        self._server.shutdown()
        self._server.server_close()

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
                    self._send(200, {"totalTokens": words})
                    return
                step = fake.next_step()
                if step.kind == "hang":
                    fake._release.wait(step.seconds)
                    return
                if step.kind == "status":
                    self._send(step.status, {"error": {"code": step.status, "message": step.text,
                                                       "status": "SCRIPTED"}}, step.headers)
                    return
                text = step.respond(body) if step.respond else step.text
                prompt_tokens, completion_tokens = step.usage
                self._send(200, {
                    "candidates": [{"content": {"role": "model", "parts": [{"text": text}]},
                                    "finishReason": "STOP", "index": 0}],
                    "usageMetadata": {"promptTokenCount": prompt_tokens, "candidatesTokenCount": completion_tokens,
                                      "totalTokenCount": prompt_tokens + completion_tokens},
                    "modelVersion": request.model,
                })

            def _send(self, code: int, payload: dict[str, Any], headers: dict[str, str] | None = None) -> None:
                data = json.dumps(payload).encode()
                try:
                    self.send_response(code)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    for name, value in (headers or {}).items():
                        self.send_header(name, value)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout test): nothing to tell it

        return Handler
