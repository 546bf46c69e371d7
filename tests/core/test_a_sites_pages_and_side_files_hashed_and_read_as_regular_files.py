"""Every file of a snapshot site that RecordLens reads goes through the one guarded reader: the pages, trees and
meta.json files `site_digest` hashes (`agent run` records the digest before its first episode), and the index,
capture state and meta.json files `load_site` and `site build` read. A FIFO in the place of a tree or a meta.json
was waited on for ever (`agent run --observation axtree` never started); a FIFO in the place of site.json or
capture.json hung `site build` and every command given the site; and a hard link to a file of a project's database
open in this process was opened and closed, which drops this process's SQLite locks on it. Each is now said (or,
hashed, marked as a file that cannot be read, as a missing one is), and none is waited on or opened."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from recordlens.core.agent.site_digest import site_digest
from recordlens.core.agent.sites import CAPTURE_STATE_FILE, INDEX_FILE, SiteError, build_site, load_site, side_files
from tests.core.held_database import locks_held_on
from tests.demo_agent import TASKS_FILE, demo_site_with_trees
from tests.fake_gemini import FakeGemini, answer

ROOT = Path(__file__).resolve().parents[2]
CHILD_SECONDS = 120  # a child that reads a FIFO waits for ever: this long is "for ever" on a busy machine
START = "https://papers.example.org/"
KEY = "test-key-not-real"
FIFO = "a FIFO (named pipe), not a regular file"

pytestmark = [pytest.mark.skipif(not hasattr(os, "mkfifo") or not Path("/proc/locks").is_file(),
                                 reason="FIFOs as on POSIX, locks read from Linux's /proc/locks"),
              pytest.mark.timeout(600)]


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """A copy of the demo site captured as `site capture` keeps it: every page with its tree, screenshot and
    meta.json, and a capture.json naming where the capture began."""
    folder = tmp_path / "site"
    for page in demo_site_with_trees(folder).pages:
        side_files(folder / page.file)["screenshot"].write_bytes(b"\x89PNG\r\n\x1a\n")
    (folder / CAPTURE_STATE_FILE).write_text(json.dumps({"roots": [START]}), encoding="utf-8")
    build_site(folder)
    return folder


def _start_file(site: Path, kind: str) -> Path:
    """The start page's file of `kind`: "page" (its MHTML), "axtree" or "meta"."""
    page = load_site(site).page(START)
    assert page is not None
    return site / (page.file if kind == "page" else str(page.side_file(kind)))


def _in_a_child(code: str, *argv: str) -> subprocess.CompletedProcess[str]:
    """Python `code` run by another process (a blocking read of a FIFO would hang this one)."""
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code), *argv], cwd=ROOT, capture_output=True,
                          text=True, timeout=CHILD_SECONDS, env={**os.environ, "GEMINI_API_KEY": KEY}, check=False)


DIGEST_CHILD = """
    import sys
    from recordlens.core.agent.site_digest import site_digest
    from recordlens.core.agent.sites import load_site
    print(site_digest(load_site(sys.argv[1])))
"""


@pytest.mark.parametrize("kind", ["axtree", "meta"])
def test_a_fifo_in_the_place_of_a_tree_or_meta_file_is_hashed_without_waiting(site: Path, kind: str) -> None:
    path = _start_file(site, kind)
    path.unlink()
    gone = site_digest(load_site(site))  # what a file that cannot be read is hashed as
    os.mkfifo(path)
    done = _in_a_child(DIGEST_CHILD, str(site))
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [gone]


