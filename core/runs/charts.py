"""Grouped bar charts as PNG files (matplotlib's Agg backend: no display needed), for `bench` and `agent eval`;
`write_png` writes any other chart (the task funnel's) in the same fonts.

A value of None is *missing* (an agreement with no reference, a figure that was not measured): it gets no bar
and an "n/a" mark on the axis in its slot, never a bar of height 0 that reads as a measured zero; the axis spans
every slot, so a mark in the last one stays inside the figure. The legend sits above the plot area, so that it
covers no bar whatever the values, and shows each series in its colour even when it has no bar. Neighbouring
series differ in hue and in lightness (a dark blue, then a light orange), so that they stay apart in print, in
greyscale and to colour-blind readers. A bar can carry a short mark above it (`marks`: what a value is taken
over, e.g. an agreement over "1/8 tasks") and a whisker (`spreads`: the lowest and highest of what a mean is taken
over, e.g. the runs' success rates); with `show_zero` (the agent chart's) a value of 0 is a flat bar marked "0.0",
told apart from a missing one at a glance.

Labels are drawn in any script (`legible`): matplotlib's default font (DejaVu Sans) has no CJK, Thai or many other
letters, so the installed fonts that have a label's characters follow it as fallbacks (matplotlib takes each glyph
from the first family in the list that has it); a character no installed font has is said once, in RecordLens's
own one-line warning, instead of one Python warning per character with its source path. matplotlib draws scalable
fonts only: a character that only a bitmap font has (an emoji, which only the colour Noto Color Emoji has on most
machines) is drawn as a box too, and the warning names that font and says a scalable one is needed.
"""

from __future__ import annotations

import contextlib
import io
import logging
import sys
import unicodedata
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from .. import atomic
from ..command_hints import hint_path
from ..text_forms import written
from ..wording import counted, listed

COLOURS = ("#1f4e8c", "#f5a742", "#3a923a", "#d6404e", "#72b7b2")
MISSING_MARK = "n/a"
ZERO_MARK = "0.0"  # above a value of 0 (`show_zero`): a measured zero, told apart from a missing value
SPREAD_COLOUR = "#333333"

if TYPE_CHECKING:
    from matplotlib.figure import Figure

# Fonts that draw every character as a placeholder box (matplotlib ships the Unicode Consortium's own as its last
# fallback): a font that "has" a glyph this way makes no label legible.
PLACEHOLDER_FAMILIES = ("Last Resort",)
_REGULAR = 400
# A fallback family without a bold face is drawn in its regular one, as meant; matplotlib logs that on stderr.
_WEIGHT_NOTE = "findfont: Failed to find font weight"
_GLYPH_WARNING = r"Glyph \d+ .*missing from"  # matplotlib's per-character UserWarning (3.8: "... current font")


@dataclass(frozen=True)
class Undrawable:
    """An installed font that matplotlib cannot draw (a bitmap font: it draws scalable ones only), by its family
    name and kind ("colour bitmap", "bitmap"; "" for a scalable font it failed to load), and the characters of a
    chart that only it has."""

    family: str
    kind: str
    characters: str


@dataclass(frozen=True)
class Fonts:
    """The font families a chart is drawn in, matplotlib's default first and then the installed fonts that have the
    characters it lacks (matplotlib takes each glyph from the first family that has it), the characters that no
    font it can draw has (drawn as boxes), and of those, the ones that an installed font it cannot draw has."""

    families: tuple[str, ...]
    missing: str
    undrawable: tuple[Undrawable, ...] = ()

    @property
    def in_no_font(self) -> str:
        """The missing characters that no installed font has at all."""
        held = "".join(font.characters for font in self.undrawable)
        return "".join(c for c in self.missing if c not in held)


