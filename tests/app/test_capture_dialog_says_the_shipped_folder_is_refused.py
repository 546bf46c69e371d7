""""Capture a site from the web…" with the shipped demo site (or a folder inside the files RecordLens ships) as its
"Site folder": the capture command it runs refuses it before any work (tests/core/
test_site_commands_never_write_the_shipped_files.py), and the dialog says that refusal in its own field's name,
as it says the command's other options. The shipped resources are a copy in the test's folder: nothing of the
source tree can be written."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from recordlens.annotator.agent.capture_panel import _in_dialog_terms
from recordlens.core import resource_files
from recordlens.core.agent.capture import CaptureError, check_site_folder
from recordlens.core.command_hints import hint_path

pytestmark = pytest.mark.app


def test_the_dialog_says_the_refusal_with_its_fields_name(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    resources = tmp_path / "install" / "resources"
    shutil.copytree(resource_files.resource_path("agent", "demo-site"), resources / "agent" / "demo-site")
    monkeypatch.setattr(resource_files, "_resources_folder", lambda: resources)
    shipped = resources / "agent" / "demo-site"
    with pytest.raises(CaptureError) as refused:
        check_site_folder(shipped)
    assert _in_dialog_terms(str(refused.value)).startswith(
        f"{hint_path(shipped)} is inside the files RecordLens ships, which are never changed: choose another "
        "“Site folder”, outside them")
