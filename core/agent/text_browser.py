"""A Qt-free `Browser` over a snapshot site, for tests, the demo's reference trajectories and text-only runs.

It "renders" core's DOM of each saved page: the numbered elements are the links, buttons, form fields and
`<summary>` elements in document order (numbered from 1; a disabled control is not one), with their text, role and
accessible name; there is no layout, so no box and no real screenshot (a blank PNG stands in). An element with
`hidden` (or kept hidden by the capture, hidden_fields.py) is not on show: neither it nor what it holds is numbered
or in the page's text. Nor is an element numbered that its markup keeps from view, as the Qt browser does not number
it: inside an element not displayed (its own style's display: none, a closed dialog), in a closed `<details>` but
for its summary, invisible by the nearest own style's visibility (hidden, collapse) around it, or of its own style's
opacity 0 (`_RenderedByMarkup`); aria-hidden hides nothing from view. A click on a `<details>`' summary opens it (and
closes it again), as in Chromium; the page keeps what was opened until another page is loaded. A field's text is
its value, else its placeholder; a select's, its chosen option's. A click on a link opens the saved page for its URL
(against the page's `<base>`) or the "not in this snapshot" page; a link to a place on the page on show, or to a
script, stays. Typing into a field fills it and presses Enter, which submits its form as Chromium does (a Type
without Enter, "Type [n]; text (no Enter)", only fills it); a submit button submits it, a reset button resets it,
a checkbox or radio button is checked by a click (forms.py says what a form holds and sends, form_validity.py when
it is not sent). Typing into an element that is no text field (a link, a button, a list box) is refused
(`NotATextFieldError`), as the Qt browser refuses it.

Roles and accessible names follow the Qt browser's set-of-mark script (resources/js/som.js), so that the two
browsers show the agent the same elements alike: the name is aria-labelledby's text, else aria-label, else, for a
field, its label (`<label for=id>`, or the `<label>` around it) or a button's value, for a link or a button its text
(or its images' alt), else its title, else its placeholder. An element aria-labelledby names is read as a label is,
its hidden parts left out, unless it is hidden itself: then all of it is read, as Chromium does. A label names a
field it wraps by its own text alone, as Chromium does ("Colour", not the list's options too); another field inside
it gives its value, and hidden text inside it (as far as the markup tells: `hidden`, aria-hidden, its own style's
display or visibility) gives nothing. A password field's value is never read out: Chromium's bullets stand for it,
one a character.

The page's text reads line by line as the Qt browser's does (page_text.py: a block a line; a table row's cells, a
paragraph's inline elements and a form's fields on one line, as Chromium's default styles lay them out). It ends
with its frames' (`frame_texts`), as the Qt browser's does: each frame on show whose document the snapshot holds
(a part of its MHTML, a `srcdoc`, a `data:` URL; core/page/frames.py), frames inside frames after their own, in
document order, each read by the same rules. A frame of the live web has no text, and nothing is fetched for it;
as in the Qt browser, no element inside a frame is numbered.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Callable, Iterator
from itertools import islice
from urllib.parse import urljoin, urlsplit

from ..errors import RecordLensError
from ..page.dataset import parse_snapshot
from ..page.dom import Element, Page, parse_html
from ..page.frames import FRAME_TAGS, frame_document
from ..page.snapshot import Snapshot, read_snapshot
from .actions import Step, password_bullets
from .form_validity import may_submit
from .forms import (
    FormControls,
    base_url_of,
    button_kind,
    display_size,
    image_click,
    input_type,
    is_disabled,
    is_text_field,
    raw_text,
    selected_options,
)
from .hidden_fields import hidden_as, is_hidden, shown_text
from .inline_style import inline_style, visible_by_style
from .model import MAX_PAGE_TEXT, TEXT_PER_SCREEN, Observation
from .page_text import display_kind, page_text
from .sites import NOT_IN_SNAPSHOT_TITLE, Site, not_in_snapshot_html
from .targets import NotATextFieldError, Target, TargetNotFoundError

VIEWPORT = (1280.0, 800.0)
_FIELD_TAGS = ("input", "textarea", "select")
_BUTTON_INPUTS = ("submit", "button", "reset", "image")
_INPUT_ROLES = {"checkbox": "checkbox", "radio": "radio", "range": "slider", "number": "spinbutton"}
# What the Qt browser does not follow (site_browser.py): a script URL never runs, a blank page is no page of a site.
INERT_SCHEMES = ("javascript", "about", "blob", "data")
_INTERACTIVE_TAGS = ("a", "input", "button", "textarea", "select", "summary")
_LABELABLE = ("input", "select", "textarea", "button", "meter", "output", "progress")
# Not displayed by Chromium's default styles, which page_text's walk never enters: no label's text is theirs.
_UNDISPLAYED = frozenset({"script", "style", "noscript", "template"})
MAX_FRAMES = 1000  # frames read on one page at most: Chromium's own limit (kMaxNumberOfFrames)


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
        self._cache: dict[str, tuple[Page, str, tuple[str, ...]]] = {}
        self._history: list[str] = []
        self._url = ""
        self._page: Page | None = None
        self._frame_texts: tuple[str, ...] = ()  # the page on show's frames' texts (they never change here)
        self._title = ""
        self._base = ""  # the URL the page's links and forms are resolved against
        self._in_site = False  # the page on show is a saved page (not the "not in this snapshot" page)
        self._controls = FormControls(None)
        self._toggled: set[int] = set()  # id() of each <details> of the page on show whose summary was clicked
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
        """The page's shown text (its text areas as typed into), then each frame's: joined as the Qt browser joins
        them (site_browser.py)."""
        return "\n".join(filter(None, (page_text(self._page, self._controls), *self._frame_texts)))

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
            self._controls.type_into(element, step.value or "", enter=step.submit)
            # Enter, unless the Type said "(no Enter)"; a text area or an editable element takes it as a new line
            if element.tag == "input" and step.submit:
                chosen = self._controls.implicit_submission(element)
                if chosen is not None:
                    self._submit(*chosen)

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
            shown = not_in_snapshot_html(url, self.site.saved_beside(url))
            page, title, frames = parse_html(shown), NOT_IN_SNAPSHOT_TITLE, ()
        elif key in self._cache:
            page, title, frames = self._cache[key]
        else:
            snapshot = read_snapshot(path)
            page, title = parse_snapshot(snapshot), snapshot.title or ""
            frames = tuple(frame_texts(snapshot, page, base_url_of(page, url)))
            self._cache[key] = (page, title, frames)
        self._url, self._page, self._title, self._frame_texts = url, page, title, frames
        self._base = base_url_of(page, url)
        self._in_site = path is not None
        self._controls = FormControls(page)
        self._toggled = set()
        self._scroll_y = 0.0
        self.visited.append(url)

    def _interactive(self) -> list[Element]:
        if self._page is None:
            return []
        rendered = self._rendered()
        numbered: list[Element] = []
        end = -1  # the place in document order of the last element inside the last numbered one
        for element in self._page.elements:
            # What lies inside a numbered element is left to it, as set-of-mark leaves it (a link inside a
            # `<summary>` is the summary): the elements come in document order, so inside the last one numbered.
            if element.order > end and _is_interactive(element) and rendered(element) and not _transparent(element):
                numbered.append(element)
                end = _last_inside(element).order
        return numbered

    def _rendered(self) -> _RenderedByMarkup:
        """Whether an element of the page on show is rendered, its `<details>` open or closed as clicked."""
        return _RenderedByMarkup(self._is_open)

    def _is_open(self, details: Element) -> bool:
        """Whether the `<details>` is open: as its markup says, unless a click on its summary toggled it."""
        return ("open" in details.attrs) != (id(details) in self._toggled)

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
        """What the element shows (som.js's textOf): a field its value, else its placeholder; a button input its
        value; a select its chosen option."""
        if element.tag == "select":
            chosen = selected_options(element)
            return _squashed(raw_text(chosen[0])) if chosen else ""
        if element.tag == "textarea" or element.tag == "input":
            if element.tag == "input" and input_type(element) in ("button", "submit", "reset"):
                return _squashed(self._controls.value(element))
            return _squashed(self._value_of(element)) or _squashed(element.attrs.get("placeholder"))
        return shown_text(element)  # innerText's: not what is hidden in it

    def _name_of(self, element: Element) -> str:
        """The accessible name, in som.js's order (module notes)."""
        attrs = element.attrs
        labelled = self._text_of_ids(attrs.get("aria-labelledby") or "", element)
        if labelled:
            return labelled
        if _squashed(attrs.get("aria-label")):
            return _squashed(attrs.get("aria-label"))
        if element.tag in _FIELD_TAGS:
            kind = input_type(element) if element.tag == "input" else ""
            if kind == "image" and _squashed(attrs.get("alt")):
                return _squashed(attrs.get("alt"))
            if kind in ("button", "submit", "reset"):
                return _squashed(attrs.get("value")) or {"submit": "Submit", "reset": "Reset"}.get(kind, "")
            label = self._label_of(element)
            if label:
                return label
        else:
            content = _squashed(shown_text(element)) or _squashed(" ".join(
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
                e.tag == "input" and input_type(e) == "hidden")), None)
            if first is element:
                labels.append(node)
        return _squashed(" ".join(self._label_text(label, element) for label in labels
                                  if not _hidden_from_name(label)))

    def _label_text(self, label: Element, field: Element, *, keep_hidden: bool = False) -> str:
        """The label's text as Chromium names `field` by it (som.js `labelContent`): its text nodes joined as
        written; `field` itself, when the label wraps it, adds nothing (a list's options are no part of its name:
        "Colour", not "Colour Red Blue"), another field in it adds its value (a list its chosen option, a password
        field its bullets), and what is hidden adds nothing (`_hidden_from_name`), unless `keep_hidden` (the
        whole of a hidden element aria-labelledby names is read)."""
        parts: list[str] = []
        stack: list[Element | str] = list(reversed(label.children))
        while stack:
            item = stack.pop()
            if isinstance(item, str):
                parts.append(item)
            elif item is not field and (keep_hidden or not _hidden_from_name(item)) and item.tag not in _UNDISPLAYED:
                value = self._embedded_value(item)
                if value is None:
                    stack.extend(reversed(item.children))
                else:
                    parts.append(value)
        return "".join(parts)

    def _embedded_value(self, element: Element) -> str | None:
        """What a field inside a label adds to the label's text: a list its chosen option, a text field its value
        (a password field's as bullets), any other input nothing; None for an element that is no field (its
        content is read)."""
        if element.tag == "select":
            return self._text_of(element)
        if is_text_field(element):
            return self._value_of(element)
        return "" if element.tag == "input" else None

    def _value_of(self, element: Element) -> str:
        """A field's value as Chromium reads it out (som.js `valueOf`): a password field's is a bullet for each
        character (each UTF-16 unit, as Chromium counts them), never the characters, which go into no text or
        name sent anywhere."""
        value = self._controls.value(element)
        return password_bullets(value) if _is_password_field(element) else value

    def is_password_field(self, target: Target) -> bool:
        """Whether `target` is a password field of the page on show (an element of its latest observation): what is
        typed into it is kept masked (actions.masked_password), while the field gets the real text."""
        try:
            return _is_password_field(self._element_of(target))
        except TargetNotFoundError:
            return False

    def _text_of_ids(self, ids: str, field: Element) -> str:
        """The texts of the elements with these ids (aria-labelledby's), in the order named, as Chromium names
        `field` by them (som.js `byIds`): a named element on show is read as a label is, its hidden parts left out;
        one that is hidden itself (or inside a hidden element) is still read, and then all of it, as Chromium reads
        it (accname: a hidden subtree named directly counts whole)."""
        if not ids.split() or self._page is None:
            return ""
        by_id = {e.attrs.get("id"): e for e in reversed(self._page.elements) if e.attrs.get("id")}
        rendered = self._rendered()
        return _squashed(" ".join(
            self._label_text(by_id[i], field, keep_hidden=not rendered(by_id[i]) or _in_aria_hidden(by_id[i]))
            for i in ids.split() if i in by_id))

    # -- actions --------------------------------------------------------------------------------------------

    def _click(self, element: Element) -> None:
        if element.tag == "a":
            if element.attrs.get("href") is not None:
                self._navigate(urljoin(self._base, (element.attrs.get("href") or "").strip()))
            return
        if element.tag == "input" and input_type(element) in ("checkbox", "radio"):
            self._controls.click(element)
            return
        if element.tag == "summary":  # its <details>' own summary opens or closes it; any other does nothing
            details = element.parent
            if details is not None and _summary_of(details) is element:
                self._toggled ^= {id(details)}
            return
        kind = button_kind(element)
        form = self._controls.form_owner(element)
        if form is not None and kind == "submit":
            self._submit(form, element)
        elif form is not None and kind == "reset":
            self._controls.reset(form)

    def _submit(self, form: Element, submitter: Element | None) -> None:
        """Submit `form` by `submitter` (None: by the form itself, Enter in its only field), unless one of its
        controls stops it; an image button counts as clicked at its middle, as the Qt browser clicks it (forms.py's
        `image_click`, where the site capture clicks it too)."""
        if not may_submit(self._controls, form, submitter):
            return
        url = self._controls.submission(form, submitter, document_url=self._url, base_url=self._base,
                                        click=image_click(submitter))
        if url is not None:
            self._navigate(url)

    def _navigate(self, url: str) -> None:
        """Follow a link or a form to `url` as the Qt browser does: a script's URL goes nowhere, a place on the saved
        page on show is on it already."""
        parts = urlsplit(url)
        if parts.scheme.lower() in INERT_SCHEMES:
            return
        if parts.fragment and self._in_site:
            here = self.site.page(self._url)
            if here is not None and self.site.page(url) is here:
                return
        self._load(url)


