"""`--ray-address` checked at once (README, "Joining a cluster"): a port that is no port number, and a port where
something that is not Ray listens (a web server, the dashboard's port), are refused within seconds, rather than left
to Ray's retries of many minutes, during which neither Ctrl+C nor SIGTERM is met.

The checks need no Ray; the command line's test does (the optional extra `ray`: `pip install -e '.[ray]'` in the
checkout): it skips where Ray is not installed (`make test-ray` installs it)."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from recordlens.core.runs import ray_engine
from recordlens.core.runs.engines import EngineError
from tests.core.ray_helpers import require_ray
from tests.ray_cluster import cluster_environment, recordlens


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base class's name
        pass


@contextmanager
def web_server() -> Iterator[int]:
    """A plain HTTP server on the loopback (as a mistyped port may reach: a web server, Ray's dashboard); its port."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Quiet)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def test_a_port_that_is_no_port_number_is_said_so() -> None:
    for port in (99999, 0):
        with pytest.raises(EngineError, match=rf"^cannot reach Ray at 127\.0\.0\.1:{port}: {port} is not a port "
                                              r"number \(they go from 1 to 65535\): check the address$"):
            ray_engine._check_reachable(f"127.0.0.1:{port}")


def test_a_web_server_at_the_address_is_refused_at_once_as_not_ray() -> None:
    with web_server() as port:
        started = time.monotonic()
        with pytest.raises(EngineError) as refused:
            ray_engine._check_reachable(f"127.0.0.1:{port}")
        seconds = time.monotonic() - started
    said = str(refused.value)
    assert said.startswith(f"cannot reach Ray at 127.0.0.1:{port}: something else answers there (it answered "), said
    assert said.endswith("check the port: --ray-address takes the cluster head's GCS port (6379, unless ray start "
                         "--port gave another), or ray://host:10001 for Ray Client; 8265 is the dashboard's"), said
    assert seconds < 10, seconds


def test_the_command_refuses_a_web_servers_port_within_seconds_and_writes_nothing(tmp_path: Path) -> None:
    """The whole command: it ended (before, it stayed in Ray's retries ~14 minutes, deaf to SIGTERM)."""
    require_ray()
    pages = tmp_path / "pages"
    pages.mkdir()
    out = tmp_path / "run"
    with web_server() as port:
        started = time.monotonic()
        done = recordlens(["extract", "--pages", str(pages), "--out", str(out), "--engine", "ray", "--ray-address",
                           f"127.0.0.1:{port}"], env=cluster_environment(), timeout_s=240)
        seconds = time.monotonic() - started
    assert done.returncode == 2, done.stderr[-3000:]
    assert done.stderr.splitlines()[-1].startswith(
        f"recordlens: error: cannot reach Ray at 127.0.0.1:{port}: something else answers there"), done.stderr[-3000:]
    assert "gcs_client.cc" not in done.stderr and "rpc_client.h" not in done.stderr  # Ray was never asked
    assert seconds < 60, seconds
    assert not out.exists()


def test_token_mode_without_a_token_is_said_at_once(tmp_path: Path) -> None:
    """RAY_AUTH_MODE=token and no token here: Ray's own client would end the process (exit 1, its C++ words only,
    which the check keeps off the terminal), before the cluster is asked anything. In a process of its own: Ray
    reads its authentication mode once per process."""
    require_ray()
    env = {**cluster_environment(), "HOME": str(tmp_path), "RAY_AUTH_MODE": "token"}  # no ~/.ray/auth_token
    for name in ("RAY_AUTH_TOKEN", "RAY_AUTH_TOKEN_PATH"):
        env.pop(name, None)
    check = ("from recordlens.core.runs import ray_engine\n"
             "try:\n    ray_engine._check_token_accepted('127.0.0.1:6379')\n"
             "except ray_engine.EngineError as error:\n    print(error)\n")
    done = subprocess.run([sys.executable, "-c", check], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.startswith("could not connect to Ray at 127.0.0.1:6379: RAY_AUTH_MODE=token asks for the "
                                  "cluster's token, and none is set here: set RAY_AUTH_TOKEN"), done.stdout
