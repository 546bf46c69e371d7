"""`site capture --viewport`: a size Chromium can lay out and screenshot, else a one-line refusal before anything
starts. Beyond 16,384 px a side the capture hung or the process died (SIGILL, SIGSEGV) with no message."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.core.cli.capture import MAX_VIEWPORT_SIDE, MIN_VIEWPORT_SIDE
from recordlens.core.cli.command import main


@pytest.mark.parametrize("size", ["99999x99999", "40000x2000", "20000x20000", f"{MAX_VIEWPORT_SIDE + 1}x1080",
                                  "1x1", f"1920x{MIN_VIEWPORT_SIDE - 1}"])
def test_a_viewport_out_of_range_is_refused_naming_the_range(tmp_path: Path, capsys, size: str) -> None:
    site = tmp_path / "s"
    assert main(["site", "capture", "http://127.0.0.1:9/", "--site", str(site), "--viewport", size]) == 2
    err = capsys.readouterr().err
    assert err == (f"recordlens: error: --viewport {size!r}: each side must be at least {MIN_VIEWPORT_SIDE} px "
                   f"and at most {MAX_VIEWPORT_SIDE:,} px, e.g. 1920x1080\n")
    assert not site.exists()  # refused before anything is created or started


@pytest.mark.parametrize("size", ["wide", "1920", "1920x", "1920 x 1080", "²x²", "-5x100"])
def test_a_viewport_not_written_width_x_height_is_refused_so(tmp_path: Path, capsys, size: str) -> None:
    assert main(["site", "capture", "http://127.0.0.1:9/", "--site", str(tmp_path / "s"), f"--viewport={size}"]) == 2
    assert f"--viewport {size!r}: write it WIDTHxHEIGHT, e.g. 1920x1080" in capsys.readouterr().err


def test_the_limits_themselves_are_accepted() -> None:
    from recordlens.core.cli.capture import _viewport

    assert _viewport(f"{MIN_VIEWPORT_SIDE}x{MAX_VIEWPORT_SIDE}") == (MIN_VIEWPORT_SIDE, MAX_VIEWPORT_SIDE)
    assert _viewport("1920X1080") == (1920, 1080)
