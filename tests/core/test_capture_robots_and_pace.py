"""robots.txt as RFC 9309 reads it (longest match, Allow at a tie, `*` and `$`, the group of our user agent), a
robots.txt that cannot be fetched (5xx, no answer: nothing of the host is loaded, tried again next run), its fetch
bounded by the --timeout and ended by a Ctrl+C, a site's pace (Crawl-delay, Retry-After), slow pages of a site that
answers, a stopped --refresh that goes on, and the crawl's smaller wordings (links beyond --depth, a login in an
address)."""

from __future__ import annotations

import http.server
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from recordlens.core.agent.capture import CaptureInterrupted, CaptureRules, PageFailed, RenderedPage, capture_site
from recordlens.core.agent.robots import Robots, RobotsCancelled, parse_robots
from tests.core.canned_web import NO_ROBOTS, Web

SITE = "http://site.example"
ROOT = SITE + "/"


def allowed(text: str, path: str) -> bool:
    return parse_robots(text).allowed(SITE + path)


def test_the_longest_matching_rule_wins_whatever_its_place_in_the_file() -> None:
    text = "User-agent: *\nAllow: /\nDisallow: /private/\nDisallow: /*sessionid=\n"
    assert not allowed(text, "/private/a")  # "Allow: /" first does not let it in: the longer rule wins
    assert not allowed(text, "/shop?sessionid=1")  # `*` is a wildcard
    assert allowed(text, "/shop?page=1") and allowed(text, "/")


def test_a_byte_order_mark_does_not_hide_the_first_group() -> None:
    assert not allowed("\ufeffUser-agent: *\nDisallow: /private/\n", "/private/a")


def test_an_escaped_unreserved_character_is_the_character_itself() -> None:
    assert not allowed("User-agent: *\nDisallow: /%7Eann/\n", "/~ann/notes")
    assert not allowed("User-agent: *\nDisallow: /~bob/\n", "/%7ebob/notes")
    assert allowed("User-agent: *\nDisallow: /a%2Fb\n", "/a/b")  # a reserved one stays an escape


def test_allow_wins_a_tie_and_dollar_anchors_the_end() -> None:
    text = "User-agent: *\nDisallow: /page\nAllow: /page\nDisallow: /*.pdf$\nAllow: /private/open\nDisallow: /private\n"
    assert allowed(text, "/page")
    assert not allowed(text, "/files/a.pdf") and allowed(text, "/files/a.pdf?x=1")
    assert allowed(text, "/private/open/1") and not allowed(text, "/private/shut")
    assert allowed(text, "/robots.txt")


def test_the_group_of_our_user_agent_is_read_else_the_star_groups_joined() -> None:
    ours = "User-agent: *\nDisallow: /\n\nUser-agent: recordlens/2.0\nDisallow: /secret\n"
    assert allowed(ours, "/open") and not allowed(ours, "/secret/x")
    joined = "User-agent: other\nDisallow: /\n\nUser-agent: *\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n"
    assert allowed(joined, "/c") and not allowed(joined, "/a") and not allowed(joined, "/b/1")
    shared = "User-agent: x\nUser-agent: RecordLens\nDisallow: /both  # a comment\nDisallow:\n"
    assert not allowed(shared, "/both") and allowed(shared, "/other")


def test_non_ascii_paths_are_compared_percent_encoded() -> None:
    assert not allowed("User-agent: *\nDisallow: /ünï\n", "/%C3%BCn%C3%AF/a")
    assert not allowed("User-agent: *\nDisallow: /%c3%bcn\n", "/ünï")


def links(count: int) -> dict[str, tuple[str, list[str]]]:
    return {ROOT: ("Home", [f"/p{i}" for i in range(count)]), **{f"{SITE}/p{i}": (f"P{i}", []) for i in range(count)}}


