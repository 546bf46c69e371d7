"""Make docs/trajectory-viewer.png: record the demo task comparison-1 with real input, replay it, show a step.

Run from the repository root, on a machine without a display too:
    xvfb-run -a .venv/bin/python docs/trajectory_viewer_screenshot.py   (or QT_QPA_PLATFORM=offscreen)
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from recordlens.annotator import qt_env  # noqa: E402

app = qt_env.create_application([sys.argv[0]])

from recordlens.annotator.agent_window import AgentWindow  # noqa: E402
from recordlens.annotator.event_loop import spin  # noqa: E402
from tests.app.agent_helpers import alt_left, click, element, type_text, wait_for  # noqa: E402

TITLE = "Graph Message Passing with Learned Halting"


def main(out: Path) -> None:
    window = AgentWindow(person="ana")
    window.resize(1500, 900)  # the size the pages are recorded at
    window.show()
    window.activateWindow()
    spin(300)
    panel, recorder, browser = window.panel, window.recorder, window.browser
    panel.choose(next(t for t in panel.tasks if t.id == "comparison-1"))
    panel.toggle()

    def recorded(n: int) -> None:
        wait_for(lambda: len(recorder.steps) >= n and not recorder._busy)  # noqa: SLF001

    spin(1200)  # a person reads the task first
    type_text(browser, element(recorder.observation, "Search papers"), "graph")
    recorded(1)
    spin(900)
    click(browser, element(recorder.observation, TITLE))
    recorded(2)
    spin(1500)
    alt_left(browser)
    recorded(3)
    spin(700)
    click(browser, element(recorder.observation, "Graph Coarsening for Fast Spectral Clustering"))
    recorded(4)
    spin(1100)
    panel.answer_edit.setText(TITLE)
    panel.answer()
    wait_for(lambda: not recorder.recording)
    window.tabs.setCurrentWidget(window.viewer)
    result = window.viewer.replay()
    assert result is not None and result.ok, result
    window.viewer.select_step(1)
    window.resize(1560, 660)  # shorter for the picture: the screenshots are as wide as they can be already
    spin(500)
    window.grab().save(str(out), "PNG")
    window.close()
    print(f"saved {out}: {len(recorder.steps)} steps; {result.message}")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "trajectory-viewer.png")
