"""Print Chromium's own accessibility tree of a saved page, straight from DevTools: the reference a stored tree
is checked against. Run as a process of its own (remote debugging must be on before the QApplication exists):

    python tests/app/devtools_probe.py PAGE.mhtml   ->  stdout: getFullAXTree's nodes as JSON

The page is opened offline, with the app's Chromium flags (nothing reaches the network).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

os.environ["QT_QPA_PLATFORM"] = "offscreen"

from recordlens.annotator.agent.devtools import DevToolsSession, enable_remote_debugging  # noqa: E402
from recordlens.annotator.qt import env as qt_env  # noqa: E402


def main(path: str) -> int:
    port = enable_remote_debugging()
    app = qt_env.create_application(["devtools-probe"])
    from PySide6.QtCore import QUrl
    from PySide6.QtWebEngineWidgets import QWebEngineView

    from recordlens.annotator.qt.event_loop import spin

    view = QWebEngineView()
    view.resize(1920, 1080)
    view.show()
    done: list[bool] = []
    view.loadFinished.connect(done.append)
    url = QUrl.fromLocalFile(str(Path(path).resolve()))
    view.load(url)
    for _ in range(1500):
        if done:
            break
        spin(20)
    spin(300)
    session = DevToolsSession.for_page(port)
    nodes = session.call("Accessibility.getFullAXTree", timeout_s=60)["nodes"]
    session.close()
    print(json.dumps(nodes))
    view.close()
    del view
    app.processEvents()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