def fonts_for(texts: Iterable[str]) -> Fonts:
    """The families that draw `texts`: matplotlib's default, then, for the characters it lacks, as few installed
    fonts as cover them (each chosen for the most of those still lacking). Fonts installed since matplotlib listed
    the machine's fonts (it keeps the list in a cache) are looked for before a character is called missing."""
    import matplotlib

    default = tuple(matplotlib.rcParams["font.family"])
    lacking = _drawn_characters(texts) - _characters_of_families(default)
    fallbacks, left = _fallbacks(lacking)
    if left and _list_fonts_installed_since_the_cache():
        fallbacks, left = _fallbacks(lacking)
    return Fonts(default + tuple(fallbacks), "".join(sorted(map(chr, left))), _undrawable_holders(left))


@contextlib.contextmanager
def legible(texts: Iterable[str]) -> Iterator[Fonts]:
    """Within: matplotlib draws in the families of `fonts_for(texts)`, and says nothing of a glyph it lacks (the
    caller says it once, from `Fonts.missing`: `say_missing`), nor of a fallback family's missing bold face."""
    import matplotlib

    fonts = fonts_for(texts)
    with matplotlib.rc_context({"font.family": list(fonts.families)}), warnings.catch_warnings(), \
            _without_weight_notes():
        warnings.filterwarnings("ignore", message=_GLYPH_WARNING, category=UserWarning)
        yield fonts


def say_missing(fonts: Fonts, path: str | Path) -> None:
    """One warning line on stderr naming the characters of the chart at `path` drawn as boxes: those no installed
    font has, and those only a font that charts cannot draw has (named, with what would serve instead)."""
    if not fonts.missing:
        return
    said = [_in_no_font(fonts.in_no_font)] if fonts.in_no_font else []
    said += [_only_in(font) for font in fonts.undrawable]
    print(f"warning: chart {hint_path(path)}: {'; '.join(said)}", file=sys.stderr)


def _in_no_font(characters: str) -> str:
    it = _pronoun(characters)
    return (f"no installed font has {_drawn_as_boxes(characters)}; install a font that has {it} to draw {it}")


def _only_in(font: Undrawable) -> str:
    it = _pronoun(font.characters)
    if not font.kind:
        return (f"only {font.family}, a font matplotlib failed to load, has {_drawn_as_boxes(font.characters)}; "
                f"install another font that has {it} to draw {it}")
    instead = f" ({SCALABLE_EMOJI})" if "Emoji" in font.family else ""
    return (f"only {font.family}, a {font.kind} font, has {_drawn_as_boxes(font.characters)}; charts draw "
            f"scalable fonts only: install a scalable font that has {it} to draw {it}{instead}")


# A scalable emoji font that Debian packages (outlines in black: matplotlib draws no colour glyphs either)
SCALABLE_EMOJI = "such as Symbola: Debian's fonts-symbola has the emoji of Unicode 9 and before"


def _drawn_as_boxes(characters: str) -> str:
    names = [f"{written(c)} (U+{ord(c):04X})" for c in characters]
    box = "a box" if len(characters) == 1 else "boxes"
    return f"{counted(len(names), 'character')} of its labels, drawn as {box}: {listed(names, 8, total=True)}"


def _pronoun(characters: str) -> str:
    return "it" if len(characters) == 1 else "them"


