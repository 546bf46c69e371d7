"""Declarative shadow roots: a <template> the browser turns into a shadow root is not in its element tree.

Every expectation here was seen in QtWebEngine (Chromium 140) with dom_rules.js;
tests/app/test_shadow_roots_conformance.py checks such pages against the browser itself. Two mechanisms:

- the HTML parser (pages and archives alike): a `shadowrootmode` of open or closed (any case) on a template whose parent
  is an HTML element that may host a shadow root, and has none yet. The template is never inserted, so the texts
  around it become one text node.
- Chromium's MHTML loader (archives only): a template with a `shadowmode` attribute (as Chromium saves a shadow root),
  whatever its value, parent or namespace, is removed after the parse, except in <head>, until an attach fails;
  its neighbours stay apart.
"""

from __future__ import annotations

import pytest

from recordlens.core.page.dom import parse_html

SHADOW = "<template shadowrootmode=open>S</template>"
PLAIN = "<template>x</template>"


def xpaths(html: str, **options) -> list[str]:
    return parse_html(html, **options).element_xpaths()


def templates(html: str, **options) -> list[str]:
    return [x for x in xpaths(html, **options) if x.rsplit("/", 1)[-1].startswith("template[")]


def text_map(html: str, **options) -> dict[str, str]:
    return parse_html(html, **options).text_map


def test_an_attached_template_leaves_the_tree_and_a_later_template_is_the_first():
    html = f"<html><body><div>{SHADOW}{PLAIN}<i>i</i></div></body></html>"
    assert xpaths(html) == ["/", "/head[1]", "/body[1]", "/body[1]/div[1]", "/body[1]/div[1]/template[1]",
                            "/body[1]/div[1]/i[1]"]


@pytest.mark.parametrize("attribute", ["shadowrootmode=open", "shadowrootmode=closed", "shadowrootmode=OPEN",
                                       "shadowrootmode=Closed", "ShadowRootMode=Open",
                                       "shadowrootmode=open shadowrootmode=bogus",
                                       "shadowrootmode=closed shadowrootdelegatesfocus shadowrootclonable"])
def test_the_modes_the_parser_honours(attribute):
    html = f"<html><body><div><template {attribute}>S</template>{PLAIN}</div></body></html>"
    assert templates(html) == ["/body[1]/div[1]/template[1]"]
    assert templates(html, mhtml=True) == ["/body[1]/div[1]/template[1]"]


@pytest.mark.parametrize("attribute", ["shadowrootmode=bogus", "shadowrootmode", "shadowrootmode=' open'",
                                       "shadowrootmode=bogus shadowrootmode=open", "shadowroot=open",
                                       "shadowmode=open", "shadowmode=closed"])
def test_other_values_and_names_leave_a_template_in_a_page(attribute):
    html = f"<html><body><div><template {attribute}>S</template>{PLAIN}</div></body></html>"
    assert templates(html) == ["/body[1]/div[1]/template[1]", "/body[1]/div[1]/template[2]"]


@pytest.mark.parametrize("host", ["article", "aside", "blockquote", "div", "footer", "h1", "h2", "h3", "h4", "h5",
                                  "h6", "header", "main", "nav", "p", "section", "span", "my-el", "a-", "x-",
                                  "x-a.b", "x-a_b", "x-A9", "x-ä", "x-\U0001f600", "x-\u200c", "x-\ufffd"])
def test_a_valid_host_takes_the_shadow_root(host):
    html = f"<html><body><{host}>{SHADOW}{PLAIN}t</{host}></body></html>"
    assert len(templates(html)) == 1


@pytest.mark.parametrize("host", ["li", "a", "ul", "b", "em", "button", "label", "form", "address", "figure",
                                  "dialog", "details", "pre", "xfoo", "font-face", "annotation-xml",
                                  "color-profile", "missing-glyph", "x-a$b", "x-a:b", "x-\xd7", "x-\u037e",
                                  "x-\u2000", "x-\U000f0000"])
def test_an_invalid_host_keeps_its_template(host):
    html = f"<html><body><{host}>{SHADOW}{PLAIN}t</{host}></body></html>"
    assert len(templates(html)) == 2


@pytest.mark.parametrize("html", [
    f"<html><body><table>{SHADOW}{PLAIN}</table></body></html>",
    f"<html><body><table><tr><td>{SHADOW}{PLAIN}</td></tr></table></body></html>",
    f"<html><body><select>{SHADOW}{PLAIN}</select></body></html>",
    f"<html><head>{SHADOW}{PLAIN}</head><body><p>t</p></body></html>",
    f"<html>{SHADOW}<body><p>t</p></body></html>",
])
def test_templates_in_tables_selects_and_head_stay(html):
    assert len(templates(html)) == html.count("<template")


def test_the_body_hosts_a_shadow_root_even_after_its_end_tag():
    assert templates(f"<html><body>{SHADOW}{PLAIN}<p>t</p></body></html>") == ["/body[1]/template[1]"]
    assert templates(f"<html><body><p>t</p></body></html>{SHADOW}") == []


