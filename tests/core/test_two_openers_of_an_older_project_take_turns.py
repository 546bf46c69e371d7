"""Two RecordLens processes of this version that open a project of an earlier schema at the same moment both open
it: one brings it up to date (one copy kept in `removed/`) while the other waits, holding no connection to the
database, and then finds it up to date. Neither is refused as though the other were an earlier RecordLens holding
the database open (the upgrade is committed alone in the database, which a waiter holding a connection would
deny). Threads of one process take turns the same way."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from recordlens.core.store import StoreError, open_project, take_upgrades
from recordlens.core.store import project as project_module
from recordlens.core.store.schema import SCHEMA_VERSION
from tests.core.old_projects import a_version_3_project

# A RecordLens of this version opening the project (argv[1]) once the file argv[2] exists (it makes the file argv[3]
# when ready to); keeping the database as
# it was takes a second, as on a large project, so that the other opener is there meanwhile. It prints what it
# made of it: "opened" and the schemas it brought the project up from, or "refused" and why
OPENER = """
import sys, time
from pathlib import Path
from recordlens.core.store import StoreError, open_project, take_upgrades
from recordlens.core.store import project as project_module
keep = project_module.Project._keep_as_it_was
def slowly(self, found):
    time.sleep(1.0)
    return keep(self, found)
project_module.Project._keep_as_it_was = slowly
root, go = Path(sys.argv[1]), Path(sys.argv[2])
Path(sys.argv[3]).write_text("", encoding="utf-8")
while not go.exists():
    time.sleep(0.005)
try:
    with open_project(root) as project:
        print("opened", project.schema_version(), [u.found for u in take_upgrades()], flush=True)
except StoreError as error:
    print("refused", error, flush=True)
"""

GENEROUS_S = 120.0


def test_two_processes_opening_an_older_project_at_once_both_open_it(tmp_path: Path) -> None:
    old = a_version_3_project(tmp_path / "old")
    go = tmp_path / "go"
    ready = [tmp_path / f"ready-{n}" for n in range(2)]
    openers = [subprocess.Popen([sys.executable, "-c", OPENER, str(old), str(go), str(mark)], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True) for mark in ready]
    until = time.monotonic() + GENEROUS_S
    while not all(mark.exists() for mark in ready) and time.monotonic() < until:
        time.sleep(0.01)
    start = time.monotonic()
    go.write_text("", encoding="utf-8")
    said = [opener.communicate(timeout=GENEROUS_S) for opener in openers]
    assert time.monotonic() - start < GENEROUS_S
    lines = sorted(out.strip() for out, _ in said)
    assert lines == sorted([f"opened {SCHEMA_VERSION} []", f"opened {SCHEMA_VERSION} [3]"]), said
    assert len(list((old / "removed").glob("project-schema-3.*.db"))) == 1  # upgraded once
    assert not (old / project_module.UPGRADE_MARK).exists()


def test_two_threads_opening_an_older_project_at_once_both_open_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    old = a_version_3_project(tmp_path / "old")
    keep = project_module.Project._keep_as_it_was

    def slowly(self: project_module.Project, found: int) -> Path:
        time.sleep(1.0)
        return keep(self, found)

    monkeypatch.setattr(project_module.Project, "_keep_as_it_was", slowly)
    both = threading.Barrier(2)
    opened: list[int] = []
    refused: list[str] = []

    def opening() -> None:
        both.wait(timeout=GENEROUS_S)
        try:
            with open_project(old) as project:
                opened.append(project.schema_version())
        except StoreError as error:
            refused.append(str(error))

    threads = [threading.Thread(target=opening) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=GENEROUS_S)
    assert refused == [] and opened == [SCHEMA_VERSION, SCHEMA_VERSION]
    assert [upgrade.found for upgrade in take_upgrades()] == [3]
    assert len(list((old / "removed").glob("project-schema-3.*.db"))) == 1
