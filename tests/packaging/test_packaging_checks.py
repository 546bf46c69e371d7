"""The packaging's own logic, without a build: the smoke test's checks, the Qt pruning, the desktop entry."""

from __future__ import annotations

import configparser
import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from .helpers import PACKAGING, packaging_module

smoke = packaging_module("smoke")
qt_prune = packaging_module("qt_prune")

# Lines QtWebEngine printed here when the built folder lacked one of its parts (seen with parts removed).
MISSING_PART_LINES = {
    "process": "but could not find it. You may override the default search path by using QTWEBENGINEPROCESS_PATH"
               " environment variable. /opt/RecordLens/_internal/PySide6/Qt/libexec/QtWebEngineProcess",
    "icu": "[1201/093901.844719:ERROR:../../../qtwebengine/src/3rdparty/chromium/base/i18n/icu_util.cc:227] "
           "Invalid file descriptor to ICU data received.",
    "resources": "The following paths were searched for Qt WebEngine resources:",
    "locales": "but could not find the translation file for the current locale: en-US.pak",
}
# Lines every healthy offscreen start prints here: they must not fail the test.
HEALTHY_LINES = """QRhiGles2: Failed to create temporary context
Failed to create RHI for backend: OpenGL
[10131:10140:1201/093221.427930:ERROR:../../../qtwebengine/src/3rdparty/chromium/dbus/bus.cc:408] Failed to \
connect to the bus: Failed to connect to socket /run/dbus/system_bus_socket: No such file or directory
This plugin does not support propagateSizeHints()
GPUInfo not initialized on GpuInfoUpdate"""


def test_each_missing_webengine_part_is_caught_and_healthy_noise_is_not() -> None:
    for part, line in MISSING_PART_LINES.items():
        assert smoke.webengine_problems(line), part
    assert smoke.webengine_problems(HEALTHY_LINES) == []