def test_a_robots_txt_that_answers_5xx_lets_no_page_load_and_the_next_run_tries_again(tmp_path: Path) -> None:
    web = Web(links(2))
    summary = capture_site([ROOT], tmp_path, web, CaptureRules(depth=1), robots=Robots(lambda _: (503, "")))
    assert web.requested == [] and summary.saved == []
    assert summary.failed and "robots.txt could not be fetched (HTTP 503)" in summary.failed[0][1]
    assert "--ignore-robots" in summary.failed[0][1]
    assert [n for n in summary.notes if "robots.txt could not be fetched (HTTP 503)" in n]
    assert "RFC 9309" in summary.no_site() or "robots.txt" in summary.no_site()
    again = capture_site([ROOT], tmp_path, web, CaptureRules(depth=1),
                         robots=Robots(lambda _: (200, "User-agent: *\nDisallow: /p1\n")))
    assert [u.removeprefix(SITE) for u in again.saved] == ["/", "/p0"]


def test_a_missing_robots_txt_allows_everything_without_a_note(tmp_path: Path) -> None:
    summary = capture_site([ROOT], tmp_path, Web(links(1)), CaptureRules(depth=1), robots=Robots(lambda _: (404, "")))
    assert len(summary.saved) == 2 and not [n for n in summary.notes if "robots" in n]


class Hanging(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 - the stdlib's name
        time.sleep(30)  # robots.txt that never comes

    def log_message(self, *_: object) -> None:
        pass


@pytest.fixture
def hanging_server() -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Hanging)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_a_robots_txt_that_hangs_is_given_the_timeout_then_nothing_of_its_host_loads(
        tmp_path: Path, hanging_server: str) -> None:
    started = time.monotonic()
    robots = Robots(timeout_s=1.0)
    web = Web({hanging_server + "/": ("Home", [])})
    summary = capture_site([hanging_server + "/"], tmp_path, web, CaptureRules(), robots=robots)
    assert time.monotonic() - started < 8  # the fixed 20 s of before is gone: the --timeout bounds it
    assert web.requested == [] and "could not be fetched (timed out)" in summary.failed[0][1]


def test_a_ctrl_c_ends_the_wait_for_robots_txt_at_once(tmp_path: Path, hanging_server: str) -> None:
    started = time.monotonic()
    asked = threading.Event()
    threading.Timer(0.5, asked.set).start()
    robots = Robots(timeout_s=60, cancelled=asked.is_set)
    summary = capture_site([hanging_server + "/"], tmp_path, Web({}), CaptureRules(), robots=robots,
                           cancelled=asked.is_set)
    assert time.monotonic() - started < 5 and summary.stopped and summary.queued == 1 and not summary.failed


def test_crawl_delay_paces_the_pages_within_a_bound(tmp_path: Path) -> None:
    waits: list[float] = []
    slow = Robots(lambda _: (200, "User-agent: RecordLens\nCrawl-delay: 3\nDisallow: /none\n"))
    summary = capture_site([ROOT], tmp_path / "a", Web(links(2)), CaptureRules(depth=1, delay_s=1), robots=slow,
                           sleep=waits.append)
    assert waits == [3, 3] and any("Crawl-delay of 3 s" in n for n in summary.notes)
    waits.clear()
    greedy = Robots(lambda _: (200, "User-agent: *\nCrawl-delay: 500\n"))
    summary = capture_site([ROOT], tmp_path / "b", Web(links(1)), CaptureRules(depth=1), robots=greedy,
                           sleep=waits.append)
    assert waits == [30] and any("at most 30 s" in n for n in summary.notes)


class Busy(Web):
    """A site that answers its first request for /p0 with 429 and Retry-After."""

    def render(self, requested: str, refuse_redirect=None) -> RenderedPage:  # noqa: ANN001
        if requested.endswith("/p0") and requested not in self.requested:
            self.requested.append(requested)
            raise PageFailed("HTTP 429 Too Many Requests", retry_after=5)
        return super().render(requested, refuse_redirect)


def test_a_page_that_asks_to_come_back_later_is_tried_again_after_its_retry_after(tmp_path: Path) -> None:
    waits: list[float] = []
    summary = capture_site([ROOT], tmp_path, Busy(links(1)), CaptureRules(depth=1), robots=NO_ROBOTS,
                           sleep=waits.append)
    assert 5 in waits and len(summary.saved) == 2 and not summary.failed
    assert any("Retry-After: 5 s" in n for n in summary.notes)


