"""A page's accessibility tree as Chromium computes it, kept beside the page, and its text form for agents.

The tree comes from Chromium's DevTools protocol (`Accessibility.getFullAXTree`, in the capture process). It is
stored as `NAME.axtree.json` next to `NAME.mhtml`, in a compact form of the protocol's own nodes:

    {"format": "recordlens-axtree/1", "url": ..., "source": "Accessibility.getFullAXTree",
     "nodes": [{"id": "1", "role": "RootWebArea", "name": "Title", "parent": null, "children": ["3"],
                "ignored": false, "properties": {"focusable": true}, "xpath": "", "value": "", "description": ""}]}

Roles, names, values, descriptions and properties are Chromium's, unchanged (only the `sources` that explain how
a name was computed are left out). `xpath` is the node's DOM element in core's addressing (`/body[1]/a[2]`),
computed from the protocol's DOM tree with the same rules as core's parser (script, style, link and meta
without charset are not counted), so that a tree node and a set-of-mark element with the same XPath are the same
element: `format_axtree` gives such a node the element's number.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from .. import atomic
from ..command_hints import hint_path
from ..errors import AgentError, system_words
from ..file_kinds import read_regular_file, unreadable_kind
from .sites import Site

FORMAT = "recordlens-axtree/1"
SUFFIX = ".axtree.json"
_NOT_COUNTED = frozenset({"script", "style", "link"})
# Roles that say nothing to a reader of the text form: their children are shown in their place.
_TRANSPARENT_ROLES = frozenset({"none", "generic", "LineBreak", "presentation", "Ignored"})
_HIDDEN_ROLES = frozenset({"InlineTextBox"})  # the layout's pieces of a StaticText: the same text again
MAX_NAME = 160


def dom_xpaths(document: Mapping[str, Any]) -> dict[int, str]:
    """backendNodeId -> XPath for every element of a DOM.getDocument(depth=-1) tree that core's addressing
    reaches (the <html> element gets ""; removed tags and everything inside them get none)."""
    out: dict[int, str] = {}
    html = next((c for c in document.get("children", ()) if c.get("nodeType") == 1), None)
    if html is None:
        return out
    out[int(html["backendNodeId"])] = ""
    stack: list[tuple[Mapping[str, Any], str]] = [(html, "")]
    while stack:
        node, path = stack.pop()
        counts: dict[str, int] = {}
        for child in node.get("children", ()):
            if child.get("nodeType") != 1:
                continue
            tag = str(child.get("localName") or child.get("nodeName") or "")
            if tag.lower() in _NOT_COUNTED or (tag.lower() == "meta" and "charset" not in _attributes(child)):
                continue
            index = counts[tag] = counts.get(tag, 0) + 1
            child_path = f"{path}/{tag.lower()}[{index}]"
            out[int(child["backendNodeId"])] = child_path
            if tag.lower() != "template":  # template content is a separate fragment, as in core
                stack.append((child, child_path))
    return out


def _attributes(node: Mapping[str, Any]) -> dict[str, str]:
    flat = list(node.get("attributes") or ())
    return {str(flat[i]).lower(): str(flat[i + 1]) for i in range(0, len(flat) - 1, 2)}


def _value(field: Any) -> Any:
    return field.get("value") if isinstance(field, Mapping) else field


def compact_tree(nodes: list[Mapping[str, Any]], document: Mapping[str, Any] | None, url: str) -> dict[str, Any]:
    """The stored form of getFullAXTree's `nodes`, with XPaths from DOM.getDocument's `root` (module notes)."""
    xpaths = dom_xpaths(document) if document else {}
    out = []
    for node in nodes:
        backend = node.get("backendDOMNodeId")
        entry: dict[str, Any] = {
            "id": str(node.get("nodeId")),
            "role": str(_value(node.get("role")) or ""),
            "name": str(_value(node.get("name")) or ""),
            "parent": str(node["parentId"]) if node.get("parentId") is not None else None,
            "children": [str(c) for c in node.get("childIds") or ()],
            "ignored": bool(node.get("ignored")),
        }
        for key in ("value", "description"):
            if _value(node.get(key)) not in (None, ""):
                entry[key] = str(_value(node.get(key)))
        properties = {str(p.get("name")): _value(p.get("value")) for p in node.get("properties") or ()}
        if properties:
            entry["properties"] = properties
        if backend is not None and int(backend) in xpaths:
            entry["xpath"] = xpaths[int(backend)]
        out.append(entry)
    return {"format": FORMAT, "url": url, "source": "Accessibility.getFullAXTree", "nodes": out}


def tree_path(page_path: Path) -> Path:
    """Where the tree of the page saved at `page_path` lives (NAME.mhtml -> NAME.axtree.json)."""
    return page_path.with_name(page_path.stem + SUFFIX)


def write_tree(path: Path, tree: Mapping[str, Any]) -> None:
    atomic.write_text(path, json.dumps(tree, ensure_ascii=False, indent=1) + "\n")


class UnreadableTree(AgentError):
    """A stored tree that cannot be read; `why` says what the file is ("a folder, not a stored accessibility
    tree"), or what is wrong with it."""

    def __init__(self, message: str, why: str) -> None:
        super().__init__(message)
        self.why = why


def read_tree(path: str | Path) -> dict[str, Any]:
    """A stored tree; UnreadableTree (an AgentError) when the file is not one, naming it as a hint names a path
    (`hint_path`). Read through the guarded reader: a site's folder is the user's, and a FIFO in it is not waited
    on, nor a file of an open project's database (a hard link) opened."""
    try:
        data = json.loads(read_regular_file(path).decode("utf-8"))
    except OSError as error:
        why = unreadable_kind(path, error, "stored accessibility tree") or system_words(error)
        raise UnreadableTree(f"cannot read the accessibility tree {hint_path(path)}: {why}", why) from None
    except ValueError as error:
        why = system_words(error)
        raise UnreadableTree(f"cannot read the accessibility tree {hint_path(path)}: {why}", why) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("nodes"), list):
        why = f"not an accessibility tree written by RecordLens ({FORMAT})"
        raise UnreadableTree(f"{hint_path(path)} is {why}", why)
    return data


