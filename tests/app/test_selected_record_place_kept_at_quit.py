"""The settings keep, with the scroll at quit, where the selected record started on the page when it showed in the
view (`selected_top`): a start on a page laid out otherwise places the page by it
(tests/app/test_reopen_keeps_the_selection_in_view.py). A value missing, damaged, or kept without a scroll is
none: the page comes back at the offset alone."""

from __future__ import annotations

from pathlib import Path

from recordlens.annotator.settings import Settings


def test_the_selected_records_place_is_kept_with_the_scroll_per_page(tmp_path: Path) -> None:
    settings = Settings()
    settings.remember_selection("/p", "7", [3], 1200, 1342.5625)
    settings.remember_selection("/q", "1", [4], 80)  # nothing selected showed in the view
    path = tmp_path / "annotator.json"
    settings.save(path)
    loaded = Settings.load(path)
    assert loaded.last_scroll("/p", "7") == 1200
    assert loaded.last_selection_top("/p", "7") == 1342.5625  # not rounded: a page laid out alike moves it by 0
    assert loaded.last_selection_top("/p", "8") is None  # left on another page
    assert loaded.last_selection_top("/q", "1") is None
    assert loaded.last_selection_top("/r", "7") is None


def test_a_place_without_a_scroll_or_damaged_is_none() -> None:
    settings = Settings()
    settings.remember_selection("/p", "7", [3], None, 500.0)  # the page not loaded at quit: no scroll, no place
    assert settings.last_selection_top("/p", "7") is None
    for damaged in ('"x"', "true", "NaN", "Infinity", "[1]", "null"):
        value = f'{{"/p": {{"page": "7", "records": [3], "scroll_y": 10, "selected_top": {damaged}}}}}'
        assert Settings(last_selections=value).last_selection_top("/p", "7") is None
    older = '{"/p": {"page": "7", "records": [3], "scroll_y": 10}}'  # kept by a RecordLens before this one
    assert Settings(last_selections=older).last_selection_top("/p", "7") is None
    assert Settings(last_selections=older).last_scroll("/p", "7") == 10
