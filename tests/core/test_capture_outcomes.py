"""What a capture leaves and says, met on a misbehaving site: a capture that saves nothing fails and says why,
the host rule is one for a root's redirect and a link's (a port is part of the host), pages with the content of a
page saved already are aliases of it (not pages, not counted against --max-pages), and Ctrl+C prints the
summary."""

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
from recordlens.core.agent.sites import load_site
from recordlens.core.cli.command import main
from tests.core.canned_web import NO_ROBOTS, Web, capture_through

# -- a capture that saves nothing ---------------------------------------------------------------------------------

HERE = "http://127.0.0.1:8000/"
THERE = "http://localhost:8000/landing"


def test_a_capture_that_saves_no_page_fails_and_says_why_and_what_to_do(tmp_path: Path, capsys,
                                                                          monkeypatch) -> None:
    capture_through(monkeypatch, Web({THERE: ("Landing", [])}, redirects={HERE: THERE}))
    status = main(["site", "capture", HERE, "--site", str(tmp_path / "s")])
    out, err = capsys.readouterr()
    assert status == capture.CAPTURE_NO_SITE != 0
    assert "0 page(s) saved, 1 skipped by rule" in out  # the summary is printed all the same
    assert f"{tmp_path / 's'} holds no site: no page was saved" in err
    assert f"({HERE} skipped: redirects to {THERE}: another site" in err  # why
    assert "give that address as a root" in err  # what to do
    assert not (tmp_path / "s" / "site.json").exists()
    # --json: the summary as ever, and the same status.
    assert main(["site", "capture", HERE, "--site", str(tmp_path / "j"), "--json"]) == capture.CAPTURE_NO_SITE
    out, err = capsys.readouterr()
    assert json.loads(out.splitlines()[-1])["pages"] == 0 and "holds no site" in err


def test_a_capture_that_saves_no_page_names_a_few_of_each_kind_and_counts_them_all() -> None:
    summary = capture.CaptureSummary("s", skipped=[(f"https://a.example/{n}", "robots.txt") for n in range(5)],
                                     failed=[("https://a.example/x", "timed out")])
    said = summary.no_site()
    assert "https://a.example/2 skipped: robots.txt; https://a.example/x failed: timed out; … (6 in all));" in said
    assert "https://a.example/3" not in said
    few = capture.CaptureSummary("s", failed=[("https://a.example/x", "timed out")])
    assert "(https://a.example/x failed: timed out);" in few.no_site()  # all named: no count


def test_a_capture_whose_root_fails_says_to_check_the_site(tmp_path: Path, capsys, monkeypatch) -> None:
    capture_through(monkeypatch, Web({}))
    assert main(["site", "capture", HERE, "--site", str(tmp_path / "s")]) == capture.CAPTURE_NO_SITE
    err = capsys.readouterr().err
    assert f"no page was saved ({HERE} failed: HTTP 404 Not Found)" in err and "the site answers" in err


# -- one host rule ------------------------------------------------------------------------------------------------

OTHER_PORT = "http://127.0.0.1:8001/page"


def test_a_root_and_a_link_that_redirect_to_another_port_are_both_skipped(tmp_path: Path) -> None:
    assert not same_site(HERE, OTHER_PORT) and not same_site(OTHER_PORT, HERE)
    root = capture_site([HERE], tmp_path / "root", Web({OTHER_PORT: ("Other", [])}, {HERE: OTHER_PORT}),
                        CaptureRules(depth=1), robots=NO_ROBOTS)
    assert root.saved == [] and "another site" in dict(root.skipped)[HERE]
    link = HERE + "away"
    linked = capture_site([HERE], tmp_path / "link",
                          Web({HERE: ("Home", [link]), OTHER_PORT: ("Other", [])}, {link: OTHER_PORT}),
                          CaptureRules(depth=1), robots=NO_ROBOTS)
    assert linked.saved == [HERE] and "another host" in dict(linked.skipped)[link]


def test_www_a_subdomain_and_https_stay_the_site_of_a_root() -> None:
    assert same_site("http://site.example/", "https://www.site.example/en/")  # 80 and 443: each scheme's own
    assert same_site("https://site.example/", "https://shop.site.example/")
    assert same_site("https://site.example:8443/", "https://www.site.example:8443/")
    assert not same_site("https://site.example/", "https://site.example:8443/")


# -- duplicates ---------------------------------------------------------------------------------------------------

ROOT = "https://site.example/"
SPELLINGS = ["/about", "/about/", "/About", "/ABOUT", "/about/index.html"]


def _about_site() -> dict[str, tuple[str, list[str]]]:
    pages = {ROOT: ("Home", [ROOT[:-1] + s for s in SPELLINGS] + [ROOT + "contact", ROOT + "team"])}
    pages |= {ROOT[:-1] + s: ("About us", [ROOT]) for s in SPELLINGS}
    pages |= {ROOT + "contact": ("Contact", []), ROOT + "team": ("Team", [])}
    return pages


def test_a_page_with_the_content_of_a_saved_page_is_an_alias_of_it_and_costs_no_page(tmp_path: Path) -> None:
    summary = capture_site([ROOT], tmp_path, Web(_about_site()), CaptureRules(depth=1, max_pages=4),
                           robots=NO_ROBOTS)
    assert summary.saved == [ROOT, ROOT + "about", ROOT + "contact", ROOT + "team"]  # 4 pages within --max-pages 4
    assert sorted(summary.same_content) == sorted((ROOT[:-1] + s, ROOT + "about") for s in SPELLINGS[1:])
    assert "4 duplicate(s) kept as aliases" in summary.message()
    site = load_site(tmp_path)
    assert len(site.pages) == 4 and not summary.queued
    for spelling in SPELLINGS:  # a link to any of them reaches the page saved
        assert site.page(ROOT[:-1] + spelling, exact=True).url == ROOT + "about"


def test_duplicates_are_remembered_when_a_capture_resumes(tmp_path: Path) -> None:
    with pytest.raises(KeyboardInterrupt):  # Ctrl+C after three pages: the root, /about, /about/ (its alias)
        capture_site([ROOT], tmp_path, Web(_about_site(), interrupt_after=3), CaptureRules(depth=1),
                     robots=NO_ROBOTS)
    web = Web(_about_site())
    again = capture_site([ROOT], tmp_path, web, CaptureRules(depth=1), robots=NO_ROBOTS)
    assert ROOT + "about" not in web.requested and ROOT + "about/" not in web.requested  # settled before
    assert len(again.same_content) == 3 and set(again.saved) == {ROOT + "contact", ROOT + "team"}
    site = load_site(tmp_path)
    assert len(site.pages) == 4 and site.page(ROOT + "ABOUT", exact=True).url == ROOT + "about"


# -- Ctrl+C ---------------------------------------------------------------------------------------------------------


def test_ctrl_c_prints_the_summary_and_exits_130(tmp_path: Path, capsys, monkeypatch) -> None:
    capture_through(monkeypatch, Web(_about_site(), interrupt_after=2))
    assert main(["site", "capture", ROOT, "--site", str(tmp_path / "s")]) == 130
    out, err = capsys.readouterr()
    assert "2 page(s) saved" in out and "URL(s) still queued (run again to continue)" in out
    assert f"  saved    {ROOT}about" in out
    assert "running the same command again continues it" in err and err.rstrip().endswith("recordlens: interrupted")
