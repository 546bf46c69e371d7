"""The lines a command prints on stdout that name a folder whose name is not UTF-8 (Latin-1 bytes, which Python keeps
as surrogates) name it by its bytes, as a hint names a path (`command_hints.hint_path`: `"$(printf %b 'lat\\0351n1')"`,
which a shell reads back as those bytes), as the summaries of `synth` and `site capture` do; never as a lone
surrogate (which stdout cannot write, and wrote `\\udce9`), nor as `\\xe9` (which a shell reads as those four
characters): extract's and train's closing lines, and `project init`, `export` and `project copy`."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from recordlens.core.command_hints import hint_path
from tests.core.cli_runs import DEMO, run

LATIN = os.fsdecode(b"lat\xe9n1")  # 'lat\udce9n1'


@pytest.fixture
def latin(tmp_path: Path) -> Path:
    """A folder named in Latin-1 (skipped where the file system refuses the name)."""
    folder = tmp_path / LATIN
    try:
        folder.mkdir()
    except (OSError, UnicodeError):
        pytest.skip("this file system refuses a name that is not UTF-8")
    return folder


def named_by_its_bytes(out: str, path: Path) -> None:
    assert hint_path(path) in out, out
    assert "\\udc" not in out and "\\xe9" not in out and LATIN not in out, out


def test_extract_and_train_say_the_folder_they_wrote_by_its_bytes(latin: Path, capsys: pytest.CaptureFixture[str],
                                                                  quick_fits: None) -> None:
    code, out, err = run(capsys, "extract", "--method", "mdr", "--pages", str(DEMO / "html"), "--out",
                         str(latin / "run"), "-q")
    assert code == 0, err
    assert out.startswith(f"{hint_path(latin / 'run')}: "), out
    named_by_its_bytes(out, latin / "run")
    code, out, err = run(capsys, "train", "--pages", str(DEMO / "html"), "--gt", str(DEMO / "gt"), "--out",
                         str(latin / "model.json"), "-q", "--workers", "1")
    assert code == 0, err
    named_by_its_bytes(out, latin / "model.json")


def test_project_init_export_and_copy_say_the_folder_by_its_bytes(latin: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    project = latin / "P"
    code, out, err = run(capsys, "project", "init", str(project))
    assert code == 0, err
    named_by_its_bytes(out, project)
    assert run(capsys, "import", str(DEMO), "--project", str(project), "-q")[0] == 0
    code, out, err = run(capsys, "export", "--project", str(project), "--format", "nexteval", "--out",
                         str(latin / "dataset"))
    assert code == 0, err
    named_by_its_bytes(out, latin / "dataset")
    code, out, err = run(capsys, "project", "copy", str(project), str(latin / "copy"))
    assert code == 0, err
    named_by_its_bytes(out, project)
    named_by_its_bytes(out, (latin / "copy").resolve())
