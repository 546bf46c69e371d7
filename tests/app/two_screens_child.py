"""A child process with two screens side by side (Qt's offscreen platform reads them from a JSON file, once, when
the QApplication is made: the suite's shared application has one screen). It saves where windows stood on the
second screen, restores each into a main window as the app does at start, shows it, and prints one JSON line
per window: what `restore_geometry` said, the geometry, the screen and whether it is maximised.

Run as `python -m tests.app.two_screens_child SCREENS_JSON PROJECT_DIR SETTINGS_FILE`, with XDG_CONFIG_HOME and
XDG_DATA_HOME set to folders of the test's own."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

screens_json, project_dir, settings_file = sys.argv[1:4]
os.environ["QT_QPA_PLATFORM"] = f"offscreen:configfile={screens_json}"

from recordlens.annotator.qt import env as qt_env  # noqa: E402  (environment first)

qt_env.prepare()

from PySide6.QtCore import QRect, Qt  # noqa: E402
from PySide6.QtWidgets import QApplication, QMainWindow  # noqa: E402

from recordlens.annotator.labelling import main_window  # noqa: E402
from recordlens.annotator.qt.event_loop import spin  # noqa: E402
from recordlens.annotator.settings import Settings  # noqa: E402
from recordlens.core.store.project import open_project  # noqa: E402
from tests.app.window_helpers import FakeKeyStore  # noqa: E402

main_window.WATCH_MS = 0


def saved_on_the_second_screen(geometry: QRect, *, maximised: bool) -> str:
    """What the settings keep of a window that stood at `geometry` (on the second screen) at the last quit."""
    window = QMainWindow()
    window.setGeometry(geometry)
    window.show()
    if maximised:
        window.showMaximized()
    spin(100)
    kept = bytes(window.saveGeometry().toBase64().data()).decode("ascii")
    window.close()
    return kept


def restored(kept: str) -> dict:
    """A main window given `kept` as the app gives it at start (restored before it is shown), once shown."""
    win = main_window.MainWindow(open_project(Path(project_dir)), settings=Settings(annotator="tester",
                                 window_geometry=kept), settings_file=Path(settings_file), key_store=FakeKeyStore())
    try:
        said = win.restore_geometry()
        win.show()
        spin(200)
        rect = win.normalGeometry() if win.isMaximized() else win.geometry()
        return {"restored": said, "geometry": [rect.x(), rect.y(), rect.width(), rect.height()],
                "screen": win.screen().name(), "maximised": bool(win.windowState() & Qt.WindowState.WindowMaximized)}
    finally:
        win.close()


app = QApplication(["recordlens-tests"])
# In the middle of the second screen, maximised there, and reaching out of its bottom right corner.
for geometry, maximised in ((QRect(2200, 100, 1600, 1000), False), (QRect(2200, 100, 1600, 1000), True),
                            (QRect(3800, 1100, 1000, 600), False)):
    print(json.dumps(restored(saved_on_the_second_screen(geometry, maximised=maximised))), flush=True)
