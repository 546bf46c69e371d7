"""Site capture on an IPv6 address (a root that redirects stays the site asked for; capture.json keys keep the
brackets, and a capture.json written without them resumes), duplicate pages told by what they link to as well
as their HTML, and a capture whose index cannot be built saying so rather than "no page was saved"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.core.agent import capture
from recordlens.core.agent.capture import (
    CaptureRules,
    capture_site,
    same_site,
)
from recordlens.core.agent.sites import SiteError, load_site, normalise_url
from recordlens.core.cli.command import main
from tests.core.canned_web import NO_ROBOTS, Web

# -- IPv6 ---------------------------------------------------------------------------------------------------------

V6 = "http://[::1]:8000/"


def test_normalise_url_keeps_the_brackets_of_an_ipv6_host() -> None:
    assert normalise_url("http://[::1]:8000/a") == "http://[::1]:8000/a"
    assert normalise_url("HTTP://[FE80::1]:80/a#x") == "http://[fe80::1]/a"  # the scheme's own port goes
    assert normalise_url("https://[2001:db8::2]/") == "https://[2001:db8::2]/"
    assert normalise_url("http://me@[::1]:8000/") == "http://me@[::1]:8000/"
    assert normalise_url(normalise_url("http://[::1]:8000/a")) == "http://[::1]:8000/a"  # a key is its own key


@pytest.mark.parametrize(("a", "b", "same"), [
    ("http://[::1]:8000/a", "http://[::1]:8000/b", True),
    ("http://[::1]:8000/", "http://[::1]:8001/", False),  # two ports: two servers
    ("http://[::1]/", "https://[::1]/", True),  # each scheme's own port
    ("http://[::1]:8000/", "http://[::2]:8000/", False),
])
def test_same_site_reads_ipv6_hosts(a: str, b: str, same: bool) -> None:
    assert same_site(a, b) is same and same_site(b, a) is same


def test_an_ipv6_root_that_redirects_is_captured(tmp_path: Path) -> None:
    web = Web({V6 + "en/": ("Home", ["about"]), V6 + "en/about": ("About", ["/en/"])}, {V6: V6 + "en/"})
    summary = capture_site([V6], tmp_path, web, CaptureRules(depth=2), robots=NO_ROBOTS)
    assert summary.skipped == [] and summary.saved == [V6 + "en/", V6 + "en/about"]
    site = load_site(tmp_path)
    assert site.page(V6).url == V6 + "en/" and site.page(V6 + "en/about") is not None


def test_a_capture_json_written_without_the_brackets_resumes(tmp_path: Path) -> None:
    pages = {V6: ("Home", ["a", "b"]), V6 + "a": ("A", ["b"]), V6 + "b": ("B", [])}
    with pytest.raises(KeyboardInterrupt):  # Ctrl+C after the first two pages
        capture_site([V6], tmp_path, Web(pages, interrupt_after=2), CaptureRules(), robots=NO_ROBOTS)
    state = tmp_path / "capture.json"
    # As the RecordLens of before wrote it: every normalised URL without the brackets of its host.
    state.write_text(state.read_text("utf-8").replace('"http://[::1]:8000/', '"http://::1:8000/'), "utf-8")
    # (the URLs as given keep theirs: put them back where the state keeps them as given)
    data = json.loads(state.read_text("utf-8"))
    assert any(key.startswith("http://::1:8000/") for key in data["outcomes"])
    for outcome in data["outcomes"].values():
        outcome["url"] = outcome["url"].replace("http://::1:8000/", V6)
        outcome["final_url"] = outcome.get("final_url", outcome["url"]).replace("http://::1:8000/", V6)
    data["roots"] = [V6]
    data["queue"] = [[u.replace("http://::1:8000/", V6), d] for u, d in data["queue"]]
    state.write_text(json.dumps(data), "utf-8")
    web = Web(pages)
    again = capture_site([V6], tmp_path, web, CaptureRules(), robots=NO_ROBOTS)
    assert web.requested == [V6 + "b"]  # the pages saved before are not loaded again
    assert again.saved == [V6 + "b"] and not again.skipped and not again.failed
    assert len(load_site(tmp_path).pages) == 3
    assert all(key.startswith("http://[::1]:8000/") for key in json.loads(state.read_text("utf-8"))["outcomes"])


# -- duplicates ---------------------------------------------------------------------------------------------------

SITE = "https://docs.example/"
VERSIONED = {SITE: ("Docs", ["v1/", "v2/"]),
             SITE + "v1/": ("Manual", ["intro", "api"]), SITE + "v2/": ("Manual", ["intro", "api"]),
             SITE + "v1/intro": ("Intro one", []), SITE + "v1/api": ("API one", []),
             SITE + "v2/intro": ("Intro two", []), SITE + "v2/api": ("API two", [])}


def test_pages_with_the_same_html_that_link_to_other_pages_are_two_pages(tmp_path: Path) -> None:
    summary = capture_site([SITE], tmp_path, Web(VERSIONED), CaptureRules(depth=2), robots=NO_ROBOTS)
    assert summary.same_content == []
    assert set(summary.saved) == set(VERSIONED)  # /v2/'s pages are followed: /v2/ is no alias of /v1/


def test_the_same_html_reaching_the_same_pages_is_still_one_page(tmp_path: Path) -> None:
    pages = {SITE: ("Home", ["about", "about/index.html"]), SITE + "about": ("About", ["/", "#top"]),
             SITE + "about/index.html": ("About", ["/", "#top"])}  # a link to itself is the same on both
    summary = capture_site([SITE], tmp_path, Web(pages), CaptureRules(depth=1), robots=NO_ROBOTS)
    assert summary.same_content == [(SITE + "about/index.html", SITE + "about")]


def test_a_capture_json_whose_outcomes_have_no_digest_resumes(tmp_path: Path) -> None:
    with pytest.raises(KeyboardInterrupt):
        capture_site([SITE], tmp_path, Web(VERSIONED, interrupt_after=3), CaptureRules(depth=2),
                     robots=NO_ROBOTS)
    state = tmp_path / "capture.json"
    data = json.loads(state.read_text("utf-8"))
    for outcome in data["outcomes"].values():  # as a capture.json written before pages had a digest
        outcome.pop("content", None)
        outcome.pop("digest", None)
    state.write_text(json.dumps(data), "utf-8")
    web = Web(VERSIONED)
    again = capture_site([SITE], tmp_path, web, CaptureRules(depth=2), robots=NO_ROBOTS)
    assert not set(web.requested) & {SITE, SITE + "v1/", SITE + "v2/"}  # saved before: not loaded again
    assert again.notes == [] and again.same_content == [] and not again.failed
    assert len(load_site(tmp_path).pages) == len(VERSIONED)


# -- a site index that cannot be built ------------------------------------------------------------------------------


def test_a_capture_whose_index_cannot_be_built_says_why_not_that_no_page_was_saved(tmp_path: Path, capsys,
                                                                                    monkeypatch) -> None:
    def canned(roots, folder, rules, **_options):  # noqa: ANN001, ANN003, ANN202 - the app's Chromium, canned
        return capture_site(roots, folder, Web({SITE: ("Home", [])}), rules, robots=NO_ROBOTS)

    def broken(root, **_options):  # noqa: ANN001, ANN003, ANN202
        raise SiteError(f"{root} is a file: a snapshot site is a folder of saved pages")

    monkeypatch.setattr(capture, "_RUNNERS", {"chromium": canned})
    monkeypatch.setattr(capture, "build_site", broken)
    status = main(["site", "capture", SITE, "--site", str(tmp_path / "s")])
    out, err = capsys.readouterr()
    assert status == capture.CAPTURE_NO_SITE
    assert "1 page(s) saved" in out
    assert "no page was saved" not in err
    assert "the site index could not be built" in err and "is a file: a snapshot site is a folder" in err
