"""`install-desktop-entry.sh --remove`: the desktop entry, its icon and the link the entry may run the program
through go; what the app wrote elsewhere (settings, data, cache) and the user's projects stay, each said with the
command that removes it. Run against a HOME of the test's own."""

from __future__ import annotations

import shlex
import subprocess
from pathlib import Path

from tests.packaging.test_packaging_checks import _folder_to_install, _install


def _remove(tmp_path: Path, folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path / "home"), "XDG_DATA_HOME": str(tmp_path / "share")}
    return subprocess.run(
        ["sh", str(folder / "install-desktop-entry.sh"), *args], capture_output=True, text=True, env=env
    )


def test_remove_takes_out_the_entry_and_icon_and_says_what_stays(tmp_path: Path) -> None:
    folder = _folder_to_install(tmp_path, "it's RecordLens")  # a quote: the commands said must still run
    assert _install(tmp_path, folder).returncode == 0
    share = tmp_path / "share"
    entry, icon = share / "applications" / "recordlens.desktop", share / "icons/hicolor/256x256/apps/recordlens.png"
    assert entry.is_file() and icon.is_file()
    config, data = tmp_path / "home/.config/recordlens", share / "recordlens"
    cache = tmp_path / "home/.cache/recordlens-annotator"
    for made in (config, data / "demo", cache):
        made.mkdir(parents=True)

    done = _remove(tmp_path, folder, "--remove")
    assert done.returncode == 0, done.stderr
    assert not entry.exists() and not icon.exists()
    assert config.is_dir() and (data / "demo").is_dir() and cache.is_dir() and folder.is_dir()  # nothing of theirs
    said = done.stdout.splitlines()
    assert f"removed {entry}" in said and f"removed {icon}" in said
    for what, path in (
        ("settings", config),
        ("data (the demo project, the demo site's copy)", data),
        ("cache (the web view's)", cache),
        ("this folder, the programs", folder),
    ):
        line = next(line for line in said if line.startswith(f"  {what}: "))
        assert shlex.split(line.split(": ", 1)[1]) == ["rm", "-r", str(path)]  # as a shell reads it
    assert any("your projects" in line for line in said)

    again = _remove(tmp_path, folder, "--remove")  # nothing left to remove: said, not an error
    assert again.returncode == 0 and "no desktop entry to remove" in again.stdout


def test_remove_takes_out_the_link_the_entry_ran_the_program_through(tmp_path: Path) -> None:
    folder = _folder_to_install(tmp_path, "Apps 100%")  # GLib launches no path with a %: a link stands in
    assert _install(tmp_path, folder).returncode == 0
    link = tmp_path / "share" / "recordlens" / "recordlens-annotator"
    assert link.is_symlink()
    done = _remove(tmp_path, folder, "--remove")
    assert done.returncode == 0 and f"removed {link}" in done.stdout.splitlines()
    assert not link.is_symlink() and not link.parent.exists()  # it held only the link: not the app's data then


def test_an_unknown_argument_is_refused_with_the_usage(tmp_path: Path) -> None:
    folder = _folder_to_install(tmp_path, "RecordLens")
    done = _remove(tmp_path, folder, "--uninstall")
    assert done.returncode == 2 and "usage: install-desktop-entry.sh [--remove]" in done.stderr
    assert not (tmp_path / "share" / "applications").exists()  # not taken for an install either
