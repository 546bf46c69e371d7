"""`recordlens site capture` of a site that links to a PDF, to a page sent as a download and to an answer with
nothing to save (HTTP 204), served on 127.0.0.1: each is the site's final answer, a link to no page, not a failure.
The first run exits 0 and the crawl is complete; the same command again loads nothing, names them, and exits 0;
--ask-again asks for them again. (Before, each was a failure tried on every run: such a site never completed and
every run exited 1.)"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests import loopback
from tests.capture_site import capture_summary
from tests.loopback import base_url

pytestmark = pytest.mark.app

NO_PAGES = {"/paper.pdf": "not an HTML page (the server sent application/pdf to download)",
            "/report": "the server sent the page as a file to download (Content-Disposition: attachment), not as a "
                       "page to show",
            "/nothing": "HTTP 204 No Content (nothing to save)"}


class _Files(loopback.LoopbackHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        path = urlsplit(self.path).path
        self.server.requests.append(path)  # type: ignore[attr-defined]
        if path == "/":
            links = " ".join(f'<a href="{link}">{link}</a>' for link in [*NO_PAGES, "/ok"])
            self.send(200, f"<html><title>Home</title><body>{links}</body></html>".encode())
        elif path == "/ok":
            self.send(200, b"<html><title>OK</title><body>ok</body></html>")
        elif path == "/paper.pdf":
            self.send(200, b"%PDF-1.4\n%%EOF\n", "application/pdf")
        elif path == "/report":
            body = b"<html><title>Report</title><body>a report</body></html>"
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Disposition", 'attachment; filename="report.html"')
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        elif path == "/nothing":
            self.send_response(204)
            self.end_headers()
        else:
            self.send(404, b"<html><title>Not found</title><body>no such page</body></html>")


def _no_page(summary: dict) -> dict[str, str]:
    return {urlsplit(url).path: why for url, why in summary["no_page"]}


def test_a_crawl_with_files_and_downloads_is_complete_and_says_so_when_run_again(tmp_path: Path) -> None:
    folder = tmp_path / "site"
    with loopback.serve(_Files) as server:
        root = base_url(server) + "/"
        code, first, stderr = capture_summary(root, folder)
        assert (code, first["failed"], _no_page(first)) == (0, [], NO_PAGES), stderr[-3000:]
        assert {urlsplit(u).path for u in first["saved"]} == {"/", "/ok"}
        assert json.loads((folder / "capture.json").read_text())["completed_at"]
        asked = Counter(server.requests)
        code, again, stderr = capture_summary(root, folder)
        assert code == 0 and Counter(server.requests) == asked, stderr[-3000:]  # nothing loaded again
        assert again["complete_since"] and _no_page(again) == NO_PAGES  # named, from the crawl
        assert "its 3 link(s) to no page not asked again either" in stderr
        code, retried, stderr = capture_summary(root, folder, "--ask-again")
        assert (code, _no_page(retried)) == (0, NO_PAGES), stderr[-3000:]
        assert all(server.requests.count(path) == 2 for path in NO_PAGES), server.requests