def _window(path: Path, *, page: bool, overlays: bool) -> Path:
    """A stand-in for a screenshot: an empty window, with a drawn page, with boxed records."""
    w, h = smoke.SCREENSHOT_SIZE
    image = Image.new("RGB", (w, h), "white")
    draw = ImageDraw.Draw(image)
    if page:
        for i in range(300):  # many shades, as a rendered page has
            draw.rectangle((400 + (i % 20) * 30, 100 + (i // 20) * 40, 420 + (i % 20) * 30, 130 + (i // 20) * 40),
                           fill=(i % 256, (i * 7) % 256, (i * 13) % 256))
    if overlays:
        for k, colour in enumerate(smoke.RECORD_COLOURS):
            draw.rectangle((450, 150 + k * 160, 900, 290 + k * 160), outline=colour, width=2)
    image.save(path)
    return path


def test_the_screenshot_check_wants_a_drawn_page_with_overlays(tmp_path: Path) -> None:
    assert smoke.screenshot_problems(_window(tmp_path / "good.png", page=True, overlays=True)) == []
    assert "no page was drawn" in smoke.screenshot_problems(_window(tmp_path / "blank.png", page=False,
                                                                    overlays=False))[0]
    assert "no record overlays" in smoke.screenshot_problems(_window(tmp_path / "bare.png", page=True,
                                                                     overlays=False))[0]
    good = _window(tmp_path / "x.png", page=True, overlays=True)
    assert smoke.screenshot_problems(good, size=(800, 600)) == ["screenshot is 1530x920, not 800x600"]
    assert smoke.screenshot_problems(tmp_path / "none.png") == [f"no screenshot at {tmp_path / 'none.png'}"]


def test_pruning_keeps_what_the_roots_link_to_and_drops_qml() -> None:
    lib = "PySide6/Qt/lib/"
    binaries = [
        ("PySide6/QtWebEngineCore.abi3.so", "/s/ext.so", "EXTENSION"),
        ("PySide6/Qt/libexec/QtWebEngineProcess", "/s/proc", "EXECUTABLE"),
        (lib + "libQt6WebEngineCore.so.6", "/s/wec.so", "BINARY"),
        (lib + "libQt6Quick.so.6", "/s/quick.so", "BINARY"),
        (lib + "libQt63DCore.so.6", "/s/3d.so", "BINARY"),  # needed only by a QML plugin
        ("PySide6/Qt/qml/Qt3D/libquick3dcoreplugin.so", "/s/qml3d.so", "BINARY"),
        ("libQt63DCore.so.6", lib + "libQt63DCore.so.6", "SYMLINK"),
        ("libQt6Quick.so.6", lib + "libQt6Quick.so.6", "SYMLINK"),
    ]
    datas = [("PySide6/Qt/qml/Qt3D/qmldir", "/s/qmldir", "DATA"), ("PySide6/Qt/resources/icudtl.dat", "/s/i", "DATA")]
    links = {"/s/ext.so": ["/s/wec.so"], "/s/wec.so": ["/s/quick.so", None, "/usr/lib/libc.so.6"],
             "/s/qml3d.so": ["/s/3d.so"]}
    kept, kept_datas, dropped = qt_prune.prune(binaries, datas, lambda src: links.get(src, []))
    assert [e[0] for e in kept] == [e[0] for e in binaries[:4]] + ["libQt6Quick.so.6"]
    assert kept_datas == [datas[1]]
    assert lib + "libQt63DCore.so.6" in dropped and "libQt63DCore.so.6" in dropped


def test_the_desktop_entry_and_icon_are_shipped() -> None:
    entry = configparser.ConfigParser(interpolation=None)
    entry.optionxform = str  # keys are case-sensitive in .desktop files
    entry.read(PACKAGING / "recordlens.desktop", encoding="utf-8")
    desktop = entry["Desktop Entry"]
    assert desktop["Type"] == "Application" and desktop["Exec"] == "recordlens-annotator"
    assert desktop["Icon"] == "recordlens"
    with Image.open(PACKAGING.parent / "resources" / "icons" / "recordlens.png") as icon:
        assert icon.size == (256, 256) and icon.mode == "RGBA"
    build = packaging_module("build")
    assert all((PACKAGING / name).is_file() for name in build.DESKTOP_FILES)


def test_the_desktop_entry_installed_from_any_folder_runs_the_app_there(tmp_path: Path) -> None:
    folder = tmp_path / "Apps & more | RecordLens"  # characters sed gives a meaning in its replacement text
    folder.mkdir()
    for name in ("install-desktop-entry.sh", "recordlens.desktop"):
        shutil.copy(PACKAGING / name, folder / name)
    shutil.copy(PACKAGING.parent / "resources" / "icons" / "recordlens.png", folder / "recordlens.png")
    data = tmp_path / "share"
    done = subprocess.run(["sh", str(folder / "install-desktop-entry.sh")], capture_output=True, text=True,
                          env={**os.environ, "HOME": str(tmp_path), "XDG_DATA_HOME": str(data)})
    assert done.returncode == 0, done.stderr
    entry = configparser.ConfigParser(interpolation=None)
    entry.optionxform = str
    entry.read(data / "applications" / "recordlens.desktop", encoding="utf-8")
    assert entry["Desktop Entry"]["Exec"] == f'"{folder}/recordlens-annotator" %f'  # a project opened with it
    assert (data / "icons" / "hicolor" / "256x256" / "apps" / "recordlens.png").is_file()


def test_the_desktop_entry_is_valid_where_the_validator_is_installed() -> None:
    validator = shutil.which("desktop-file-validate")  # Debian's desktop-file-utils; not a required package
    if validator is None:
        pytest.skip("desktop-file-validate not installed")
    done = subprocess.run([validator, str(PACKAGING / "recordlens.desktop")], capture_output=True, text=True)
    assert done.returncode == 0 and not done.stdout.strip(), done.stdout


def _folder_to_install(tmp_path: Path, name: str) -> Path:
    """A built folder's desktop files in a folder named `name`, with a stand-in program that writes down how it
    was started (`ran.txt` beside the folder)."""
    folder = tmp_path / name
    folder.mkdir()
    for file in ("install-desktop-entry.sh", "recordlens.desktop"):
        shutil.copy(PACKAGING / file, folder / file)
    shutil.copy(PACKAGING.parent / "resources" / "icons" / "recordlens.png", folder / "recordlens.png")
    program = folder / "recordlens-annotator"
    program.write_text(f'#!/bin/sh\nprintf "%s\\n" "$0" "$@" > "{tmp_path}/ran.txt"\n', encoding="utf-8")
    program.chmod(0o755)
    return folder


def _install(tmp_path: Path, folder: Path, data: Path | None = None) -> subprocess.CompletedProcess[str]:
    """install-desktop-entry.sh run from `folder`, writing into `data` (tmp_path/share unless given)."""
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "XDG_DATA_HOME": str(data or tmp_path / "share")}
    return subprocess.run(["sh", str(folder / "install-desktop-entry.sh")], capture_output=True, text=True,
                          errors="surrogateescape", env=env)


def _installed_exec(tmp_path: Path, folder: Path) -> str:
    """The Exec value install-desktop-entry.sh writes from `folder`, as written."""
    done = _install(tmp_path, folder)
    assert done.returncode == 0, done.stderr
    lines = (tmp_path / "share" / "applications" / "recordlens.desktop").read_text(encoding="utf-8").splitlines()
    return next(line.removeprefix("Exec=") for line in lines if line.startswith("Exec="))


_STRING_ESCAPES = {"s": " ", "n": "\n", "t": "\t", "r": "\r", "\\": "\\"}


def exec_arguments(value: str) -> list[str]:
    """An Exec value's arguments as the Desktop Entry Specification reads them: the value's string escapes first,
    then the quoting (inside double quotes a backslash takes " ` $ \\ literally), and %% as %."""
    text = re.sub(r"\\(.)", lambda m: _STRING_ESCAPES.get(m[1], "\\" + m[1]), value)
    arguments: list[str] = []
    current: str | None = None
    quoted = False
    characters = iter(text)
    for c in characters:
        if quoted and c == "\\":
            following = next(characters, "")
            current = (current or "") + (following if following in '"`$\\' else "\\" + following)
        elif c == '"':
            quoted, current = not quoted, current or ""
        elif c == " " and not quoted:
            if current is not None:
                arguments.append(current)
            current = None
        else:
            current = (current or "") + c
    assert not quoted, f"unbalanced quotes in {value!r}"
    return [*arguments, *([current] if current is not None else [])]


def test_the_exec_line_is_escaped_by_the_desktop_entry_rules(tmp_path: Path) -> None:
    folder = _folder_to_install(tmp_path, 'Apps "new" `x` $HOME \\ 5 & | y')  # each character Exec reserves
    written = _installed_exec(tmp_path, folder)
    assert exec_arguments(written) == [str(folder / "recordlens-annotator"), "%f"]
    assert "\\\\$HOME" in written and "\\\\\\\\ 5" in written  # the spec's own examples: \\$ and four backslashes


def test_a_folder_whose_path_holds_a_percent_sign_is_run_through_a_link(tmp_path: Path) -> None:
    """The spec writes a % as %%, but GLib refuses an entry whose program's path holds one however written."""
    folder = _folder_to_install(tmp_path, "Apps 100%")
    program, field = exec_arguments(_installed_exec(tmp_path, folder))
    assert "%" not in program and field == "%f"
    assert Path(program).is_symlink() and Path(program).resolve() == (folder / "recordlens-annotator").resolve()
    # moved to a folder without one and installed again: the link, now unused, goes
    plain = folder.rename(tmp_path / "Apps")
    assert exec_arguments(_installed_exec(tmp_path, plain)) == [str(plain / "recordlens-annotator"), "%f"]
    assert not Path(program).is_symlink()


NOT_UTF8 = os.fsdecode(b"latin\xe9")  # a folder named in Latin-1; GLib drops an Exec that is not UTF-8


def test_a_folder_whose_path_is_not_utf8_is_run_through_a_link(tmp_path: Path) -> None:
    folder = _folder_to_install(tmp_path, NOT_UTF8)
    program, field = exec_arguments(_installed_exec(tmp_path, folder))
    assert program.isprintable() and field == "%f"  # read back as UTF-8: the path written is valid
    assert Path(program).is_symlink() and Path(program).resolve() == (folder / "recordlens-annotator").resolve()


@pytest.mark.parametrize("data", ["share 5%", os.fsdecode(b"share \xe9")])
def test_no_entry_is_added_when_neither_the_folder_nor_the_link_can_be_launched(tmp_path: Path, data: str) -> None:
    """XDG_DATA_HOME, where the stand-in link goes, as unlaunchable as the folder: refused, saying what to do."""
    folder = _folder_to_install(tmp_path, "Apps 100%")
    done = _install(tmp_path, folder, tmp_path / data)
    assert done.returncode != 0 and "added" not in done.stdout
    assert "XDG_DATA_HOME" in done.stderr and "move this folder" in done.stderr
    assert not (tmp_path / data / "applications" / "recordlens.desktop").exists()


@pytest.mark.parametrize("name", ['Apps 100%', 'Apps "new" `x` $HOME \\ 5 & | y', NOT_UTF8])
def test_the_desktop_launcher_starts_the_program_from_any_folder(tmp_path: Path, name: str) -> None:
    gio = shutil.which("gio")  # GLib's launcher, as GNOME's menu launches; not a required package
    if gio is None:
        pytest.skip("gio not installed")
    folder = _folder_to_install(tmp_path, name)
    _installed_exec(tmp_path, folder)
    entry = tmp_path / "share" / "applications" / "recordlens.desktop"
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "share")}
    done = subprocess.run([gio, "launch", str(entry), str(tmp_path / "a project")], capture_output=True, text=True,
                          env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    ran = tmp_path / "ran.txt"
    deadline = time.monotonic() + 30  # gio launch returns once the program is started, not ended
    while not (ran.is_file() and ran.read_text(encoding="utf-8").endswith("\n")) and time.monotonic() < deadline:
        time.sleep(0.1)
    started, *arguments = ran.read_text(encoding="utf-8").splitlines()
    assert Path(started).resolve() == (folder / "recordlens-annotator").resolve()
    assert arguments == [str(tmp_path / "a project")]
