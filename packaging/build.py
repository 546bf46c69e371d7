"""`make package`: the wheel, the frozen one-folder app dist/RecordLens/, its .tar.gz, and the smoke test.

    python3 packaging/build.py [--skip-smoke]

1. builds the wheel from a clean copy of the source tree (a stale build/lib/ would carry modules that have moved
   or gone), failing on setuptools' "Package would be ignored" warnings;
2. installs it, with the `package` extra (PySide6, PyInstaller), into build/package-venv/, a venv of its own:
   PyInstaller cannot follow the import hook of the editable install in .venv/;
3. runs PyInstaller on packaging/recordlens.spec into dist/RecordLens/, makes its second program a hard link to the
   first when PyInstaller wrote them byte for byte the same (on Linux it does: 29 MB once, not twice), and adds the
   .desktop file, the icon and the script that installs them;
4. writes dist/RecordLens-VERSION-PLATFORM.tar.gz;
5. runs packaging/smoke.py on the folder (offscreen, offline, fresh HOME, from a temporary folder);
6. prints what it measured: build time, folder and archive size, start times of the frozen app.
Only the standard library here: it runs before any venv exists.
"""

from __future__ import annotations

import argparse
import filecmp
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
BUILD = ROOT / "build"
DIST = ROOT / "dist"
VENV = BUILD / "package-venv"
APP_NAME = "RecordLens"
# Files shipped beside the programs, so the folder can add itself to a desktop's menu (the icon is the app's own,
# from resources/, which also gives it to its windows).
ICON = ROOT / "resources" / "icons" / "recordlens.png"
DESKTOP_FILES = ("recordlens.desktop", "install-desktop-entry.sh")
# The two programs of the folder (recordlens.spec): one entry script, which picks what to run by the name it was
# started as (frozen_main.py), so PyInstaller writes the same file under both names where nothing else tells them
# apart (Linux: no icon or console flag in the file).
PROGRAMS = ("recordlens", "recordlens-annotator")
# Never part of a build: local environments, outputs and caches in a working tree.
NOT_SOURCE = (".git", ".venv", "build", "dist", "out", "__pycache__", "*.egg-info", ".pytest_cache",
              ".ruff_cache", ".hypothesis", "*.pyc")
SETUPTOOLS_WARNINGS = re.compile(r"Package would be ignored|is absent from the `packages` configuration")


def log(message: str) -> None:
    print(f"package: {message}", flush=True)


def run(command: list[str | Path], **kwargs) -> subprocess.CompletedProcess:  # noqa: ANN003
    log("$ " + " ".join(str(c) for c in command))
    return subprocess.run([str(c) for c in command], check=True, **kwargs)


def venv_bin(venv: Path, program: str) -> Path:
    if sys.platform == "win32":
        return venv / "Scripts" / f"{program}.exe"
    return venv / "bin" / program


def clean_source_copy(target: Path) -> Path:
    """The source tree without environments, builds and caches: what a fresh clone would build from."""
    shutil.copytree(ROOT, target, ignore=shutil.ignore_patterns(*NOT_SOURCE), symlinks=True)
    return target


def build_wheel(python: Path, out_dir: Path) -> tuple[Path, str]:
    """(the wheel, setuptools' output). Raises when setuptools warns that a package would be ignored."""
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="recordlens-src-") as tmp:
        source = clean_source_copy(Path(tmp) / "src")
        done = subprocess.run([str(python), "-m", "pip", "wheel", "--no-deps", "--verbose", "-w", str(out_dir),
                               str(source)], capture_output=True, text=True)
    output = done.stdout + done.stderr
    if done.returncode != 0:
        raise RuntimeError(f"pip wheel failed:\n{output[-3000:]}")
    warned = sorted({line.strip() for line in output.splitlines() if SETUPTOOLS_WARNINGS.search(line)})
    if warned:
        raise RuntimeError("setuptools would leave resources out of the wheel (declare them in pyproject.toml):\n"
                           + "\n".join(warned))
    wheels = sorted(out_dir.glob("recordlens-*.whl"), key=lambda p: p.stat().st_mtime)
    return wheels[-1], output


def folder_size(folder: Path) -> int:
    """Bytes of the regular files, a file of several names (hard links) once (symlinks count as nothing: they are
    a few bytes in the archive too)."""
    sizes = {(st.st_dev, st.st_ino): st.st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink()
             for st in (p.lstat(),)}
    return sum(sizes.values())


