"""A machine with no fonts at all (fontconfig finds none) is said at start, on stderr and over the page, with the
Debian packages to install; the app draws meanwhile with the one font it carries, so a screenshot still comes out
and no page is blamed. The app runs as a child process, offscreen, with a fontconfig configuration that names no
font folder (and a cache of its own)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from recordlens.annotator.qt.fonts import FONT_PACKAGES, NO_FONTS, NoFontsNote, no_fonts
from recordlens.core.agent.sites import load_site
from tests import loopback
from tests.capture_site import capture_argv
from tests.loopback import base_url

pytestmark = pytest.mark.app

ROOT = Path(__file__).resolve().parents[2]
CHILD_TIMEOUT_S = 300  # the first start builds the demo project; two busy cores

# The child's window, opened as the app opens it, said as JSON: the notes over its page, and the font Qt draws with.
WINDOW_PROBE = """
import json, sys
from recordlens.annotator import app
from recordlens.annotator.qt import env
from recordlens.annotator.qt.fonts import NoFontsNote
from PySide6.QtGui import QFont, QFontInfo
env.create_application(["probe"])
window = app.open_window(app.parse_args(["--demo-dir", sys.argv[1]]))
window.resize(1200, 800)
window.show()
window.wait_until_drawn(120_000)
notes = [n for n in window.findChildren(NoFontsNote) if n.isVisible()]
print(json.dumps({"notes": [n.text() for n in notes], "font": QFontInfo(QFont()).family()}))
window.close()
window.shutdown()
"""

# A process that only makes the application, as every process of the app and of `agent run` makes it: the font Qt
# draws with.
APPLICATION_PROBE = """
from recordlens.annotator.qt import env
from PySide6.QtGui import QFont, QFontInfo
env.create_application(["probe"])
print(QFontInfo(QFont()).family())
"""

# The one page of a site captured with `recordlens site capture`: black text on white, nothing else to draw.
CAPTURED_PAGE = (b'<!DOCTYPE html><html><head><meta charset="utf-8"><title>t</title></head><body style="margin:0;'
                 b'background:#fff;color:#000;font-size:40px"><h1>Heading</h1><p>Words to draw</p></body></html>')

# The app as `recordlens-annotator` starts it, where the font it carries cannot be added either.
WITHOUT_THE_FONT_CARRIED = """
import sys
from recordlens.annotator import app
from recordlens.annotator.qt import fonts
fonts._add_the_font_carried = lambda: False
sys.exit(app.main(sys.argv[1:]))
"""


def no_fonts_env(tmp_path: Path) -> dict[str, str]:
    """The test's environment, with a fontconfig configuration in which no font is found (and settings of the
    child's own: a window that is not a screenshot remembers its project)."""
    cache = tmp_path / "fontconfig-cache"
    cache.mkdir()
    config = tmp_path / "fonts.conf"
    config.write_text(f'<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n'
                      f"  <cachedir>{cache}</cachedir>\n</fontconfig>\n", encoding="utf-8")
    return {**os.environ, "FONTCONFIG_FILE": str(config), "QT_QPA_PLATFORM": "offscreen",
            "XDG_CONFIG_HOME": str(tmp_path / "config")}


def test_the_fonts_to_install_are_those_make_system_deps_installs() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    packages = re.search(r"^DEB_PACKAGES :=(.*?)(?<!\\)\n", makefile, re.MULTILINE | re.DOTALL)
    assert packages is not None
    assert tuple(p for p in packages.group(1).replace("\\", " ").split() if p.startswith("fonts-")) == FONT_PACKAGES


def test_a_machine_with_fonts_is_told_nothing(page_view) -> None:
    assert not no_fonts()
    assert page_view.view.findChildren(NoFontsNote) == []


