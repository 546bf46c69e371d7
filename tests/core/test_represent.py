"""The LLM input formats: exact reference rules for Flat / Hierarchical / Slim, and our lossless formats."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from recordlens.core.page import formats as represent
from recordlens.core.page.dom import parse_html
from tests.conftest import dev_page_numbers

PAGE = parse_html(
    "<!DOCTYPE html><html><head><title>T</title><style>x{}</style></head>"
    "<body class='b'>\n\n  <div id='a'>own<span>inner</span></div><!-- c -->\n"
    "<ul><li>x &amp; y</li><li>caf\u00e9\xa0 <b>bold</b></li></ul><pre>a\n   b</pre></body></html>"
)


def test_flat_json_is_the_text_map_with_a_two_space_indent() -> None:
    text = represent.flat_json(PAGE)
    assert json.loads(text) == PAGE.text_map
    assert text.startswith('{\n  "/head[1]/title[1]": "T",\n')
    assert "café" in text  # non-ASCII written raw, as JSON.stringify does


def test_reference_hierarchy_loses_own_text_that_comes_first() -> None:
    tree = represent.hierarchical_reference(PAGE)
    # div[1] has its own text first, then a child's: the reference replaces the string by an object.
    assert tree["body[1]"]["div[1]"] == {"span[1]": "inner"}


def test_our_hierarchy_keeps_every_entry() -> None:
    tree = represent.hierarchical(PAGE)
    assert tree["body[1]"]["div[1]"] == {"#text": "own", "span[1]": "inner"}
    flattened = {}

    def walk(node: dict, path: str) -> None:
        for key, value in node.items():
            if key == represent.HIER_OWN_TEXT_KEY:
                flattened[path] = value
            elif isinstance(value, dict):
                walk(value, f"{path}/{key}")
            else:
                flattened[f"{path}/{key}"] = value

    walk(tree, "")
    assert flattened == PAGE.text_map


def test_slim_html_drops_attributes_comments_and_whitespace_between_tags() -> None:
    slim = represent.slim_html(PAGE)
    assert slim.startswith("<html><head><title>T</title></head><body><div>own<span>inner</span></div><ul>")
    assert "class=" not in slim and "id=" not in slim and "<!--" not in slim and "<style>" not in slim
    assert "<li>x &amp; y</li>" in slim
    assert "<pre>a b</pre>" in slim  # the reference collapses whitespace everywhere, <pre> included
    assert "café&nbsp; <b>bold</b>" in slim


def test_outline_is_readable_and_lossless() -> None:
    text = represent.outline(PAGE)
    assert text.splitlines()[:3] == ["head/title: T", "body", " div: own"]
    assert represent.parse_outline(text) == PAGE.text_map


def test_outline_escapes_newlines_and_backslashes() -> None:
    page = parse_html("<p>a\nb \\ c</p><p>d</p>")
    text = represent.outline(page)
    assert "a\\nb \\\\ c" in text
    assert represent.parse_outline(text) == page.text_map


def test_unknown_format_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="unknown format 'yaml'"):
        represent.represent(PAGE, "yaml")


@pytest.mark.parametrize("number", dev_page_numbers())
def test_every_format_on_every_dev_page(dev_dir: Path, number: int) -> None:
    page = parse_html((dev_dir / "html" / f"{number}.html").read_text(encoding="utf-8"))
    sizes = {s.format: s.characters for s in represent.format_sizes(page)}
    assert represent.parse_outline(represent.outline(page)) == page.text_map
    assert json.loads(represent.flat_json(page)) == page.text_map
    assert sizes["outline"] < sizes["flat"]
    slim = represent.slim_html(page)
    assert slim.startswith("<html><head>") and slim.endswith("</body></html>")


_JS_SPACE = "[\t\n\x0b\x0c\r \xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]"


@settings(derandomize=True, max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab<>é\t\n\x0b\x0c\r \xa0\u1680\u2005\u2028\u3000\ufeff\x1c\x85\u200b"))))
def test_whitespace_collapse_is_javascripts(text: str) -> None:
    expected = re.sub(f"{_JS_SPACE}+", " ", text).strip(" ")
    assert represent.collapse_js_whitespace(text) == expected
