"""The naming rules of a snapshot site's files: a saved URL's file name, the file a URL already has, a free
name when another URL's page holds it."""

from __future__ import annotations

from recordlens.core.agent import build_site, existing_site_file, free_site_file, site_file_name
from recordlens.core.page import write_mhtml


def test_file_names_come_from_the_url():
    assert site_file_name("http://127.0.0.1:8000/page.html") == "127.0.0.1-8000-page.html.mhtml"
    assert site_file_name("https://Papers.Example.org/") == "papers.example.org-home.mhtml"
    with_query = site_file_name("https://papers.example.org/search?q=graph&cat=cs.LG")
    assert with_query.startswith("papers.example.org-search-q-graph-cat-cs.LG-") and with_query.endswith(".mhtml")
    assert with_query != site_file_name("https://papers.example.org/search?q=graph+cat=cs.LG")
    assert len(site_file_name("https://example.org/" + "a" * 500)) < 120


def test_a_url_the_site_holds_keeps_its_file_and_a_new_one_gets_a_free_name(tmp_path):
    site = tmp_path / "site"
    assert existing_site_file(site, "https://x.org/a") is None  # no folder yet
    site.mkdir()
    assert existing_site_file(site, "https://x.org/a") is None  # no page yet
    write_mhtml(site / "kept-by-hand.mhtml", "<p>a</p>", url="https://x.org/a")
    assert existing_site_file(site, "https://X.org/a#top") == site / "kept-by-hand.mhtml"  # no index: built
    # /a/ is another page than /a (a link finds /a for it, but a page saved from /a/ does not go over /a's file).
    assert existing_site_file(site, "https://x.org/a/") is None
    assert free_site_file(site, "https://x.org/a/") != site / "kept-by-hand.mhtml"
    write_mhtml(site / "b.mhtml", "<p>b</p>", url="https://x.org/b")
    build_site(site)
    (site / "kept-by-hand.mhtml").unlink()  # the index lists a file that is gone: what the folder holds counts
    assert existing_site_file(site, "https://x.org/b") == site / "b.mhtml"
    assert existing_site_file(site, "https://x.org/a") is None

    assert free_site_file(site, "https://x.org/c") == site / "x.org-c.mhtml"
    # Another URL's page under the name the new URL would get: the new one's name ends with a hash of its URL.
    write_mhtml(site / "x.org-c.mhtml", "<p>c</p>", url="https://x.org/other")
    other = free_site_file(site, "https://x.org/c")
    assert other.parent == site and other.name.startswith("x.org-c-") and other.suffix == ".mhtml"
    assert other != free_site_file(site, "https://x.org/d")


def test_a_free_name_is_the_urls_own_unless_another_urls_page_has_it():
    from recordlens.core.agent.site_files import free_site_file_name

    assert free_site_file_name("https://x.org/a b", lambda name: False) == "x.org-a-b.mhtml"
    apart = free_site_file_name("https://x.org/a b", lambda name: name == "x.org-a-b.mhtml")
    assert apart.startswith("x.org-a-b-") and apart.endswith(".mhtml") and apart != "x.org-a-b.mhtml"
