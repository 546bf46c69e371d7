"""LLM input formats of a page: Slim HTML, Hierarchical JSON (ours and the reference's), Flat JSON, Outline.

Flat JSON and the reference's Hierarchical JSON are NEXT-EVAL's (NEXT-EVAL-NOTES §2.1), serialised as the
reference measured them (`JSON.stringify(obj, null, 2)`). Our Hierarchical JSON keeps every entry: where an
element has text of its own *and* text below it, its own text goes under the key `#text` beside its
children, instead of one side overwriting the other.

Outline is our compact format. Every text entry stays addressable by its XPath, with far fewer characters:

    body/div[3]/main/ul
     li: Camera
     li[2]
      span: Lens

One line per element on the way to a text; a line's XPath is its parent line's XPath plus the steps written
on it; `[1]` is implied; a chain of elements with no text of their own and one child is written on one line
(`body/div[3]/main/ul`); the text follows `: ` with newlines and backslashes escaped (`\\n`, `\\\\`).
Indentation is one space per line level (not per DOM level), so deep pages stay short.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from selectolax.lexbor import LexborHTMLParser, LexborNode

from .dom import JS_WHITESPACE, Element, Page

FORMATS = ("slim", "hier", "hier-ref", "flat", "outline")
HIER_OWN_TEXT_KEY = "#text"

VOID_ELEMENTS = frozenset({
    "area", "base", "basefont", "bgsound", "br", "col", "embed", "frame", "hr", "img", "input", "keygen",
    "link", "meta", "param", "source", "track", "wbr",
})
# Children of these are serialised raw (the HTML serialisation algorithm; scripting is off for snapshots,
# so <noscript> content is ordinary markup).
RAW_TEXT_PARENTS = frozenset({"style", "script", "xmp", "iframe", "noembed", "noframes", "plaintext"})

# The slim pipeline's string steps (comments, `\n\s*\n`, `>\s+<`, `\s+`, trim), where JavaScript's \s is its
# trim set. Done with C-speed string methods rather than regular expressions: a page may hold a 50 MB text.
_COMMENT = re.compile(r"<!--[\s\S]*?-->")
_ASCII_JS_SPACE = bytes.maketrans(b"\t\n\x0b\x0c\r", b"     ")
_OTHER_JS_SPACE = "".join(char for char in JS_WHITESPACE if char > "\x7f")
_OTHER_JS_SPACE_RUN = re.compile(f"[{_OTHER_JS_SPACE}]")


def collapse_js_whitespace(text: str) -> str:
    r"""`text.replace(/\s+/g, " ").trim()` in JavaScript, exactly (Python's own whitespace set differs)."""
    if any(char in text for char in _OTHER_JS_SPACE):
        text = _OTHER_JS_SPACE_RUN.sub(" ", text)
    data = text.encode("utf-8", "surrogatepass").translate(_ASCII_JS_SPACE)
    while b"  " in data:  # each pass halves every run of spaces
        data = data.replace(b"  ", b" ")
    return data.decode("utf-8", "surrogatepass").strip(" ")


def _escape_text(text: str) -> str:
    return text.replace("&", "&amp;").replace("\xa0", "&nbsp;").replace("<", "&lt;").replace(">", "&gt;")


def _escape_attribute(value: str) -> str:
    return (value.replace("&", "&amp;").replace("\xa0", "&nbsp;").replace('"', "&quot;")
            .replace("<", "&lt;").replace(">", "&gt;"))


def serialise(root: Element, *, attributes: bool = True) -> str:
    """`outerHTML` of an element of the cleaned tree, by the HTML serialisation algorithm."""
    out: list[str] = []
    write = out.append
    # Stack entries: an Element to open, or a closing-tag string.
    stack: list[Element | str] = [root]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            write(item)
            continue
        if item.tag == "template" and (markup := item.template_html) is not None:
            write(markup if attributes else _template_without_outer_attributes(markup))
            continue
        if attributes and item.attrs:
            attrs = "".join(f' {k}="{_escape_attribute(v or "")}"' for k, v in item.attrs.items())
            write(f"<{item.tag}{attrs}>")
        else:
            write(f"<{item.tag}>")
        if item.tag in VOID_ELEMENTS:
            continue
        stack.append(f"</{item.tag}>")
        raw = item.tag in RAW_TEXT_PARENTS
        for child in reversed(item.children):
            stack.append(child if isinstance(child, Element) or raw else _escape_text(child))
    return "".join(out)


def _template_without_outer_attributes(markup: str) -> str:
    # querySelectorAll('*') does not reach template content, so only the <template> tag loses attributes.
    end = markup.index(">")
    return "<template>" + markup[end + 1:]


def slim_html(page: Page) -> str:
    """The reference's Slim HTML: serialise, strip comments and whitespace, parse again, drop attributes."""
    text = serialise(page.root)
    if "<!--" in text:  # comments are gone from the tree, but template content keeps its own
        text = _COMMENT.sub("", text)
    # The reference's `\n\s*\n` -> `\n` step only shortens runs that the collapse shortens anyway, and once
    # runs are single spaces, `>\s+<` -> `><` is a plain replacement.
    text = collapse_js_whitespace(text).replace("> <", "><")
    reparsed = LexborHTMLParser(text).root
    return _serialise_lexbor_without_attributes(reparsed) if reparsed is not None else ""


def _serialise_lexbor_without_attributes(html_node: LexborNode) -> str:
    out: list[str] = []
    write = out.append
    node: LexborNode | None = html_node
    closers: list[str] = []
    raw_depth: list[bool] = []
    while node is not None:
        tag = node.tag
        descend = None
        if tag == "-text":
            text = node.text_content or ""
            write(text if raw_depth and raw_depth[-1] else _escape_text(text))
        elif tag == "-comment":
            write(f"<!--{node.comment_content or ''}-->")
        elif tag[0] != "-":
            if tag == "template":
                write(_template_without_outer_attributes(node.html or "<template></template>"))
            else:
                write(f"<{tag}>")
                if tag not in VOID_ELEMENTS:
                    descend = node.child
                    if descend is None:
                        write(f"</{tag}>")
                    else:
                        closers.append(f"</{tag}>")
                        raw_depth.append(tag in RAW_TEXT_PARENTS)
        if descend is not None:
            node = descend
            continue
        if node is html_node:
            break
        following = node.next
        while following is None:
            node = node.parent
            write(closers.pop())
            raw_depth.pop()
            if node is None or node.mem_id == html_node.mem_id:
                return "".join(out)
            following = node.next
        node = following
    return "".join(out)


def flat_json(page: Page) -> str:
    """The text map as the reference wrote `flat/N.json`: `JSON.stringify(map, null, 2)`."""
    return json.dumps(page.text_map, ensure_ascii=False, indent=2)


def hierarchical(page: Page) -> dict[str, object]:
    """Our lossless nesting: every text entry is kept; own text beside children goes under `#text`."""
    return _nest(page, _child_keeping, _put_keeping)


def hierarchical_reference(page: Page) -> dict[str, object]:
    """The reference's nesting, lossy on purpose: a later entry overwrites an object or string in its way."""
    return _nest(page, _child_overwriting, _put_overwriting)


Tree = dict[str, object]


def _nest(page: Page, child: Callable[[Tree, str], Tree], put: Callable[[Tree, list[str], str], None]) -> Tree:
    """The text map nested by XPath step: `child` finds (or makes) a step's object on the way down, `put`
    places the text in its parent's object."""
    tree: Tree = {}
    for xpath, text in page.text_map.items():
        steps = [s for s in xpath.split("/") if s]
        node = tree
        for step in steps[:-1]:
            node = child(node, step)
        put(node, steps, text)
    return tree


def _child_keeping(node: Tree, step: str) -> Tree:
    child = node.get(step)
    if isinstance(child, dict):
        return child
    node[step] = {} if child is None else {HIER_OWN_TEXT_KEY: child}
    return node[step]  # type: ignore[return-value]


def _put_keeping(node: Tree, steps: list[str], text: str) -> None:
    last = steps[-1] if steps else HIER_OWN_TEXT_KEY
    existing = node.get(last)
    if isinstance(existing, dict):
        existing[HIER_OWN_TEXT_KEY] = text
    else:
        node[last] = text


def _child_overwriting(node: Tree, step: str) -> Tree:
    if not isinstance(node.get(step), dict):
        node[step] = {}
    return node[step]  # type: ignore[return-value]


def _put_overwriting(node: Tree, steps: list[str], text: str) -> None:
    # JavaScript's `segments[segments.length - 1]` is `undefined` for the path "/".
    node[steps[-1] if steps else "undefined"] = text


def hierarchical_json(page: Page) -> str:
    return nested_json(hierarchical(page))


def hierarchical_reference_json(page: Page) -> str:
    return nested_json(hierarchical_reference(page))


def nested_json(tree: dict[str, object], indent: int = 2) -> str:
    """`json.dumps(tree, ensure_ascii=False, indent=2)` for nested objects of strings, without recursion:
    json's encoder recurses once per level, and a page can nest 512 levels deep."""
    quote = json.encoder.encode_basestring  # type: ignore[attr-defined]
    out: list[str] = []
    # Stack of (items iterator, depth); a finished object writes its closing brace.
    stack: list[tuple[Iterator[tuple[str, object]], int]] = [(iter(tree.items()), 1)]
    if not tree:
        return "{}"
    out.append("{")
    first = True
    while stack:
        items, depth = stack[-1]
        item = next(items, None)
        if item is None:
            stack.pop()
            out.append("\n" + " " * (indent * (depth - 1)) + "}")
            first = False
            continue
        key, value = item
        out.append(("\n" if first else ",\n") + " " * (indent * depth) + quote(key) + ": ")
        if isinstance(value, dict) and value:
            out.append("{")
            stack.append((iter(value.items()), depth + 1))
            first = True
        else:
            out.append(quote(value) if isinstance(value, str) else "{}")
            first = False
    return "".join(out)


def _escape_outline_text(text: str) -> str:
    return text.replace("\\", "\\\\").replace("\r", "\\r").replace("\n", "\\n")


def _short_step(step: str) -> str:
    """`div[1]` -> `div`, unless the tag itself ends in `]` (`<x]>`), which the reader would take for an index."""
    short = step[:-3] if step.endswith("[1]") else step
    return step if short.endswith("]") else short


def outline(page: Page) -> str:
    """Our compact format (see the module docstring): an indented tree of the text-bearing paths."""
    keys = page.text_map
    on_path = _children_on_path(page)
    lines: list[str] = []
    if "/" in keys:
        lines.append(f": {_escape_outline_text(keys['/'])}")
    # Walk the kept elements in document order; print a line where a chain ends.
    line_depth: dict[str, int] = {"": -1}
    chain_start: dict[str, str] = {}
    for element in page.elements[1:]:
        xpath = element.xpath
        if xpath not in on_path:
            continue
        parent_xpath = element.parent.xpath if element.parent is not None else ""
        joins_chain = (parent_xpath in chain_start and parent_xpath not in keys
                       and on_path.get(parent_xpath) == 1)
        chain_start[xpath] = chain_start[parent_xpath] if joins_chain else parent_xpath
        ends_chain = xpath in keys or on_path[xpath] != 1
        if not ends_chain:
            continue
        anchor = chain_start[xpath]
        depth = line_depth[anchor] + 1
        line_depth[xpath] = depth
        steps = xpath[len(anchor):].strip("/").split("/")
        label = "/".join(_short_step(s) for s in steps)
        text = keys.get(xpath)
        lines.append(" " * depth + label + (f": {_escape_outline_text(text)}" if text is not None else ""))
    return "\n".join(lines)


def _children_on_path(page: Page) -> dict[str, int]:
    """XPath -> how many of its element children lead to a text entry, for every element that does itself.

    Climbing from each text element stops at the first element already counted, so the work is linear in the
    number of elements, however deep the page."""
    on_path: dict[str, int] = {}
    for key in page.text_map:
        element = page.by_xpath.get(key)
        while element is not None and element.xpath and element.xpath not in on_path:
            on_path[element.xpath] = 0
            element = element.parent
    for xpath in on_path:
        parent = page.by_xpath[xpath].parent
        if parent is not None and parent.xpath:
            on_path[parent.xpath] += 1
    return on_path


def parse_outline(text: str) -> dict[str, str]:
    """Read an outline back into `{xpath: text}` (the inverse of `outline`, used to prove it lossless)."""
    result: dict[str, str] = {}
    stack: list[tuple[int, str]] = []  # (depth, xpath) of the open lines
    for line in text.split("\n"):
        if line.startswith(": "):
            result["/"] = _unescape_outline(line[2:])
            continue
        depth = len(line) - len(line.lstrip(" "))
        body = line[depth:]
        label, sep, value = body.partition(": ")
        while stack and stack[-1][0] >= depth:
            stack.pop()
        base = stack[-1][1] if stack else ""
        xpath = base + "".join(f"/{s if s.endswith(']') else s + '[1]'}" for s in label.split("/"))
        stack.append((depth, xpath))
        if sep:
            result[xpath] = _unescape_outline(value)
    return result


def _unescape_outline(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "r": "\r"}.get(m.group(1), m.group(1)), text)


RENDERERS: dict[str, Callable[[Page], str]] = {
    "slim": slim_html,
    "hier": hierarchical_json,
    "hier-ref": hierarchical_reference_json,
    "flat": flat_json,
    "outline": outline,
}


def represent(page: Page, fmt: str) -> str:
    try:
        render = RENDERERS[fmt]
    except KeyError:
        raise ValueError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}") from None
    return render(page)


@dataclass(frozen=True)
class FormatSize:
    format: str
    characters: int
    tokens: int | None = None  # None: not available (no recorded usage, no key to count with)


def format_sizes(page: Page) -> list[FormatSize]:
    return [FormatSize(fmt, len(represent(page, fmt))) for fmt in FORMATS]
