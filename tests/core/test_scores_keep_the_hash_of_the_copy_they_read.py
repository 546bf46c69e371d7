"""Each score keeps the content hash of the saved copy's bytes it read (schema 12): the copy is changed since it was
scored when its bytes now hash otherwise, whatever its file's time says. A copy changed by hand, scored, then put
back as it was stored is told (its bytes are not those scored); a project copied without its files' times is no
change, and its copies are hashed once in a process, not at every `runs`. A project of schema 11 is brought up with
its scores, judged by their time as before."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from recordlens.core.store import open_project, remove_page, restore_page, take_upgrades
from recordlens.core.store import runs as runs_module
from recordlens.core.store.files import content_hash
from recordlens.core.store.scoring import score_stored_run
from tests.core.cli_runs import run
from tests.core.old_projects import as_earlier_schema
from tests.core.test_stale_when_a_saved_copy_changed_by_hand import (  # noqa: F401 - the fixture
    WHY,
    cut_the_last_card_to_its_name,
    project,
    saved_copy,
)

pytestmark = pytest.mark.timeout(300)


def copy_hashes(folder: Path, run_id: int) -> dict[str, str | None]:
    with open_project(folder) as opened:
        rows = opened.db.execute("SELECT p.name, s.copy_hash FROM scores s JOIN pages p ON p.id = s.page_id "
                                 "WHERE s.run_id = ? ORDER BY p.id", (run_id,))
        return dict(rows.fetchall())


def test_each_score_keeps_the_hash_of_the_bytes_it_read(project: Path) -> None:  # noqa: F811
    held = copy_hashes(project, 1)
    with open_project(project) as opened:
        assert held == {name: opened.page(name).snapshot for name in held} and len(held) == 4


def test_a_copy_changed_scored_then_put_back_as_stored_is_stale(
        project: Path, capsys: pytest.CaptureFixture[str]) -> None:  # noqa: F811
    copy = saved_copy(project, "1")
    stored, stored_file = copy.read_bytes(), copy.stat()
    cut_the_last_card_to_its_name(project)
    assert run(capsys, "score", "--project", str(project), "--run", "1", "-q")[0] == 0  # of the copy as changed
    with open_project(project) as opened:
        assert opened.runs.stale_pages(1) == [] and opened.runs.stale_pages(2) == ["1"]
    copy.write_bytes(stored)  # put back as it was stored, its times too (`cp -p` of a copy kept aside)
    os.utime(copy, ns=(stored_file.st_atime_ns, stored_file.st_mtime_ns))
    with open_project(project) as opened:
        assert opened.runs.stale_pages(1) == ["1"]  # its score is of the bytes changed by hand
        assert opened.runs.why_stale(1) == WHY
        assert opened.runs.stale_pages(2) == []  # scored of these very bytes
    code, out, err = run(capsys, "runs", "--project", str(project))
    assert code == 0, err
    assert f"run 1's figures are out of date: {WHY};" in " ".join(out.split())

    assert run(capsys, "score", "--project", str(project), "--run", "1", "-q")[0] == 0
    with open_project(project) as opened:
        assert opened.runs.stale_pages(1) == []
        assert next(s.f1 for s in opened.runs.scores(1) if s.page == "1") < 1.0  # the copy as it was stored


def test_a_project_copied_without_its_times_is_no_change_and_hashed_once(
        project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],  # noqa: F811
        monkeypatch: pytest.MonkeyPatch) -> None:
    copied = tmp_path / "copied"
    shutil.copytree(project, copied, copy_function=shutil.copy)  # `cp -r`: every file written now
    read: list[Path] = []
    real = runs_module.read_file_bytes

    def counted(path: Path) -> bytes:
        read.append(path)
        return real(path)

    monkeypatch.setattr(runs_module, "read_file_bytes", counted)
    code, out, err = run(capsys, "runs", "--project", str(copied))
    assert code == 0 and "out of date" not in out, (out, err)
    assert len(read) == len(set(read)) == 4  # the 4 scored copies, each once for both runs
    del read[:]
    code, out, err = run(capsys, "runs", "--project", str(copied))
    assert code == 0 and "out of date" not in out, (out, err)
    assert read == []  # the files as they were judged: none read again
    with open_project(copied) as opened:
        assert opened.runs.stale_pages(1) == [] == opened.runs.stale_pages(2)
    assert read == []


def test_a_schema_11_project_keeps_its_scores_and_their_verdicts(project: Path) -> None:  # noqa: F811
    with open_project(project) as opened:
        scores = {run_id: opened.runs.scores(run_id) for run_id in (1, 2)}
    cut_the_last_card_to_its_name(project)  # after the scores: stale by its time, as schema 11 judged it
    as_earlier_schema(project, 11)
    take_upgrades()
    with open_project(project) as opened:
        (upgrade,) = take_upgrades()
        assert (upgrade.found, upgrade.to) == (11, 12) and opened.schema_version() == 12
        assert {run_id: opened.runs.scores(run_id) for run_id in (1, 2)} == scores
        assert opened.runs.stale_pages(1) == ["1"] == opened.runs.stale_pages(2)
        assert opened.runs.why_stale(1) == WHY
        score_stored_run(opened, 1)  # of the copy as it is now, its hash kept
        assert opened.runs.stale_pages(1) == [] and opened.runs.stale_pages(2) == ["1"]
    changed = content_hash(saved_copy(project, "1").read_bytes())
    assert copy_hashes(project, 1)["1"] == changed and copy_hashes(project, 2)["1"] is None


def test_a_page_put_back_keeps_the_hashes_its_scores_read(project: Path) -> None:  # noqa: F811
    held = copy_hashes(project, 1)
    with open_project(project) as opened:
        removed = remove_page(opened, "1")
        restore_page(opened, removed.kept)
    assert copy_hashes(project, 1) == held
