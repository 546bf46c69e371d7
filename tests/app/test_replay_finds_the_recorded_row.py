"""Replay clicked "Item number 106" for a recorded click on "Item number 120": the row was out of view, the
recorded box (a viewport place) overlapped row 106 in view, and `locate` searched the numbered elements in view
first, where only the box matched. It then reported "✓ all steps replayed". The XPath, over the whole page, now
comes first, and a box alone never names an element whose XPath, name and text differ from the recorded ones."""

from __future__ import annotations

import pytest

from recordlens.annotator.agent.qt_browser import QtSiteBrowser
from recordlens.annotator.agent.trajectory_replay import replay
from recordlens.core.agent.actions import Step
from recordlens.core.agent.model import Trajectory
from recordlens.core.agent.sites import build_site
from recordlens.core.agent.targets import Target
from recordlens.core.page.mhtml_writer import write_mhtml
from tests.app.agent_helpers import element

pytestmark = pytest.mark.app

BASE = "https://list.example.com"
HOME = f"{BASE}/"


def _page(title: str, body: str) -> str:
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{title}</title></head>"
            f"<body style='font:16px/1.6 sans-serif'>{body}</body></html>")


def _make_list_site(root) -> None:  # noqa: ANN001 - a Path
    rows = "".join(f"<li><a href='/item/{n}'>Item number {n}</a></li>" for n in range(1, 121))
    write_mhtml(root / "home.mhtml", _page("Items", f"<ol>{rows}</ol>"), url=HOME)
    for n in (5, 120):
        write_mhtml(root / f"item{n}.mhtml", _page(f"Item {n}", f"<h1>Item {n}</h1><p>Code: X{n}</p>"),
                    url=f"{BASE}/item/{n}")
    build_site(root)


def _click_then_answer(target: Target) -> Trajectory:
    return Trajectory(task_id="code-120", actor="person:test", steps=[
        Step(action="click", target=target, url=HOME),
        Step(action="answer", value="X120", url=f"{BASE}/item/120"),
    ], answer="X120", stop="answer")


@pytest.mark.timeout(180)
def test_replay_clicks_the_recorded_row_out_of_view_not_the_row_at_its_box(qapp, tmp_path) -> None:
    _make_list_site(tmp_path)
    with QtSiteBrowser(tmp_path, viewport=(1000, 700)) as agent:
        agent.open(HOME)
        in_view = element(agent.observe(), "Item number 5")
        # Recorded with the list scrolled otherwise: row 120 stood where row 5 stands now.
        row_120 = Target(label=47, xpath="/body[1]/ol[1]/li[120]/a[1]", text="Item number 120", role="link",
                         name="Item number 120", bbox=in_view.bbox)
        result = replay(_click_then_answer(row_120), agent, HOME)
        assert result.ok, result.message
        assert agent.url == f"{BASE}/item/120"

        # A row the page does not hold is a failed step, never a click on whatever sits at its box.
        gone = Target(label=47, xpath="/body[1]/ol[1]/li[999]/a[1]", text="Item number 999", role="link",
                      name="Item number 999", bbox=in_view.bbox)
        result = replay(_click_then_answer(gone), agent, HOME)
        assert result.failed_step == 0 and not result.ok, result.message
        assert "no element on the page matches" in result.message
        assert agent.url == HOME
