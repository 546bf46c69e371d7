"""Serving an archived page: a stylesheet's relative url() references reach the archived resources."""

from __future__ import annotations

from recordlens.annotator.agent.site_page import absolute_css_urls, prepare_snapshot
from recordlens.core.page.mhtml_writer import mhtml_bytes
from recordlens.core.page.snapshot import Resource, read_snapshot


def test_relative_urls_in_stylesheets_are_resolved_against_the_stylesheet() -> None:
    css = 'a{background:url("pic.png")} b{background:url(../img/x.gif)} c{background:url(data:image/png;base64,AA==)}'
    assert absolute_css_urls(css, "https://site.example/css/main.css") == (
        'a{background:url("https://site.example/css/pic.png")} b{background:url(https://site.example/img/x.gif)} '
        "c{background:url(data:image/png;base64,AA==)}")


def test_an_archived_stylesheets_relative_image_is_served_from_the_archive() -> None:
    sheet = Resource("https://site.example/css/main.css", None, "text/css", b'body{background:url("pic.png")}')
    image = Resource("https://site.example/css/pic.png", None, "image/png", b"\x89PNG fake")
    html = '<html><head><link rel="stylesheet" href="https://site.example/css/main.css"></head><body>x</body></html>'
    snapshot = read_snapshot(mhtml_bytes(html, url="https://site.example/", resources=[sheet, image]))
    prepared = prepare_snapshot(snapshot, "https://site.example/", "recordlens-page://s/")
    served_css = next(data for data, kind in prepared.resources.values() if kind.startswith("text/css")).decode()
    served_image = next(name for name, (_, kind) in prepared.resources.items() if kind == "image/png")
    assert served_image in served_css
