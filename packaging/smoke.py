"""Smoke test of an installed RecordLens: the frozen folder (dist/RecordLens/) or a venv's bin/ from the wheel.

    python packaging/smoke.py --folder dist/RecordLens [--report smoke.json] [--timeout 300]
    python packaging/smoke.py --bin /tmp/venv/bin

It runs the programs the way a user's machine would: from an empty temporary folder (no source tree around),
with a fresh HOME, a minimal environment (no virtual environment on PATH, no PYTHONPATH), the offscreen Qt
platform and, where the kernel allows it, no network at all (`unshare --net`: a new network namespace with no
interface up). As root, the app adds Chromium's --no-sandbox itself (annotator's qt_env), as it does anywhere.

Checks: `recordlens --help`, `recordlens demo` (its demo pages must come from the installed copy, not from this
source tree), `recordlens train` on those pages with two fit workers (scikit-learn's ensembles, which RecordLens
loads by name, must be there, and the program must start its workers: a line saying it fitted in its own
process instead fails the step, though the model is the same), `recordlens agent tasks filter` (the
shipped sentence embeddings must load), then
`recordlens-annotator --screenshot` twice on the demo project (the first start builds it in the fresh HOME, the
second only opens it); each must exit 0 within the time limit, the screenshot must show a drawn page with record
overlays, and no stderr line may say that a part of QtWebEngine is missing. In the frozen folder the two programs
are one file under two names (a hard link, `build.py`): the screenshot steps are what prove that the app's name
still starts the app, and the others that `recordlens` starts the command line. Exit status 0 when every check
passes. Needs Pillow in the Python that runs it (matplotlib brings it), not in the program tested.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

DEFAULT_TIMEOUT_S = 300.0  # generous: two shared cores, and the first start builds the demo project
SCREENSHOT_SIZE = (1530, 920)

# What QtWebEngine (Qt's loader and Chromium) prints when a part of it is not where it looks: the process
# binary, ICU data, the .pak resources or the locales. Any such line fails the test even if a screenshot came out,
# since the same build can show a blank page or crash on another machine.
WEBENGINE_MISSING = re.compile(
    r"QtWebEngineProcess|icudtl\.dat|ICU data|qtwebengine_\w*resources|\.pak\b|qtwebengine_locales"
    r"|locales? (directory|folder|path)|WebEngine resources|Could not find .*WebEngine",
    re.IGNORECASE,
)

# The annotator's first record colours (its page view's palette): the overlay boxes and badges are drawn in
# them, so finding them inside the page area means the overlay script ran on a rendered page.
RECORD_COLOURS = ((0x1F, 0x77, 0xB4), (0xFF, 0x7F, 0x0E), (0x2C, 0xA0, 0x2C), (0xD6, 0x27, 0x28))
# Where the web view sits in a 1530x920 window (the page list on the left, the record panel on the right);
# the record panel also draws the colours (as bullets), so it is left out.
PAGE_AREA = (0.20, 0.05, 0.70, 0.95)  # left, top, right, bottom as fractions of the image
MIN_COLOUR_PIXELS = 300  # a box outline alone is thousands of pixels; a stray anti-aliased edge is a few
MIN_OVERLAY_COLOURS = 3
MIN_DISTINCT_COLOURS = 200  # a blank or error view has a handful

# What `recordlens train` says when its fit workers could not start or died and it fitted in its own process
# instead (core/extract/fit_pool.py). The model is the same either way, so this line is what tells that the
# program could not start itself as a worker (`-m` in the frozen program, packaging/frozen_main.py).
WORKERS_FAILED = re.compile(r"fitting in worker processes failed")


@dataclass
class Programs:
    annotator: Path
    cli: Path

    @classmethod
    def in_folder(cls, folder: Path) -> Programs:
        exe = ".exe" if sys.platform == "win32" else ""
        return cls(folder / f"recordlens-annotator{exe}", folder / f"recordlens{exe}")


@dataclass
class Step:
    name: str
    seconds: float
    returncode: int | None
    problems: list[str] = field(default_factory=list)


@dataclass
class Report:
    steps: list[Step] = field(default_factory=list)
    offline: str = ""

    @property
    def problems(self) -> list[str]:
        return [f"{s.name}: {p}" for s in self.steps for p in s.problems]

    def seconds(self, name: str) -> float | None:
        return next((s.seconds for s in self.steps if s.name == name), None)


def clean_env(home: Path) -> dict[str, str]:
    """A user's session as far as the app can tell: nothing of the shell this runs from comes along."""
    return {
        "HOME": str(home),
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "QT_QPA_PLATFORM": "offscreen",
        "TMPDIR": str(home.parent / "tmp"),
    }