def frame_texts(snapshot: Snapshot, page: Page, base: str) -> list[str]:
    """The shown text of each frame on show of `page` (a page of `snapshot`, resolved against `base`) whose document
    the snapshot holds, frames inside frames after their own, as the Qt browser lists them (`_shown_frames`); a
    frame without text is left out, as there."""
    texts: list[str] = []
    for frame in islice(_frame_pages(snapshot, page, base, ()), MAX_FRAMES):
        if text := page_text(frame):
            texts.append(text)
    return texts


def _frame_pages(snapshot: Snapshot, page: Page, base: str, ancestors: tuple[str, ...]) -> Iterator[Page]:
    """The parsed documents of `page`'s frames, each followed by its own frames'. A hidden frame takes no room
    (the Qt browser skips a frame of no size). A frame may show what a frame around it shows once, not twice:
    Chromium allows one level of self-reference (some sites depend on it), which ends a frame that names itself."""
    for element in page.elements:
        if element.tag not in FRAME_TAGS or is_hidden(element):
            continue
        document = frame_document(snapshot, element, base)
        if document is None or (document.source and ancestors.count(document.source) > 1):
            continue
        try:
            frame = parse_html(document.html, mhtml=snapshot.kind == "mhtml")
        except RecordLensError:
            continue  # a frame too large to read gives no text; the page around it still reads
        yield frame
        yield from _frame_pages(snapshot, frame, base_url_of(frame, document.url),
                                (*ancestors, document.source))


