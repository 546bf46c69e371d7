"""`extract` asks the folders a run writes before any work, on either engine: a run folder whose `_run/` takes no
file (a read-only mount) is refused in the usual one line, before an engine starts (a Ray instance takes seconds),
not with the OS's words on a temporary file after Ray had started. Needs no Ray: no engine is started."""

from __future__ import annotations

import errno
import shutil
from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.resource_files import resource_path

DEMO_PAGES = resource_path("demo", "dataset", "html")


def _records_folders_take_no_file(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every `_run/` takes no file, as a read-only mount there would (root's permission bits say nothing)."""
    import recordlens.core.output_paths as output_paths

    make = output_paths.tempfile.mkstemp

    def refused(*args: object, dir: object = None, **options: object) -> tuple[int, str]:  # noqa: A002 - mkstemp's
        if dir is not None and Path(str(dir)).name == "_run":
            raise OSError(errno.EROFS, "Read-only file system")
        return make(*args, dir=dir, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(output_paths.tempfile, "mkstemp", refused)


@pytest.mark.parametrize("engine", [[], ["--engine", "ray", "--workers", "2"]])
@pytest.mark.parametrize("seeds", [False, True])
def test_a_read_only_records_folder_is_refused_before_any_work(
        engine: list[str], seeds: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    records = out / "seed-0" / "_run" if seeds else out / "_run"
    records.mkdir(parents=True)
    shutil.copy(DEMO_PAGES / "1.html", records / "kept.txt")  # whatever it holds stays as it is
    _records_folders_take_no_file(monkeypatch)

    def no_engine(*_: object, **__: object) -> None:
        raise AssertionError("an engine was started before the run folder was checked")

    monkeypatch.setattr("recordlens.core.cli.engine_options.make_engine", no_engine)
    argv = ["extract", "--pages", str(DEMO_PAGES), "--out", str(out), "-q", *engine]
    if seeds:
        argv = ["extract", "-m", "gemini", "--seeds", "2", "--base-url", "http://127.0.0.1:9", *argv[1:]]
        monkeypatch.setenv("GEMINI_API_KEY", "fake-key-read-only-check")
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"recordlens: error: cannot write {records}: nothing can be written in {records} (Read-only file "
                   "system)"], err
    assert sorted(p.name for p in out.rglob("*") if p.is_file()) == ["kept.txt"]  # nothing extracted, nothing made