def offline_prefix() -> tuple[list[str], str]:
    """The command prefix that cuts the network off, and how (for the report)."""
    unshare = shutil.which("unshare")
    if unshare:
        for prefix in ([unshare, "--net"], [unshare, "--net", "--map-root-user"]):
            if subprocess.run([*prefix, "true"], capture_output=True).returncode == 0:
                return prefix, "no network (unshare --net)"
    return [], "network not cut off (unshare unavailable); the app's own proxy still blocks page requests"


def webengine_problems(stderr: str) -> list[str]:
    return [f"QtWebEngine part missing: {line.strip()}" for line in stderr.splitlines()
            if WEBENGINE_MISSING.search(line)]


def screenshot_problems(path: Path, size: tuple[int, int] = SCREENSHOT_SIZE) -> list[str]:
    from PIL import Image

    if not path.is_file():
        return [f"no screenshot at {path}"]
    with Image.open(path) as image:
        rgb = image.convert("RGB")
    if rgb.size != size:
        return [f"screenshot is {rgb.size[0]}x{rgb.size[1]}, not {size[0]}x{size[1]}"]
    w, h = rgb.size
    area = rgb.crop((int(PAGE_AREA[0] * w), int(PAGE_AREA[1] * h), int(PAGE_AREA[2] * w), int(PAGE_AREA[3] * h)))
    counts = area.getcolors(maxcolors=area.width * area.height) or []
    problems = []
    if len(counts) < MIN_DISTINCT_COLOURS:
        problems.append(f"the page area has {len(counts)} colours: no page was drawn")
    found = [sum(n for n, c in counts if max(abs(a - b) for a, b in zip(c, colour, strict=True)) <= 12)
             for colour in RECORD_COLOURS]
    if sum(n >= MIN_COLOUR_PIXELS for n in found) < MIN_OVERLAY_COLOURS:
        problems.append(f"no record overlays on the page (pixels of the first record colours: {found})")
    return problems


def _is_model(path: Path) -> bool:
    """Whether `path` holds a selector model file (JSON with the trees' members)."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(document, dict) and bool(document.get("members"))


def _trained(step: Step, err: str, model: Path) -> None:
    """The train step's problems: no model written, or one fitted without the workers it was asked for."""
    if step.returncode == 0 and not _is_model(model):
        step.problems.append(f"exit status 0 but no selector model at {model}")
    step.problems += [f"the fit workers did not run: {line.strip()}" for line in err.splitlines()
                      if WORKERS_FAILED.search(line)][:1]  # said again at each stage of fits: once is enough


def _run(name: str, command: list[str], env: dict[str, str], cwd: Path, timeout: float) -> tuple[Step, str, str]:
    start = time.monotonic()
    # A session of its own: on a timeout the whole group goes, QtWebEngine's helper processes included.
    process = subprocess.Popen(command, env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, errors="replace", start_new_session=True)
    try:
        out, err = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        out, err = process.communicate()
        return Step(name, time.monotonic() - start, None, [f"still running after {timeout:g} s"]), out, err
    done = subprocess.CompletedProcess(command, process.returncode, out, err)
    step = Step(name, time.monotonic() - start, done.returncode)
    if done.returncode != 0:
        tail = " | ".join(done.stderr.strip().splitlines()[-5:])
        step.problems.append(f"exit status {done.returncode}: {tail}")
    step.problems += webengine_problems(done.stderr)
    return step, done.stdout, done.stderr


