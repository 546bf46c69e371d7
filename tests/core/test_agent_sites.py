"""Snapshot sites: URL normalisation, indexing, the demo site (reproducible, every link answered inside the
snapshot) and its reference trajectories replayed on the Qt-free browser."""

from __future__ import annotations

import shutil
from pathlib import Path
from urllib.parse import urljoin

import pytest

from recordlens.core.agent.actions import Step
from recordlens.core.agent.demo.site import search_url
from recordlens.core.agent.demo.tasks import DEMO_TASKS, write_demo_resources
from recordlens.core.agent.model import Trajectory
from recordlens.core.agent.sites import (
    NOT_IN_SNAPSHOT_TITLE,
    SiteError,
    build_site,
    load_site,
    loose_url,
    normalise_url,
)
from recordlens.core.agent.targets import Target, TargetNotFoundError, find_target
from recordlens.core.agent.text_browser import HtmlSiteBrowser
from recordlens.core.page.dom import parse_html
from recordlens.core.page.mhtml_writer import write_mhtml
from recordlens.core.page.snapshot import read_snapshot
from recordlens.core.resource_files import resource_path

DEMO = resource_path("agent", "demo-site")


@pytest.mark.parametrize(("a", "b"), [
    ("HTTPS://Papers.Example.org:443/abs/1/#v2", "https://papers.example.org/abs/1/"),
    ("http://a.org:80", "http://a.org/"),
    ("https://a.org/search?q=graph+nets", "https://a.org/search?q=graph%20nets"),
    ("https://a.org/search?q=x&", "https://a.org/search?q=x"),
    ("https://a.org/%7euser", "https://a.org/~user"),
    ("https://a.org/a%2fb", "https://a.org/a%2Fb"),
    ("https://a.org/café", "https://a.org/caf%c3%a9"),
    ("https://a.org/p?", "https://a.org/p"),
])
def test_urls_that_name_the_same_page(a: str, b: str) -> None:
    assert normalise_url(a) == normalise_url(b)


@pytest.mark.parametrize(("a", "b"), [
    ("http://a.org/", "https://a.org/"),
    ("https://a.org/a%2Fb", "https://a.org/a/b"),
    ("https://a.org/s?q=a&p=2", "https://a.org/s?p=2&q=a"),  # query order is kept
    ("https://a.org:8443/", "https://a.org/"),
    ("https://a.org/dir/", "https://a.org/dir"),  # two pages to a crawl (a relative link means another on each)
])
def test_urls_that_name_different_pages(a: str, b: str) -> None:
    assert normalise_url(a) != normalise_url(b)


def test_a_link_finds_dir_or_dir_slash_when_only_one_was_saved_and_each_its_own_when_both_were(
        tmp_path: Path) -> None:
    assert loose_url("https://a.org/dir/?q=1#x") == loose_url("https://a.org/dir?q=1") == "https://a.org/dir?q=1"
    assert loose_url("https://a.org") == loose_url("https://a.org/") == "https://a.org/"
    write_mhtml(tmp_path / "one" / "d.mhtml", "<p>slash</p>", url="https://x.org/dir/")
    one = build_site(tmp_path / "one")
    assert one.resolve("https://x.org/dir") == one.resolve("https://x.org/dir/") == tmp_path / "one" / "d.mhtml"
    write_mhtml(tmp_path / "two" / "a.mhtml", "<p>no slash</p>", url="https://x.org/dir")
    write_mhtml(tmp_path / "two" / "b.mhtml", "<p>slash</p>", url="https://x.org/dir/")
    two = build_site(tmp_path / "two")
    assert [p.file for p in two.pages] == ["a.mhtml", "b.mhtml"]
    assert two.resolve("https://x.org/dir") == tmp_path / "two" / "a.mhtml"
    assert two.resolve("https://x.org/dir/") == tmp_path / "two" / "b.mhtml"


