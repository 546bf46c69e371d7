"""A page's form controls as a browser holds them, and what a form sends: core's text browser keeps its page's
forms here, so that it fills and submits them as the Qt browser (Chromium) does. The rules are HTML's form
submission where Chromium follows it, Chromium's where they part (tests/app/test_qt_browser_forms.py compares):

- a field's value is its sanitized value: what was typed (cut at `maxlength`; a read-only field keeps its own; a
  number field takes only what can make a number) or its markup's; a text field has no line breaks, an e-mail or
  URL no surrounding spaces, a number that is no number is empty, a range sits at its middle, a colour is black;
- a select holds its options marked `selected` (the last only, unless `multiple`), else, as a drop-down, its first
  option that is not disabled (an option is disabled by its `disabled` or its optgroup's);
- a checkbox or radio button is checked by `checked` (of a radio group the last so marked) and by clicks;
- a hidden field the capture kept as a checkbox (hidden_fields.py) is the hidden field it was;
- a form sends, in document order, each named control it owns (those inside it, and those naming it by `form=`)
  but those disabled (by `disabled`, or a disabled fieldset outside its first legend) or in a datalist: a checkbox
  or radio button only when checked (its value, "on" by default), a select's chosen options that are not disabled,
  a text area's text, a file field empty, a button only when it is the one used (a submit input without a value
  as "Submit", Chromium's label; an image as x and y: where it was clicked);
- Enter in a text field submits as a click on the form's first submit button does (nothing when that button is
  disabled), and, with no submit button, only when the form has no other text field; a text area takes Enter as
  a new line;
- a site capture follows a GET form as a click on its default button sends it (`default_submission`): the
  URL an agent's click reaches offline, so the capture holds that page;
- a form whose controls break their constraints (form_validity.py) is not sent, unless `novalidate` or the
  button's `formnovalidate` says so: Chromium shows a bubble and stays;
- GET replaces the action URL's query (its fragment stays) with the entries urlencoded (letters, digits and `-._*`
  kept, a space as +, line breaks as CRLF) in the form's `accept-charset` or UTF-8, the encoding the Qt browser
  serves every page in; POST goes to the action URL as it is (a snapshot has no answer to a request body, and the
  Qt browser follows the URL alone); a dialog form goes nowhere.
"""

from __future__ import annotations

import math
import re
import unicodedata
from decimal import ROUND_FLOOR, Decimal
from urllib.parse import quote_plus, urljoin, urlsplit, urlunsplit

from ..page.charset import WHITESPACE, resolve_charset
from ..page.dom import Element, Page
from .hidden_fields import is_kept_hidden_field

# The input types that take typed text (som.js's TEXT_INPUTS), after `input_type`: Enter in one of them submits.
TEXT_INPUTS = ("text", "search", "email", "url", "tel", "password", "number")
# The types HTML knows; any other type attribute (or none) is a text field.
_INPUT_TYPES = frozenset({"hidden", "text", "search", "tel", "url", "email", "password", "date", "month", "week",
                          "time", "datetime-local", "number", "range", "color", "checkbox", "radio", "file", "submit",
                          "image", "reset", "button"})
SUBMITTABLE = ("button", "input", "select", "textarea")
_LISTED = (*SUBMITTABLE, "fieldset", "object", "output")
_BUTTON_INPUTS = ("submit", "image", "reset", "button")
# Where `maxlength` cuts what is typed, and `readonly` keeps the value.
MAXLENGTH_TYPES = ("text", "search", "url", "tel", "email", "password")
READONLY_TYPES = (*MAXLENGTH_TYPES, "date", "month", "week", "time", "datetime-local", "number")
# Chromium's number field lets through only the characters a number may hold.
_NUMBER_KEYS = frozenset("0123456789+-.eE")
SUBMIT_LABEL = "Submit"  # what Chromium sends for a submit input without a value
_ASCII_SPACE = "\t\n\f\r "
_FLOAT = re.compile(r"-?(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][-+]?\d+)?")
_DATES = {"date": r"\d{4,}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])", "month": r"\d{4,}-(0[1-9]|1[0-2])",
          "week": r"\d{4,}-W(0[1-9]|[1-4]\d|5[0-3])", "time": r"([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,3})?)?"}