def run_smoke(programs: Programs, installed_root: Path, workdir: Path, timeout: float = DEFAULT_TIMEOUT_S,
              log=print) -> Report:  # noqa: ANN001 - any print-like callable
    """Every check, run inside `workdir` (which should be empty); a report with each step's time and problems.

    `installed_root` is where the tested copy lives (the frozen folder, or the venv): its resources must be
    the ones used, not a source tree's."""
    home, cwd = workdir / "home", workdir / "cwd"
    for folder in (home, cwd, workdir / "tmp"):
        folder.mkdir(parents=True, exist_ok=True)
    env = clean_env(home)
    prefix, report_offline = offline_prefix()
    report = Report(offline=report_offline)
    log(f"smoke: {report_offline}; HOME={home}; cwd={cwd}")

    def step(name: str, *args: str, check: Callable[[Step, str], None] | None = None) -> tuple[Step, str]:
        """Run the program; `check(step, stderr)` adds the problems it finds there, before the step is said."""
        program = programs.cli if name.startswith("recordlens ") else programs.annotator
        result, out, err = _run(name, [*prefix, str(program), *args], env, cwd, timeout)
        if check is not None:
            check(result, err)
        report.steps.append(result)
        log(f"smoke: {name}: {'ok' if not result.problems else 'FAILED'} in {result.seconds:.1f} s")
        return result, out

    help_step, out = step("recordlens --help", "--help")
    if help_step.returncode == 0 and "usage" not in out.lower():
        help_step.problems.append("no usage text")
    demo_step, out = step("recordlens demo", "demo")
    demo_dataset = None
    if demo_step.returncode == 0:
        # "RecordLens demo: 4 pages written by the project (PATH)": PATH must be the installed copy.
        shown = re.search(r"RecordLens demo: .*?\((.+?)\)", out)
        if not shown:
            demo_step.problems.append(f"unexpected output: {out[:200]!r}")
        elif not Path(shown.group(1)).resolve().is_relative_to(installed_root.resolve()):
            demo_step.problems.append(f"the demo pages came from {shown.group(1)}, not from {installed_root}")
        else:
            demo_dataset = Path(shown.group(1))
    # Training loads scikit-learn's ensembles by name (core/lazy_import.load), which a frozen build carries only
    # when its spec lists them; two fit workers also start the program again as `-m` modules. The demo's four
    # small labelled pages train in a few seconds.
    model = cwd / "smoke-model.json"
    if demo_dataset is None:
        report.steps.append(Step("recordlens train", 0.0, None, ["not run: `recordlens demo` did not say where "
                                                                "the installed demo pages are"]))
    else:
        step("recordlens train", "train", "--pages", str(demo_dataset / "html"), "--gt", str(demo_dataset / "gt"),
             "--out", str(model), "--workers", "2", "--quiet", check=lambda ran, err: _trained(ran, err, model))
    # The near-duplicate filter loads WordLlama's weights, data files that a frozen build must carry along
    seeds, candidates = cwd / "seeds.jsonl", cwd / "candidates.jsonl"
    task = {"category": "lookup", "answer": "x", "answer_kind": "text", "normalise": ["case"],
            "start_url": "https://example.org/"}
    seeds.write_text(json.dumps({**task, "id": "seed", "instruction": "Which licence covers the papers?"}) + "\n",
                     encoding="utf-8")
    candidates.write_text("".join(json.dumps({**task, "id": f"c{k}", "instruction": text}) + "\n" for k, text in
                                  enumerate(("Which licence covers the papers?", "How many authors wrote it?"))),
                          encoding="utf-8")
    filter_step, out = step("recordlens agent tasks filter", "agent", "tasks", "filter", "--candidates",
                            str(candidates), "--seeds", str(seeds))
    if filter_step.returncode == 0 and "1 near-duplicate(s) marked similar" not in out:
        filter_step.problems.append(f"unexpected output: {out[:200]!r}")
    for name in ("annotator first start", "annotator second start"):
        shot = cwd / f"{name.replace(' ', '-')}.png"
        result, _ = step(name, "--screenshot", str(shot))
        if result.returncode == 0:
            result.problems += screenshot_problems(shot)
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Smoke test of an installed RecordLens (frozen folder or venv).")
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--folder", type=Path, help="a built folder such as dist/RecordLens")
    where.add_argument("--bin", type=Path, help="a folder holding the two programs, such as a venv's bin/")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT_S, help="seconds allowed per program run")
    parser.add_argument("--report", type=Path, help="also write the step times and problems here as JSON")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder (screenshots, HOME)")
    args = parser.parse_args(argv)
    folder = (args.folder or args.bin).resolve()
    programs = Programs.in_folder(folder)
    missing = [p for p in (programs.annotator, programs.cli) if not p.is_file()]
    if missing:
        print(f"smoke: error: not built: {', '.join(map(str, missing))}", file=sys.stderr)
        return 2
    workdir = Path(tempfile.mkdtemp(prefix="recordlens-smoke-"))
    try:
        installed_root = folder if args.folder else folder.parent  # a venv's bin/ -> the venv
        report = run_smoke(programs, installed_root, workdir, args.timeout)
    finally:
        if args.keep:
            print(f"smoke: kept {workdir}")
        else:
            shutil.rmtree(workdir, ignore_errors=True)
    if args.report:
        args.report.write_text(json.dumps({"offline": report.offline, "steps": [asdict(s) for s in report.steps]},
                                          indent=2) + "\n", encoding="utf-8")
    for problem in report.problems:
        print(f"smoke: FAILED: {problem}", file=sys.stderr)
    print("smoke: " + ("every check passed" if not report.problems else f"{len(report.problems)} problem(s)"))
    return 0 if not report.problems else 1


if __name__ == "__main__":
    raise SystemExit(main())