def test_agent_run_on_a_site_with_a_fifo_in_the_place_of_a_tree_starts_and_says_so(site: Path,
                                                                                    tmp_path: Path) -> None:
    tree = _start_file(site, "axtree")
    tree.unlink()
    os.mkfifo(tree)
    code = """
        import sys
        from recordlens.core.cli.command import main
        sys.exit(main(sys.argv[1:]))
    """
    with FakeGemini(default=answer("Action: Scroll [WINDOW]; down")) as server:
        done = _in_a_child(code, "agent", "run", "--project", str(tmp_path / "p"), "--site", str(site), "--tasks",
                           str(TASKS_FILE), "--task", "lookup-1", "--runs", "1", "--step-budget", "2", "--browser",
                           "text", "--observation", "axtree", "--base-url", server.url)
    assert done.returncode == 0, done.stderr
    warned = [line for line in done.stderr.splitlines() if line.startswith("warning: --observation axtree:")]
    assert warned == [f"warning: --observation axtree: {START}: its tree {tree.relative_to(site)} cannot be read "
                      f"({FIFO}), so the agent is shown no tree on that page (its prompt says none is stored); run "
                      "the same `site capture` again to capture it again"], done.stderr
    assert "run 0 lookup-1" in done.stderr


@pytest.mark.parametrize("kind", ["page", "axtree", "meta"])
def test_a_hard_link_to_an_open_project_database_in_a_site_is_hashed_unopened(site: Path, held_database: Path,
                                                                             kind: str) -> None:
    path = _start_file(site, kind)
    path.unlink()
    gone = site_digest(load_site(site)) if kind != "page" else None
    os.link(held_database, path)
    locks = locks_held_on(held_database)
    digest = site_digest(load_site(site))
    assert locks and locks_held_on(held_database) == locks  # never opened: no lock of the open database dropped
    if gone is not None:
        assert digest == gone


def test_a_fifo_in_the_place_of_the_index_or_the_capture_state_is_said_without_waiting(site: Path) -> None:
    (site / CAPTURE_STATE_FILE).unlink()
    os.mkfifo(site / CAPTURE_STATE_FILE)
    index = json.loads((site / INDEX_FILE).read_text(encoding="utf-8"))
    del index["start"]  # an index written before it said its start: the capture's state is read for it
    (site / INDEX_FILE).write_text(json.dumps(index), encoding="utf-8")
    code = """
        import sys
        from recordlens.core.agent.sites import build_site, load_site
        from recordlens.core.errors import RecordLensError
        print(load_site(sys.argv[1]).warnings)
        print(build_site(sys.argv[1], write=False).warnings)
        import os
        os.unlink(sys.argv[1] + "/site.json")
        os.mkfifo(sys.argv[1] + "/site.json")
        print(build_site(sys.argv[1], write=False).warnings)
        try:
            load_site(sys.argv[1])
        except RecordLensError as error:
            print(error)
    """
    done = _in_a_child(code, str(site))
    assert done.returncode == 0, done.stderr
    capture = f"capture.json cannot be read ({FIFO}): the site opens on its first page by URL"
    index_said = f"site.json cannot be read ({FIFO}): the site is named after its folder"
    assert done.stdout.splitlines() == [
        repr([capture]),
        repr([capture]),
        repr([index_said, capture]),
        f"cannot read {site / INDEX_FILE}: {FIFO}; rebuild it with `recordlens site build {site}`"]


def test_a_hard_link_to_an_open_project_database_as_a_sites_file_is_said_unopened(site: Path,
                                                                                  held_database: Path) -> None:
    database = (f"another name (a hard link) of {held_database}, a database in use (SQLite's project.db-wal is beside "
                "it)")
    meta = _start_file(site, "meta")
    page = load_site(site).page(START)
    assert page is not None
    for path in (meta, site / CAPTURE_STATE_FILE):
        path.unlink()
        os.link(held_database, path)
    locks = locks_held_on(held_database)
    assert build_site(site, write=False).warnings == [
        f"{page.file}: its capture's {meta.name} cannot be read ({database}, not a captured page's meta file): a link "
        "to an address that redirected to it does not reach it",
        f"capture.json cannot be read ({database}, not a capture state file): the site opens on its first page by URL"]
    (site / INDEX_FILE).unlink()
    os.link(held_database, site / INDEX_FILE)
    with pytest.raises(SiteError) as refused:
        load_site(site)
    assert str(refused.value) == (f"cannot read {site / INDEX_FILE}: {database}, not a site index; rebuild it with "
                                  f"`recordlens site build {site}`")
    assert locks and locks_held_on(held_database) == locks  # never opened: no lock of the open database dropped