_DATES["datetime-local"] = _DATES["date"] + "[T ]" + _DATES["time"]
_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")
# The Encoding Standard's names whose case is not all lower (what `_charset_` sends, as Chromium does); the output
# encodings a form never sends in are replaced with UTF-8.
_NAMES = {"utf-8": "UTF-8", "ibm866": "IBM866", "koi8-r": "KOI8-R", "koi8-u": "KOI8-U", "gbk": "GBK", "big5": "Big5",
          "euc-jp": "EUC-JP", "iso-2022-jp": "ISO-2022-JP", "shift_jis": "Shift_JIS", "euc-kr": "EUC-KR"}
_NOT_SENT_IN = ("replacement", "utf-16be", "utf-16le")


def input_type(element: Element) -> str:
    """An input's type as the browser reads it: its attribute in lower case, or "text" for none or an unknown one;
    "hidden" for a hidden field the capture kept as a checkbox (hidden_fields.py)."""
    if is_kept_hidden_field(element):
        return "hidden"
    kind = (element.attrs.get("type") or "").lower()
    return kind if kind in _INPUT_TYPES else "text"


def is_text_field(element: Element) -> bool:
    """An input that takes typed text, or a text area."""
    return element.tag == "textarea" or (element.tag == "input" and input_type(element) in TEXT_INPUTS)


def is_button(element: Element) -> bool:
    """A button element of any type, or an input drawn as a button: sent only when it is the one used."""
    return element.tag == "button" or (element.tag == "input" and input_type(element) in _BUTTON_INPUTS)


def button_kind(element: Element) -> str:
    """What a button does when clicked: "submit", "reset" or "button" ("" for no button). A button element's type
    defaults to submit, for an unknown value too."""
    if element.tag == "button":
        kind = (element.attrs.get("type") or "").lower()
        return kind if kind in ("reset", "button") else "submit"
    if element.tag == "input":
        kind = input_type(element)
        return "submit" if kind == "image" else kind if kind in _BUTTON_INPUTS else ""
    return ""


def is_disabled(element: Element) -> bool:
    """Whether a form control is disabled: by its own `disabled`, or by a disabled fieldset around it that it is not in
    the first legend of. (A link is never disabled.)"""
    if element.tag not in _LISTED:
        return False
    if "disabled" in element.attrs:
        return True
    child, node = element, element.parent
    while node is not None:
        if node.tag == "fieldset" and "disabled" in node.attrs:
            legend = next((c for c in node.element_children() if c.tag == "legend"), None)
            if legend is None or child is not legend:
                return True
        child, node = node, node.parent
    return False


def in_datalist(element: Element) -> bool:
    node = element.parent
    while node is not None and node.tag != "datalist":
        node = node.parent
    return node is not None


def option_disabled(option: Element) -> bool:
    """An option is disabled by its own `disabled` or its optgroup's."""
    group = option.parent
    return "disabled" in option.attrs or (group is not None and group.tag == "optgroup" and "disabled" in group.attrs)


def options_of(select: Element) -> list[Element]:
    return [e for e in select.iter() if e.tag == "option"]


def non_negative(text: str | None) -> int | None:
    """HTML's rules for parsing a non-negative integer (leading spaces and a + skipped, what follows the digits
    ignored); None for no number."""
    match = re.match(r"[\t\n\f\r ]*\+?(\d+)", text or "")
    return int(match.group(1)) if match else None


def display_size(select: Element) -> int:
    """Chromium's `size`: the attribute's number, 0 when absent or no number (a drop-down up to 1)."""
    return non_negative(select.attrs.get("size")) or 0


def selected_options(select: Element) -> list[Element]:
    """The options a select holds as its markup leaves it (see the module notes)."""
    options = options_of(select)
    marked = [o for o in options if "selected" in o.attrs]
    if "multiple" in select.attrs:
        return marked
    if marked:
        return marked[-1:]
    if display_size(select) <= 1:
        return [o for o in options if not option_disabled(o)][:1]
    return []


