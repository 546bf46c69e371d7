"""A link the site answers HTTP 4xx (404, 410, a login or a refusal; not 408 or 429, which ask to come back) is a
dead link: the site's final answer, kept as the URL's outcome, listed, and no failure. A crawl whose only misses are
dead links is complete: the same command run again loads nothing, says the crawl is complete and names them, and
exits 0, as the first run did; `--ask-again` (or its older name, `--retry-dead`) asks for them again. A page that
failed (5xx, 408, 429, no answer) is still tried again on every run and still makes the exit status 1."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.core.agent import capture
from recordlens.core.agent.capture import CaptureRules, PageFailed, RedirectCheck, RenderedPage, capture_site
from recordlens.core.cli.command import main
from tests.core.canned_web import NO_ROBOTS, Web, capture_through

HOME = "http://127.0.0.1:8000/"
STATUS_PHRASES = {401: "Unauthorized (the page needs a login)", 403: "Forbidden", 404: "Not Found", 408:
                  "Request Timeout", 410: "Gone", 429: "Too Many Requests", 500: "Internal Server Error",
                  503: "Service Unavailable"}


class Answering(Web):
    """The canned web, with pages that answer an HTTP error status, as the app's renderer says one (its `status`)."""

    def __init__(self, pages: dict[str, tuple[str, list[str]]], answers: dict[str, int]) -> None:
        super().__init__(pages)
        self.answers = answers

    def render(self, requested: str, refuse_redirect: RedirectCheck | None = None) -> RenderedPage:
        if requested in self.answers:
            self.requested.append(requested)
            status = self.answers[requested]
            raise PageFailed(f"HTTP {status} {STATUS_PHRASES[status]}", status=status)
        return super().render(requested, refuse_redirect)


def _web(*answers: int) -> Answering:
    links = [f"/{status}" for status in answers]
    return Answering({HOME: ("Home", [*links, "/ok"]), HOME + "ok": ("OK", [])},
                     {HOME + str(status): status for status in answers})


@pytest.mark.parametrize("status", [401, 403, 404, 410])
def test_a_final_answer_is_a_dead_link_not_a_failure(tmp_path: Path, status: int) -> None:
    summary = capture_site([HOME], tmp_path, _web(status), CaptureRules(depth=1), robots=NO_ROBOTS)
    assert summary.dead == [(HOME + str(status), f"HTTP {status} {STATUS_PHRASES[status]}")] and not summary.failed
    outcome = json.loads((tmp_path / "capture.json").read_text())["outcomes"][HOME + str(status)]
    assert (outcome["outcome"], outcome["status"]) == ("dead", status)
    assert "1 dead link(s)" in summary.message()


@pytest.mark.parametrize("status", [408, 429, 500, 503])
def test_an_answer_that_asks_to_come_back_is_a_failure_tried_again(tmp_path: Path, status: int) -> None:
    web = _web(status)
    first = capture_site([HOME], tmp_path, web, CaptureRules(depth=1), robots=NO_ROBOTS)
    assert [url for url, _ in first.failed] == [HOME + str(status)] and not first.dead
    again = capture_site([HOME], tmp_path, web, CaptureRules(depth=1), robots=NO_ROBOTS)
    assert web.requested.count(HOME + str(status)) == 2 and not again.complete_since


def test_a_crawl_whose_only_misses_are_dead_links_is_complete(tmp_path: Path, capsys,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    web = _web(404, 410)
    capture_through(monkeypatch, web)
    command = ["site", "capture", HOME, "--site", str(tmp_path / "s"), "--depth", "1"]
    assert main(command) == 0  # the first run: dead links are no failure
    out, _ = capsys.readouterr()
    assert f"  dead     {HOME}404: HTTP 404 Not Found" in out and f"  dead     {HOME}410: HTTP 410 Gone" in out
    assert "0 failed, 2 dead link(s)" in out
    assert main(command) == 0  # run again: complete, nothing asked again
    out, err = capsys.readouterr()
    assert web.requested.count(HOME + "404") == 1 and "tried again" not in err
    assert "the crawl was complete already" in out and "its 2 dead link(s) not asked again either" in err
    assert f"  dead     {HOME}404: HTTP 404 Not Found" in out  # named all the same
    assert main([*command, "--retry-dead"]) == 0  # asked for again (by the flag's older name), and dead again
    out, err = capsys.readouterr()
    assert web.requested.count(HOME + "404") == 2 and web.requested.count(HOME + "410") == 2
    assert "2 dead link(s) of before are asked for again (--ask-again)" in err and "complete already" not in out
    assert main(command) == 0 and "the crawl was complete already" in capsys.readouterr().out


def test_a_failure_beside_dead_links_is_tried_again_and_exits_1(tmp_path: Path, capsys,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    web = _web(404, 503)
    capture_through(monkeypatch, web)
    command = ["site", "capture", HOME, "--site", str(tmp_path / "s"), "--depth", "1"]
    assert main(command) == capture.CAPTURE_SOME_FAILED
    assert main(command) == capture.CAPTURE_SOME_FAILED  # the 503 again, the dead link not
    err = capsys.readouterr().err
    assert web.requested.count(HOME + "503") == 2 and web.requested.count(HOME + "404") == 1
    assert "1 page(s) that failed last time are tried again" in err


def test_a_root_that_is_a_dead_link_leaves_no_site_and_says_so(tmp_path: Path, capsys,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    capture_through(monkeypatch, Answering({}, {HOME: 404}))
    command = ["site", "capture", HOME, "--site", str(tmp_path / "s")]
    for _ in range(2):  # the second run: the crawl is complete, and still no site
        assert main(command) == capture.CAPTURE_NO_SITE
        err = capsys.readouterr().err
        assert f"no page was saved ({HOME} is a dead link: HTTP 404 Not Found)" in err and "--ask-again" in err