def write_png(path: str | Path, texts: Iterable[str], draw: Callable[[], Figure]) -> Path:
    """The figure that `draw` makes, in fonts that have the characters of `texts` (`legible`), written as a PNG at
    `path` atomically; a character no installed font has is said once (`say_missing`)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with legible(texts) as fonts:
        figure = draw()
        buffer = io.BytesIO()
        try:
            figure.savefig(buffer, format="png")
        finally:
            plt.close(figure)
    written_to = atomic.write_bytes(path, buffer.getvalue())
    say_missing(fonts, path)
    return written_to


def _drawn_characters(texts: Iterable[str]) -> set[int]:
    """The characters of `texts` that need a glyph: not spaces or line breaks, nor control characters."""
    return {ord(c) for text in texts for c in text if not c.isspace() and unicodedata.category(c) != "Cc"}


def _characters_of_families(families: Sequence[str]) -> set[int]:
    """The characters the fonts matplotlib finds for `families` have (a generic family such as sans-serif is its
    first installed member)."""
    from matplotlib import font_manager

    covered: set[int] = set()
    for family in families:
        try:
            found = font_manager.findfont(font_manager.FontProperties(family=[family]), fallback_to_default=False)
        except ValueError:  # not installed: matplotlib passes over it too
            continue
        covered |= _characters_of(str(found), getattr(found, "face_index", 0))
    return covered


def _fallbacks(lacking: set[int]) -> tuple[list[str], set[int]]:
    """The families that have the most of `lacking`, one after another until none has any of what is left (a sans
    font before a serif or monospaced one, then by name, so that one machine always draws alike); what is left."""
    if not lacking:  # the default font draws it all: no other font need be read
        return [], set()
    candidates = _regular_faces()
    chosen: list[str] = []
    left = set(lacking)
    while left and candidates:
        name, has = min(candidates.items(), key=lambda item: (-len(item[1] & left), _style_rank(item[0]), item[0]))
        if not has & left:
            break
        chosen.append(name)
        left -= has
        del candidates[name]
    return chosen, left


def _regular_faces() -> dict[str, frozenset[int]]:
    """Family -> the characters of its regular face, for each installed family that has one (the face matplotlib
    draws plain text in), placeholder fonts left out."""
    from matplotlib import font_manager

    faces: dict[str, frozenset[int]] = {}
    for entry in font_manager.fontManager.ttflist:
        if entry.name in faces or entry.name.startswith(PLACEHOLDER_FAMILIES) or entry.style != "normal" \
                or font_manager.weight_dict.get(entry.weight, entry.weight) != _REGULAR:
            continue
        faces[entry.name] = _characters_of(entry.fname, getattr(entry, "index", 0))
    return faces


def _style_rank(family: str) -> tuple[bool, bool]:
    return "Mono" in family, "Serif" in family


@cache
def _characters_of(path: str, face: int = 0) -> frozenset[int]:
    """The characters the font at `path` (face `face` of a collection) has a glyph for; none when FreeType cannot
    read it (matplotlib skips such a font too)."""
    from matplotlib import font_manager

    font_path = font_manager.FontPath(path, face) if hasattr(font_manager, "FontPath") else path
    try:
        return frozenset(font_manager.get_font(font_path).get_charmap())
    except (OSError, RuntimeError, ValueError):
        return frozenset()


def _undrawable_holders(characters: set[int]) -> tuple[Undrawable, ...]:
    """The installed fonts that matplotlib refused (`_fonts_matplotlib_refuses`) and that have some of
    `characters`, each with those it has (a character two of them have, with the first)."""
    holders: list[Undrawable] = []
    left = set(characters)
    for path in _fonts_matplotlib_refuses() if left else []:
        has = _characters_of(path) & left
        if has:
            family, kind = _family_and_kind(path)
            holders.append(Undrawable(family, kind, "".join(sorted(map(chr, has)))))
            left -= has
    return tuple(holders)


def _fonts_matplotlib_refuses() -> list[str]:
    """The system's fonts that matplotlib's font list does not hold once those installed since its cache are
    added (`_list_fonts_installed_since_the_cache`): bitmap fonts, which it refuses, and files FreeType cannot
    read (which have no characters, `_characters_of`). Sorted, so that one machine always says the same."""
    from matplotlib import font_manager

    known = {str(Path(entry.fname).resolve()) for entry in font_manager.fontManager.ttflist}
    return sorted(path for path in font_manager.findSystemFonts() if str(Path(path).resolve()) not in known)


_SCALABLE = 1 << 0  # FreeType's FT_FACE_FLAG_SCALABLE: outlines (what matplotlib draws)
_COLOUR = 1 << 14  # FT_FACE_FLAG_COLOR: colour glyphs (Noto Color Emoji's bitmaps)


def _family_and_kind(path: str) -> tuple[str, str]:
    """A font's family name and, from FreeType's face flags, what kind of bitmap font it is ("colour bitmap",
    "bitmap"; "" for a scalable one)."""
    from matplotlib import font_manager

    font = font_manager.get_font(path)
    flags = getattr(font.face_flags, "value", font.face_flags)  # an int before matplotlib 3.10, a Flag since
    if flags & _SCALABLE:
        return font.family_name, ""  # refused for another reason than its glyphs' form
    return font.family_name, "colour bitmap" if flags & _COLOUR else "bitmap"


def _list_fonts_installed_since_the_cache() -> bool:
    """Add to matplotlib's font list the system's fonts it does not hold (installed after its cache was made, which
    it never looks at again); whether there were any."""
    from matplotlib import font_manager

    known = {str(Path(entry.fname).resolve()) for entry in font_manager.fontManager.ttflist}
    added = False
    for path in font_manager.findSystemFonts():
        if str(Path(path).resolve()) in known:
            continue
        try:
            font_manager.fontManager.addfont(path)
        except (OSError, RuntimeError, ValueError):  # a font FreeType cannot read: matplotlib skips it too
            continue
        added = True
    return added


class _WithoutWeightNotes(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith(_WEIGHT_NOTE)


@contextlib.contextmanager
def _without_weight_notes() -> Iterator[None]:
    logger = logging.getLogger("matplotlib.font_manager")
    notes = _WithoutWeightNotes()
    logger.addFilter(notes)
    try:
        yield
    finally:
        logger.removeFilter(notes)


def draw_grouped_bars(labels: Sequence[str], series: Sequence[tuple[str, Sequence[float | None]]], *,
                      ylabel: str = "", marks: Mapping[int, Sequence[str | None]] | None = None,
                      spreads: Mapping[int, Sequence[tuple[float, float] | None]] | None = None,
                      show_zero: bool = False):  # noqa: ANN201
    """The figure (a matplotlib Figure): one group of bars per label, one bar per series (name, values), on a
    0..1 scale; `marks` gives series index -> a text per slot drawn above that bar (None: none); `spreads` gives
    series index -> (lowest, highest) per slot, drawn as a whisker over that bar (None: none), a mark above it;
    `show_zero` draws a value of 0 as a flat bar in its series' colour marked ZERO_MARK (else it has no height).
    Its texts are in fonts that have their characters (`legible`)."""
    import matplotlib

    matplotlib.use("Agg")
    with legible(_texts(labels, series, ylabel, marks)):
        return _draw_grouped_bars(labels, series, ylabel=ylabel, marks=marks, spreads=spreads, show_zero=show_zero)


def _texts(labels: Sequence[str], series: Sequence[tuple[str, Sequence[float | None]]], ylabel: str,
           marks: Mapping[int, Sequence[str | None]] | None) -> list[str]:
    """Every text a grouped bar chart draws."""
    written_marks = [mark for texts in (marks or {}).values() for mark in texts if mark]
    return [*labels, *(name for name, _ in series), ylabel, *written_marks, MISSING_MARK, ZERO_MARK]


def _draw_grouped_bars(labels: Sequence[str], series: Sequence[tuple[str, Sequence[float | None]]], *,
                       ylabel: str, marks: Mapping[int, Sequence[str | None]] | None,
                       spreads: Mapping[int, Sequence[tuple[float, float] | None]] | None,
                       show_zero: bool):  # noqa: ANN202
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch

    count = max(len(series), 1)
    width = 0.8 / count
    figure, axis = plt.subplots(figsize=(max(4.5, 1.4 * len(labels) + 1), 3.8), dpi=120)
    whisker_top = 0.0
    for index, (name, values) in enumerate(series):
        offset = (index - (count - 1) / 2) * width
        colour = COLOURS[index % len(COLOURS)]
        present = [(i, float(v)) for i, v in enumerate(values) if v is not None]
        axis.bar([i + offset for i, _ in present], [v for _, v in present], width, label=name, color=colour)
        for i, value in enumerate(values):
            if value is None:
                axis.text(i + offset, 0.01, MISSING_MARK, ha="center", va="bottom", fontsize=7, color=colour,
                          fontweight="bold")
        spread_of = (spreads or {}).get(index, ())
        tops = _whiskers(axis, values, spread_of, offset)
        whisker_top = max([whisker_top, *(s[1] for s in spread_of if s is not None)])
        texts = list((marks or {}).get(index, ()))
        if show_zero:
            texts = _zeros(axis, values, texts, offset, width, colour)
        for i, mark in enumerate(texts):
            if mark and i < len(values) and values[i] is not None:  # kept under the top, where the legend is
                axis.text(i + offset, min(tops[i] + 0.01, 0.93), mark, ha="center", va="bottom",
                          fontsize=6, color="#333333")
    # Bars alone set the limits: a missing value in the last slot would fall outside the axis.
    axis.set_xlim(-0.5, len(labels) - 0.5)
    axis.set_xticks(range(len(labels)), list(labels), fontsize=8)
    axis.set_ylim(0, 1.04 if whisker_top >= 0.98 else 1.0)  # a whisker's cap at 1.0 is not cut by the frame
    if ylabel:
        axis.set_ylabel(ylabel)
    # Handles of the series' own colours: a series with no value at all (no reference anywhere) has no bar, and
    # matplotlib's legend would show it in its default blue, beside the first series' blue.
    handles = [Patch(facecolor=COLOURS[i % len(COLOURS)], label=name) for i, (name, _) in enumerate(series)]
    axis.legend(handles=handles, loc="lower left", bbox_to_anchor=(0.0, 1.01), fontsize=8, ncols=count,
                frameon=False, borderaxespad=0.0)
    axis.grid(axis="y", alpha=0.3)
    figure.tight_layout()
    return figure


def _whiskers(axis, values: Sequence[float | None], spreads: Sequence[tuple[float, float] | None],  # noqa: ANN001
              offset: float) -> list[float]:
    """Draw each slot's spread as a whisker (dark, outlined in white so that it shows over a dark bar too); the
    top of each slot's bar or whisker, for the mark above it."""
    from matplotlib import patheffects

    tops = [float(v) if v is not None else 0.0 for v in values]
    for i, spread in enumerate(spreads):
        if spread is None or i >= len(values) or values[i] is None:
            continue
        value = float(values[i])  # type: ignore[arg-type]
        below, above = max(0.0, value - spread[0]), max(0.0, spread[1] - value)
        drawn = axis.errorbar(i + offset, value, yerr=[[below], [above]], fmt="none", ecolor=SPREAD_COLOUR,
                              elinewidth=1.0, capsize=3)
        for artist in (*drawn.lines[1], *drawn.lines[2]):
            artist.set_path_effects([patheffects.withStroke(linewidth=2.5, foreground="white")])
        tops[i] = max(tops[i], spread[1])
    return tops


