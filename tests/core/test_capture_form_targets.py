"""What a site capture follows for a GET form is a click on its default button (forms.py's `default_submission`,
the code core's text browser submits that click with): a named submit button's name and value go with the fields.
The crawler used to follow the form without its button, a URL that no click offline reaches."""

from __future__ import annotations

from pathlib import Path

from recordlens.core.agent.capture import form_targets
from recordlens.core.agent.sites import build_site
from recordlens.core.agent.text_browser import HtmlSiteBrowser
from recordlens.core.page.mhtml_writer import write_mhtml
from recordlens.core.page.snapshot import read_html, read_mhtml
from tests.core.forms_page import steps

URL = "http://shop.test/page"


def _targets(body: str, url: str = URL) -> list[str]:
    return form_targets(read_html(f"<!DOCTYPE html><html><body>{body}</body></html>".encode()), url)


def test_a_named_default_button_is_sent_and_a_second_button_is_not() -> None:
    assert _targets('<form action="/s"><input name="q" value="oak"><button name="go" value="1">Go</button>'
                    '<button name="go" value="2">Other</button></form>') == ["http://shop.test/s?q=oak&go=1"]


def test_a_submit_input_without_a_value_sends_chromiums_label() -> None:
    assert _targets('<form action="/s"><input type="submit" name="action"></form>') == [
        "http://shop.test/s?action=Submit"]


def test_a_form_without_a_submit_button_is_sent_alone() -> None:
    assert _targets('<form action="/s"><input name="q" value="a b"><button type="button" name="b">x</button>'
                    '</form>') == ["http://shop.test/s?q=a+b"]


def test_the_default_button_is_the_first_the_form_owns_wherever_it_is() -> None:
    body = ('<button form="f" name="outside" value="o">Out</button>'
            '<form id="f" action="/s"><input name="q"><button name="inside" value="i">In</button></form>')
    assert _targets(body) == ["http://shop.test/s?outside=o&q="]  # document order


def test_a_disabled_default_button_sends_nothing_of_its_own() -> None:
    assert _targets('<form action="/s"><input name="q"><button name="go" value="1" disabled>Go</button>'
                    '<button name="go" value="2">Other</button></form>') == ["http://shop.test/s?q="]


def test_the_buttons_formaction_and_formmethod_decide() -> None:
    assert _targets('<form action="/s"><button name="go" value="1" formaction="/t">Go</button></form>') == [
        "http://shop.test/t?go=1"]
    assert _targets('<form action="/s"><button formmethod="post">Go</button></form>') == []
    assert _targets('<form action="/s" method="post"><button formmethod="get" name="g" value="1">Go</button>'
                    '</form>') == ["http://shop.test/s?g=1"]


def test_a_form_resolves_against_the_pages_base_as_a_browser_resolves_it() -> None:
    html = ('<!DOCTYPE html><html><head><base href="http://shop.test/shop/"></head><body><form action="s">'
            '<button name="go" value="1">Go</button></form></body></html>')
    assert form_targets(read_html(html.encode()), URL) == ["http://shop.test/shop/s?go=1"]


def test_an_image_button_is_clicked_at_its_middle_as_the_browsers_click_it() -> None:
    assert _targets('<form action="/s"><input type="image" name="map" width="40" height="21"></form>') == [
        "http://shop.test/s?map.x=20&map.y=10"]


def test_a_frames_forms_count_when_it_is_of_the_pages_origin() -> None:
    def part(location: str, html: str, cid: str = "") -> str:
        ident = f"Content-ID: <{cid}>\n" if cid else ""
        return f"Content-Type: text/html\n{ident}Content-Location: {location}\n\n{html}"

    page = ('<html><body><iframe src="cid:own@x"></iframe><iframe src="cid:ad@x"></iframe>'
            '<iframe srcdoc="&lt;form action=/d&gt;&lt;button name=d value=1&gt;D&lt;/button&gt;&lt;/form&gt;">'
            '</iframe></body></html>')
    own = '<html><body><form action="/f"><button name="f" value="1">F</button></form></body></html>'
    ad = '<html><body><form action="/ad"><button name="a" value="1">A</button></form></body></html>'
    head = 'MIME-Version: 1.0\nContent-Type: multipart/related; type="text/html"; boundary="B"\n\n'
    parts = [part(URL, page), part("http://shop.test/frame", own, "own@x"), part("http://ads.test/x", ad, "ad@x")]
    archive = (head + "".join(f"--B\n{p}\n" for p in parts) + "--B--\n").replace("\n", "\r\n").encode()
    assert form_targets(read_mhtml(archive), URL) == ["http://shop.test/f?f=1", "http://shop.test/d?d=1"]


def test_the_crawls_target_is_where_the_text_browsers_click_goes(tmp_path: Path) -> None:
    """One rule: the capture's URL for a form and the text browser's for a click on its default button."""
    body = ('<form action="/s"><label>Query <input name="q" value="oak"></label>'
            '<button name="go" value="1">Search</button></form>')
    write_mhtml(tmp_path / "home.mhtml", f"<!DOCTYPE html><html><head><title>Shop</title></head><body>{body}"
                                         "</body></html>", url=URL)
    browser = HtmlSiteBrowser(build_site(tmp_path))
    browser.open(URL)
    browser.perform(steps([("click", "Search", None)], browser.observe())[0])
    assert [browser.url] == _targets(body) == ["http://shop.test/s?q=oak&go=1"]
