"""A real Ray cluster of one node for the tests that join one (`--ray-address`): `ray start --head --block` in a
temp folder of its own, on a free port, 1 CPU, no dashboard, no usage statistics, no token (a test joins it by
host:port), and without the Gemini key in its environment (its workers get it from the command only). Stopped
by its own processes' ids (never `ray stop`, which would stop every Ray on the machine)."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

from recordlens.core.llm.gemini import KEY_VARIABLES
from tests.ctrl_c import with_ctrl_c

START_TIMEOUT_S = 120.0  # a busy 2-core machine: Ray's head takes 5-20 s


@dataclass(frozen=True)
class Cluster:
    address: str  # host:port, as --ray-address takes it
    folder: Path  # Ray's temp folder: its session folder and every log of the cluster
    head: subprocess.Popen[bytes]  # `ray start --block`, whose end stops the node's processes


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def cluster_environment() -> dict[str, str]:
    """This process's environment less the Gemini key and any Ray address; no token, no usage statistics."""
    env = {name: value for name, value in os.environ.items() if name not in (*KEY_VARIABLES, "RAY_ADDRESS")}
    env.update(RAY_AUTH_MODE="disabled", RAY_USAGE_STATS_ENABLED="0")
    return env


def head_start(port: int, folder: Path) -> list[str]:
    """`ray start --head` of a node of 1 CPU on `port`, with `folder` its temp folder, a small object store, no
    dashboard and no usage statistics (without --block: a caller that wants it adds it)."""
    return [str(Path(sys.executable).with_name("ray")), "start", "--head", f"--port={port}", f"--temp-dir={folder}",
            "--num-cpus=1", "--object-store-memory=100000000", "--include-dashboard=false", "--disable-usage-stats",
            "--node-ip-address=127.0.0.1"]


@contextmanager
def ray_cluster() -> Iterator[Cluster]:
    folder = Path(tempfile.mkdtemp(prefix="rlc-", dir="/tmp"))  # short: Ray's socket paths have a length limit
    port = free_port()
    log = folder / "head.log"
    with log.open("wb") as said:
        head = subprocess.Popen(
            [*head_start(port, folder), "--block"],
            stdout=said, stderr=subprocess.STDOUT, env=cluster_environment(), cwd=folder, start_new_session=True)
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while b"Ray runtime started" not in log.read_bytes():
            if head.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"the test's Ray head did not start: {log.read_text()[-3000:]}")
            time.sleep(0.5)
        yield Cluster(f"127.0.0.1:{port}", folder, head)
    finally:
        stop(head, folder)
        shutil.rmtree(folder, ignore_errors=True)


def stop(head: subprocess.Popen[bytes], folder: Path) -> None:
    """End the head's `ray start` (it stops the node's processes), then any process of this cluster left (found
    by its temp folder in its command line), each by its id."""
    if head.poll() is None:
        head.send_signal(signal.SIGTERM)
        try:
            head.wait(timeout=60)
        except subprocess.TimeoutExpired:
            head.kill()
            head.wait(timeout=30)
    for pid in processes_of(folder):
        with suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def processes_of(folder: Path) -> list[int]:
    """The processes whose command line names `folder` (a node's raylet and GCS do) or that run in it (the head
    is started there: its agents, which rename their command line, too)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            command = (entry / "cmdline").read_bytes()
            where = os.readlink(entry / "cwd")
        except OSError:
            continue
        if str(folder).encode() in command or where.removesuffix(" (deleted)") == str(folder):
            found.append(int(entry.name))
    return found


_COMMAND = "import sys; from recordlens.core.cli.command import main; sys.exit(main(sys.argv[1:]))"


def recordlens(args: Sequence[str], *, env: dict[str, str], timeout_s: float = 300.0,
               cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """The command line in a process of its own (a Ray driver per process: the tests' own instance is this one)."""
    return subprocess.run([sys.executable, "-c", _COMMAND, *args], env=env, capture_output=True, text=True,
                          timeout=timeout_s, cwd=cwd)


def recordlens_started(args: Sequence[str], *, env: dict[str, str]) -> subprocess.Popen[str]:
    """The command line started in a process of its own, not waited for (something is done to it meanwhile: a
    signal, its cluster lost); it meets Ctrl+C as from a terminal, however the suite was started."""
    return subprocess.Popen(with_ctrl_c([sys.executable, "-c", _COMMAND, *args]), env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


@contextmanager
def recordlens_running(args: Sequence[str], *, env: dict[str, str]) -> Iterator[subprocess.Popen[str]]:
    """`recordlens_started`, killed after the block whatever it left (a failed test leaves nothing running)."""
    running = recordlens_started(args, env=env)
    try:
        yield running
    finally:
        running.kill()


def wait_while_running(running: subprocess.Popen[str], until: Callable[[], bool], *, poll_s: float = 0.05,
                       timeout_s: float = 240.0) -> None:
    """Wait until `until()` holds (for `timeout_s` at most: a busy machine), the command still running then; if it
    ended before, what it said is the failure's message."""
    deadline = time.monotonic() + timeout_s
    while not until() and running.poll() is None and time.monotonic() < deadline:
        time.sleep(poll_s)
    assert running.poll() is None, running.communicate()


def kill_head(cluster: Cluster) -> list[int]:
    """As a head machine that dies: SIGKILL to the cluster's GCS server and its raylet (found by the cluster's
    folder in their command lines), nothing else; their ids."""
    killed = []
    for pid in processes_of(cluster.folder):
        with suppress(OSError):
            command = Path(f"/proc/{pid}/cmdline").read_bytes()
            if b"gcs_server" in command or b"/raylet" in command:
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)
    return killed


def files_holding(folder: Path, needle: bytes) -> list[str]:
    """Every file under `folder` whose bytes hold `needle`."""
    held = []
    for path in folder.rglob("*"):
        try:
            if path.is_file() and not path.is_symlink() and needle in path.read_bytes():
                held.append(str(path))
        except OSError:
            continue  # a socket, or a file Ray removed meanwhile
    return held