def link_identical_programs(folder: Path, names: tuple[str, str] = PROGRAMS) -> bool:
    """The second program made a hard link to the first when the two files are byte for byte the same; whether it
    was. A hard link, not a symbolic one: the program is picked by the name it was started as, and for a symbolic
    link the kernel names the target (/proc/self/exe, where PyInstaller's loader may read its own path) while a hard
    link is the same file under its own name; `tar` keeps it a link in the archive (`tarfile` too) and when unpacked.
    Made beside it first and then renamed over it, so that a failure leaves the copy PyInstaller wrote."""
    exe = ".exe" if sys.platform == "win32" else ""
    first, second = (folder / f"{name}{exe}" for name in names)
    if not filecmp.cmp(first, second, shallow=False):
        return False
    if os.path.samefile(first, second):
        return True
    staged = second.with_name(f".{second.name}.link")
    staged.unlink(missing_ok=True)
    os.link(first, staged)
    os.replace(staged, second)
    return True


def write_archive(folder: Path, archive: Path) -> Path:
    archive.unlink(missing_ok=True)
    # Level 6: nearly level 9's size on Qt's libraries, in about half the time.
    with tarfile.open(archive, "w:gz", compresslevel=6) as tar:
        tar.add(folder, arcname=folder.name)
    return archive


def megabytes(n: int) -> str:
    return f"{n / 1e6:.0f} MB"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build the frozen RecordLens folder and its archive.")
    parser.add_argument("--skip-smoke", action="store_true", help="build only (the smoke test is what proves it)")
    args = parser.parse_args(argv)
    started = time.monotonic()

    if not venv_bin(VENV, "python").exists():
        run([sys.executable, "-m", "venv", VENV])
    python = venv_bin(VENV, "python")
    wheel, _ = build_wheel(python, BUILD / "package-wheel")
    log(f"built {wheel.name} (no setuptools warnings)")
    # Dependencies once (kept in build/package-venv/ between builds), RecordLens itself every time.
    run([python, "-m", "pip", "install", "--quiet", f"{wheel}[package]"])
    run([python, "-m", "pip", "install", "--quiet", "--force-reinstall", "--no-deps", wheel])
    version = wheel.name.split("-")[1]

    run([venv_bin(VENV, "pyinstaller"), "--noconfirm", "--log-level", "WARN", "--distpath", DIST,
         "--workpath", BUILD / "pyinstaller", HERE / "recordlens.spec"], cwd=BUILD)
    folder = DIST / APP_NAME
    if link_identical_programs(folder):
        log(f"{PROGRAMS[1]} is a hard link to {PROGRAMS[0]} (PyInstaller wrote the same program twice)")
    else:
        log(f"{PROGRAMS[0]} and {PROGRAMS[1]} differ: both kept as PyInstaller wrote them")
    for name in DESKTOP_FILES:
        shutil.copy2(HERE / name, folder / name)
    shutil.copy2(ICON, folder / ICON.name)
    built = time.monotonic()

    system = {"linux": "linux", "darwin": "macos", "win32": "windows"}.get(sys.platform, sys.platform)
    archive = write_archive(folder, DIST / f"{APP_NAME}-{version}-{system}-{platform.machine()}.tar.gz")
    archived = time.monotonic()
    log(f"wrote {folder} and {archive}")

    smoke: dict = {}
    if not args.skip_smoke:
        report = BUILD / "smoke-report.json"
        code = subprocess.run([str(python), str(HERE / "smoke.py"), "--folder", str(folder), "--report",
                               str(report)]).returncode
        if code != 0:
            log("the smoke test FAILED: the folder is built but does not start as it should")
            return code
        smoke = {s["name"]: s["seconds"] for s in json.loads(report.read_text(encoding="utf-8"))["steps"]}

    log("measured on this machine:")
    log(f"  build (wheel, venv update, PyInstaller): {built - started:.0f} s; archive: {archived - built:.0f} s; "
        f"make package in all: {time.monotonic() - started:.0f} s")
    log(f"  folder {folder.relative_to(ROOT)}: {megabytes(folder_size(folder))}; "
        f"archive {archive.relative_to(ROOT)}: {megabytes(archive.stat().st_size)}")
    if smoke:
        log(f"  frozen annotator, start to saved screenshot of the drawn demo page: "
            f"{smoke['annotator second start']:.1f} s ({smoke['annotator first start']:.1f} s on the first start, "
            f"which builds the demo project); frozen `recordlens demo`: {smoke['recordlens demo']:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