def raw_text(element: Element) -> str:
    """The element's text content as written, its text nodes joined untrimmed."""
    parts: list[str] = []
    stack: list[Element | str] = [element]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            parts.append(item)
        else:
            stack.extend(reversed(item.children))
    return "".join(parts)


def _ascii_squashed(text: str) -> str:
    return " ".join(part for part in re.split("[\t\n\f\r ]+", text) if part)


def option_value(option: Element) -> str:
    value = option.attrs.get("value")
    return value if value is not None else _ascii_squashed(raw_text(option))


def parse_float(text: str | None) -> Decimal | None:
    """A valid floating-point number of HTML's, as Chromium holds it: the double it reads (in its shortest decimal
    form), or None, for a text that is no number and for one too large for a double (`1e999999`)."""
    if text is None or not _FLOAT.fullmatch(text):
        return None
    number = float(text)
    return Decimal(repr(number)) if math.isfinite(number) else None


def _decimal_text(number: Decimal) -> str:
    text = format(number.normalize(), "f")
    return "0" if text in ("-0", "") else text


def _range_value(element: Element, value: str) -> str:
    low = parse_float(element.attrs.get("min"))
    high = parse_float(element.attrs.get("max"))
    low = Decimal(0) if low is None else low
    high = Decimal(100) if high is None else high
    high = max(high, low)
    number = parse_float(value)
    number = low + (high - low) / 2 if number is None else min(max(number, low), high)
    step = step_of(element)
    if step is not None:  # to the nearest step from the minimum, the upper one of two, within the range
        steps = ((number - low) / step + Decimal("0.5")).to_integral_value(rounding=ROUND_FLOOR)
        number = low + steps * step
        if number > high:
            number -= step
    return _decimal_text(number)


def step_of(element: Element) -> Decimal | None:
    """A number or range input's step (1 by default), None for "any"."""
    step = element.attrs.get("step")
    if step is not None and step.strip(_ASCII_SPACE).lower() == "any":
        return None
    parsed = parse_float(step)
    return parsed if parsed is not None and parsed > 0 else Decimal(1)


def sanitized(element: Element, value: str) -> str:
    """An input's value as the browser keeps it (HTML's value sanitization)."""
    kind = input_type(element)
    if kind in ("text", "search", "tel", "password"):
        return value.replace("\r", "").replace("\n", "")
    if kind == "url":
        return value.replace("\r", "").replace("\n", "").strip(_ASCII_SPACE)
    if kind == "email":
        value = value.replace("\r", "").replace("\n", "")
        if "multiple" in element.attrs:
            return ",".join(part.strip(_ASCII_SPACE) for part in value.split(","))
        return value.strip(_ASCII_SPACE)
    if kind == "number":
        return value if parse_float(value) is not None else ""
    if kind == "range":
        return _range_value(element, value)
    if kind == "color":
        return value.lower() if _COLOUR.fullmatch(value) else "#000000"
    if kind in _DATES:
        return value if re.fullmatch(_DATES[kind], value) else ""
    return value


def form_encoding(form: Element) -> str:
    """The encoding a form sends in, by the Encoding Standard's name: the first of its `accept-charset` labels that
    the standard knows (as Chromium, which knows no other: `utf-7`, `base64` are no label), else UTF-8, the
    document's; an encoding no form sends in (UTF-16, replacement) is UTF-8 too."""
    for label in re.split(f"[{WHITESPACE}]+", form.attrs.get("accept-charset") or ""):
        charset = resolve_charset(label) if label else None
        if charset is not None:
            name = "utf-8" if charset[0] in _NOT_SENT_IN else charset[0]
            return _NAMES.get(name, name.upper() if name.startswith("iso-8859") else name)
    return "UTF-8"


