"""The fonts `make system-deps` installs draw the scripts of the pages people label: where none has a glyph,
Chromium draws an empty box, on the page, in the record list and in an agent's screenshots."""

import shutil
import subprocess

import pytest

# One character of each script, as fontconfig's charset query names it (hex code point).
SCRIPTS = {
    "Latin": "e9", "Greek": "3b1", "Cyrillic": "436", "Hebrew": "5d0", "Arabic": "639", "Thai": "e01",
    "Chinese": "4e2d", "Japanese kana": "3042", "Korean": "d55c", "emoji": "1f35c",
}


@pytest.mark.parametrize("script", SCRIPTS)
def test_an_installed_font_draws_the_script(script: str) -> None:
    if shutil.which("fc-list") is None:
        pytest.fail("fc-list is missing: fontconfig is one of the packages `make system-deps` installs")
    families = subprocess.run(["fc-list", f":charset={SCRIPTS[script]}", "family"], capture_output=True, text=True,
                              timeout=60, check=True).stdout.split()
    assert families, f"no installed font draws {script}: run `make system-deps` (Makefile: DEB_PACKAGES)"
