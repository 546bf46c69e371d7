"""The store survives SIGKILL at any moment with every acknowledged edit, and two writers never see
"database is locked"."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from recordlens.core.store.files import store_snapshot
from recordlens.core.store.project import Project, init_project, open_project
from tests.child_lines import first_line
from tests.conftest import ROOT

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")

TOTAL_EDITS = 10_000
MIN_KILLS = 20


def make_project(folder: Path, pages: list[str]) -> None:
    with init_project(folder) as project:
        data = b"<html><body><div><span>a</span></div></body></html>"
        digest = store_snapshot(project.root, data, ".html")
        for page in pages:
            project.add_page(page, digest, ".html", len(data))


def spawn(folder: Path, page: str, edits: int, seed: int, go_file: Path | None = None,
          other: str | None = None) -> subprocess.Popen[str]:
    """`store_child` editing `page`; with `go_file`, starting when it exists; with `other` too, going on after its
    first edit only once the child editing page `other` has made its own (the two interleave)."""
    command = [sys.executable, "-m", "tests.core.store_child", str(folder), page, str(edits), str(seed)]
    if go_file is not None:
        command.append(str(go_file))
        if other is not None:
            command.append(other)
    return subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            bufsize=1)


def acknowledged(lines: list[str]) -> dict[int, str]:
    """History id -> action for every complete line a child printed (a cut-off last line is no ack)."""
    acks = {}
    for line in lines:
        if line.endswith("\n") and line[0].isdigit():
            hid, action = line.split()
            acks[int(hid)] = action
    return acks


def replayed_labels(project: Project, page: str) -> dict[int, dict[str, object]]:
    """The page's records rebuilt from its history alone, oldest entry first."""
    state: dict[int, dict[str, object]] = {}
    rows = project.db.execute("SELECT before, after FROM label_history WHERE page_id = ? ORDER BY id",
                              (project.page_id(page),))
    for before, after in rows:
        for row in json.loads(before):
            state.pop(row["id"], None)
        for row in json.loads(after):
            state[row["id"]] = row
    return state


def check_project(folder: Path, page: str, acks: dict[int, str]) -> None:
    with open_project(folder) as project:
        assert project.one("PRAGMA integrity_check")[0] == "ok"
        assert project.one("PRAGMA foreign_key_check") is None
        history = dict(project.db.execute("SELECT id, action FROM label_history").fetchall())
        lost = {hid: action for hid, action in acks.items() if history.get(hid) != action}
        assert not lost, f"acknowledged edits missing after the kill: {sorted(lost)[:10]}"
        current = {label.id: label for label in project.labels(page)}
        replayed = replayed_labels(project, page)
        assert set(current) == set(replayed)
        for record_id, label in current.items():
            assert list(label.xpaths) == replayed[record_id]["xpaths"]
            assert label.status == replayed[record_id]["status"]


def test_sigkill_at_random_moments_loses_no_acknowledged_edit(tmp_path: Path) -> None:
    started = time.monotonic()
    folder = tmp_path / "project"
    make_project(folder, ["1"])
    rng = random.Random(20240611)
    acks: dict[int, str] = {}
    kills = runs = 0
    while kills < MIN_KILLS or len(acks) < TOTAL_EDITS:
        # Enough edits that the child is still writing when the kill comes (a child that ends first is a run
        # without a kill, and costs another child's start).
        child = spawn(folder, "1", max(TOTAL_EDITS - len(acks), 5000), seed=runs)
        runs += 1
        lines: list[str] = []
        first_line = threading.Event()

        def read(stream=child.stdout, lines=lines, first_line=first_line) -> None:
            for line in stream:
                lines.append(line)
                first_line.set()
            first_line.set()

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        # Most kills land while edits stream in; every fourth may land while the child is still opening the db.
        if runs % 4:
            first_line.wait(timeout=20)
            time.sleep(rng.uniform(0.0, 0.8))
        else:
            time.sleep(rng.uniform(0.05, 0.4))
        if child.poll() is None:
            os.kill(child.pid, signal.SIGKILL)
            kills += 1
        child.wait(timeout=20)
        reader.join(timeout=20)
        stderr = child.stderr.read()
        child.stderr.close()
        assert child.returncode in (0, -signal.SIGKILL), stderr
        assert "Traceback" not in stderr, stderr
        acks.update(acknowledged(lines))
        check_project(folder, "1", acks)
    elapsed = time.monotonic() - started
    print(f"{kills} kills, {runs} children, {len(acks)} acknowledged edits, {elapsed:.1f} s")
    # Its duration (the issue asks for under a minute) shows in `make test`'s --durations list, not in an assert.
    assert kills >= MIN_KILLS and len(acks) >= TOTAL_EDITS


def test_two_processes_write_at_once_without_locking_errors(tmp_path: Path) -> None:
    folder = tmp_path / "project"
    make_project(folder, ["a", "b"])
    go = tmp_path / "go"
    children = [spawn(folder, page, 500, seed, go, other)
                for seed, (page, other) in enumerate([("a", "b"), ("b", "a")])]
    for child in children:
        assert first_line(child).strip() == "ready"
    go.touch()
    outputs = [child.communicate(timeout=120) for child in children]
    for child, (out, err) in zip(children, outputs, strict=True):
        assert child.returncode == 0, err
        assert "locked" not in err
        assert len(acknowledged(out.splitlines(keepends=True))) == 500
    with open_project(folder) as project:
        assert project.one("SELECT COUNT(*) FROM label_history")[0] == 1000
        assert project.one("PRAGMA integrity_check")[0] == "ok"
        # The two writers really interleaved: neither ran all its edits before the other began (each waited, after
        # its first edit, for the other's first: the edits of one child take a fraction of a second).
        pages = [row[0] for row in project.db.execute("SELECT page_id FROM label_history ORDER BY id")]
        switches = sum(1 for x, y in zip(pages, pages[1:], strict=False) if x != y)
        assert switches > 1
        for page in ("a", "b"):
            assert {label.id for label in project.labels(page)} == set(replayed_labels(project, page))