def form_method(form: Element, submitter: Element | None = None) -> str:
    """How submitting `form` by `submitter` (None: by the form itself) sends it: "post", "dialog" or "get" (for no
    method, or an unknown one)."""
    method = form.attrs.get("method")
    if submitter is not None and "formmethod" in submitter.attrs:
        method = submitter.attrs.get("formmethod")
    method = (method or "").strip(_ASCII_SPACE).lower()
    return method if method in ("post", "dialog") else "get"


def urlencoded(pairs: list[tuple[str, str]], encoding: str = "UTF-8") -> str:
    """The entries as a GET form sends them (Chromium's application/x-www-form-urlencoded) in `encoding` (a name
    `form_encoding` gives): line breaks as CRLF, characters the encoding lacks as `&#N;`, letters, digits and `-._*`
    kept, a space as +, the rest %XX."""
    charset = resolve_charset(encoding)
    codec = "utf-8" if charset is None or charset[0] in _NOT_SENT_IN else charset[1]

    def encoded(text: str) -> str:
        text = re.sub(r"\r\n|\r|\n", "\r\n", text)
        raw = _user_defined(text) if codec == "x-user-defined" else text.encode(codec, errors="xmlcharrefreplace")
        return quote_plus(raw, safe="-._*").replace("~", "%7E")

    return "&".join(f"{encoded(name)}={encoded(value)}" for name, value in pairs)


def _user_defined(text: str) -> bytes:
    """x-user-defined's encoder (no Python codec has it): ASCII as it is, U+F780-U+F7FF as the bytes 0x80-0xFF, any
    other character as `&#N;`."""
    def byte(c: str) -> bytes:
        code = ord(c)
        if code < 0x80 or 0xF780 <= code <= 0xF7FF:
            return bytes([code if code < 0x80 else code - 0xF700])
        return f"&#{code};".encode("ascii")

    return b"".join(byte(c) for c in text)


def base_url_of(page: Page, url: str) -> str:
    """What the links, forms and frames of `page`, shown at `url`, resolve against: its `<base href>`, else `url`."""
    base = next((e for e in page.elements if e.tag == "base" and e.attrs.get("href") is not None), None)
    return urljoin(url, (base.attrs.get("href") or "").strip()) if base is not None else url


