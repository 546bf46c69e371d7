"""Make docs/trajectory-viewer.png: record the demo task comparison-1 with real input, replay it, show a step.

Run from the repository root, on a machine without a display too:
    xvfb-run -a .venv/bin/python docs/trajectory_viewer_screenshot.py [--out FILE]   (or QT_QPA_PLATFORM=offscreen)
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TITLE = "Graph Message Passing with Learned Halting"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, metavar="FILE", default=ROOT / "docs" / "trajectory-viewer.png",
                        help="the PNG to write (default docs/trajectory-viewer.png)")
    return parser.parse_args(argv)


def main(out: Path) -> None:
    # Qt and the app only now: arguments are read (and --help answered) before any window or file exists.
    from recordlens.annotator.qt import env as qt_env

    qt_env.create_application([sys.argv[0]])
    from recordlens.annotator.agent.window import AgentWindow
    from recordlens.annotator.qt.event_loop import spin
    from tests.app.agent_helpers import alt_left, click, element, type_text, wait_for

    window = AgentWindow(person="ana")
    window.resize(1500, 900)  # the size the pages are recorded at
    window.show()
    window.activateWindow()
    spin(300)
    panel, recorder, browser = window.panel, window.recorder, window.browser
    panel.choose(next(t for t in panel.tasks if t.id == "comparison-1"))
    panel.toggle()

    def recorded(n: int) -> None:
        wait_for(lambda: len(recorder.steps) >= n)

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
    main(parse_args().out)
