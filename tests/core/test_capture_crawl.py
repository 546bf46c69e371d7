"""The crawl of `site capture` without a browser: a renderer made of canned pages, so the URL rules, robots.txt,
depth, max pages, redirects, failures and resuming are checked fast and exactly. (The real capture process,
against a loopback site, is tests/app/test_site_capture.py.)"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.core.agent.capture import (
    CaptureError,
    CaptureRules,
    PageFailed,
    RedirectCheck,
    RenderedPage,
    Robots,
    capture_runner,
    capture_site,
    page_stem,
    same_site,
)
from recordlens.core.agent.sites import build_site, load_site
from recordlens.core.cli.command import main
from recordlens.core.command_hints import hint_path
from recordlens.core.page.mhtml_writer import mhtml_bytes
from tests.core.canned_web import NO_ROBOTS, SAVED_ON

ROOT = "https://site.example/"
LINKS = {
    "/": ["/a", "/b", "/search?q=", "/old", "/broken", "/private/x", "https://other.example/", "/a#top"],
    "/a": ["/b", "/", "/a/deeper"], "/b": ["/a"], "/a/deeper": ["/a/deepest"], "/search?q=": ["/search?q=&page=2"],
    "/search?q=&page=2": ["/search?q="], "/new": [], "/private/x": [], "/a/deepest": [],
}
REDIRECTS = {"/old": "/new"}


def url(path: str) -> str:
    return path if path.startswith("http") else "https://site.example" + path


class CannedRenderer:
    def __init__(self, stop_after: int | None = None) -> None:
        self.loaded: list[str] = []
        self.stop_after = stop_after

    def render(self, requested: str, refuse_redirect: RedirectCheck | None = None) -> RenderedPage:
        if self.stop_after is not None and len(self.loaded) >= self.stop_after:
            raise KeyboardInterrupt  # a capture killed in the middle of a page
        self.loaded.append(requested)
        path = requested.removeprefix("https://site.example")
        if path == "/broken":
            raise PageFailed("HTTP 500 Internal Server Error")
        final = REDIRECTS.get(path, path)
        redirects = [{"url": requested, "status": 301, "location": url(final)}] if final != path else []
        title = f"Page {final}"
        anchors = "".join(f'<a href="{link}">{link}</a>' for link in LINKS.get(final, []))
        html = f"<html><head><title>{title}</title></head><body><h1>{title}</h1>{anchors}</body></html>"
        mhtml = mhtml_bytes(html, url=url(final), title=title, date=SAVED_ON)
        return RenderedPage(requested_url=requested, final_url=url(final), status=200, redirects=redirects,
                            content_type="text/html", title=title, mhtml=mhtml,
                            ax_nodes=[{"nodeId": "1", "role": {"value": "RootWebArea"}, "name": {"value": title},
                                       "childIds": [], "backendDOMNodeId": 1}], dom=None,
                            screenshot=b"\x89PNG\r\n\x1a\n" + b"\0" * 16, screenshot_size=(1920, 2000),
                            links=[url(link) for link in LINKS.get(final, [])], engine="canned",
                            viewport=(1920, 1080), page_height=40_000 if final == "/a" else 2000)


def robots() -> Robots:
    return Robots(lambda address: (200, "User-agent: *\nDisallow: /private/\n") if "site.example" in address
                  else (404, ""))


def test_the_rules_decide_what_is_saved(tmp_path: Path) -> None:
    renderer = CannedRenderer()
    summary = capture_site([ROOT], tmp_path, renderer, CaptureRules(depth=2), robots=robots())
    saved = {s.removeprefix("https://site.example") for s in summary.saved}
    assert saved == {"/", "/a", "/b", "/search?q=", "/new", "/search?q=&page=2", "/a/deeper"}
    assert "/a/deepest" not in str(renderer.loaded)  # three levels below the root
    assert dict(summary.skipped) == {url("/private/x"): "disallowed by robots.txt",
                                     "https://other.example/": "another host (--same-host)"}
    assert summary.failed == [(url("/broken"), "HTTP 500 Internal Server Error")]
    assert renderer.loaded.count(url("/a")) == 1  # a cycle and a fragment link: loaded once
    site = load_site(tmp_path)
    assert len(site.pages) == len(saved) == summary.pages
    page = site.page(url("/new"))
    meta = json.loads((tmp_path / page.side_file("meta")).read_text("utf-8"))
    assert meta["requested_url"] == url("/old") and meta["redirects"][0]["status"] == 301
    assert page.file == f"pages/{page_stem(url('/new'))}.mhtml"
    assert (meta["page_height"], meta["screenshot_cut"]) == (2000, False)
    long = json.loads((tmp_path / site.page(url("/a")).side_file("meta")).read_text("utf-8"))
    assert (long["page_height"], long["screenshot_cut"]) == (40_000, True)  # a screenshot of its first 2000 px
    # A link to the URL that redirected reaches the page it redirected to (the index keeps the redirect).
    assert page.aliases == (url("/old"),) and site.page(url("/old")) == page
    assert load_site(tmp_path).page(url("/old")) == page  # read back from site.json
    from recordlens.core.agent.text_browser import HtmlSiteBrowser

    browser = HtmlSiteBrowser(site)
    browser.open(url("/old"))  # shown under the URL it led to, as a browser does after a redirect
    assert browser.url == url("/new") and browser.observe().title == "Page /new"


def test_include_exclude_max_pages_and_any_host(tmp_path: Path) -> None:
    only_a = capture_site([ROOT], tmp_path / "1", CannedRenderer(), CaptureRules(include=(r"/$", r"/a"),
                                                                                 exclude=(r"deeper",)),
                          robots=robots())
    assert {s.removeprefix("https://site.example") for s in only_a.saved} == {"/", "/a"}
    few = capture_site([ROOT], tmp_path / "2", CannedRenderer(), CaptureRules(max_pages=2), robots=robots())
    assert len(few.saved) == 2 and few.stopped and few.queued > 0
    assert "still queued: the site holds --max-pages 2 pages, run again with a larger --max-pages" in few.message()
    again = capture_site([ROOT], tmp_path / "2", CannedRenderer(), CaptureRules(max_pages=3), robots=robots())
    assert len(again.saved) == 1 and again.limit == 3  # a larger limit goes on where the last one stopped
    anywhere = capture_site([ROOT], tmp_path / "3", CannedRenderer(), CaptureRules(same_host=False, depth=1,
                                                                                   robots=False))
    assert url("/private/x") in anywhere.saved and "https://other.example/" in anywhere.saved
    with pytest.raises(CaptureError):
        capture_site(["ftp://site.example/"], tmp_path / "4", CannedRenderer())
    with pytest.raises(CaptureError):
        CaptureRules(include=("(",)).compiled()


def test_a_redirect_is_kept_only_where_it_ends_within_the_rules_and_include_never_drops_a_root(tmp_path) -> None:
    class Leaving(CannedRenderer):
        def render(self, requested: str, refuse_redirect: RedirectCheck | None = None) -> RenderedPage:
            page = super().render(requested, refuse_redirect)
            if requested.endswith("/b"):  # the site sends /b to another host
                page.final_url = "https://other.example/landing"
                page.redirects = [{"url": requested, "status": 302, "location": page.final_url}]
            return page

    summary = capture_site([ROOT], tmp_path, Leaving(), CaptureRules(depth=1), robots=robots())
    assert dict(summary.skipped)[url("/b")] == "redirects to https://other.example/landing: another host (--same-host)"
    assert not any("other.example" in s for s in summary.saved)
    assert not any("other" in page.url for page in load_site(tmp_path).pages)
    # A root that redirects to another host (www.) is the site asked for: captured, its links followed there.
    class Www(CannedRenderer):
        def render(self, requested: str, refuse_redirect: RedirectCheck | None = None) -> RenderedPage:
            page = super().render(requested, refuse_redirect)
            if requested == ROOT:
                page.final_url = "https://www.site.example/"
                page.redirects = [{"url": requested, "status": 301, "location": page.final_url}]
                page.links = ["https://www.site.example/a", "https://elsewhere.example/"]
            elif requested.startswith("https://www.site.example/"):
                page.final_url = requested
            return page

    www = capture_site([ROOT], tmp_path / "www", Www(), CaptureRules(depth=1), robots=Robots(lambda _: (404, "")))
    assert set(www.saved) == {"https://www.site.example/", "https://www.site.example/a"}
    assert dict(www.skipped) == {"https://elsewhere.example/": "another host (--same-host)"}
    # A root that ends on an unrelated host (a login service, a parked domain) is not the site asked for.
    class Away(CannedRenderer):
        def render(self, requested: str, refuse_redirect: RedirectCheck | None = None) -> RenderedPage:
            page = super().render(requested, refuse_redirect)
            if requested == ROOT:
                page.final_url = "https://login.provider.example/?next=site"
                page.redirects = [{"url": requested, "status": 302, "location": page.final_url}]
            return page

    away = capture_site([ROOT], tmp_path / "away", Away(), CaptureRules(depth=1), robots=Robots(lambda _: (404, "")))
    assert away.saved == [] and away.pages == 0
    assert dict(away.skipped)[ROOT] == ("redirects to https://login.provider.example/?next=site: another site, not "
                                        "captured (give that address as a root if it is the site you want)")
    # --include picks among the links found; the root, asked for by name, is captured though it matches none.
    only = capture_site([ROOT], tmp_path / "inc", CannedRenderer(), CaptureRules(include=(r"/a$",), depth=1),
                        robots=robots())
    assert {s.removeprefix("https://site.example") for s in only.saved} == {"/", "/a"}


@pytest.mark.parametrize(("a", "b", "same"), [
    ("https://site.example/", "https://www.site.example/en/", True),
    ("https://www.site.example/", "https://site.example/", True),
    ("https://site.example/", "https://shop.site.example/", True),
    ("http://127.0.0.1:8000/", "http://127.0.0.1:8001/x", False),  # two ports: two servers, as in an origin
    ("http://site.example/", "https://www.site.example/", True),  # each scheme's own port
    ("https://SITE.example./", "https://site.example/", True),
    ("https://site.example/", "https://login.provider.example/", False),
    ("https://a.host.example/", "https://b.host.example/", False),
    ("https://site.example/", "https://notsite.example/", False),
])
def test_same_site_is_one_host_a_subdomain_or_www(a: str, b: str, same: bool) -> None:
    assert same_site(a, b) is same and same_site(b, a) is same


def test_run_again_with_wider_rules_the_capture_checks_what_it_skipped_and_follows_the_old_edge(
        tmp_path: Path) -> None:
    narrow = capture_site([ROOT], tmp_path, CannedRenderer(), CaptureRules(depth=1, exclude=("/b",)),
                          robots=robots())
    saved = {s.removeprefix("https://site.example") for s in narrow.saved}
    assert "/b" not in saved and "/a/deeper" not in saved
    wider = capture_site([ROOT], tmp_path, CannedRenderer(), CaptureRules(depth=2), robots=robots())
    more = {s.removeprefix("https://site.example") for s in wider.saved}
    assert {"/b", "/a/deeper"} <= more  # skipped by --exclude, then beyond the old depth
    assert any("skipped then are checked again" in n for n in wider.notes)
    assert any("--depth grew from 1 to 2" in n for n in wider.notes)
    assert len(load_site(tmp_path).pages) == len(saved) + len(more)


def test_a_stopped_capture_resumes_without_loading_a_saved_page_again(tmp_path: Path) -> None:
    with pytest.raises(KeyboardInterrupt):
        capture_site([ROOT], tmp_path, CannedRenderer(stop_after=3), CaptureRules(), robots=robots())
    assert (tmp_path / "site.json").is_file()  # the pages saved before Ctrl+C are a site already
    saved_before = len(load_site(tmp_path).pages)
    state = json.loads((tmp_path / "capture.json").read_text("utf-8"))
    assert saved_before == sum(1 for o in state["outcomes"].values() if o["outcome"] == "saved") > 0
    first = [o["url"] for o in state["outcomes"].values()]
    again = CannedRenderer()
    summary = capture_site([ROOT], tmp_path, again, CaptureRules(), robots=robots())
    assert summary.resumed and not set(again.loaded) & set(first)
    assert len(load_site(tmp_path).pages) == 7
    assert len(list((tmp_path / "pages").glob("*.mhtml"))) == 7


def test_without_the_app_the_command_says_what_it_needs(tmp_path: Path, capsys) -> None:
    from recordlens.core.agent import capture

    saved = dict(capture._RUNNERS)
    capture._RUNNERS.clear()
    try:
        with pytest.raises(CaptureError):
            capture_runner()
        assert main(["site", "capture", ROOT, "--site", str(tmp_path)]) == 2
        assert "needs the app's Chromium" in capsys.readouterr().err
    finally:
        capture._RUNNERS.update(saved)


def test_the_command_exits_with_1_when_a_page_failed_and_still_prints_its_summary(tmp_path: Path, capsys) -> None:
    from recordlens.core.agent import capture

    def canned(roots, folder, rules, **_options):  # the app's Chromium, made of canned pages
        return capture_site(roots, folder, CannedRenderer(), rules, robots=robots())

    saved = dict(capture._RUNNERS)
    capture.register_capture_runner(canned)
    try:
        assert main(["site", "capture", ROOT, "--site", str(tmp_path / "s"), "--json"]) == 1
        summary = json.loads(capsys.readouterr().out.splitlines()[-1])
        assert summary["failed"] == [[url("/broken"), "HTTP 500 Internal Server Error"]] and summary["saved"]
        assert main(["site", "capture", ROOT, "--site", str(tmp_path / "ok"), "--exclude", "broken"]) == 0
    finally:
        capture._RUNNERS.clear()
        capture._RUNNERS.update(saved)


class TinySite(CannedRenderer):
    """A renderer of its own small site: path -> links, redirects, and paths that fail (with their reason)."""

    def __init__(self, links: dict[str, list[str]], redirects: dict[str, str] | None = None,
                 failing: dict[str, str] | None = None) -> None:
        super().__init__()
        self.links, self.redirects, self.failing = links, redirects or {}, failing or {}

    def render(self, requested: str, refuse_redirect: RedirectCheck | None = None) -> RenderedPage:
        self.loaded.append(requested)
        path = requested.removeprefix("https://site.example")
        if path in self.failing:
            raise PageFailed(self.failing[path])
        final = self.redirects.get(path, path)
        title = f"Page {final}"
        html = f"<html><head><title>{title}</title></head><body><h1>{title}</h1></body></html>"
        return RenderedPage(requested_url=requested, final_url=url(final), status=200,
                            redirects=[{"url": requested, "status": 301, "location": url(final)}] if final != path
                            else [], content_type="text/html", title=title,
                            mhtml=mhtml_bytes(html, url=url(final), title=title, date=SAVED_ON),
                            ax_nodes=[{"nodeId": "1", "role": {"value": "RootWebArea"}, "name": {"value": title},
                                       "childIds": [], "backendDOMNodeId": 1}], dom=None,
                            screenshot=b"\x89PNG\r\n\x1a\n" + b"\0" * 16, screenshot_size=(1920, 900),
                            links=[url(link) for link in self.links.get(final, [])], engine="canned",
                            viewport=(1920, 1080), page_height=900)


def test_urls_whose_file_names_would_collide_are_saved_apart_and_dir_and_dir_slash_are_two_pages(
        tmp_path: Path) -> None:
    links = {"/": ["/a b", "/a-b", "/About", "/about", "/dir", "/dir/"]}
    summary = capture_site([ROOT], tmp_path, TinySite(links), CaptureRules(depth=1), robots=NO_ROBOTS)
    assert len(summary.saved) == 7 and summary.pages == 7
    site = load_site(tmp_path)
    files = [site.page(url(path)).file for path in ("/a%20b", "/a-b", "/About", "/about", "/dir", "/dir/")]
    assert len({f.lower() for f in files}) == 6  # apart even on a disk that ignores case
    assert site.page(url("/dir/")).title == "Page /dir/" and site.page(url("/dir")).title == "Page /dir"


def test_a_redirect_to_a_page_saved_already_is_said_and_indexed(tmp_path: Path) -> None:
    site_pages = TinySite({"/new": []}, redirects={"/old": "/new"})
    summary = capture_site([url("/new"), url("/old")], tmp_path, site_pages, CaptureRules(depth=0),
                           robots=NO_ROBOTS)
    assert summary.duplicates == [(url("/old"), url("/new"))]
    assert "1 redirected to a page saved already" in summary.message()
    assert load_site(tmp_path).page(url("/old")).url == url("/new")


def test_links_beyond_the_depth_are_counted(tmp_path: Path) -> None:
    links = {"/": ["/a", "/b"], "/a": ["/c", "/d", "/b"], "/b": ["/e"]}
    summary = capture_site([ROOT], tmp_path, TinySite(links), CaptureRules(depth=1), robots=NO_ROBOTS)
    assert summary.beyond_depth == 3  # /c, /d, /e; /b was seen already
    assert "3 link(s) on pages at --depth not followed" in summary.message()


def test_a_capture_run_again_tries_what_failed_and_what_was_deleted(tmp_path: Path) -> None:
    links = {"/": ["/a", "/slow"], "/a": []}
    first = capture_site([ROOT], tmp_path, TinySite(links, failing={"/slow": "did not finish loading within 5 s"}),
                         CaptureRules(depth=1), robots=NO_ROBOTS)
    assert [u for u, _ in first.failed] == [url("/slow")]
    (tmp_path / load_site(tmp_path).page(url("/a")).side_file("screenshot")).unlink()
    said = build_site(tmp_path, write=False).warnings
    assert len(said) == 1 and said[0].endswith(".png is gone from the folder; run the same `site capture` again "
                                               "to capture it again"), said
    again_renderer = TinySite(links)
    again = capture_site([ROOT], tmp_path, again_renderer, CaptureRules(depth=1), robots=NO_ROBOTS)
    assert sorted(again_renderer.loaded) == [url("/a"), url("/slow")]
    assert "1 page(s) that failed last time are tried again" in again.notes
    assert "1 page(s) saved before whose files are gone from the folder are captured again" in again.notes
    assert not again.failed and load_site(tmp_path).page(url("/a")).side_file("screenshot")
    assert len(load_site(tmp_path).pages) == 3


def test_a_site_that_stops_answering_stops_the_capture_and_the_next_run_goes_on(tmp_path: Path) -> None:
    links = {"/": [f"/p{i}" for i in range(12)]}
    down = {f"/p{i}": "net::ERR_CONNECTION_REFUSED" for i in range(12)}
    down["/p0"] = "HTTP 404 Not Found"  # a missing page is no sign of a server gone
    summary = capture_site([ROOT], tmp_path, TinySite(links, failing=down), CaptureRules(depth=1),
                           robots=NO_ROBOTS)
    assert len(summary.failed) == 1 + 5 and summary.stopped and summary.queued == 6
    assert any(n.startswith("the site stopped answering (5 of its pages in a row could not be reached, the last: "
                            "net::ERR_CONNECTION_REFUSED)") for n in summary.notes)
    back = capture_site([ROOT], tmp_path, TinySite(links, failing={"/p0": "HTTP 404 Not Found"}),
                        CaptureRules(depth=1), robots=NO_ROBOTS)
    assert len(back.saved) == 11 and [u for u, _ in back.failed] == [url("/p0")] and not back.queued


def test_dead_links_to_other_sites_do_not_stop_the_capture_but_a_hung_server_does(tmp_path: Path) -> None:
    class Mixed(TinySite):
        def render(self, requested: str, refuse_redirect: RedirectCheck | None = None) -> RenderedPage:
            if "dead" in requested:
                self.loaded.append(requested)
                raise PageFailed("net::ERR_NAME_NOT_RESOLVED")
            return super().render(requested, refuse_redirect)

    links = {"/": [f"https://dead{i}.example/" for i in range(6)] + ["/a"], "/a": []}
    summary = capture_site([ROOT], tmp_path / "any", Mixed(links), CaptureRules(depth=1, same_host=False),
                           robots=NO_ROBOTS)
    assert len(summary.failed) == 6 and url("/a") in summary.saved and not summary.stopped

    class Hung(TinySite):
        def render(self, requested: str, refuse_redirect: RedirectCheck | None = None) -> RenderedPage:
            if requested != ROOT:
                self.loaded.append(requested)
                raise PageFailed("did not finish loading within 60 s", unreachable=True)
            return super().render(requested, refuse_redirect)

    hung = capture_site([ROOT], tmp_path / "hung", Hung({"/": [f"/p{i}" for i in range(9)]}), CaptureRules(depth=1),
                        robots=NO_ROBOTS)
    assert len(hung.failed) == 5 and hung.stopped and hung.queued == 4


def test_pages_tried_again_come_first_in_the_order_they_were_met(tmp_path: Path) -> None:
    links = {"/": [f"/p{i}" for i in range(4)]}
    failing = {f"/p{i}": "HTTP 503 Service Unavailable" for i in range(4)}
    capture_site([ROOT], tmp_path, TinySite(links, failing=failing), CaptureRules(depth=1), robots=NO_ROBOTS)
    again = TinySite(links)
    capture_site([ROOT], tmp_path, again, CaptureRules(depth=1), robots=NO_ROBOTS)
    assert again.loaded == [url(f"/p{i}") for i in range(4)]


def test_a_capture_run_again_with_other_rules_names_each_change(tmp_path: Path) -> None:
    links = {"/": ["/a", "/deep/x"], "/a": ["/a/b"], "/a/b": [], "/deep/x": []}
    capture_site([ROOT], tmp_path, TinySite(links), CaptureRules(depth=3, max_pages=3, include=("/deep/",)),
                 robots=NO_ROBOTS)
    again = capture_site([ROOT], tmp_path, TinySite(links), CaptureRules(depth=1), robots=NO_ROBOTS)
    changed = [n for n in again.notes if n.startswith("rule changed since the last run: ")]
    assert changed == ["rule changed since the last run: --include: '/deep/' → none",
                       "rule changed since the last run: --depth: 3 → 1; pages saved deeper than 1 before stay in "
                       "the site",
                       "rule changed since the last run: --max-pages: 3 → 50"]
    other = capture_site([ROOT, "https://other.example/"], tmp_path, TinySite(links),
                         CaptureRules(depth=1, max_pages=2, same_host=False, robots=False, exclude=("/a",)),
                         robots=NO_ROBOTS)
    assert [n.removeprefix("rule changed since the last run: ") for n in other.notes[:4]] == [
        "--exclude: none → '/a'; pages saved before that it would refuse stay in the site",
        "--max-pages: 50 → 2; the site holds 3 page(s) already, so no page more is saved",
        "--same-host → --any-host", "robots.txt: honoured → ignored (--ignore-robots)"]
    assert ("new root https://other.example/ is on another host than the site's (site.example): other.example's "
            "pages join this site folder") in other.notes
    same = capture_site([ROOT], tmp_path, TinySite(links), CaptureRules(depth=1, max_pages=2, same_host=False,
                                                                        robots=False, exclude=("/a",), delay_s=1),
                        robots=NO_ROBOTS, sleep=lambda _: None)
    assert not [n for n in same.notes if "rule" in n]  # the same scope (only the pace changed): nothing said


def test_one_capture_at_a_time_per_folder_and_a_killed_ones_lock_is_taken_over(tmp_path: Path) -> None:
    import os
    import socket

    from recordlens.core.agent.capture import LOCK_FILE
    from recordlens.core.owner_files import release, take

    lock = tmp_path / LOCK_FILE
    held = take(lock)  # a capture running now (another open file of the lock, as another process has)
    renderer = TinySite({"/": []})
    with pytest.raises(CaptureError, match=f"{tmp_path} is being captured by process {os.getpid()} on "):
        capture_site([ROOT], tmp_path, renderer, robots=NO_ROBOTS)
    assert renderer.loaded == [] and lock.exists()
    os.close(held.fd)  # ended without releasing (killed): its line stays, the system frees its lock
    assert lock.read_text().split() == [socket.gethostname(), str(os.getpid())]

    class Watching(TinySite):
        def render(self, requested: str, refuse_redirect: RedirectCheck | None = None) -> RenderedPage:
            assert lock.read_text().split()[1] == str(os.getpid())  # held while capturing
            return super().render(requested, refuse_redirect)

    summary = capture_site([ROOT], tmp_path, Watching({"/": []}), robots=NO_ROBOTS)
    assert summary.saved == [ROOT] and not lock.exists()
    assert summary.notes[0] == (f"a capture of this folder by process {os.getpid()} ended without "
                                "releasing its lock (it was killed); the lock is taken over")
    release(take(lock))  # free again


def test_a_folder_whose_lock_cannot_be_taken_is_captured_with_a_note(tmp_path: Path, monkeypatch) -> None:
    # A file system without locks (ENOLCK on some network mounts) is no other capture running: say it, capture.
    import errno

    from recordlens.core import owner_files

    def no_locks(path):  # noqa: ANN001, ANN202
        raise OSError(errno.ENOLCK, "No locks available")

    monkeypatch.setattr(owner_files, "take", no_locks)
    summary = capture_site([ROOT], tmp_path, TinySite({"/": []}), robots=NO_ROBOTS)
    assert summary.saved == [ROOT]
    assert any(note.startswith("the folder's lock cannot be taken (No locks available)") for note in summary.notes)


def _canned_runner(calls: list[str], fail: BaseException | None = None):  # noqa: ANN202
    def canned(roots, folder, rules, **_options):  # noqa: ANN001, ANN003, ANN202
        calls.append(folder)
        if fail is not None:
            raise fail
        return capture_site(roots, folder, TinySite({"/": []}), rules, robots=NO_ROBOTS)
    return canned


def test_the_command_names_the_option_out_of_range_refuses_a_busy_folder_and_says_how_to_continue(
        tmp_path: Path, capsys, monkeypatch) -> None:
    import os
    import socket

    from recordlens.core.agent import capture
    from recordlens.core.owner_files import release, take

    calls: list[str] = []
    monkeypatch.setattr(capture, "_RUNNERS", {"chromium": _canned_runner(calls)})
    assert main(["site", "capture", ROOT, "--site", str(tmp_path / "s"), "--max-pages", "0", "--timeout",
                 "0", "--max-page-size", "0"]) == 2
    err = capsys.readouterr().err
    assert ("--max-pages 0: give 1 or more; --timeout 0: give more than 0 seconds; --max-page-size 0: give more "
            "than 0 MiB") in err
    assert "--depth" not in err and "--delay" not in err
    assert main(["site", "capture", ROOT, "--site", str(tmp_path / "s"), "--depth", "-1"]) == 2
    assert "error: --depth -1: give 0 or more\n" in capsys.readouterr().err
    busy = tmp_path / "busy"
    busy.mkdir()
    held = take(busy / capture.LOCK_FILE)  # a capture running in that folder
    assert main(["site", "capture", ROOT, "--site", str(busy)]) == 2
    assert f"{busy} is being captured by process {os.getpid()} on {socket.gethostname()}" in capsys.readouterr().err
    release(held)
    assert calls == []  # refused before the renderer (Chromium) starts
    monkeypatch.setattr(capture, "_RUNNERS", {"chromium": _canned_runner(calls, KeyboardInterrupt())})
    assert main(["site", "capture", ROOT, "--site", str(tmp_path / "s")]) == 130
    err = capsys.readouterr().err
    assert "running the same command again continues it" in err and err.rstrip().endswith("recordlens: interrupted")


class Redirecting(TinySite):
    """TinySite whose redirects may lead off the site: the hop is checked as a browser's renderer checks it, and a
    target on `dead` hosts does not answer. `requested` lists every URL a request was sent to (hops included)."""

    def __init__(self, links: dict[str, list[str]], redirects: dict[str, str], dead: tuple[str, ...] = (),
                 failing: dict[str, str] | None = None) -> None:
        super().__init__(links, redirects, failing)
        self.dead = dead
        self.requested: list[str] = []

    def render(self, requested: str, refuse_redirect: RedirectCheck | None = None) -> RenderedPage:
        self.requested.append(requested)
        target = self.redirects.get(requested.removeprefix("https://site.example"), "")
        if target.startswith("http"):
            why = refuse_redirect(target) if refuse_redirect else None
            if why is not None:
                raise PageFailed(why, redirected_to=target)
            self.requested.append(target)
            if any(host in target for host in self.dead):
                raise PageFailed("cannot load it: net::ERR_CONNECTION_REFUSED", at=target)
        return super().render(requested, refuse_redirect)


OUT = {f"/out{i}": f"http://127.0.0.3:9/partner/{i}" for i in range(6)}


def test_a_redirect_off_the_site_is_refused_before_it_is_requested(tmp_path: Path) -> None:
    links = {"/": [*OUT, "/a"], "/a": []}
    renderer = Redirecting(links, OUT, dead=("127.0.0.3",))
    summary = capture_site([ROOT], tmp_path, renderer, CaptureRules(depth=1), robots=NO_ROBOTS)
    assert not [u for u in renderer.requested if "127.0.0.3" in u]  # never requested
    assert dict(summary.skipped)[url("/out0")] == ("redirects to http://127.0.0.3:9/partner/0: another host "
                                                   "(--same-host)")
    assert url("/a") in summary.saved and not summary.failed and not summary.stopped


def test_dead_redirect_targets_never_stop_the_capture_of_the_site(tmp_path: Path) -> None:
    """Six links that redirect to a dead other host, then two normal pages: with --any-host the redirects are
    followed and fail, charged to the host that did not answer, not to the site: both pages are captured."""
    links = {"/": [*OUT, "/a", "/b"], "/a": [], "/b": []}
    renderer = Redirecting(links, OUT, dead=("127.0.0.3",))
    summary = capture_site([ROOT], tmp_path, renderer, CaptureRules(depth=1, same_host=False), robots=NO_ROBOTS)
    assert len(summary.failed) == 6 and not summary.stopped and not summary.queued
    assert {url("/"), url("/a"), url("/b")} <= set(summary.saved)
    assert not any("stopped answering" in note for note in summary.notes)


def test_old_failures_tried_again_never_stop_a_run_before_the_queued_pages(tmp_path: Path) -> None:
    """Five pages of the site hang and stop the first run; run again while they still hang, the pages still queued
    are captured (the old failures are tried after them, and do not count as the site going down)."""
    links = {"/": [f"/p{i}" for i in range(8)]}
    hanging = {f"/p{i}": "cannot load it: net::ERR_CONNECTION_TIMED_OUT" for i in range(5)}
    first = capture_site([ROOT], tmp_path, TinySite(links, failing=hanging), CaptureRules(depth=1),
                         robots=NO_ROBOTS)
    assert first.stopped and first.queued == 3
    again = capture_site([ROOT], tmp_path, TinySite(links, failing=hanging), CaptureRules(depth=1),
                         robots=NO_ROBOTS)
    assert {url(f"/p{i}") for i in range(5, 8)} <= set(again.saved)
    assert len(again.failed) == 5 and not again.queued


def test_the_site_opens_on_the_page_its_capture_began_from(tmp_path: Path) -> None:
    """The root "/" redirects to /index.html, and /about.html comes first by URL: the site's start is the root's
    page, written to site.json (and read from capture.json for a site indexed before it was)."""
    links = {"/index.html": ["/about.html", "/list.html"], "/about.html": [], "/list.html": []}
    capture_site([ROOT], tmp_path, TinySite(links, redirects={"/": "/index.html"}), CaptureRules(depth=1),
                 robots=NO_ROBOTS)
    site = load_site(tmp_path)
    assert site.pages[0].url == url("/about.html")
    assert site.start_url() == url("/index.html")
    assert json.loads((tmp_path / "site.json").read_text("utf-8"))["start"] == ROOT
    index = json.loads((tmp_path / "site.json").read_text("utf-8"))
    del index["start"]  # an index written before the start was
    (tmp_path / "site.json").write_text(json.dumps(index), encoding="utf-8")
    assert load_site(tmp_path).start_url() == url("/index.html")
    hand_made = tmp_path / "hand"
    hand_made.mkdir()
    (hand_made / "b.mhtml").write_bytes(mhtml_bytes("<title>B</title>", url=url("/b"), title="B"))
    (hand_made / "a.mhtml").write_bytes(mhtml_bytes("<title>A</title>", url=url("/a"), title="A"))
    assert build_site(hand_made).start_url() == url("/a")  # no capture: the first page by URL


def test_a_complete_capture_run_again_says_so_and_refresh_captures_every_page_again(
        tmp_path: Path, capsys, monkeypatch) -> None:
    from recordlens.core.agent import capture

    links = {"/": ["/a", "/b"], "/a": [], "/b": []}
    renderers: list[TinySite] = []

    def canned(roots, folder, rules, **options):  # noqa: ANN001, ANN003, ANN202 - the app's Chromium, canned
        renderers.append(TinySite(links))
        return capture_site(roots, folder, renderers[-1], rules, robots=NO_ROBOTS,
                            refresh=options.get("refresh", False))

    monkeypatch.setattr(capture, "_RUNNERS", {"chromium": canned})
    folder = tmp_path / "my site"
    assert main(["site", "capture", ROOT, "--site", str(folder), "--depth", "1"]) == 0
    first = json.loads((folder / "pages" / f"{page_stem(url('/a'))}.meta.json").read_text("utf-8"))
    capsys.readouterr()
    assert main(["site", "capture", ROOT, "--site", str(folder), "--depth", "1"]) == 0
    said = capsys.readouterr()
    assert renderers[-1].loaded == []  # nothing loaded: the old snapshot is what the folder holds
    assert "the capture of this folder was already complete (finished " in said.err
    assert "nothing was loaded again; to capture every page again (the site changed), run the same command " \
           "with --refresh" in said.err
    assert main(["site", "capture", ROOT, "--site", str(folder), "--depth", "1", "--refresh"]) == 0
    said = capsys.readouterr()
    assert sorted(renderers[-1].loaded) == sorted(url(p) for p in links)  # every page loaded again
    assert "3 page(s) saved" in said.out
    kept = [p for p in (folder / "removed").iterdir()]
    assert len(kept) == 1 and kept[0].name.startswith("capture.")
    assert (kept[0] / "capture.json").is_file() and len(list((kept[0] / "pages").glob("*.mhtml"))) == 3
    assert f"the pages captured before are kept in {hint_path(kept[0])}" in said.err
    site = load_site(folder)
    assert len(site.pages) == 3  # the pages set aside are not pages of the site
    again = json.loads((folder / site.page(url("/a")).side_file("meta")).read_text("utf-8"))
    assert again["sha256"] == first["sha256"] and (kept[0] / "pages" / Path(site.page(url("/a")).file).name).is_file()


def test_a_refresh_that_saves_no_page_puts_the_old_capture_back(tmp_path: Path) -> None:
    """--refresh while the site is down (or its root now leads elsewhere): no page is saved, so the capture of
    before is put back as it was and the site stays usable; a refresh that saves a page keeps the old one aside."""
    links = {"/": ["/a", "/b"], "/a": [], "/b": []}
    capture_site([ROOT], tmp_path, TinySite(links), CaptureRules(depth=1), robots=NO_ROBOTS)
    before = {p.name: p.read_bytes() for p in [tmp_path / "capture.json", tmp_path / "site.json",
                                                *(tmp_path / "pages").iterdir()]}
    down = TinySite(links, failing={"/": "cannot load it: net::ERR_CONNECTION_REFUSED"})
    summary = capture_site([ROOT], tmp_path, down, CaptureRules(depth=1), robots=NO_ROBOTS, refresh=True)
    assert down.loaded == [ROOT] and summary.saved == [] and summary.pages == 3
    assert any(n.startswith("--refresh: no page was captured again, so the capture of before is put back as it "
                            "was (the site keeps its 3 page(s))") for n in summary.notes), summary.notes
    assert not any("are kept in" in n for n in summary.notes)
    after = {p.name: p.read_bytes() for p in [tmp_path / "capture.json", tmp_path / "site.json",
                                               *(tmp_path / "pages").iterdir()]}
    assert after == before and not (tmp_path / "removed").exists()
    assert len(load_site(tmp_path).pages) == 3
    with pytest.raises(KeyboardInterrupt):  # stopped before a page was saved: put back too
        capture_site([ROOT], tmp_path, CannedRenderer(stop_after=0), CaptureRules(depth=1), robots=NO_ROBOTS,
                     refresh=True)
    assert len(load_site(tmp_path).pages) == 3 and not (tmp_path / "removed").exists()
    partly = TinySite(links, failing={"/a": "cannot load it: net::ERR_CONNECTION_REFUSED"})
    some = capture_site([ROOT], tmp_path, partly, CaptureRules(depth=1), robots=NO_ROBOTS, refresh=True)
    assert len(some.saved) == 2 and some.pages == 2  # what the refresh saved is the site now
    kept = list((tmp_path / "removed").iterdir())
    assert len(kept) == 1 and len(list((kept[0] / "pages").glob("*.mhtml"))) == 3


def test_old_failures_tried_again_stop_a_run_once_no_new_page_is_queued(tmp_path: Path) -> None:
    """Twelve pages failed last time (503); run again while the site is down, they are tried after the queued pages
    and five of them in a row unreachable stop the run, as any five would: the rest is not loaded to its timeout."""
    links = {"/": [f"/p{i}" for i in range(12)]}
    capture_site([ROOT], tmp_path, TinySite(links, failing={f"/p{i}": "HTTP 503 Service Unavailable" for i in
                                                            range(12)}), CaptureRules(depth=1), robots=NO_ROBOTS)
    down = TinySite(links, failing={f"/p{i}": "cannot load it: net::ERR_TIMED_OUT" for i in range(12)})
    again = capture_site([ROOT], tmp_path, down, CaptureRules(depth=1), robots=NO_ROBOTS)
    assert len(down.loaded) == 5 and again.stopped and again.queued == 7
    assert any(n.startswith("the site stopped answering (5 of its pages in a row") for n in again.notes)
    back = capture_site([ROOT], tmp_path, TinySite(links), CaptureRules(depth=1), robots=NO_ROBOTS)
    assert len(back.saved) == 12 and not back.failed and not back.queued


def test_old_failures_tried_again_never_stop_a_run_while_a_new_page_is_queued(tmp_path: Path) -> None:
    """An old failure tried again that is captured now finds new links, queued after the other old failures: the
    old failures that still do not answer do not stop the run before those new pages are tried."""
    links = {"/": ["/hub", *(f"/p{i}" for i in range(6))], "/hub": ["/new1", "/new2"], "/new1": [], "/new2": []}
    failing = {p: "cannot load it: net::ERR_CONNECTION_TIMED_OUT" for p in ["/hub", *(f"/p{i}" for i in range(6))]}
    failing["/hub"] = "HTTP 503 Service Unavailable"
    first = capture_site([ROOT], tmp_path, TinySite(links, failing=failing), CaptureRules(depth=2), robots=NO_ROBOTS)
    assert first.stopped and [u for u, _ in first.failed] == [url("/hub"), *(url(f"/p{i}") for i in range(5))]
    del failing["/hub"]  # /hub answers now; /p0.. still hang
    renderer = TinySite(links, failing=failing)
    again = capture_site([ROOT], tmp_path, renderer, CaptureRules(depth=2), robots=NO_ROBOTS)
    assert {url("/hub"), url("/new1"), url("/new2")} <= set(again.saved)


def test_a_dead_off_site_redirect_shows_the_site_answered(tmp_path: Path) -> None:
    """Four pages of the site unreachable, then one whose redirect to another host is dead (the site answered it,
    with the redirect), then one more unreachable page: not five of the site's pages in a row."""
    unreachable = "cannot load it: net::ERR_CONNECTION_REFUSED"
    links = {"/": [*(f"/p{i}" for i in range(4)), "/out0", "/p4", "/a"], "/a": []}
    renderer = Redirecting(links, OUT, dead=("127.0.0.3",), failing={f"/p{i}": unreachable for i in range(5)})
    summary = capture_site([ROOT], tmp_path, renderer, CaptureRules(depth=1, same_host=False), robots=NO_ROBOTS)
    assert len(summary.failed) == 6 and not summary.stopped and url("/a") in summary.saved