def image_click(button: Element | None) -> tuple[int, int]:
    """Where a click on `button` lands, when it is an image button: at its middle (by its width and height), as the
    Qt browser clicks it; (0, 0) for any other button."""
    if button is None or button.tag != "input" or input_type(button) != "image":
        return (0, 0)
    return ((non_negative(button.attrs.get("width")) or 0) // 2, (non_negative(button.attrs.get("height")) or 0) // 2)


def direction(element: Element, value: str) -> str:
    """"ltr" or "rtl": the element's own or inherited `dir` (for `dir=auto`, the first strong letter of `value`, the
    control's value as it is now: what was typed, else its markup's)."""
    node: Element | None = element
    while node is not None:
        said = (node.attrs.get("dir") or "").lower()
        if said in ("ltr", "rtl"):
            return said
        if said == "auto" and node is element:
            strong = next((unicodedata.bidirectional(c) for c in value if unicodedata.bidirectional(c) in
                           ("L", "R", "AL")), "L")
            return "ltr" if strong == "L" else "rtl"
        node = node.parent
    return "ltr"


class FormControls:
    """The state of one page's form controls (what was typed, checked, reset) and what its forms send."""

    def __init__(self, page: Page | None) -> None:
        self.page = page
        self._typed: dict[str, str] = {}   # xpath -> the value typed (before sanitizing)
        self._checked: dict[str, bool] = {}  # xpath -> checkedness changed by a click
        self._ids: dict[str, Element] | None = None

    # -- what a control holds ----------------------------------------------------------------------------------

    def typed(self, element: Element) -> str | None:
        """What was typed into the element, as typed (None: nothing)."""
        return self._typed.get(element.xpath)

    def value(self, element: Element) -> str:
        """The control's value, as its `value` property reads (a select: its first chosen option's value)."""
        if element.tag == "textarea":
            typed = self.typed(element)
            return typed if typed is not None else raw_text(element)
        if element.tag == "select":
            chosen = selected_options(element)
            return option_value(chosen[0]) if chosen else ""
        if element.tag == "button":
            return element.attrs.get("value") or ""
        if element.tag != "input":
            return ""
        kind = input_type(element)
        if kind in ("checkbox", "radio"):
            value = element.attrs.get("value")
            return "on" if value is None else value
        if kind == "file":
            return ""
        if kind in ("hidden", *_BUTTON_INPUTS):
            return element.attrs.get("value") or ""
        typed = self.typed(element)
        return sanitized(element, typed if typed is not None else element.attrs.get("value") or "")

    def checked(self, element: Element) -> bool:
        if element.xpath in self._checked:
            return self._checked[element.xpath]
        if "checked" not in element.attrs:
            return False
        if input_type(element) != "radio":
            return True
        group = self.radio_group(element)  # of several marked checked, the last is
        return [e for e in group if "checked" in e.attrs][-1] is element

    def radio_group(self, radio: Element) -> list[Element]:
        """The radio buttons that share one choice with `radio`: of its form (or none), by its name."""
        name = radio.attrs.get("name") or ""
        if not name or self.page is None:
            return [radio]
        owner = self.form_owner(radio)
        return [e for e in self.page.elements if e.tag == "input" and input_type(e) == "radio"
                and e.attrs.get("name") == name and self.form_owner(e) is owner]

    # -- what a person does ------------------------------------------------------------------------------------

    def type_into(self, element: Element, text: str, *, enter: bool = True) -> None:
        """Select all, type `text` and press Enter (unless not `enter`: a Type said "(no Enter)"), as the Qt browser
        does: a read-only field keeps its value, a number field takes the characters a number may hold, `maxlength`
        cuts, a text area takes the Enter too."""
        kind = input_type(element) if element.tag == "input" else element.tag
        if "readonly" in element.attrs and (element.tag == "textarea" or kind in READONLY_TYPES):
            return
        if kind == "number":
            text = "".join(c for c in text if c in _NUMBER_KEYS)
        if element.tag == "textarea" and enter:
            text += "\n"
        limit = non_negative(element.attrs.get("maxlength"))
        if limit is not None and (element.tag == "textarea" or kind in MAXLENGTH_TYPES):
            text = text[:limit]
        if element.tag == "textarea" or kind in TEXT_INPUTS:
            self._typed[element.xpath] = text

    def click(self, element: Element) -> None:
        """A click on a checkbox (toggled) or a radio button (chosen in its group)."""
        kind = input_type(element) if element.tag == "input" else ""
        if kind == "checkbox":
            self._checked[element.xpath] = not self.checked(element)
        elif kind == "radio":
            for other in self.radio_group(element):
                self._checked[other.xpath] = other is element

    def reset(self, form: Element) -> None:
        """A reset button's click: the form's controls hold their markup's values again."""
        for element in self.controls(form):
            self._typed.pop(element.xpath, None)
            self._checked.pop(element.xpath, None)

    # -- forms -------------------------------------------------------------------------------------------------

    def element_by_id(self, ident: str) -> Element | None:
        if self._ids is None:
            self._ids = {}
            for element in self.page.elements if self.page is not None else ():
                ident_here = element.attrs.get("id")
                if ident_here is not None:
                    self._ids.setdefault(ident_here, element)
        return self._ids.get(ident)

    def form_owner(self, element: Element) -> Element | None:
        """The form a control belongs to: the one its `form` attribute names (none if that is no form's id), else
        the form around it."""
        if "form" in element.attrs and element.tag in _LISTED:
            named = self.element_by_id(element.attrs.get("form") or "")
            return named if named is not None and named.tag == "form" else None
        node = element.parent
        while node is not None and node.tag != "form":
            node = node.parent
        return node

    def controls(self, form: Element) -> list[Element]:
        """The controls a form owns, in document order."""
        if self.page is None:
            return []
        return [e for e in self.page.elements if e.tag in _LISTED and self.form_owner(e) is form]

    def default_button(self, form: Element) -> Element | None:
        return next((e for e in self.controls(form) if button_kind(e) == "submit"), None)

    def entries(self, form: Element, submitter: Element | None, *, encoding: str = "UTF-8",
                click: tuple[int, int] = (0, 0)) -> list[tuple[str, str]]:
        """What the form sends, in order (module notes); `click`: where an image button used was clicked."""
        pairs: list[tuple[str, str]] = []
        for element in self.controls(form):
            if element.tag not in SUBMITTABLE or is_disabled(element) or in_datalist(element):
                continue
            if is_button(element) and element is not submitter:
                continue
            kind = input_type(element) if element.tag == "input" else element.tag
            if kind in ("checkbox", "radio") and not self.checked(element):
                continue
            name = element.attrs.get("name") or ""
            if kind == "image":
                prefix = f"{name}." if name else ""
                pairs += [(f"{prefix}x", str(click[0])), (f"{prefix}y", str(click[1]))]
                continue
            if not name:
                continue
            if kind == "select":
                pairs += [(name, option_value(o)) for o in selected_options(element) if not option_disabled(o)]
                continue
            if kind == "hidden" and name.lower() == "_charset_":
                value = encoding
            elif kind == "submit" and element.attrs.get("value") is None:
                value = SUBMIT_LABEL
            else:
                value = self.value(element)
            pairs.append((name, value))
            dirname = element.attrs.get("dirname")
            if dirname and (kind == "textarea" or kind in TEXT_INPUTS):
                pairs.append((dirname, direction(element, self.value(element))))
        return pairs

    def submission(self, form: Element, submitter: Element | None, *, document_url: str, base_url: str,
                   click: tuple[int, int] = (0, 0)) -> str | None:
        """The URL submitting `form` with `submitter` (None: the form itself) goes to; None for a dialog form,
        which goes nowhere, and for an action that is no URL ("http://[x/"), where the standard's form submission
        ends without going anywhere. Whether its controls let it go is form_validity's `may_submit`."""
        action = form.attrs.get("action")
        if submitter is not None and "formaction" in submitter.attrs:
            action = submitter.attrs.get("formaction")
        method = form_method(form, submitter)
        if method == "dialog":
            return None
        action = (action or "").strip(_ASCII_SPACE)
        try:
            target = urljoin(base_url, action) if action else document_url
            scheme, netloc, path, _, fragment = urlsplit(target)
        except ValueError:  # brackets that hold no IPv6 host: the action cannot be parsed
            return None
        if method == "post":
            return target
        encoding = form_encoding(form)
        query = urlencoded(self.entries(form, submitter, encoding=encoding, click=click), encoding)
        return urlunsplit((scheme, netloc, path, "", "")) + "?" + query + (f"#{fragment}" if fragment else "")

    def default_submission(self, form: Element, *, document_url: str, base_url: str) -> str | None:
        """The URL a GET form goes to when its default button (its first submit button) is clicked, that button's
        name and value sent with the rest; with no submit button, the form's own, as Enter submits it. This is what
        a site capture follows for a form "with its default values": the click an agent makes offline, so both reach
        the same page. None when that click sends no GET (POST, a dialog, a `formmethod` that says so) or goes
        nowhere. (Of several submit buttons only the default is followed: a second may be any action at all.)"""
        button = self.default_button(form)
        if form_method(form, button) != "get":
            return None
        return self.submission(form, button, document_url=document_url, base_url=base_url, click=image_click(button))

    def implicit_submission(self, field: Element) -> tuple[Element, Element | None] | None:
        """What Enter in `field` submits: its form and the button that does it (None: the form itself); None when
        Enter submits nothing (module notes)."""
        form = self.form_owner(field)
        if form is None:
            return None
        button = self.default_button(form)
        if button is not None:
            return None if is_disabled(button) else (form, button)
        fields = [e for e in self.controls(form) if e.tag == "input" and input_type(e) in TEXT_INPUTS]
        return (form, None) if len(fields) <= 1 else None
