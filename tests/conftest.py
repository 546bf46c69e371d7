"""Shared test helpers: where the third-party data lives, and the rule that CI never skips it."""

from __future__ import annotations

import hashlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = ROOT.parent / "shared" / "data"
DEV = SHARED_DATA / "nexteval-synth-dev"
SAMPLES = SHARED_DATA / "nexteval-samples"


def require_shared(path: Path) -> Path:
    """Return `path`; without it, skip on a laptop but fail in CI (CI must measure on the real pages)."""
    if path.exists():
        return path
    message = f"third-party data missing: {path}"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)
    raise AssertionError("unreachable")


@pytest.fixture
def dev_dir() -> Path:
    return require_shared(DEV)


@pytest.fixture
def samples_dir() -> Path:
    return require_shared(SAMPLES)


def dev_page_numbers() -> list[int]:
    """The numbers of the 40 dev pages, for parametrising.

    Without the data this is `[-1]`, so that a test still runs, asks for `dev_dir` and fails in CI
    (an empty parameter list would be reported as a skip)."""
    html = DEV / "html"
    numbers = sorted(int(p.stem) for p in html.glob("*.html")) if html.exists() else []
    return numbers or [-1]


@pytest.fixture
def quick_fits(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every fit with few trees (`quick_training.few_trees`): for tests of what training does and says, not of
    how well it fits."""
    from tests.quick_training import few_trees

    few_trees(monkeypatch)


def _shipped_files() -> dict[Path, tuple[int, int]]:
    return {p: (p.stat().st_mtime_ns, p.stat().st_size) for p in (ROOT / "resources").rglob("*") if p.is_file()}


def _content(path: Path) -> bytes | None:
    try:
        return hashlib.sha256(path.read_bytes()).digest()
    except OSError:
        return None


_SHIPPED = _shipped_files()  # cheap to compare after every module: a file whose stamp moved is then read
_SHIPPED_CONTENT = {path: _content(path) for path in _SHIPPED}


@pytest.fixture(autouse=True, scope="module")
def shipped_files_left_as_they_are() -> Iterator[None]:
    """No test writes into the files RecordLens ships (the demo tasks, say): the next tests, and the next run,
    would read them changed. Checked after each module, by content where a file's time or size moved."""
    yield
    now = _shipped_files()
    moved = [p for p in _SHIPPED.keys() | now.keys() if _SHIPPED.get(p) != now.get(p)]
    changed = sorted(str(p.relative_to(ROOT)) for p in moved if _content(p) != _SHIPPED_CONTENT.get(p))
    _SHIPPED.clear()
    _SHIPPED.update(now)  # each change said once, not again by every module after it
    _SHIPPED_CONTENT.update({p: _content(p) for p in moved})
    if changed:
        pytest.fail(f"files RecordLens ships changed while this module ran: {', '.join(changed)} (a test of it "
                    "wrote them, or another process did meanwhile: see `git diff resources/`)")


@pytest.fixture(autouse=True)
def no_upgrade_left_unsaid() -> None:
    """The project upgrades said by `take_upgrades` are those of the test that takes them, not of an earlier test
    of this process (the list is the process's, as the app's is)."""
    from recordlens.core.store import take_upgrades

    take_upgrades()


@pytest.fixture(autouse=True)
def no_real_gemini_key(monkeypatch: pytest.MonkeyPatch) -> None:
    """No test may reach Gemini with a developer's real key: tests that need a key set a fake one."""
    for name in ("GEMINI_API_KEY", "GOOGLE_API_KEY"):
        monkeypatch.delenv(name, raising=False)


def pytest_sessionstart(session: pytest.Session) -> None:
    """A strict editable install links each module one by one: a module added since the install is missing
    from the venv's view. Say so at once, with the fix, instead of failing in some import far away."""
    import recordlens.core

    installed = Path(recordlens.core.__file__).parent.parent
    if installed == ROOT:
        return  # not a link tree (a wheel, or another install mode)
    missing = [str(p.relative_to(ROOT)) for top in ("core", "annotator") for p in (ROOT / top).rglob("*.py")
               if "__pycache__" not in p.parts
               and not (installed / top / p.relative_to(ROOT / top)).exists()
               and (installed / top).exists()]
    if missing:
        pytest.exit(f"the editable install predates {len(missing)} module(s) ({', '.join(missing[:3])}): "
                    "run `make test`, or `.venv/bin/pip install -e . --config-settings editable_mode=strict`",
                    returncode=4)


def _gui_thread_collector():  # noqa: ANN202 - a MainThreadCollector, or None where Qt was never loaded
    """The app's collector when app tests made one (`annotator.qt.main_thread_gc`); core tests load no Qt."""
    module = sys.modules.get("recordlens.annotator.qt.main_thread_gc")
    return module.installed() if module is not None else None


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Outside tests/app, automatic collection again: a core test may allocate without ever turning Qt's event
    loop, which is what collects while the app's collector runs (the garbage left, Qt's among it, is collected
    here first, in this thread)."""
    collector = _gui_thread_collector()
    if collector is not None and collector.active and "app" not in Path(str(item.path)).parent.parts[-1:]:
        collector.stop()


def pytest_runtest_teardown(item: pytest.Item) -> None:
    """After each test, what the collector would have collected, collected in this (the GUI) thread: a test that
    never turns the event loop long enough for the collector's timer still leaves no garbage for a job's thread."""
    collector = _gui_thread_collector()
    if collector is not None and collector.active:
        collector.check()


_EXIT_STATUS: list[int] = []


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    _EXIT_STATUS.append(int(exitstatus))


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    """The session's exit status, once every report is written, without the interpreter's teardown: Qt's and
    Chromium's objects left to static destructors at exit crashed the process once (a segmentation fault after
    "3487 passed"), which made a green run fail. The app's own quit is tested by its tests, not by this exit."""
    if _EXIT_STATUS and os.environ.get("QT_QPA_PLATFORM") == "offscreen":
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(_EXIT_STATUS[-1])
