"""A step's target and the rule that finds it again on a page: by numbered label, XPath, role and name,
text, and finally by box overlap. This is what lets replay survive drift."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import AgentError
from ..wording import with_article

BBox = tuple[float, float, float, float]  # x, y, width, height in CSS pixels of the viewport


class TargetNotFoundError(AgentError):
    """A step's target is not on the current page under any of its identities."""


class NotATextFieldError(AgentError):
    """A Type aimed at an element that takes no typed text (a link, a button, a list box): both browsers refuse it
    alike, a failed step that says so, where core's browser did nothing and QtWebEngine pressed Enter on the
    element (following a link), each recorded as a step that worked."""

    @classmethod
    def of(cls, target: Target) -> NotATextFieldError:
        """The refusal of a Type into `target` (its number and role say which element), in both browsers' words."""
        which = f"[{target.label}]" if target.label is not None else repr(target.name or target.text or "?")
        what = with_article(target.role) if target.role else "an element"
        return cls(f"element {which} is {what}, not a text field: nothing was typed (Type fills a text box or a "
                   "search box; a link or a button is clicked)")


@dataclass(frozen=True)
class Target:
    """One element of a page, by every identity we know: a set-of-mark number can drift between observations,
    an XPath between versions of a page, a text between languages; together they find the element again.

    The numbered elements of an `Observation` are Targets too (with `label` set)."""

    label: int | None = None  # the number drawn on the set-of-mark screenshot
    xpath: str | None = None  # absolute, core's addressing (/body[1]/div[2]/a[1])
    text: str = ""            # visible text (for a field: its value or placeholder)
    role: str = ""            # ARIA role, explicit or implied: link, button, textbox, searchbox, combobox...
    name: str = ""            # accessible name
    bbox: BBox | None = None

    def as_dict(self) -> dict[str, Any]:
        """Only the identities that are known, so stored targets stay small and readable."""
        out: dict[str, Any] = {}
        if self.label is not None:
            out["label"] = self.label
        if self.xpath:
            out["xpath"] = self.xpath
        for key in ("text", "role", "name"):
            if getattr(self, key):
                out[key] = getattr(self, key)
        if self.bbox is not None:
            out["bbox"] = list(self.bbox)
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Target:
        bbox = data.get("bbox")
        label = data.get("label")
        return cls(label=int(label) if label is not None else None, xpath=data.get("xpath") or None,
                   text=str(data.get("text") or ""), role=str(data.get("role") or ""),
                   name=str(data.get("name") or ""),
                   bbox=tuple(float(v) for v in bbox) if bbox else None)  # type: ignore[arg-type]



MIN_BOX_OVERLAP = 0.5  # intersection over union


def find_target(target: Target, elements: Sequence[Target]) -> Target | None:
    """The element of `elements` that `target` names, or None. This is what lets replay survive drift.

    Identities are tried in this order, each only when the target has it:
      1. XPath, exactly;
      2. role and accessible name, both equal (case and spacing ignored);
      3. text, equal (case and spacing ignored);
      4. bounding box, intersection over union at least 0.5 (the largest wins), only to choose among the
         elements an identity above matched, or for a target known by its box alone: a box is a place in the
         viewport, and after another scroll or in another viewport an unrelated element sits there (a replay
         clicked row 106 of a list for row 120 when its XPath was out of view);
      5. label (the set-of-mark number), only for a target that has none of the identities above (what a model
         gives): numbers are per screenshot, so on a page where nothing else matches a label names some other
         element.
    The first identity that singles out one element decides. When an identity matches several elements, the
    later identities choose among those; if none can, the first in document order is taken."""
    pool: Sequence[Target] = elements
    narrowed = False
    for applies, matches in _IDENTITIES:
        if not applies(target):
            continue
        if matches is _by_box and not narrowed and _has_words(target):
            break  # the box alone never names an element the target's XPath, name and text did not find
        hits = matches(target, pool)
        if len(hits) == 1:
            return hits[0]
        if hits:
            pool, narrowed = hits, True
    if narrowed:
        return pool[0]
    if _has_only_label(target):
        return next((e for e in elements if e.label == target.label), None)
    return None


def targets_match(a: Target | None, b: Target | None) -> bool:
    """Two steps aim at the same element: both have no target; or both have the same XPath; or, where the XPaths
    differ or one is unknown (a page's layout drifted between snapshots), the same text and accessible name (and
    role, where both have one). Boxes never decide between targets with other identities: they are viewport
    positions, and after different scrolls or in different viewports unrelated rows of a list share them. A
    target with no XPath, text or name is matched as `find_target(a, [b])` finds it (by box, or by label)."""
    if a is None or b is None:
        return a is None and b is None
    if a.xpath and b.xpath and a.xpath == b.xpath:
        return True
    if _has_words(a) or _has_words(b):
        return _same_words(a, b)
    return find_target(a, [b]) is not None


def _has_words(target: Target) -> bool:
    """Whether the target has an identity besides its box and label: an XPath, a text or a name."""
    return bool(target.xpath or target.text.strip() or target.name.strip())


def _same_words(a: Target, b: Target) -> bool:
    """The same visible text and accessible name (one of them not empty), and the same role where both say."""
    if not (a.text.strip() or a.name.strip()):
        return False
    roles_agree = not (a.role and b.role) or folded(a.role) == folded(b.role)
    return roles_agree and folded(a.text) == folded(b.text) and folded(a.name) == folded(b.name)


def folded(text: str | None) -> str:
    """A text as identities compare it: in Unicode compatibility form (NFKC: a decomposed "é" is the composed
    one, a full-width "Ａ" an "A"), case folded, whitespace runs as one space. The agent's one way to compare an
    element's name or text, a typed value, and a gold answer with a page's text (`candidates.SiteText`).

    Accents are kept, unlike a search's `text_search.folded`: an answer is scored with its accents (no rule of
    `answers.normalise_answer` drops them), so its evidence must keep them too, and "resume" typed into a search
    box is not "résumé"."""
    return " ".join(unicodedata.normalize("NFKC", text or "").casefold().split())


def _has_only_label(target: Target) -> bool:
    return target.label is not None and not (target.xpath or target.text.strip() or target.bbox
                                             or (target.role and target.name.strip()))


def _iou(a: BBox, b: BBox) -> float:
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    width = min(ax + aw, bx + bw) - max(ax, bx)
    height = min(ay + ah, by + bh) - max(ay, by)
    if width <= 0 or height <= 0:
        return 0.0
    inter = width * height
    union = aw * ah + bw * bh - inter
    return inter / union if union > 0 else 0.0


def _by_box(target: Target, pool: Sequence[Target]) -> list[Target]:
    assert target.bbox is not None
    scored = [(e, _iou(target.bbox, e.bbox)) for e in pool if e.bbox is not None]
    scored = [(e, s) for e, s in scored if s >= MIN_BOX_OVERLAP]
    if not scored:
        return []
    best = max(s for _, s in scored)
    return [e for e, s in scored if s == best]


_IDENTITIES: tuple[tuple[Callable[[Target], bool], Callable[[Target, Sequence[Target]], list[Target]]], ...] = (
    (lambda t: bool(t.xpath), lambda t, pool: [e for e in pool if e.xpath == t.xpath]),
    (lambda t: bool(t.role and t.name.strip()),
     lambda t, pool: [e for e in pool if folded(e.role) == folded(t.role) and folded(e.name) == folded(t.name)]),
    (lambda t: bool(t.text.strip()), lambda t, pool: [e for e in pool if folded(e.text) == folded(t.text)]),
    (lambda t: t.bbox is not None, _by_box),
)
