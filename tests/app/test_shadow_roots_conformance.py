"""Declarative shadow roots, read by the core as QtWebEngine shows them: pages like tests/core/test_shadow_roots.py's,
shown as the app shows them (a page through its page scheme, an archive from its file), and Chromium's own MHTML save
of a page with shadow roots read again."""

from __future__ import annotations

import quopri
from pathlib import Path

import pytest

from recordlens.annotator.qt.page_scripts import browser_dom
from recordlens.core.page import read_snapshot
from recordlens.core.page.dom import parse_html

pytestmark = pytest.mark.app

S = "<template shadowrootmode=open>S</template>"
X = "<template>x</template>"
F = "<template shadowmode=open>f</template>"

PAGES = [
    # the explorer's page (odd/pages2/20_shadow_siblings)
    "<html><body><div id=h><template shadowrootmode=open><b>sr</b></template><template id=plain><i>x</i></template>"
    "<p>p</p></div>\n<ul><li><template shadowrootmode=closed><slot></slot> (shadow)</template>rec A</li><li>rec B</li>"
    "</ul>\n<span><template shadowrootmode=open>S</template><template shadowrootmode=open>second</template>span"
    "</span>\n"
    "<my-el><template shadowrootmode=\"open\" shadowrootdelegatesfocus><p>in shadow</p></template>light</my-el>\n"
    "<a href=#><template shadowrootmode=open>A-SR</template>link</a></body></html>",
    # modes and attribute names
    *(f"<html><body><div><template {a}>S</template>{X}<i>i</i></div></body></html>"
      for a in ("shadowrootmode=open", "shadowrootmode=closed", "shadowrootmode=OPEN", "ShadowRootMode=Closed",
                "shadowrootmode=bogus", "shadowrootmode", "shadowrootmode=' open'", "shadowroot=open",
                "shadowmode=open", "shadowmode=bogus", "shadowrootmode=bogus shadowrootmode=open",
                "shadowrootmode=open shadowrootmode=bogus", "shadowmode=bogus shadowrootmode=open",
                "shadowrootmode=bogus shadowmode=open")),
    # hosts, valid and not
    "<html><body>" + "".join(f"<{h}>{S}{X}t</{h}>" for h in (
        "article", "aside", "blockquote", "footer", "h1", "h2", "h3", "h4", "h5", "h6", "header", "main", "nav",
        "section", "span", "my-el", "x-", "x-a.b", "x-ä", "x-\u200c", "x-\ufffd"))
    + "<p>" + S + X + "t</p></body></html>",
    "<html><body>" + "".join(f"<{h}>{S}{X}t</{h}>" for h in (
        "li", "a", "ul", "b", "button", "label", "form", "address", "xfoo", "font-face", "annotation-xml",
        "missing-glyph", "x-a$b", "x-a:b", "x-\xd7", "x-\u2000", "x-\U000f0000")) + "</body></html>",
    f"<html><body><table>{S}{X}<tr><td>{S}{X}c</td></tr></table><select>{S}{X}</select></body></html>",
    f"<html><head>{S}{X}<title>t</title></head><body>{S}{X}<p>t</p></body></html>",
    f"<html><body><p>t</p></body></html>{S}{X}",
    # first and second on a host; template content
    f"<html><body><div>{S}<template shadowrootmode=open>second</template>t</div>"
    f"<div><template shadowrootmode=bogus>a</template>{S}{X}</div></body></html>",
    f"<html><body><template><div>{S}</div></template><div><template shadowrootmode=open><div>{S}</div></template>{X}"
    "</div></body></html>",
    # texts around
    f"<html><body><div>a{S}b</div><p>a{S}\"</p><span>a <script>1</script>{S} b</span><h1>a<!--c-->{S}b</h1>"
    f"<h2>a{S}<!--c-->b</h2><h3>a {S} b<!--c-->d</h3></body></html>",
    # SVG and MathML
    "<html><body><svg><template shadowrootmode=open><text>y</text></template><template><g>z</g></template>"
    f"<section>{S}{X}</section><my-el>{S}{X}</my-el><foreignObject>{S}{X}<div>{S}{X}</div></foreignObject>"
    f"<desc><section>{S}{X}</section></desc></svg></body></html>",
    f"<html><body><math><mi><section>{S}{X}</section></mi><desc><section>{S}{X}</section></desc>"
    f"<annotation-xml encoding='text/html'><section>{S}{X}</section></annotation-xml>"
    f"<annotation-xml><section>{S}{X}</section></annotation-xml></math></body></html>",
    # what Chromium's MHTML loader removes
    "<html><head><template shadowmode=open>h</template><template>x</template></head><body>"
    "<div>a<template shadowmode=open>s</template>b<template shadowmode=closed>c</template><template>x</template></div>"
    "<li><template shadowmode=OPEN>s</template><template shadowmode>t</template>l</li>"
    "<table><template shadowmode=open>s</template><tr><td>c</td></tr></table>"
    "<math><mi><template shadowmode=open>m</template>i</mi></math>"
    "<svg><g><template shadowmode=open><text>y</text></template><template><text>z</text></template></g></svg>"
    "<div hidden><template shadowmode=open>s</template>" + S + "<template shadowmode=open>s</template>h</div>"
    "</body></html>",
    # the loader's walk ends at its first attach that fails; other values never attach
    *(f"<html><body>{body}<span>{F}t</span></body></html>" for body in (
        f"<li>{F}{F}</li>",
        f"<div><li>{F}</li>{F}<b>x</b></div>",
        f"<li>{F}<span>{F}</span>{F}<b>{F}</b></li>",
        f"<div>{F}{F}</div>",
        "<div><template shadowrootmode=open>p</template><template shadowmode=closed>c</template></div>",
        f"<table>{F}<tr><td>c</td></tr></table>",
        "<li><template shadowmode>t</template><template shadowmode=OPEN>o</template></li>",
        "<div><template shadowmode=closed>c</template><template shadowmode=bogus>b</template></div>",
        "<div><template shadowrootmode=closed>p</template><template shadowmode=OPEN>o</template></div>",
        f"<div>{F}<template shadowrootmode=open>p</template></div>",
        f"<div><template shadowrootmode=open>p</template>{F}</div>",
        "<div><template shadowmode=closed>c</template><template shadowrootmode=open>p</template></div>",
        f"<section><div><li>{F}</li></div><p>{F}</p></section>")),
    f"<html><head>{F}</head><body><li>{F}</li><span>{F}</span></body></html>",
]


