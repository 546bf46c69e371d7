"""An interrupted Gemini `extract` (SIGTERM, Ctrl+C) says what its session spent on the line that says what the
folder holds, as a session that ended says it on its closing line: its seconds, requests and tokens. Before, the
interrupted line gave the pages alone, so a session stopped part way seemed to have cost nothing. The request whose
answer was awaited at the interrupt was sent, so paid for: said among the answers whose tokens are unknown, not as 0.
A real process against the loopback fake of Gemini, which counts what it received."""

from __future__ import annotations

import re
import signal
from pathlib import Path

from recordlens.core.runs.run_files import META_DIR
from tests.child_lines import LINE_TIMEOUT_S
from tests.core.test_extract_killed_keeps_what_its_page_spent import GOOD, generate_requests, received, started
from tests.fake_gemini import FakeGemini, hang


def test_an_interrupted_session_says_its_requests_and_tokens(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    # page 1 answered (100 prompt and 20 completion tokens); page 2's request never answered: SIGTERM meanwhile
    with FakeGemini([GOOD, hang(300)]) as server:
        child = started(run_dir, tmp_path, server)
        try:
            assert received(server, 2, child), child.communicate()
            child.send_signal(signal.SIGTERM)
            _, err = child.communicate(timeout=LINE_TIMEOUT_S * 2)
        finally:
            child.kill()
        assert generate_requests(server) == 2
    assert child.returncode == 128 + signal.SIGTERM, err
    said = re.search(rf"{re.escape(str(run_dir))}: 1 of 4 pages extracted, stopped on page 2 \(its paid calls kept "
                     rf"in {META_DIR}/2.json\); run the same command again for the rest; this session: [0-9.]+ s, "
                     r"2 requests, 120 tokens \(100 prompt, 20 completion\) counted, and 1 answer without token counts "
                     r"\(their tokens unknown, not 0\)$", err, re.MULTILINE)
    assert said, err
