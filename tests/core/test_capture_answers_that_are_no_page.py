"""An answer that is no page (a PDF or another file, a page sent as a download, HTTP 204 or 205: nothing to save)
is the site's final answer, as a dead link is: kept as the URL's outcome (`no_page`), listed as "no page", and no
failure. A crawl whose only misses are such answers exits 0 and is complete: the same command run again loads
nothing and names them, and `--ask-again` (or `--retry-dead`) asks for them again. Such an answer that says the
server failed or asks to come back (5xx, 429) is still a failure, tried again."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.core.agent import capture
from recordlens.core.agent.capture import CaptureRules, PageFailed, RedirectCheck, RenderedPage, capture_site
from recordlens.core.cli.command import main
from tests.core.canned_web import NO_ROBOTS, Web, capture_through

HOME = "http://127.0.0.1:8000/"
# What the app's renderer says of each (annotator/agent/site_capture.py), with the status it was answered with
NO_PAGES = {"paper.pdf": ("not an HTML page (the server sent application/pdf to download)", 200),
            "data.json": ("not an HTML page (it is application/json)", 200),
            "report": ("the server sent the page as a file to download (Content-Disposition: attachment), not as "
                       "a page to show", 200),
            "204": ("HTTP 204 No Content (nothing to save)", 204),
            "205": ("HTTP 205 Reset Content (nothing to save)", 205)}


class FilesToo(Web):
    """The canned web, with addresses that answer no page (`answers`: URL -> (what the renderer says, status))."""

    def __init__(self, pages: dict[str, tuple[str, list[str]]], answers: dict[str, tuple[str, int]]) -> None:
        super().__init__(pages)
        self.answers = answers

    def render(self, requested: str, refuse_redirect: RedirectCheck | None = None) -> RenderedPage:
        if requested in self.answers:
            self.requested.append(requested)
            why, status = self.answers[requested]
            raise PageFailed(why, status=status, no_page=True)
        return super().render(requested, refuse_redirect)


def _web(*names: str, status: int | None = None) -> FilesToo:
    answers = {HOME + name: (NO_PAGES[name][0], status or NO_PAGES[name][1]) for name in names}
    return FilesToo({HOME: ("Home", [*names, "ok"]), HOME + "ok": ("OK", [])}, answers)


@pytest.mark.parametrize("name", sorted(NO_PAGES))
def test_an_answer_that_is_no_page_is_final_not_a_failure(tmp_path: Path, name: str) -> None:
    web = _web(name)
    summary = capture_site([HOME], tmp_path, web, CaptureRules(depth=1), robots=NO_ROBOTS)
    assert summary.no_page == [(HOME + name, NO_PAGES[name][0])] and not summary.failed and not summary.dead
    outcome = json.loads((tmp_path / "capture.json").read_text())["outcomes"][HOME + name]
    assert (outcome["outcome"], outcome["status"]) == ("no_page", NO_PAGES[name][1])
    assert "1 link(s) to no page" in summary.message()
    again = capture_site([HOME], tmp_path, web, CaptureRules(depth=1), robots=NO_ROBOTS)
    assert again.complete_since and web.requested.count(HOME + name) == 1  # not asked again


@pytest.mark.parametrize("status", [429, 500, 503])
def test_no_page_from_a_server_that_failed_is_a_failure_tried_again(tmp_path: Path, status: int) -> None:
    web = _web("paper.pdf", status=status)
    first = capture_site([HOME], tmp_path, web, CaptureRules(depth=1), robots=NO_ROBOTS)
    assert [url for url, _ in first.failed] == [HOME + "paper.pdf"] and not first.no_page
    again = capture_site([HOME], tmp_path, web, CaptureRules(depth=1), robots=NO_ROBOTS)
    assert web.requested.count(HOME + "paper.pdf") == 2 and not again.complete_since


def test_a_crawl_whose_only_misses_are_no_pages_is_complete(tmp_path: Path, capsys,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    # (/gone: a 404 that sent a file, a dead link all the same)
    web = FilesToo({HOME: ("Home", ["paper.pdf", "204", "gone"])}, {HOME + "paper.pdf": NO_PAGES["paper.pdf"],
                                                                    HOME + "204": NO_PAGES["204"],
                                                                    HOME + "gone": ("HTTP 404 Not Found", 404)})
    capture_through(monkeypatch, web)
    command = ["site", "capture", HOME, "--site", str(tmp_path / "s"), "--depth", "1"]
    assert main(command) == 0  # the first run: a file, nothing to save and a dead link are no failure
    out, _ = capsys.readouterr()
    assert f"  no page  {HOME}paper.pdf: not an HTML page (the server sent application/pdf to download)" in out
    assert f"  no page  {HOME}204: HTTP 204 No Content (nothing to save)" in out
    assert "0 failed, 1 dead link(s)" in out and "2 link(s) to no page" in out
    assert main(command) == 0  # run again: complete, nothing asked again
    out, err = capsys.readouterr()
    assert web.requested.count(HOME + "paper.pdf") == 1 and "tried again" not in err
    assert "its 1 dead link(s) and 2 link(s) to no page not asked again either (--ask-again asks for them)" in err
    assert "the crawl was complete already" in out and f"  no page  {HOME}204: " in out  # named all the same
    for flag, times in (("--ask-again", 2), ("--retry-dead", 3)):  # asked for again, and no page again
        assert main([*command, flag]) == 0
        out, err = capsys.readouterr()
        assert web.requested.count(HOME + "paper.pdf") == times and web.requested.count(HOME + "204") == times
        assert "2 link(s) to no page of before are asked for again (--ask-again)" in err
        assert "1 dead link(s) of before are asked for again (--ask-again)" in err and "complete already" not in out
    assert main(command) == 0 and "the crawl was complete already" in capsys.readouterr().out


def test_a_root_that_is_no_page_leaves_no_site_and_says_so(tmp_path: Path, capsys,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    capture_through(monkeypatch, FilesToo({}, {HOME: NO_PAGES["paper.pdf"]}))
    command = ["site", "capture", HOME, "--site", str(tmp_path / "s")]
    for _ in range(2):  # the second run: the crawl is complete, and still no site
        assert main(command) == capture.CAPTURE_NO_SITE
        err = capsys.readouterr().err
        assert f"no page was saved ({HOME} is no page: not an HTML page (the server sent application/pdf" in err
        assert "--ask-again asks again" in err
