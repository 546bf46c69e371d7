"""A Qt-free `Browser` over a snapshot site, for tests, the demo's reference trajectories and text-only runs.

It "renders" core's DOM of each saved page: the numbered elements are the links, buttons and form fields in
document order (numbered from 1), with their text, role and accessible name; there is no layout, so no box and
no real screenshot (a blank PNG stands in). A click on a link opens the saved page for its URL or the "not in
this snapshot" page; typing into a field fills it and presses Enter, which submits its form as a GET request
(the only kind a static snapshot can answer); a submit button does the same. Typing into an element that is no
text field (a link, a button, a list box) is refused (`NotATextFieldError`), as the Qt browser refuses it.

Roles and accessible names follow the Qt browser's set-of-mark script (resources/js/som.js), so that the two
browsers show the agent the same elements alike: the name is aria-labelledby's text, else aria-label, else, for
a field, its label (`<label for=id>`, or the `<label>` around it) or a button's value, for a link or a button its
text (or its images' alt), else its title, else its placeholder.
"""

from __future__ import annotations

import struct
import zlib
from urllib.parse import urlencode, urljoin, urlsplit, urlunsplit

from ..page.dataset import parse_snapshot
from ..page.dom import Element, Page, parse_html
from ..page.snapshot import read_snapshot
from .actions import Step
from .model import MAX_PAGE_TEXT, TEXT_PER_SCREEN, Observation
from .sites import NOT_IN_SNAPSHOT_TITLE, Site, not_in_snapshot_html
from .targets import NotATextFieldError, Target, TargetNotFoundError

VIEWPORT = (1280.0, 800.0)
_FIELD_TAGS = ("input", "textarea", "select")
_BUTTON_INPUTS = ("submit", "button", "reset", "image")
_INPUT_ROLES = {"search": "searchbox", "checkbox": "checkbox", "radio": "radio", "range": "slider",
                "number": "spinbutton"}
# The inputs that take typed text (som.js's TEXT_INPUTS): Type fills these, a text area, and a text box by role.
_TEXT_INPUTS = ("", "text", "search", "email", "url", "tel", "password", "number")
_LABELABLE = ("input", "select", "textarea", "button", "meter", "output", "progress")


