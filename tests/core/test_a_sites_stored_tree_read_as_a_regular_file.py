"""A site's stored accessibility tree (`read_tree`, and `SiteTrees`, which `agent run --observation axtree` warns
with before the run) is read through the one guarded reader: a site's folder is the user's. A FIFO in the place of
a tree was waited on for ever; a folder there was warned of as a tree "gone from the folder"; and a hard link to a
project's database open in this process was opened and closed, which drops this process's SQLite locks on it. Each
is now said as what it is, and the agent is shown no tree on that page, as for any tree that cannot be read."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from recordlens.core.agent.axtree import SiteTrees, UnreadableTree, read_tree
from recordlens.core.agent.sites import load_site
from tests.core.held_database import locks_held_on
from tests.demo_agent import demo_site_with_trees

ROOT = Path(__file__).resolve().parents[2]
CHILD_SECONDS = 120  # a child that reads a FIFO waits for ever: this long is "for ever" on a busy machine
START = "https://papers.example.org/"

pytestmark = [pytest.mark.skipif(not hasattr(os, "mkfifo") or not Path("/proc/locks").is_file(),
                                 reason="FIFOs as on POSIX, locks read from Linux's /proc/locks"),
              pytest.mark.timeout(300)]


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """A copy of the demo site whose every page has a stored tree, and the start page's tree taken away (the test
    puts something else there)."""
    folder = tmp_path / "site"
    demo_site_with_trees(folder)
    _start_tree(folder).unlink()
    return folder


def _start_tree(site: Path) -> Path:
    return site / str(load_site(site).page(START).side_file("axtree"))  # type: ignore[union-attr]


def _warned(site: Path) -> list[tuple[str, str]]:
    """What `SiteTrees.unreadable` says of the site, and that the agent is shown no tree on the start page."""
    trees = SiteTrees(load_site(site))
    assert trees(START) is None
    return trees.unreadable()


def _tree_name(site: Path) -> str:
    return str(_start_tree(site).relative_to(site))


def test_a_fifo_in_the_place_of_a_tree_is_said_without_waiting(site: Path) -> None:
    os.mkfifo(_start_tree(site))
    code = textwrap.dedent("""
        import sys
        from recordlens.core.agent.axtree import SiteTrees, read_tree
        from recordlens.core.agent.sites import load_site
        trees = SiteTrees(load_site(sys.argv[1]))
        print(trees.unreadable())
        try:
            read_tree(sys.argv[2])
        except Exception as error:
            print(f"{type(error).__name__}: {error}")
    """)
    done = subprocess.run([sys.executable, "-c", code, str(site), str(_start_tree(site))], cwd=ROOT,
                          capture_output=True, text=True, timeout=CHILD_SECONDS, check=False)
    assert done.returncode == 0, done.stderr
    fifo = "a FIFO (named pipe), not a regular file"
    assert done.stdout.splitlines() == [
        repr([(START, f"its tree {_tree_name(site)} cannot be read ({fifo})")]),
        f"UnreadableTree: cannot read the accessibility tree {_start_tree(site)}: {fifo}"]


def test_a_folder_in_the_place_of_a_tree_is_said_as_a_folder_not_as_gone(site: Path) -> None:
    _start_tree(site).mkdir()
    assert _warned(site) == [(START, f"its tree {_tree_name(site)} cannot be read (a folder, not a stored "
                                     "accessibility tree)")]
    with pytest.raises(UnreadableTree) as raised:
        read_tree(_start_tree(site))
    assert str(raised.value) == f"cannot read the accessibility tree {_start_tree(site)}: a folder, not a " \
                                "stored accessibility tree"


def test_a_tree_gone_from_the_folder_is_still_said_gone(site: Path) -> None:
    assert _warned(site) == [(START, f"its tree {_tree_name(site)} is gone from the folder")]


def test_a_hard_link_to_an_open_project_database_in_the_place_of_a_tree_is_not_opened(site: Path,
                                                                                     held_database: Path) -> None:
    os.link(held_database, _start_tree(site))
    locks = locks_held_on(held_database)
    database = (f"another name (a hard link) of {held_database}, a database in use (SQLite's project.db-wal is beside "
                "it), not a stored accessibility tree")
    assert _warned(site) == [(START, f"its tree {_tree_name(site)} cannot be read ({database})")]
    with pytest.raises(UnreadableTree, match="another name"):
        read_tree(_start_tree(site))
    assert locks and locks_held_on(held_database) == locks  # never opened: no lock of the open database dropped