def test_only_the_first_attached_template_of_a_host_goes():
    second = "<template shadowrootmode=open>second</template>"
    assert templates(f"<html><body><div>{SHADOW}{second}t</div></body></html>") == ["/body[1]/div[1]/template[1]"]
    first_invalid = "<template shadowrootmode=bogus>S</template>"
    assert templates(f"<html><body><div>{first_invalid}{second}t</div></body></html>") == [
        "/body[1]/div[1]/template[1]"]
    # Other hosts are counted apart.
    assert templates(f"<html><body><div>{SHADOW}</div><div>{SHADOW}{PLAIN}</div></body></html>") == [
        "/body[1]/div[2]/template[1]"]


def test_a_template_in_template_content_changes_nothing():
    html = (f"<html><body><template><div>{SHADOW}</div></template><div>{SHADOW}<div>{SHADOW}</div>{PLAIN}</div>"
            "</body></html>")
    assert templates(html) == ["/body[1]/template[1]", "/body[1]/div[1]/template[1]"]


def test_the_texts_around_an_attached_template_join():
    assert text_map("<html><body><div>a<template shadowrootmode=open>x</template>b</div></body></html>") == {
        "/body[1]/div[1]": "ab"}
    # A quote alone is dropped from the text map; joined to its neighbour it is not.
    assert text_map("<html><body><div>a<template shadowrootmode=open>x</template>\"</div></body></html>") == {
        "/body[1]/div[1]": 'a"'}
    assert text_map("<html><body><div>a <template shadowrootmode=open>x</template> b<!--c-->d</div></body></html>") == {
        "/body[1]/div[1]": "d"}


@pytest.mark.parametrize("between", ["<script>1</script>", "<!--c-->"])
def test_a_node_between_keeps_the_texts_apart(between):
    for html in (f"<html><body><div>a{between}{SHADOW}b</div></body></html>",
                 f"<html><body><div>a{SHADOW}{between}b</div></body></html>"):
        assert text_map(html) == {"/body[1]/div[1]": "b"}


def test_svg_and_mathml_templates_are_plain_elements_with_children():
    html = ("<html><body><svg><template shadowrootmode=open><text>y</text></template><template><g>z</g></template>"
            "</svg></body></html>")
    page = parse_html(html)
    assert page.element_xpaths()[3:] == ["/body[1]/svg[1]", "/body[1]/svg[1]/template[1]",
                                         "/body[1]/svg[1]/template[1]/text[1]", "/body[1]/svg[1]/template[2]",
                                         "/body[1]/svg[1]/template[2]/g[1]"]
    assert page.text_map == {"/body[1]/svg[1]/template[1]/text[1]": "y", "/body[1]/svg[1]/template[2]/g[1]": "z"}
    # An element named like a valid host is no host in SVG or MathML.
    for foreign in ("<svg><section>", "<svg><my-el>", "<math><desc><section>", "<math><annotation-xml><section>"):
        assert len(templates(f"<html><body>{foreign}{SHADOW}{PLAIN}</body></html>")) == 2


@pytest.mark.parametrize("outside", ["<svg><foreignObject><div>", "<svg><desc><section>", "<math><mi><section>",
                                     "<math><annotation-xml encoding='text/html'><section>"])
def test_html_inside_svg_and_mathml_hosts_shadow_roots(outside):
    assert len(templates(f"<html><body>{outside}{SHADOW}{PLAIN}</body></html>")) == 1


def test_an_integration_point_is_no_host():
    assert len(templates(f"<html><body><svg><foreignObject>{SHADOW}{PLAIN}</foreignObject></svg></body></html>")) == 2


# -- MHTML: Chromium saves a shadow root as <template shadowmode=...> and its MHTML loader removes it ---------------


@pytest.mark.parametrize("value", ["open", "closed", "OPEN", "bogus", "''", None])
def test_an_archive_loses_every_saved_shadow_root_template(value):
    attribute = "shadowmode" if value is None else f"shadowmode={value}"
    html = f"<html><body><div><template {attribute}>s</template>{PLAIN}</div></body></html>"
    assert templates(html, mhtml=True) == ["/body[1]/div[1]/template[1]"]
    assert len(templates(html)) == 2


@pytest.mark.parametrize("html", [
    "<html><body><li><template shadowmode=open>s</template><template>x</template></li></body></html>",
    "<html><body><table><template shadowmode=open>s</template><tr><td>c</td></tr></table></body></html>",
    "<html><body><select><option>a</option><template shadowmode=open>s</template></select></body></html>",
    "<html><body><math><mi><template shadowmode=open>m</template></mi></math></body></html>",
    "<html><body><div><template shadowmode=open>a</template><template shadowrootmode=open>b</template></div></body>",
    "<html><body><div><template shadowrootmode=open>a</template><template shadowmode=open>b</template></div></body>",
    "<html><body><template shadowmode=open>b</template><p>t</p></body></html>",
    "<html><body><div hidden><template shadowmode=open>b</template></div></body></html>",
])
def test_an_archive_removes_them_under_any_parent(html):
    assert len(templates(html, mhtml=True)) == html.count("<template>")


