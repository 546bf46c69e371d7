"""`site capture` on pages whose links or GET form actions are no URL ("http://[x/": brackets that hold no IPv6
host): they are not followed, as a browser follows none, and the capture goes on, both live and when a capture is
resumed with a larger --depth and follows the links of the pages saved at the old depth from their files. A
form whose action is no URL submits nowhere (the HTML standard's form submission ends there)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from recordlens.core.agent.capture import CaptureRules, RedirectCheck, RenderedPage, _saved_links, capture_site
from recordlens.core.agent.forms import FormControls
from recordlens.core.page.dataset import parse_snapshot
from recordlens.core.page.mhtml_writer import mhtml_bytes
from recordlens.core.page.snapshot import read_snapshot
from tests.core.canned_web import NO_ROBOTS, SAVED_ON, Web

ROOT = "https://site.example/"
NO_URL = "http://[x/"
ODD_ROOT = (f'<html><head><title>Root</title></head><body><a href="{NO_URL}">odd</a><a href="/next">next</a>'
            f'<form action="{NO_URL}"><input name="q" value="a"></form>'
            '<form action="/find"><input name="q" value="b"></form></body></html>')


class OddRoot(Web):
    """The canned web, with a root whose HTML links to NO_URL twice (an a and a form's action); its links as
    Chromium gives them (`a.href` of an href that is no URL is the href as written; such a form is skipped)."""

    def render(self, requested: str, refuse_redirect: RedirectCheck | None = None) -> RenderedPage:
        page = super().render(requested, refuse_redirect)
        if requested != ROOT:
            return page
        return replace(page, mhtml=mhtml_bytes(ODD_ROOT, url=ROOT, title="Root", date=SAVED_ON),
                       links=[NO_URL, ROOT + "next", ROOT + "find?q=b"])


def web() -> OddRoot:
    return OddRoot({ROOT: ("Root", []), ROOT + "next": ("Next", []), ROOT + "find?q=b": ("Found", [])})


def test_a_saved_page_gives_its_links_and_forms_that_are_urls_and_skips_the_others(tmp_path: Path) -> None:
    page_file = tmp_path / "root.html"
    page_file.write_text(ODD_ROOT, encoding="utf-8")
    assert _saved_links(page_file, ROOT) == [ROOT + "next", ROOT + "find?q=b"]


def test_a_form_whose_action_is_no_url_submits_nowhere(tmp_path: Path) -> None:
    page_file = tmp_path / "root.html"
    page_file.write_text(ODD_ROOT, encoding="utf-8")
    page = parse_snapshot(read_snapshot(page_file))
    odd = next(e for e in page.body.iter() if e.tag == "form")
    assert FormControls(page).submission(odd, None, document_url=ROOT, base_url=ROOT) is None


def test_a_live_page_linking_to_no_url_is_saved_and_its_other_links_followed(tmp_path: Path) -> None:
    summary = capture_site([ROOT], tmp_path, web(), CaptureRules(depth=1), robots=NO_ROBOTS)
    assert sorted(summary.saved) == [ROOT, ROOT + "find?q=b", ROOT + "next"]


def test_a_capture_resumed_with_a_larger_depth_follows_the_saved_pages_links_that_are_urls(tmp_path: Path) -> None:
    first = capture_site([ROOT], tmp_path, web(), CaptureRules(depth=0), robots=NO_ROBOTS)
    assert first.saved == [ROOT]
    deeper = capture_site([ROOT], tmp_path, web(), CaptureRules(depth=1), robots=NO_ROBOTS)
    assert sorted(deeper.saved) == [ROOT + "find?q=b", ROOT + "next"], deeper
    assert any("--depth grew from 0 to 1" in note for note in deeper.notes), deeper.notes
