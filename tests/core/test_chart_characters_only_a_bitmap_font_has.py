"""A chart label character that only a font matplotlib cannot draw has (an emoji: on most machines only Noto Color
Emoji, a colour bitmap font, which `make system-deps` installs) is drawn as a box, and the warning says so truly:
it named no font and told the user to install one that has the character, though one was installed and a second
would have changed nothing unless scalable."""

from __future__ import annotations

from pathlib import Path

import pytest
from matplotlib import font_manager

from recordlens.core.runs.charts import Fonts, Undrawable, fonts_for, say_missing, write_png

ROCKET = "\U0001f680"
NOT_IN_ANY_FONT = "\u0378"  # unassigned: no font has it


def system_font_named(family: str) -> str | None:
    for path in font_manager.findSystemFonts():
        try:
            if font_manager.get_font(path).family_name == family:
                return path
        except (OSError, RuntimeError, ValueError):
            continue
    return None


def warning_for(fonts: Fonts, capsys: pytest.CaptureFixture[str]) -> str:
    say_missing(fonts, "c.png")
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1, lines
    return lines[0]


def test_a_character_only_a_colour_bitmap_font_has_names_it_and_a_scalable_one(
        capsys: pytest.CaptureFixture[str]) -> None:
    emoji = Undrawable("Noto Color Emoji", "colour bitmap", ROCKET)
    said = warning_for(Fonts(("sans-serif",), ROCKET, (emoji,)), capsys)
    assert said == ("warning: chart c.png: only Noto Color Emoji, a colour bitmap font, has 1 character of its "
                    "labels, drawn as a box: '\U0001f680' (U+1F680); charts draw scalable fonts only: install a "
                    "scalable font that has it to draw it (such as Symbola: Debian's fonts-symbola has the emoji "
                    "of Unicode 9 and before)")


def test_characters_in_no_font_and_in_a_bitmap_font_are_said_apart_in_one_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    emoji = Undrawable("Noto Color Emoji", "colour bitmap", ROCKET)
    said = warning_for(Fonts(("sans-serif",), NOT_IN_ANY_FONT + ROCKET, (emoji,)), capsys)
    no_font, bitmap = said.split("; only ")
    assert no_font == ("warning: chart c.png: no installed font has 1 character of its labels, drawn as a box: "
                       "'\\u0378' (U+0378); install a font that has it to draw it")
    assert bitmap.startswith("Noto Color Emoji, a colour bitmap font, has 1 character") and "U+0378" not in bitmap


def test_an_installed_font_matplotlib_refuses_is_named_not_said_missing(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # the one font that has 検, refused as matplotlib refuses a bitmap font (whatever this machine's fonts are)
    having = [entry for entry in font_manager.fontManager.ttflist
              if ord("検") in font_manager.get_font(entry.fname).get_charmap()]
    if not having:
        pytest.skip("no installed font has CJK characters")
    refused = {str(Path(entry.fname).resolve()) for entry in having}
    kept = [entry for entry in font_manager.fontManager.ttflist if entry not in having]
    monkeypatch.setattr(font_manager.fontManager, "ttflist", kept)
    add = font_manager.fontManager.addfont

    def addfont(path: str) -> None:
        if str(Path(path).resolve()) in refused:
            raise NotImplementedError("Non-scalable fonts are not supported")  # matplotlib's own words
        add(path)

    monkeypatch.setattr(font_manager.fontManager, "addfont", addfont)
    fonts = fonts_for(["検"])
    assert "検" in fonts.missing and fonts.in_no_font == ""
    families = {font_manager.get_font(entry.fname).family_name for entry in having}
    assert len(fonts.undrawable) == 1 and fonts.undrawable[0].family in families, fonts
    said = warning_for(fonts, capsys)
    assert "no installed font has" not in said
    assert f"only {fonts.undrawable[0].family}, a font matplotlib failed to load, has 1 character" in said


def test_an_emoji_in_a_chart_is_said_to_be_in_the_colour_emoji_font_only(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if system_font_named("Noto Color Emoji") is None:
        pytest.skip("fonts-noto-color-emoji is not installed (make system-deps installs it)")
    import matplotlib.pyplot as plt

    write_png(tmp_path / "c.png", [f"{ROCKET} launch"], lambda: plt.figure())
    said = capsys.readouterr().err
    assert "no installed font has" not in said, said
    assert "only Noto Color Emoji, a colour bitmap font, has 1 character" in said and "fonts-symbola" in said