def test_an_archive_removes_an_svg_template_with_its_children():
    html = ("<html><body><svg><g><template shadowmode=open><text>y</text></template><template><text>z</text>"
            "</template></g></svg></body></html>")
    page = parse_html(html, mhtml=True)
    assert page.element_xpaths()[3:] == ["/body[1]/svg[1]", "/body[1]/svg[1]/g[1]", "/body[1]/svg[1]/g[1]/template[1]",
                                         "/body[1]/svg[1]/g[1]/template[1]/text[1]"]
    assert page.text_map == {"/body[1]/svg[1]/g[1]/template[1]/text[1]": "z"}


def test_an_archive_keeps_them_in_head():
    html = "<html><head><template shadowmode=open>h</template><template>x</template></head><body><p>t</p></body></html>"
    assert templates(html, mhtml=True) == ["/head[1]/template[1]", "/head[1]/template[2]"]


def test_the_texts_around_a_removed_saved_template_stay_apart():
    html = "<html><body><div>a<template shadowmode=open>s</template>b</div></body></html>"
    assert text_map(html, mhtml=True) == {"/body[1]/div[1]": "b"}
    html = "<html><body><div>a<template shadowrootmode=open>s</template>b</div></body></html>"
    assert text_map(html, mhtml=True) == {"/body[1]/div[1]": "ab"}


def test_a_page_without_shadow_roots_is_read_as_before():
    html = "<html><body><template id=t><b>t</b></template><div><template>x</template><p>p</p></div></body></html>"
    assert xpaths(html) == xpaths(html, mhtml=True) == [
        "/", "/head[1]", "/body[1]", "/body[1]/template[1]", "/body[1]/div[1]", "/body[1]/div[1]/template[1]",
        "/body[1]/div[1]/p[1]"]


SAVED = "<template shadowmode=open>f</template>"


@pytest.mark.parametrize(("html", "kept"), [
    (f"<html><body><li>{SAVED}{SAVED}</li><span>{SAVED}</span></body></html>",
     ["/body[1]/li[1]/template[1]", "/body[1]/span[1]/template[1]"]),
    (f"<html><body><div><li>{SAVED}</li>{SAVED}<b>x</b></div><span>{SAVED}t</span></body></html>",
     ["/body[1]/div[1]/template[1]", "/body[1]/span[1]/template[1]"]),
    (f"<html><body><li>{SAVED}<span>{SAVED}</span>{SAVED}</li></body></html>",
     ["/body[1]/li[1]/span[1]/template[1]", "/body[1]/li[1]/template[1]"]),
    (f"<html><body><div>{SAVED}{SAVED}</div><span>{SAVED}</span></body></html>", ["/body[1]/span[1]/template[1]"]),
    (f"<html><body><div><template shadowrootmode=open>p</template><template shadowmode=closed>c</template></div>"
     f"<span>{SAVED}</span></body></html>", ["/body[1]/span[1]/template[1]"]),
    (f"<html><body><table>{SAVED}<tr><td>c</td></tr></table><li>{SAVED}l</li></body></html>",
     ["/body[1]/li[1]/template[1]"]),
])
def test_an_archive_keeps_them_after_the_first_attach_that_fails(html, kept):
    assert templates(html, mhtml=True) == kept


@pytest.mark.parametrize("html", [
    f"<html><body><li><template shadowmode>t</template><template shadowmode=OPEN>o</template></li><span>{SAVED}</span>",
    f"<html><body><div><template shadowmode=closed>c</template><template shadowmode=bogus>b</template></div>"
    f"<span>{SAVED}</span>",
    f"<html><body><div><template shadowrootmode=closed>p</template><template shadowmode=OPEN>o</template></div>"
    f"<span>{SAVED}</span>",
    f"<html><body><div><template shadowrootmode=open>p</template>{SAVED}</div><span>{SAVED}</span>",
    f"<html><head>{SAVED}</head><body><div>{SAVED}</div><span>{SAVED}</span>",
])
def test_other_values_a_same_mode_and_head_end_nothing(html):
    assert templates(html, mhtml=True) == (["/head[1]/template[1]"] if "<head>" in html else [])


def test_every_reader_of_a_saved_archive_takes_its_saved_shadow_roots_out_and_of_a_page_keeps_them(
        tmp_path) -> None:
    from recordlens.core.page import load_page, mhtml_bytes, parse_snapshot, read_snapshot

    html = ('<html><body><div><template shadowmode="open"><p>inside</p></template><p>light</p></div>'
            "</body></html>")
    (tmp_path / "1.mhtml").write_bytes(mhtml_bytes(html, url="https://shop.test/"))
    (tmp_path / "2.html").write_text(html, encoding="utf-8")
    archive = load_page(tmp_path / "1.mhtml").page
    assert archive.resolve("/body[1]/div[1]/template[1]") is None  # as Chromium's archive loader leaves it
    assert archive.resolve("/body[1]/div[1]/p[1]").text() == "light"
    assert parse_snapshot(read_snapshot(tmp_path / "1.mhtml")).element_xpaths() == archive.element_xpaths()
    page = load_page(tmp_path / "2.html").page  # in a page, shadowmode is no declarative shadow root
    assert page.resolve("/body[1]/div[1]/template[1]") is not None