def blank_png(width: int = 4, height: int = 3) -> bytes:
    """A small white PNG: what the fake browser shows instead of a screenshot."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    rows = b"".join(b"\x00" + b"\xff\xff\xff" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


class HtmlSiteBrowser:
    """A browser over one snapshot site that never touches the network (it has no way to)."""

    def __init__(self, site: Site, *, screenshot: bytes | None = None) -> None:
        self.site = site
        self._screenshot = blank_png() if screenshot is None else screenshot
        self._cache: dict[str, tuple[Page, str]] = {}
        self._history: list[str] = []
        self._url = ""
        self._page: Page | None = None
        self._title = ""
        self._values: dict[str, str] = {}
        self._scroll_y = 0.0
        self.visited: list[str] = []  # every URL loaded, in order, for tests

    @property
    def url(self) -> str:
        return self._url

    def open(self, url: str) -> None:
        """Start an episode at `url`: its history is its own, so GoBack on this first page does nothing (as in the
        app's browser), not return to the page the last episode ended on."""
        self._history.clear()
        self._load(url, remember=False)

    def observe(self) -> Observation:
        text = self._text()
        return Observation(url=self._url, title=self._title, screenshot=self._screenshot,
                           elements=tuple(self._elements()), scroll=(0.0, self._scroll_y), viewport=VIEWPORT,
                           text=text, page_height=self._page_height(text))

    def _text(self) -> str:
        body = self._page.body if self._page is not None else None
        return body.text("\n") if body is not None else ""

    @staticmethod
    def _page_height(text: str) -> float:
        """Without a layout, a page is as tall as its text needs: a screen, and one more per TEXT_PER_SCREEN
        characters past the first window (what the agent loop reads a scroll as)."""
        return VIEWPORT[1] * (1 + max(0, len(text.strip()) - MAX_PAGE_TEXT) / TEXT_PER_SCREEN)

    def perform(self, step: Step) -> None:
        if step.action == "go_back":
            self.go_back()
            return
        if step.action == "scroll":  # down to the page's end at most, as a browser does
            moved = self._scroll_y + (-1 if step.value == "up" else 1) * VIEWPORT[1] * 0.8
            self._scroll_y = min(max(0.0, moved), self._page_height(self._text()) - VIEWPORT[1])
            return
        if step.action in ("wait", "answer"):
            return
        element = self._element_of(step.target)
        if step.action == "click":
            self._click(element)
        elif step.action == "type":
            if not _takes_text(element):
                label = next(i for i, e in enumerate(self._interactive(), 1) if e is element)
                raise NotATextFieldError.of(Target(label=label, role=_role_of(element), name=self._name_of(element)))
            self._values[element.xpath] = step.value or ""
            self._submit(element, None)

    def go_back(self) -> None:
        if self._history:
            self._load(self._history.pop(), remember=False)

    # -- pages ----------------------------------------------------------------------------------------------

    def _load(self, url: str, *, remember: bool = True) -> None:
        if remember and self._url:
            self._history.append(self._url)
        saved = self.site.page(url)
        url = saved.url if saved is not None else url  # a URL that redirected: where it led, as a browser shows
        path = self.site.resolve(url)
        key = str(path) if path else ""
        if path is None:
            page, title = parse_html(not_in_snapshot_html(url)), NOT_IN_SNAPSHOT_TITLE
        elif key in self._cache:
            page, title = self._cache[key]
        else:
            snapshot = read_snapshot(path)
            page, title = parse_snapshot(snapshot), snapshot.title or ""
            self._cache[key] = (page, title)
        self._url, self._page, self._title = url, page, title
        self._values = {}
        self._scroll_y = 0.0
        self.visited.append(url)

    def _interactive(self) -> list[Element]:
        if self._page is None:
            return []
        return [e for e in self._page.elements if _is_interactive(e)]

    def _elements(self) -> list[Target]:
        return [Target(label=i, xpath=e.xpath, text=self._text_of(e), role=_role_of(e), name=self._name_of(e))
                for i, e in enumerate(self._interactive(), 1)]

    def _element_of(self, target: Target | None) -> Element:
        if target is None:
            raise TargetNotFoundError("this action needs a target element")
        elements = self._interactive()
        if target.xpath:
            found = next((e for e in elements if e.xpath == target.xpath), None)
        elif target.label is not None and 1 <= target.label <= len(elements):
            found = elements[target.label - 1]
        else:
            found = None
        if found is None:
            which = f"[{target.label}]" if target.label is not None else (target.xpath or "the target")
            raise TargetNotFoundError(f"element {which} is not on {self._url}")
        return found

    def _text_of(self, element: Element) -> str:
        if element.tag in _FIELD_TAGS:
            return self._values.get(element.xpath, element.attrs.get("value") or "")
        return element.text()

    def _name_of(self, element: Element) -> str:
        """The accessible name, in som.js's order (module notes)."""
        attrs = element.attrs
        labelled = self._text_of_ids(attrs.get("aria-labelledby") or "")
        if labelled:
            return labelled
        if _squashed(attrs.get("aria-label")):
            return _squashed(attrs.get("aria-label"))
        if element.tag in _FIELD_TAGS:
            kind = (attrs.get("type") or "").lower()
            if kind == "image" and _squashed(attrs.get("alt")):
                return _squashed(attrs.get("alt"))
            if kind in ("button", "submit", "reset"):
                return _squashed(attrs.get("value")) or {"submit": "Submit", "reset": "Reset"}.get(kind, "")
            label = self._label_of(element)
            if label:
                return label
        else:
            content = _squashed(element.text()) or _squashed(" ".join(
                e.attrs.get("alt") or "" for e in element.iter() if e.tag == "img"))
            if content:
                return content
        return _squashed(attrs.get("title")) or _squashed(attrs.get("placeholder"))

    def _label_of(self, element: Element) -> str:
        """The text of the field's labels: each `<label for=its id>`, and the `<label>` around it that names no
        other (`for` absent, and the field its first labelable element), as a browser's `labels` are."""
        if self._page is None:
            return ""
        ident = element.attrs.get("id")
        labels = [e for e in self._page.elements if e.tag == "label" and ident and e.attrs.get("for") == ident]
        node = element.parent
        while node is not None and node.tag != "label":
            node = node.parent
        if node is not None and node.attrs.get("for") is None and node not in labels:
            first = next((e for e in node.iter() if e is not node and e.tag in _LABELABLE and not (
                e.tag == "input" and (e.attrs.get("type") or "").lower() == "hidden")), None)
            if first is element:
                labels.append(node)
        return _squashed(" ".join(label.text() for label in labels))

    def _text_of_ids(self, ids: str) -> str:
        """The texts of the elements with these ids (aria-labelledby's), in the order named."""
        if not ids.split() or self._page is None:
            return ""
        by_id = {e.attrs.get("id"): e for e in reversed(self._page.elements) if e.attrs.get("id")}
        return _squashed(" ".join(by_id[i].text() for i in ids.split() if i in by_id))

    # -- actions --------------------------------------------------------------------------------------------

    def _click(self, element: Element) -> None:
        if element.tag == "a" and element.attrs.get("href") is not None:
            self._load(urljoin(self._url, element.attrs.get("href") or ""))
        elif _submits(element):
            self._submit(element, element)

    def _submit(self, field: Element, button: Element | None) -> None:
        form = _form_of(field)
        if form is None:
            return
        pairs: list[tuple[str, str]] = []
        for element in form.iter():
            name = element.attrs.get("name")
            if element.tag not in (*_FIELD_TAGS, "button") or not name:
                continue
            if _submits(element) and element is not button:
                continue
            kind = (element.attrs.get("type") or "").lower()
            if kind in ("checkbox", "radio") and "checked" not in element.attrs:
                continue
            pairs.append((name, self._values.get(element.xpath, element.attrs.get("value") or "")))
        action = urljoin(self._url, form.attrs.get("action") or self._url)
        scheme, netloc, path, _, _ = urlsplit(action)
        self._load(urlunsplit((scheme, netloc, path, urlencode(pairs), "")))


def _is_interactive(element: Element) -> bool:
    if element.tag == "a":
        return element.attrs.get("href") is not None
    if element.tag == "input":
        return (element.attrs.get("type") or "").lower() != "hidden"
    return element.tag in ("button", "textarea", "select")


def _takes_text(element: Element) -> bool:
    """Whether Type can fill the element (som.js's isTextField): a text area, a text-like input, a text box by role
    or an editable element."""
    kind = (element.attrs.get("type") or "").lower()
    role = _squashed(element.attrs.get("role"))
    editable = "contenteditable" in element.attrs and \
        (element.attrs.get("contenteditable") or "").lower() in ("", "true", "plaintext-only")
    return (element.tag == "textarea" or (element.tag == "input" and kind in _TEXT_INPUTS)
            or role in ("textbox", "searchbox") or editable)


def _squashed(text: str | None) -> str:
    return " ".join((text or "").split())


def _submits(element: Element) -> bool:
    kind = (element.attrs.get("type") or "").lower()
    if element.tag == "button":
        return kind in ("", "submit")
    return element.tag == "input" and kind in ("submit", "image")


def _role_of(element: Element) -> str:
    if element.attrs.get("role"):
        return element.attrs["role"] or ""
    if element.tag == "a":
        return "link"
    if element.tag == "button":
        return "button"
    if element.tag == "select":
        return "combobox"
    kind = (element.attrs.get("type") or "text").lower()
    if element.tag == "input" and kind in _BUTTON_INPUTS:
        return "button"
    return _INPUT_ROLES.get(kind, "textbox")


def _form_of(element: Element) -> Element | None:
    node = element.parent
    while node is not None and node.tag != "form":
        node = node.parent
    return node