def _zeros(axis, values: Sequence[float | None], marks: Sequence[str | None], offset: float,  # noqa: ANN001
           width: float, colour: str) -> list[str | None]:
    """Draw each value of 0 as a flat bar in its series' colour (a bar of height 0 shows nothing, and would read as
    missing); the marks with ZERO_MARK put before each such slot's own."""
    texts = [*marks, *[None] * (len(values) - len(marks))]
    for i, value in enumerate(values):
        if value is not None and float(value) == 0.0:
            axis.hlines(0.0, i + offset - width / 2, i + offset + width / 2, colors=colour, linewidth=3,
                        clip_on=False)
            texts[i] = " ".join(m for m in (ZERO_MARK, texts[i]) if m)
    return texts


def grouped_bars(path: str | Path, labels: Sequence[str], series: Sequence[tuple[str, Sequence[float | None]]], *,
                 ylabel: str = "", marks: Mapping[int, Sequence[str | None]] | None = None,
                 spreads: Mapping[int, Sequence[tuple[float, float] | None]] | None = None,
                 show_zero: bool = False) -> Path:
    """Draw `draw_grouped_bars` into a PNG at `path` (written atomically, `write_png`, whose fonts it is drawn in)."""
    return write_png(path, _texts(labels, series, ylabel, marks), lambda: _draw_grouped_bars(
        labels, series, ylabel=ylabel, marks=marks, spreads=spreads, show_zero=show_zero))
