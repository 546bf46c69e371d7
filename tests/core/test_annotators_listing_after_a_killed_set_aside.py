"""`recordlens annotators` lists where labels set aside are kept only when a folder of them is there: the hidden
folder a killed `annotators --remove` (or `import --annotator`) left is none (a verifier saw it pointed at as labels
"replaced or removed earlier"); the listing removes it, and says so."""

from __future__ import annotations

import logging
import socket
from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.store.project import open_project
from recordlens.core.store.removed_files import safe_name


def test_a_hidden_set_aside_left_by_a_killed_command_is_not_listed_and_is_removed(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, capsys) -> None:
    folder = tmp_path / "p"
    assert main(["project", "init", str(folder)]) == 0
    page = tmp_path / "1.html"
    page.write_text("<html><body><div>a</div></body></html>", encoding="utf-8")
    assert main(["import", str(page), "--project", str(folder), "-q"]) == 0
    with open_project(folder) as project:
        project.annotators.store("bea", {"1": ([["/html[1]/body[1]/div[1]"]], "gt/1.json")})
    # what `annotators --remove bea` left, killed on this machine as it wrote the labels (no process has that id)
    here = safe_name(socket.gethostname(), "host")
    left = folder / "removed" / "annotators" / f".bea.2026-01-01T00-00-00.000Z.partial-999999999-{here}-0a1b2c3d"
    (left / "gt").mkdir(parents=True)
    capsys.readouterr()
    with caplog.at_level(logging.WARNING):
        assert main(["annotators", "--project", str(folder)]) == 0
    assert "kept in" not in capsys.readouterr().out
    assert not left.exists() and f"removed {left}" in caplog.text