def _is_interactive(element: Element) -> bool:
    if element.tag not in _INTERACTIVE_TAGS or is_hidden(element):
        return False
    if element.tag == "a":
        return element.attrs.get("href") is not None
    if element.tag == "input":
        return input_type(element) != "hidden" and not is_disabled(element)
    if element.tag == "summary":
        return True
    return element.tag in ("button", "textarea", "select") and not is_disabled(element)


class _RenderedByMarkup:
    """Whether an element is rendered, as far as its markup tells (the page's style sheets are beyond this reader):
    neither it nor an element around it is displayed none (`hidden`, a closed dialog, its own style's display:
    none: `display_kind`) or in the part of a closed `<details>` that is not shown (all but its summary, its first
    `<summary>` child: Chromium lays that part out but shows nothing of it, and the Qt browser's set-of-mark, whose
    hit test never reaches it, leaves it unnumbered), and its visibility, its own style's or else the nearest one
    around it (visibility is inherited), is not hidden or collapse. What the Qt browser leaves unnumbered (som.js
    `shown`: no box, or not visible). aria-hidden hides nothing from view: both browsers number what it holds.
    Each element's answer is kept for the next: one walk up the tree at most for all of a page's elements.
    `is_open` says whether a `<details>` is open (the browser's own state after a click on its summary)."""

    def __init__(self, is_open: Callable[[Element], bool] = lambda details: "open" in details.attrs) -> None:
        self._known: dict[int, tuple[bool, bool]] = {}  # id(element): (displayed, visible)
        self._is_open = is_open

    def __call__(self, element: Element) -> bool:
        displayed, visible = self._state(element)
        return displayed and visible

    def _state(self, element: Element) -> tuple[bool, bool]:
        chain: list[Element] = []
        node: Element | None = element
        while node is not None and id(node) not in self._known:
            chain.append(node)
            node = node.parent
        displayed, visible = self._known[id(node)] if node is not None else (True, True)
        for item in reversed(chain):
            displayed = displayed and hidden_as(item) is None and display_kind(item) is not None \
                and not self._shut_away(item)
            visible = visible_by_style(item, visible)
            self._known[id(item)] = (displayed, visible)
        return displayed, visible

    def _shut_away(self, element: Element) -> bool:
        """Whether the element is a child of a closed `<details>` other than its summary."""
        details = element.parent
        return details is not None and details.tag == "details" and not self._is_open(details) \
            and _summary_of(details) is not element