class Slow(Web):
    """Six pages slower than the timeout (their server sends nothing in time), then fast ones."""

    def render(self, requested: str, refuse_redirect=None) -> RenderedPage:  # noqa: ANN001
        if "/slow" in requested:
            self.requested.append(requested)
            raise PageFailed("did not finish loading within 4 s", unreachable=True)
        return super().render(requested, refuse_redirect)


def slow_site() -> dict[str, tuple[str, list[str]]]:
    fast = [f"/fast{i}" for i in range(5)]
    return {ROOT: ("Home", [f"/slow{i}" for i in range(6)] + fast), **{SITE + p: (p, []) for p in fast}}


def test_slow_pages_of_a_site_that_answers_do_not_stop_the_capture(tmp_path: Path) -> None:
    asked: list[str] = []
    summary = capture_site([ROOT], tmp_path / "a", Slow(slow_site()), CaptureRules(depth=1), robots=NO_ROBOTS,
                           probe=lambda url: asked.append(url) or True)
    assert len(summary.saved) == 6 and len(summary.failed) == 6 and not summary.queued and asked
    said = " ".join(summary.notes)
    assert "slower than --timeout, not down" in said and "the site stopped answering" not in said
    down = capture_site([ROOT], tmp_path / "b", Slow(slow_site()), CaptureRules(depth=1), robots=NO_ROBOTS,
                        probe=lambda url: False)
    assert down.stopped and any("the site stopped answering" in n for n in down.notes)


def test_a_stop_while_the_site_is_asked_again_stops_the_capture_as_a_stop(tmp_path: Path) -> None:
    def cancelled_meanwhile(url: str) -> bool:
        raise RobotsCancelled  # what a cancel during the robots.txt fetch of `Robots.answers` raises

    summary = capture_site([ROOT], tmp_path, Slow(slow_site()), CaptureRules(depth=1), robots=NO_ROBOTS,
                           probe=cancelled_meanwhile)
    assert summary.stopped and summary.queued and not any("stopped answering" in n for n in summary.notes)


def test_a_stopped_refresh_run_again_goes_on_instead_of_starting_over(tmp_path: Path) -> None:
    capture_site([ROOT], tmp_path, Web(links(5)), CaptureRules(depth=1), robots=NO_ROBOTS)
    with pytest.raises(CaptureInterrupted):
        capture_site([ROOT], tmp_path, Web(links(5), interrupt_after=3), CaptureRules(depth=1), robots=NO_ROBOTS,
                     refresh=True)
    web = Web(links(5))
    summary = capture_site([ROOT], tmp_path, web, CaptureRules(depth=1), robots=NO_ROBOTS, refresh=True)
    assert len(web.requested) == 3 and summary.pages == 6  # the three pages left, not all six again
    assert len(list((tmp_path / "removed").iterdir())) == 1  # one capture set aside: the one before the refresh
    assert any("the refresh stopped before goes on where it stopped" in n for n in summary.notes)
    web = Web(links(5))
    capture_site([ROOT], tmp_path, web, CaptureRules(depth=1), robots=NO_ROBOTS, refresh=True)
    assert len(web.requested) == 6 and len(list((tmp_path / "removed").iterdir())) == 2  # done: a new refresh


def test_links_beyond_depth_count_only_those_a_larger_depth_follows(tmp_path: Path) -> None:
    pages = {ROOT: ("Home", ["/cal/2026", "/cal/2025", "https://other.example/"])}
    summary = capture_site([ROOT], tmp_path, Web(pages), CaptureRules(depth=0, exclude=("2025",)), robots=NO_ROBOTS)
    assert summary.beyond_depth == 1


def test_a_link_with_a_login_on_the_same_host_is_skipped_for_its_login(tmp_path: Path) -> None:
    pages = {ROOT: ("Home", ["http://user:pw@site.example/a"])}
    summary = capture_site([ROOT], tmp_path, Web(pages), CaptureRules(depth=1), robots=NO_ROBOTS)
    assert summary.skipped == [("http://user:pw@site.example/a",
                                "its address holds a login (user:password@), which the capture does not send")]