def test_build_indexes_saved_pages_and_says_what_it_left_out(tmp_path: Path) -> None:
    write_mhtml(tmp_path / "a.mhtml", "<p>a</p>", url="https://x.org/a", date="Mon, 01 Apr 2024 12:00:00 +0000")
    (tmp_path / "sub").mkdir()
    write_mhtml(tmp_path / "sub" / "b.mhtml", "<p>b</p>", url="https://x.org/b/")
    write_mhtml(tmp_path / "c.mhtml", "<p>c</p>", url="https://X.org/a#top")
    (tmp_path / "d.html").write_text("<p>no url</p>", encoding="utf-8")
    (tmp_path / "e.html").write_text("<!-- saved from url=(0015)https://x.org/e -->\n<p>e</p>", encoding="utf-8")
    (tmp_path / "f.mhtml").write_bytes(b"MIME-Version: 1.0\r\nContent-Type: multipart/related\r\n\r\n")
    site = build_site(tmp_path)
    assert [p.file for p in site.pages] == ["a.mhtml", "sub/b.mhtml", "e.html"]
    assert site.resolve("https://x.org/b") == tmp_path / "sub" / "b.mhtml"
    assert site.resolve("https://x.org/nowhere") is None
    assert site.resolve("not a url at all:99999999") is None
    warnings = "\n".join(site.warnings)
    assert "c.mhtml left out: a.mhtml was saved from the same URL" in warnings
    assert "d.html left out: it does not say which URL" in warnings
    assert "f.mhtml left out" in warnings
    assert load_site(tmp_path).pages == site.pages  # from site.json
    with pytest.raises(SiteError, match="no folder"):
        build_site(tmp_path / "missing")
    (tmp_path / "a.mhtml").unlink()
    with pytest.raises(SiteError, match="rebuild it"):
        load_site(tmp_path)


def test_a_site_copied_to_another_folder_keeps_its_name_when_indexed_again(tmp_path: Path) -> None:
    write_mhtml(tmp_path / "shop" / "a.mhtml", "<p>a</p>", url="https://x.org/a")
    assert build_site(tmp_path / "shop").name == "shop"
    shutil.copytree(tmp_path / "shop", tmp_path / "shop-copy")
    write_mhtml(tmp_path / "shop-copy" / "b.mhtml", "<p>b</p>", url="https://x.org/b")
    again = build_site(tmp_path / "shop-copy")
    assert again.name == "shop" and len(again.pages) == 2  # its tasks and runs name it so
    assert load_site(tmp_path / "shop-copy").name == "shop"
    assert build_site(tmp_path / "shop-copy", write=False).name == "shop"


def test_the_shipped_demo_resources_are_what_the_generator_writes(tmp_path: Path) -> None:
    write_demo_resources(tmp_path)
    shipped = resource_path("agent")
    made = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file())
    assert made == sorted(p.relative_to(shipped) for p in shipped.rglob("*") if p.is_file())
    for relative in made:
        assert (tmp_path / relative).read_bytes() == (shipped / relative).read_bytes(), relative


def test_every_link_of_the_demo_site_stays_inside_or_is_a_deliberate_gap() -> None:
    site = load_site(DEMO)
    assert len(site.pages) == 36
    outside = set()
    for page in site.pages:
        dom = parse_html(read_snapshot(DEMO / page.file).html)
        for element in dom.elements:
            if element.tag == "a":
                target = urljoin(page.url, element.attrs["href"])
                if site.resolve(target) is None:
                    outside.add(target)
    assert all("/pdf/" in url or "status.example.net" in url for url in outside)
    assert len(outside) == 13