def _last_inside(element: Element) -> Element:
    """The last element inside `element` in document order (itself when it holds none)."""
    while children := element.element_children():
        element = children[-1]
    return element


def _summary_of(details: Element) -> Element | None:
    """The summary of a `<details>`: its first `<summary>` child, the part shown while it is closed."""
    return next((child for child in details.element_children() if child.tag == "summary"), None)


def _transparent(element: Element) -> bool:
    """Whether its own style gives the element opacity 0 (som.js `shown` leaves it unnumbered; opacity is not
    inherited, so only the element's own counts there)."""
    value = inline_style(element, "opacity")
    if not value:
        return False
    try:
        return float(value[:-1]) / 100 == 0 if value.endswith("%") else float(value) == 0
    except ValueError:
        return False


def _in_aria_hidden(element: Element) -> bool:
    """Whether the element, or one around it, is aria-hidden."""
    node: Element | None = element
    while node is not None:
        if (node.attrs.get("aria-hidden") or "").lower() == "true":
            return True
        node = node.parent
    return False


def _is_password_field(element: Element) -> bool:
    return element.tag == "input" and input_type(element) == "password"


def _takes_text(element: Element) -> bool:
    """Whether Type can fill the element (som.js's isTextField): a text area, a text-like input, a text box by role
    or an editable element."""
    role = _squashed(element.attrs.get("role"))
    editable = "contenteditable" in element.attrs and \
        (element.attrs.get("contenteditable") or "").lower() in ("", "true", "plaintext-only")
    return is_text_field(element) or role in ("textbox", "searchbox") or editable


