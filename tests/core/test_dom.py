"""The cleaned HTML5 tree, its XPaths and its text map, on hand-made pages with known answers."""

from __future__ import annotations

from recordlens.core.page.dom import MAX_TREE_DEPTH, js_trim, parse_html


def test_paths_are_indexed_below_html_with_tbody_implied() -> None:
    page = parse_html("<table><tr><td>a</td><td>b</td></tr></table>")
    assert page.element_xpaths() == [
        "/", "/head[1]", "/body[1]", "/body[1]/table[1]", "/body[1]/table[1]/tbody[1]",
        "/body[1]/table[1]/tbody[1]/tr[1]", "/body[1]/table[1]/tbody[1]/tr[1]/td[1]",
        "/body[1]/table[1]/tbody[1]/tr[1]/td[2]",
    ]
    row = "/body[1]/table[1]/tbody[1]/tr[1]"
    assert page.text_map == {f"{row}/td[1]": "a", f"{row}/td[2]": "b"}


def test_p_auto_closes_and_foster_parenting_moves_text_before_the_table() -> None:
    page = parse_html("<!DOCTYPE html><p>one<div>two</div><table>x<tr><td>y</td></tr></table>")
    assert page.text_map["/body[1]/p[1]"] == "one"
    assert page.text_map["/body[1]/div[1]"] == "two"
    # Foster parenting: stray text in a table goes before it, into body.
    assert page.text_map["/body[1]"] == "x"


def test_removed_elements_do_not_count_and_comments_do_not_merge_text() -> None:
    html = ("<head><meta charset='utf-8'><meta name='x'><link rel=stylesheet><style>s{}</style></head>"
            "<body><script>var a</script><div>Pharma<!-- -->Inc.</div><div>b</div></body>")
    page = parse_html(html)
    assert "/head[1]/meta[1]" in page.by_xpath  # meta with charset stays
    assert "/head[1]/meta[2]" not in page.by_xpath
    assert not any(e.tag in ("script", "style", "link") for e in page.elements)
    # Last text node wins, without merging across the comment.
    assert page.text_map["/body[1]/div[1]"] == "Inc."


def test_last_text_wins_at_first_key_position() -> None:
    page = parse_html("<div>first<span>inner</span>last</div><p>p</p>")
    assert list(page.text_map.items()) == [
        ("/body[1]/div[1]", "last"), ("/body[1]/div[1]/span[1]", "inner"), ("/body[1]/p[1]", "p")]


def test_svg_names_are_lowercased_and_template_content_is_not_traversed() -> None:
    page = parse_html("<svg><linearGradient></linearGradient><title>Arrow</title></svg>"
                      "<template><b>hidden</b></template><iframe><b>raw</b></iframe>")
    assert "/body[1]/svg[1]/lineargradient[1]" in page.by_xpath
    assert page.text_map["/body[1]/svg[1]/title[1]"] == "Arrow"
    assert not any("template[1]/" in x for x in page.by_xpath)
    assert "hidden" not in page.text_map.values()
    # An iframe's fallback markup is raw text in the DOM, not elements.
    assert page.text_map["/body[1]/iframe[1]"] == "<b>raw</b>"


def test_js_trim_is_javascripts_set_not_pythons() -> None:
    assert js_trim("\u3000\xa0 a \ufeff\u2029") == "a"
    assert js_trim("\x1ca\x85") == "\x1ca\x85"  # Python's strip() would remove these
    assert js_trim("\u200b") == "\u200b"


def test_single_character_filter_drops_only_zero_width_and_quote() -> None:
    page = parse_html('<p>\u200b</p><p>\u200c</p><p>"</p><p>x</p><p>""</p>')
    assert page.text_map == {"/body[1]/p[4]": "x", "/body[1]/p[5]": '""'}


def test_filter_applies_to_the_last_text_of_an_element() -> None:
    page = parse_html('<p>kept?<!-- -->"</p>')
    assert page.text_map == {}


def test_resolve_normalises_like_the_reference() -> None:
    page = parse_html("<main><ul><li>a</li><li>b</li></ul></main>")
    assert page.resolve("/html[1]/body[1]/main[1]/ul[1]/li[2]").tag == "li"
    assert page.resolve("/html/body/main/ul/li[2]") is page.resolve("/body[1]/main[1]/ul[1]/li[2]")
    assert page.resolve("/body[1]/main[1]/ul[1]/li[3]") is None
    assert page.resolve("//li") is None
    # A trailing "/" names the element's descendants (the score's reading): it resolves to that element.
    assert page.resolve("/body[1]/main[1]/ul[1]/") is page.resolve("/body[1]/main[1]/ul[1]")
    assert page.resolve("/body[1]/main[1]/ul[1]//") is None and page.resolve("/body[1]/main[1]/ul[9]/") is None
    assert page.resolve("/body[1]/main[1]/ul[1]/li[@class='x']") is None


def test_ten_thousand_deep_nesting_parses_without_recursion_and_flattens_like_chromium() -> None:
    depth = 10_000
    page = parse_html("<div>" * depth + "deep" + "</div>" * depth)
    assert list(page.text_map.values()) == ["deep"]
    # Past 512 open elements Chromium attaches new elements to the element at that depth, as siblings.
    assert max(e.xpath.count("/") for e in page.elements) == MAX_TREE_DEPTH
    cap = page.elements[MAX_TREE_DEPTH]  # html, head, body, then div 1..510
    assert len(cap.element_children()) == depth - (MAX_TREE_DEPTH - 2)
    assert page.resolve(next(iter(page.text_map))).text() == "deep"


def test_processing_instructions_are_bogus_comments() -> None:
    page = parse_html("<p>x</p><?php echo 1; ?><b>y</b>")
    assert page.text_map == {"/body[1]/p[1]": "x", "/body[1]/b[1]": "y"}


def test_element_text_joins_descendant_texts_in_order() -> None:
    page = parse_html("<li><b>Camera</b> <i>$399</i> <span> in stock </span></li>")
    assert page.resolve("/body[1]/li[1]").text() == "Camera $399 in stock"


def test_element_text_follows_document_order_in_mixed_content() -> None:
    page = parse_html("<li><a>Computation and Language</a> (cs.CL) — 3 papers</li>")
    assert page.resolve("/body[1]/li[1]").text() == "Computation and Language (cs.CL) — 3 papers"


def test_nul_is_dropped_from_body_text_as_chromium_does_but_is_u_fffd_in_names_and_values() -> None:
    # HTML5: the "in body" mode ignores a U+0000 character; the tokenizer makes it U+FFFD in tag names,
    # attributes, RCDATA (<title>, <textarea>) and foreign content. QtWebEngine shows "<p>a\0b</p>" as "ab".
    page = parse_html(b"<html><head><title>t\x00t</title></head><body><p a='v\x00w'>a\x00b</p><li\x00nk>z</li\x00nk>"
                      b"<table>\x00<tr><td>\x00c\x00</td></tr></table><p>\x00</p><svg><text>f\x00g</text></svg>"
                      b"<textarea>q\x00r</textarea></body></html>")
    assert page.text_map == {
        "/head[1]/title[1]": "t\ufffdt", "/body[1]/p[1]": "ab", "/body[1]/li\ufffdnk[1]": "z",
        "/body[1]/table[1]/tbody[1]/tr[1]/td[1]": "c", "/body[1]/svg[1]/text[1]": "f\ufffdg",
        "/body[1]/textarea[1]": "q\ufffdr"}
    assert page.resolve("/body[1]/p[1]").attrs == {"a": "v\ufffdw"}
    assert "/body[1]/p[2]" in page.by_xpath  # an element whose only text was NUL has none
