"""What an element's own `style` attribute says of one property: the one source of style a reader without style
sheets has (the text browser), since it wins over the page's style sheets."""

from __future__ import annotations

from ..page.dom import Element


def inline_style(element: Element, name: str) -> str | None:
    """The value its `style` attribute gives the element's property `name` (the last one said, in lower case,
    without `!important`), None when it gives none."""
    style = element.attrs.get("style")
    if not style or name not in style.lower():
        return None
    found = None
    for declaration in style.split(";"):
        prop, colon, value = declaration.partition(":")
        if colon and prop.strip().lower() == name:
            value = value.lower().replace("!important", "").strip()
            found = value or found
    return found


# What an element's own `visibility` may say: shown, or kept from view (its box stays, nothing of it is painted).
_VISIBILITY = {"visible": True, "initial": True, "hidden": False, "collapse": False}


def visible_by_style(element: Element, inherited: bool) -> bool:
    """Whether the element is visible by CSS `visibility` as far as its own style attribute tells: its own value
    when it gives one, else what it inherits from the element around it (`inherited`). Visibility is inherited,
    and a child may be made visible again inside an invisible element, as Chromium shows it."""
    return _VISIBILITY.get(inline_style(element, "visibility") or "", inherited)