def archive(html: str) -> bytes:
    return (b'Content-Type: multipart/related; type="text/html"; boundary="B"\r\n\r\n--B\r\n'
            b"Content-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n"
            b"Content-Location: http://example.invalid/p.html\r\n\r\n"
            + quopri.encodestring(html.encode()).replace(b"\n", b"\r\n") + b"\r\n--B--\r\n")


def shown(offline_page) -> tuple[list[str], list[tuple[str, str]]]:
    assert offline_page.wait_until_loaded(60_000)
    browser = browser_dom(offline_page)
    return browser.xpaths, list(browser.text_map.items())


def core(html: str, **options) -> tuple[list[str], list[tuple[str, str]]]:
    page = parse_html(html, **options)
    return page.element_xpaths(), list(page.text_map.items())


@pytest.mark.parametrize("number", range(len(PAGES)))
def test_a_page_reads_as_shown(offline_page, number):
    offline_page.load_html(PAGES[number], f"shadow{number}.html")
    assert core(PAGES[number]) == shown(offline_page)


@pytest.mark.parametrize("number", range(len(PAGES)))
def test_an_archive_reads_as_shown(offline_page, tmp_path, number):
    path = tmp_path / f"shadow{number}.mhtml"
    path.write_bytes(archive(PAGES[number]))
    offline_page.load_mhtml(path)
    assert core(read_snapshot(path).html, mhtml=True) == shown(offline_page)


def save_mhtml(qtbot, offline_page, target: Path) -> None:
    """Chromium's own MHTML save of the page on show (as the app's site browser saves a page)."""
    from PySide6.QtWebEngineCore import QWebEngineDownloadRequest

    # Never disconnected (PySide's disconnect is unsafe here, see signals.py): a list a later save does not read.
    downloads: list = []
    offline_page.profile.downloadRequested.connect(downloads.append)
    offline_page.page.save(str(target), QWebEngineDownloadRequest.SavePageFormat.MimeHtmlSaveFormat)
    qtbot.waitUntil(lambda: bool(downloads) and downloads[-1].isFinished(), timeout=60_000)
    assert target.is_file(), "Chromium saved no archive"


def test_chromium_saves_shadow_roots_as_templates_its_archive_drops(qtbot, offline_page, tmp_path):
    page = (f"<!DOCTYPE html><html><head><title>t</title></head><body><template id=t><b>in template</b></template>"
            f"<div class=host><template shadowrootmode=open><p>shadow</p><slot></slot></template><span>light</span>{X}"
            f"</div><my-card><template shadowrootmode=closed><i>c</i></template>a<b>b</b>{X}</my-card></body></html>")
    offline_page.load_html(page, "saved.html")
    seen = shown(offline_page)
    assert seen == core(page)
    path = tmp_path / "saved.mhtml"
    save_mhtml(qtbot, offline_page, path)
    saved = read_snapshot(path).html
    assert "shadowmode=" in saved  # how Chromium writes a shadow root it saves
    offline_page.load_mhtml(path)
    assert core(saved, mhtml=True) == shown(offline_page) == seen
