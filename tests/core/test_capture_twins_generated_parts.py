"""Two captures of one page are the same page whatever names Chromium's MHTML writer made up for the parts it writes
of the page itself (an inline `<style>` as `<link href="cid:css-…@mhtml.blink">`, a frame's document as
`<iframe src="cid:frame-…@mhtml.blink">`): `page_document` reads each such reference as the content of the part it
names, so a style sheet that says something else is another page still. The archives below are laid out as
Chromium writes them (the part's name in its Content-Location for a style sheet, in its Content-ID for a frame)."""

from __future__ import annotations

from recordlens.core.agent.page_twins import PageCopy, page_document, page_shape, same_page
from recordlens.core.page.mhtml_writer import mhtml_bytes
from recordlens.core.page.snapshot import Resource, read_snapshot

ROOT = "https://shop.example/"


def _styled_copy(path: str, sheet_id: str, rule: str, *, frame: tuple[str, str] | None = None) -> PageCopy:
    """The page at `path` with its <style> saved as part `sheet_id` holding `rule`; `frame`: (its part's id, the
    rule of the frame document's own <style>), the frame's style saved as a part of its own."""
    url = ROOT + path
    sheet = f"css-{sheet_id}@mhtml.blink"
    parts = [Resource(f"cid:{sheet}", None, "text/css", f'@charset "utf-8";\n\n{rule}'.encode())]
    body = f'<a href="{ROOT}">Home</a><p>Three kettles.</p>'
    if frame is not None:
        frame_id, frame_rule = frame
        inner_sheet = f"css-{frame_id}-inner@mhtml.blink"
        parts += [Resource(ROOT + "inner", f"frame-{frame_id}@mhtml.blink", "text/html",
                           f'<html><head><link rel="stylesheet" href="cid:{inner_sheet}" /></head><body><p>In the '
                           "frame.</p></body></html>".encode()),
                  Resource(f"cid:{inner_sheet}", None, "text/css", frame_rule.encode())]
        body += f'<iframe src="cid:frame-{frame_id}@mhtml.blink"></iframe>'
    html = (f'<!DOCTYPE html><html><head><link rel="stylesheet" type="text/css" href="cid:{sheet}" />'
            f"<title>Kettles</title></head><body>{body}</body></html>")
    snapshot = read_snapshot(mhtml_bytes(html, url=url, resources=parts, date="Mon, 7 Dec 2026 06:14:29 +0000"))
    return PageCopy(page_document(snapshot), url, ())


def test_one_page_whose_style_sheet_got_another_name_is_one_page() -> None:
    first = _styled_copy("kettles", "49c8dfca-9ba3", "body { margin: 20px; }")
    again = _styled_copy("kettles?page=1", "89d17cd0-413c", "body { margin: 20px; }")
    assert page_shape(first.html) == page_shape(again.html) and same_page(first, again)


def test_pages_whose_style_sheets_say_otherwise_are_two_pages() -> None:
    red = _styled_copy("tint?c=red", "49c8dfca-9ba3", "p { color: red; }")
    blue = _styled_copy("tint?c=blue", "89d17cd0-413c", "p { color: blue; }")
    assert page_shape(red.html) == page_shape(blue.html)  # (compared: what finds the copies to compare is the same)
    assert not same_page(red, blue)


def test_a_frame_is_read_as_its_document_and_the_parts_it_refers_to() -> None:
    one = _styled_copy("framed", "aa", "iframe { border: 0 }", frame=("E83F6AEB", "p { font-weight: bold }"))
    two = _styled_copy("framed?x=1", "bb", "iframe { border: 0 }", frame=("4C1D2F90", "p { font-weight: bold }"))
    other = _styled_copy("framed?x=2", "cc", "iframe { border: 0 }", frame=("77AB01CD", "p { font-style: italic }"))
    assert same_page(one, two) and not same_page(one, other)  # the frame's own style sheet says otherwise


def test_a_reference_to_a_part_the_archive_lacks_stays_as_written() -> None:
    html = '<link rel="stylesheet" href="cid:css-gone@mhtml.blink" /><p>x</p>'
    snapshot = read_snapshot(mhtml_bytes(html, url=ROOT, date="Mon, 7 Dec 2026 06:14:29 +0000"))
    assert page_document(snapshot) == snapshot.html  # no copy that lacks the part is the same as another
