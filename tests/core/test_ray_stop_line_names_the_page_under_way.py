"""`extract --engine ray` stopped by Ctrl+C or SIGTERM names the page it stopped on, as a local run's stop line does:
"…, stopped on page N (its paid calls kept in _run/N.json); run the same command again for the rest". A Ray run's
said nothing of the pages its workers had under way, though each kept what it had paid for in its record.

Ray is the optional extra `ray` (`pip install -e '.[ray]'` in the checkout): this test skips where it is not
installed (`make test-ray` installs it)."""

from __future__ import annotations

import json
import re
import signal
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from recordlens.core.page.dataset import page_files
from tests.core.ray_helpers import KEY, small_copy
from tests.fake_gemini import FakeGemini, answer_with
from tests.ray_cluster import cluster_environment, recordlens_running, wait_while_running

pytest.importorskip("ray")

STOP_AFTER = 4  # requests the server has had when the run is stopped: the pages asked last are under way
STOPPED_ON = re.compile(r", stopped on page (\S+) \(its paid calls kept in _run/(\S+)\.json\); run the same command "
                        r"again for the rest")


@pytest.mark.parametrize("engine, stop", [("local", signal.SIGINT), ("ray", signal.SIGINT), ("ray", signal.SIGTERM)])
def test_a_stopped_extraction_names_the_page_it_stopped_on(engine: str, stop: signal.Signals, tmp_path: Path) -> None:
    data = small_copy(tmp_path / "data", 12)
    out = tmp_path / "run"
    arrived: list[float] = []
    lock = threading.Lock()

    def slow(body: dict[str, Any]) -> str:
        with lock:
            arrived.append(time.time())
        time.sleep(1.0)
        return '[["/body[1]"]]'

    on_ray = ["--workers", "2"] if engine == "ray" else []
    with FakeGemini(default=answer_with(slow)) as server:
        args = ["extract", "-m", "gemini", "-f", "flat", "--pages", str(data / "html"), "--out", str(out),
                "--base-url", server.url, "-q", "--engine", engine, *on_ray]
        with recordlens_running(args, env={**cluster_environment(), "GEMINI_API_KEY": KEY}) as running:
            wait_while_running(running, lambda: len(arrived) >= STOP_AFTER)
            time.sleep(0.3)  # the last request asked is under way at the server
            running.send_signal(stop)
            _, err = running.communicate(timeout=120)
    assert running.returncode == 128 + stop, err[-3000:]
    said = STOPPED_ON.search(err)
    assert said is not None and said[1] == said[2], err[-3000:]
    records = {path.stem: json.loads(path.read_text()) for path in (out / "_run").glob("[0-9]*.json")}
    cut = [name for name in page_files(data / "html") if records.get(name, {}).get("status") == "not finished"]
    assert said[1] == cut[0], (said[1], cut)  # the first of the run's order stopped part way, as a Ray budget stop says
    assert records[said[1]]["reason"].startswith("interrupted"), records[said[1]]
    assert not (out / f"{said[1]}.json").exists()