def test_no_fonts_is_said_at_start_and_a_screenshot_blames_no_page(tmp_path: Path) -> None:
    shot = tmp_path / "shot.png"
    done = subprocess.run([sys.executable, "-m", "recordlens.annotator", "--demo-dir", str(tmp_path / "demo"),
                           "--screenshot", str(shot)], cwd=tmp_path, env=no_fonts_env(tmp_path),
                          capture_output=True, text=True, timeout=CHILD_TIMEOUT_S)
    said = [line for line in done.stderr.splitlines() if line.startswith("recordlens-annotator: ")]
    assert said == [f"recordlens-annotator: WARNING: {NO_FONTS}; meanwhile RecordLens draws with the one font it "
                    "carries (DejaVu Sans), which has no Chinese, Japanese, Korean, Thai or emoji: those show as "
                    "empty boxes"], done.stderr[-3000:]
    assert "sudo apt-get install fonts-dejavu-core fonts-liberation" in said[0]
    assert done.returncode == 0 and shot.is_file(), done.stderr[-3000:]


def test_no_fonts_is_said_over_the_page_in_the_window(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", WINDOW_PROBE, str(tmp_path / "demo")], cwd=tmp_path,
                          env=no_fonts_env(tmp_path), capture_output=True, text=True, timeout=CHILD_TIMEOUT_S)
    assert done.returncode == 0, done.stderr[-3000:]
    seen = json.loads(done.stdout.splitlines()[-1])
    assert len(seen["notes"]) == 1 and seen["notes"][0].startswith(NO_FONTS)
    assert seen["font"] == "DejaVu Sans"  # the window's own text is drawn: the note can be read


def test_a_page_not_drawn_for_want_of_any_font_blames_the_fonts(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", WITHOUT_THE_FONT_CARRIED, "--demo-dir", str(tmp_path / "demo"),
                           "--screenshot", str(tmp_path / "shot.png")], cwd=tmp_path, env=no_fonts_env(tmp_path),
                          capture_output=True, text=True, timeout=CHILD_TIMEOUT_S)
    said = [line for line in done.stderr.splitlines() if line.startswith("recordlens-annotator: ")]
    without = f"{NO_FONTS}; meanwhile all text shows as empty boxes, and pages cannot be drawn"
    assert said == [f"recordlens-annotator: WARNING: {without}",
                    f"recordlens-annotator: error: the page could not be drawn: {without}"], done.stderr[-3000:]
    assert done.returncode == 2


def test_every_application_gets_the_font_carried(tmp_path: Path) -> None:
    """Asked where the application is made, not only by a page: every process draws its text (a window of `agent
    run --browser qt`, a dialog) and says the fonts once."""
    done = subprocess.run([sys.executable, "-c", APPLICATION_PROBE], cwd=tmp_path, env=no_fonts_env(tmp_path),
                          capture_output=True, text=True, timeout=CHILD_TIMEOUT_S)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.splitlines()[-1] == "DejaVu Sans"
    assert [line for line in done.stderr.splitlines() if NO_FONTS in line] != [], done.stderr[-3000:]


class _OnePage(loopback.LoopbackHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        self.send(200, CAPTURED_PAGE) if self.path == "/" else self.send(404, b"<p>no such page</p>")


def dark_pixels(image: QImage) -> int:
    """The pixels of the image's top left corner (where the page's text is) that are darker than mid grey."""
    return sum(image.pixelColor(x, y).lightness() < 128 for x in range(0, 600, 2) for y in range(0, 200, 2))


def test_a_site_captured_with_no_fonts_is_drawn_with_the_font_carried(tmp_path: Path) -> None:
    """The capture's process makes its own application (online, not through the app's): its screenshot was blank
    (the text drawn with no font), and nothing said why."""
    folder = tmp_path / "site"
    with loopback.serve(_OnePage) as server:
        url = base_url(server) + "/"
        done = subprocess.run(capture_argv(url, "--site", str(folder), "--json", "--depth", "0", "--ignore-robots",
                                           "--timeout", "60", SETTLE_MS=50),
                              cwd=tmp_path, env=no_fonts_env(tmp_path), capture_output=True, text=True,
                              timeout=CHILD_TIMEOUT_S)
    assert done.returncode == 0, done.stderr[-3000:]
    assert json.loads(done.stdout.strip().splitlines()[-1])["saved"] == [url]
    said = [line for line in done.stderr.splitlines() if NO_FONTS in line]
    assert len(said) == 1 and "DejaVu Sans" in said[0], done.stderr[-3000:]
    page = load_site(folder).page(url)
    assert page is not None
    screenshot = QImage(str(folder / page.side_file("screenshot")))
    assert not screenshot.isNull()
    assert dark_pixels(screenshot) > 100  # the heading and the words, drawn