def _hidden_from_name(element: Element) -> bool:
    """Whether the element adds nothing to a name, with all it holds (som.js `hiddenFromName`), as far as its
    markup tells: not displayed (`hidden`, its own style's display: none, a script), invisible (its own style's
    visibility: hidden or collapse; the page's style sheets are beyond this reader) or aria-hidden."""
    if (element.attrs.get("aria-hidden") or "").lower() == "true":
        return True
    return element.tag in _UNDISPLAYED or display_kind(element) is None or not visible_by_style(element, True)


def _squashed(text: str | None) -> str:
    return " ".join((text or "").split())


def _role_of(element: Element) -> str:
    """The role som.js's roleOf gives: the role attribute's first word, else the element's implicit role."""
    explicit = _squashed(element.attrs.get("role")).split(" ")[0]
    if explicit:
        return explicit
    if element.tag == "a":
        return "link"
    if element.tag in ("button", "summary"):
        return "button"
    if element.tag == "textarea":
        return "textbox"
    if element.tag == "select":
        return "listbox" if "multiple" in element.attrs or display_size(element) > 1 else "combobox"
    kind = input_type(element) if element.tag == "input" else ""
    listed = element.attrs.get("list") is not None
    if kind in _BUTTON_INPUTS:
        return "button"
    if kind == "search":
        return "combobox" if listed else "searchbox"
    return _INPUT_ROLES.get(kind, "combobox" if listed else "textbox")