def test_the_search_form_makes_the_saved_urls_and_unsaved_queries_are_not_in_the_snapshot() -> None:
    browser = HtmlSiteBrowser(load_site(DEMO))
    browser.open("https://papers.example.org/")
    box = next(e for e in browser.observe().elements if e.role == "searchbox")
    browser.perform(Step("type", box, "graph"))
    assert browser.url == search_url("graph") == "https://papers.example.org/search?q=graph"
    assert browser.observe().title == "Search: graph — Paperfield"
    browser.perform(Step("type", next(e for e in browser.observe().elements if e.role == "searchbox"),
                         "quantum gravity"))
    assert browser.url == "https://papers.example.org/search?q=quantum+gravity"
    assert browser.observe().title == NOT_IN_SNAPSHOT_TITLE and browser.observe().elements == ()
    browser.go_back()
    assert browser.url == search_url("graph")
    with pytest.raises(TargetNotFoundError, match=r"\[99\]"):
        browser.perform(Step("click", Target(label=99)))


@pytest.mark.parametrize("task", DEMO_TASKS, ids=lambda t: t.id)
def test_each_reference_trajectory_replays_on_the_site(task) -> None:  # noqa: ANN001
    reference = Trajectory.from_json((resource_path("agent", "reference", f"{task.id}.json")).read_text("utf-8"))
    browser = HtmlSiteBrowser(load_site(DEMO))
    browser.open(task.start_url)
    for step in reference.steps:
        assert browser.url == step.url
        if step.target is not None:
            found = find_target(step.target, browser.observe().elements)
            assert found is not None, step
            step = Step(step.action, found, step.value)
        browser.perform(step)
    assert reference.steps[-1].action == "answer" and reference.answer


# --- run integrity: site.json is not trusted as written ---------------------------------------------------------


@pytest.mark.parametrize("file", ["/etc/passwd", "../elsewhere/page.html", "sub/../../outside.html", "link.html"])
def test_site_index_entries_outside_the_folder_are_refused(tmp_path: Path, file: str) -> None:
    import json
    import os

    site = tmp_path / "site"
    site.mkdir()
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "page.html").write_text("<title>outside</title><p>secret</p>")
    (tmp_path / "outside.html").write_text("<p>outside</p>")
    os.symlink(tmp_path / "elsewhere" / "page.html", site / "link.html")
    write_mhtml(site / "inside.mhtml", "<title>in</title><p>in</p>", url="https://a.test/")
    pages = [{"url": "https://a.test/", "file": "inside.mhtml", "title": "in"},
             {"url": "https://a.test/x", "file": file, "title": "x"}]
    (site / "site.json").write_text(json.dumps({"name": "s", "pages": pages}))
    with pytest.raises(SiteError, match="outside the site folder"):
        load_site(site)


def test_site_build_leaves_out_links_out_of_the_folder_and_warns_on_file_urls(tmp_path: Path) -> None:
    import os

    site = tmp_path / "site"
    site.mkdir()
    write_mhtml(tmp_path / "secret.mhtml", "<p>secret</p>", url="https://a.test/secret")
    os.symlink(tmp_path / "secret.mhtml", site / "secret.mhtml")
    write_mhtml(site / "home.mhtml", "<p>home</p>", url="https://a.test/")
    write_mhtml(site / "local.mhtml", "<p>local</p>", url="file:///home/me/local.html")
    built = build_site(site)
    assert sorted(p.file for p in built.pages) == ["home.mhtml", "local.mhtml"]
    assert any("secret.mhtml left out" in w and "outside the site folder" in w for w in built.warnings)
    assert any("local.mhtml" in w and "file:///home/me/local.html" in w for w in built.warnings)
    assert built.resolve("https://a.test/secret") is None


def test_side_files_the_index_names_outside_the_folder_are_refused(tmp_path: Path) -> None:
    """A captured page's tree, screenshot or metadata named outside the site would reach the agent's prompt."""
    import json

    site = tmp_path / "site"
    site.mkdir()
    (tmp_path / "tree.json").write_text("{}")
    write_mhtml(site / "inside.mhtml", "<title>in</title><p>in</p>", url="https://a.test/")
    pages = [{"url": "https://a.test/", "file": "inside.mhtml", "title": "in", "axtree": "../tree.json"}]
    (site / "site.json").write_text(json.dumps({"name": "s", "pages": pages}))
    with pytest.raises(SiteError, match="outside the site folder"):
        load_site(site)
