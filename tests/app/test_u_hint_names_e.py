"""U with no element picked said "click an element into the selected record first": the keyboard's way to pick
one (Ctrl+2, Tab, E) went unsaid (the keyboard verification, finding 10)."""

from __future__ import annotations

import pytest

from tests.app.window_helpers import key, said

pytestmark = pytest.mark.app


def test_u_with_nothing_picked_names_the_keyboard_way_to_pick_an_element(window):
    window.select_records([window.labels[0].id])
    key(window, "U")
    assert "click an element into the selected record first" in said(window)
    assert "Ctrl+2, Tab to the element, then E" in said(window)
