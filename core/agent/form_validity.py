"""Whether a form may be sent: HTML's constraint validation, as Chromium applies it before it submits (a control
that breaks a constraint stops the submission; Chromium shows a bubble on it and the page stays). Core's text
browser asks this before it submits a form (forms.py holds what the controls hold).

The constraints checked: `required` (a field left empty, a checkbox unchecked, a radio group with none chosen, a
select on no option or on its placeholder option, a file field: no file is ever chosen here); an e-mail or URL
field whose value is none; `pattern`; a number field's typed text that makes no number, its `min`, `max` and
`step`; `minlength` of typed text. A control disabled, read-only, in a datalist, hidden or a button is not
checked, and neither is a form with `novalidate` or sent by a button with `formnovalidate`."""

from __future__ import annotations

import contextlib
import re
from fractions import Fraction

from ..page.dom import Element
from .forms import (
    MAXLENGTH_TYPES,
    READONLY_TYPES,
    SUBMITTABLE,
    FormControls,
    display_size,
    in_datalist,
    input_type,
    is_button,
    is_disabled,
    non_negative,
    option_value,
    options_of,
    parse_float,
    selected_options,
    step_of,
)

_PATTERN_TYPES = ("text", "search", "tel", "url", "email", "password")
# HTML's valid e-mail address (the domain in its ASCII form, as Chromium checks it).
_EMAIL = re.compile(r"[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?"
                    r"(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*")
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")
_HOSTED = ("http", "https", "ws", "wss", "ftp")  # URLs that are no URL without a host
_DOUBLE_STEPS = 2**53  # a double's mantissa: further from the base than this many steps, a step is below its precision


def may_submit(controls: FormControls, form: Element, submitter: Element | None) -> bool:
    """Whether submitting `form` (by `submitter`, None: by the form itself) goes ahead."""
    if "novalidate" in form.attrs or (submitter is not None and "formnovalidate" in submitter.attrs):
        return True
    return not any(breaks_constraints(controls, element) for element in controls.controls(form))


def breaks_constraints(controls: FormControls, element: Element) -> bool:
    """Whether the control, as it is now, breaks one of the constraints (module notes) that stop a submission."""
    if element.tag not in SUBMITTABLE or is_disabled(element) or in_datalist(element) or is_button(element):
        return False
    kind = input_type(element) if element.tag == "input" else element.tag
    if kind == "hidden" or ("readonly" in element.attrs and (kind == "textarea" or kind in READONLY_TYPES)):
        return False
    required = "required" in element.attrs
    if kind == "select":
        return required and _no_choice(element)
    if kind == "checkbox":
        return required and not controls.checked(element)
    if kind == "radio":
        group = controls.radio_group(element)
        return any("required" in e.attrs for e in group) and not any(controls.checked(e) for e in group)
    if kind == "file":
        return required
    if kind in ("range", "color"):
        return False
    value = controls.value(element)
    typed = controls.typed(element)
    if kind == "number" and typed and not value:  # typed, but no number
        return True
    if not value:
        return required
    if kind == "email" and not all(_is_email(v) for v in _emails(element, value)):
        return True
    if kind == "url" and not _is_url(value):
        return True
    if kind in _PATTERN_TYPES and not _matches_pattern(element, kind, value):
        return True
    if kind == "number" and _out_of_steps(element, value):
        return True
    shortest = non_negative(element.attrs.get("minlength"))
    return (typed is not None and shortest is not None and (kind == "textarea" or kind in MAXLENGTH_TYPES)
            and len(value) < shortest)


def _no_choice(select: Element) -> bool:
    """A required select is missing its value: no option chosen, or a drop-down on its placeholder option (a first
    option with an empty value, not in an optgroup)."""
    chosen = selected_options(select)
    if not chosen:
        return True
    if "multiple" in select.attrs or display_size(select) > 1:
        return False
    first = options_of(select)[0]
    return chosen[0] is first and first.parent is select and option_value(first) == ""


def _emails(element: Element, value: str) -> list[str]:
    return value.split(",") if "multiple" in element.attrs else [value]


def _is_email(value: str) -> bool:
    local, at, domain = value.rpartition("@")
    with contextlib.suppress(UnicodeError):  # an international domain is checked in its ASCII form
        domain = domain.encode("idna").decode("ascii")
    return bool(at) and _EMAIL.fullmatch(f"{local}@{domain}") is not None


def _is_url(value: str) -> bool:
    """Whether the value is an absolute URL (a scheme, and a host for the schemes that need one)."""
    scheme = _SCHEME.match(value)
    if scheme is None:
        return False
    if scheme.group(0)[:-1].lower() not in _HOSTED:
        return True
    host = re.split(r"[/\\?#]", value[scheme.end():].lstrip("/\\"), maxsplit=1)[0]
    return bool(host) and not any(c.isspace() for c in host)


def _matches_pattern(element: Element, kind: str, value: str) -> bool:
    """Whether every value matches the whole `pattern` (an invalid pattern, or none, checks nothing)."""
    pattern = element.attrs.get("pattern")
    if pattern is None:
        return True
    try:
        compiled = re.compile(f"(?:{pattern})")
    except re.error:
        return True
    values = _emails(element, value) if kind == "email" else [value]
    return all(compiled.fullmatch(v) is not None for v in values)


def _out_of_steps(element: Element, value: str) -> bool:
    """A number below `min`, above `max`, or off its steps (counted from `min`, else from its markup's value)."""
    number = parse_float(value)
    if number is None:
        return False
    low, high = parse_float(element.attrs.get("min")), parse_float(element.attrs.get("max"))
    if (low is not None and number < low) or (high is not None and number > high):
        return True
    step = step_of(element)
    if step is None:
        return False
    base = low if low is not None else parse_float(element.attrs.get("value"))
    distance = abs(Fraction(number) - Fraction(base if base is not None else 0))  # exact: never out of precision
    steps = Fraction(step)
    if distance > steps * _DOUBLE_STEPS:  # Chromium's: past a double's precision, no number is off its steps
        return False
    return distance % steps != 0
