"""A second SIGTERM soon after the first (0.05 s, 0.2 s) killed `agent run` by the signal (Popen's returncode -15)
instead of being ignored as the README promises: the command had stopped cleanly within a few milliseconds and
given SIGTERM's handler back (the default), and the second signal met the interpreter's own end (its threads
joined, its modules let go: some 0.2 s). The installed command's process (`main()` with no argv: the process's own
command line) now keeps further SIGTERMs ignored until it has ended, and exits 143."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.demo_agent import SITE_DIR, TASKS_FILE
from tests.fake_gemini import FakeGemini, hang

# The installed `recordlens`, as its console script runs it: main() reads the process's own command line.
COMMAND = "import sys; from recordlens.core.cli.command import main; sys.exit(main())"


def _wait_for_a_request(server: FakeGemini, child: subprocess.Popen, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while not server.requests:
        assert child.poll() is None, child.communicate()[1]
        assert time.monotonic() < deadline, "the agent run asked the model nothing"
        time.sleep(0.05)


@pytest.mark.parametrize("gap", [0.05, 0.2])
def test_a_second_sigterm_soon_after_the_first_is_ignored_and_agent_run_exits_143(tmp_path: Path,
                                                                                   gap: float) -> None:
    env = {**os.environ, "HOME": str(tmp_path), "GEMINI_API_KEY": "test-key-not-real"}
    with FakeGemini(default=hang(60)) as server:  # the model call in flight when the signals come
        child = subprocess.Popen(
            [sys.executable, "-c", COMMAND, "agent", "run", "--project", str(tmp_path / "p"), "--site",
             str(SITE_DIR), "--tasks", str(TASKS_FILE), "--task", "lookup-1", "--runs", "1", "--browser", "text",
             "--base-url", server.url],
            cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            _wait_for_a_request(server, child)
            child.send_signal(signal.SIGTERM)
            time.sleep(gap)
            child.send_signal(signal.SIGTERM)  # while it stops, or while its interpreter ends
            _, err = child.communicate(timeout=120)
        finally:
            if child.poll() is None:
                child.kill()
                child.communicate()
    assert child.returncode == 128 + signal.SIGTERM, err
    assert err.rstrip().endswith("recordlens: interrupted (SIGTERM)")