def named_roles(tree: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(role, name) of every node that is not ignored and has a name, in tree order: what a test compares."""
    return [(n["role"], n["name"]) for n in _walk(tree) if not n.get("ignored") and n.get("name")]


def _walk(tree: Mapping[str, Any]) -> Iterator[Mapping[str, Any]]:
    """Depth-first, from the root(s); nodes the tree never reaches are not visited."""
    by_id = {n["id"]: n for n in tree.get("nodes", ())}
    roots = [n for n in tree.get("nodes", ()) if n.get("parent") is None or n.get("parent") not in by_id]
    stack = list(reversed(roots))
    seen: set[str] = set()
    while stack:
        node = stack.pop()
        if node["id"] in seen:
            continue
        seen.add(node["id"])
        yield node
        stack.extend(by_id[c] for c in reversed(node.get("children", ())) if c in by_id)


def format_axtree(tree: Mapping[str, Any], labels: Mapping[str, int] | None = None, *,
                  max_lines: int = 400) -> str:
    """The tree as indented lines, `[n] role "name"` where n is the set-of-mark number of the element with the
    node's XPath (`labels`: xpath -> number), so the tree and the screenshot name elements alike.

    Ignored nodes and nameless generic containers are left out (their children move up a level); a text node
    that repeats its parent's name is left out too. At most `max_lines` lines; the cut is said."""
    labels = labels or {}
    by_id = {n["id"]: n for n in tree.get("nodes", ())}
    lines: list[str] = []

    def visit(node: Mapping[str, Any], depth: int, parent_name: str) -> None:
        if len(lines) > max_lines:
            return
        role, name = node.get("role", ""), " ".join(str(node.get("name", "")).split())
        label = labels.get(node["xpath"]) if "xpath" in node else None
        shown = not node.get("ignored") and (label is not None or (role not in _TRANSPARENT_ROLES or name))
        if shown and (role in _HIDDEN_ROLES or (role == "StaticText" and name == parent_name)):
            shown = False
        if shown:
            text = f"{'  ' * depth}{f'[{label}] ' if label is not None else ''}{role}"
            if name:
                text += f' "{name[:MAX_NAME]}{"…" if len(name) > MAX_NAME else ""}"'
            value = node.get("value")
            if value:
                text += f" value={json.dumps(str(value)[:80], ensure_ascii=False)}"
            lines.append(text)
        for child in node.get("children", ()):
            if child in by_id:
                visit(by_id[child], depth + 1 if shown else depth, name if shown else parent_name)

    roots = [n for n in tree.get("nodes", ()) if n.get("parent") is None or n.get("parent") not in by_id]
    for root in roots:
        visit(root, 0, "")
    if len(lines) > max_lines:
        lines = lines[:max_lines] + ["[… the rest of the tree is cut]"]
    return "\n".join(lines)


class SiteTrees:
    """The stored trees of a site's pages, by URL (None for a page without one), each read once."""

    def __init__(self, site: Site) -> None:
        self.site = site
        self._cache: dict[str, dict[str, Any] | None] = {}
        self._why: dict[str, str] = {}  # page file -> why its tree cannot be read

    def __call__(self, url: str) -> dict[str, Any] | None:
        page = self.site.page(url)
        if page is None or not page.side_file("axtree"):
            return None
        if page.file not in self._cache:
            try:
                self._cache[page.file] = read_tree(self.site.root / str(page.side_file("axtree")))
            except UnreadableTree as error:
                self._cache[page.file] = None  # a damaged tree: the agent sees that none is stored
                self._why[page.file] = error.why
        return self._cache[page.file]

    def count(self) -> int:
        return sum(1 for p in self.site.pages if p.side_file("axtree"))

    def unreadable(self) -> list[tuple[str, str]]:
        """(page URL, why) of each page whose tree site.json names but that cannot be read (deleted by hand since
        `site build`, or damaged): the agent would be shown none there, as on a page never captured with one."""
        out = []
        for page in self.site.pages:
            name = page.side_file("axtree")
            if not name or self(page.url) is not None:
                continue
            gone = not os.path.lexists(self.site.root / name)  # a FIFO or a folder there is said as what it is
            why = f" ({self._why[page.file]})" if page.file in self._why else ""
            out.append((page.url, f"its tree {hint_path(name)} is gone from the folder" if gone else
                        f"its tree {hint_path(name)} cannot be read{why}"))
        return out
