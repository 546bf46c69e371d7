"""`recordlens site capture` that gets Ctrl+C (SIGINT) or SIGTERM once its crawl has finished, while the site is
indexed: the user asked to stop, so it exits as interrupted (130; 143 for SIGTERM), but every page was saved and
the summary of the finished capture is said (not hidden behind a bare "stopped"). The app's Cancel landing then
(a SIGTERM) reports the capture done with its summary, not a failure.

The late signal is made certain: the child raises it itself right after core's crawl returns, inside the
capture's DeferredInterruption, which notes it for the final check."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from PySide6.QtCore import QProcess

from tests import capture_site
from tests.ctrl_c import with_ctrl_c
from tests.loopback import base_url

pytestmark = pytest.mark.app

# The command, with core's crawl followed at once by the signal: as a Ctrl+C pressed while the site is indexed.
_SIGNAL_AFTER_THE_CRAWL = """
import signal, sys
import recordlens.annotator.agent.site_capture as capture
crawl = capture.capture_site
def crawl_then_signal(*args, **kwargs):
    summary = crawl(*args, **kwargs)
    signal.raise_signal({signum})
    return summary
capture.capture_site = crawl_then_signal
capture.SETTLE_MS = 50
from recordlens.annotator.cli import main
sys.exit(main(sys.argv[1:]))
"""


def _capture_signalled_late(url: str, folder: Path, signum: int) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-c", _SIGNAL_AFTER_THE_CRAWL.format(signum=int(signum)), "site", "capture", url,
            "--site", str(folder), "--depth", "1", "--json"]
    return subprocess.run(with_ctrl_c(argv), capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize(("signum", "status", "said"), [
    (signal.SIGINT, 130, "recordlens: interrupted\n"),
    (signal.SIGTERM, 143, "recordlens: interrupted (SIGTERM)\n"),
])
def test_a_signal_after_the_crawl_still_says_the_finished_captures_summary(qapp, tmp_path: Path, signum: int,
                                                                           status: int, said: str) -> None:
    folder = tmp_path / "site"
    with capture_site.serve(capture_site.SMALL_PAGES) as httpd:
        done = _capture_signalled_late(base_url(httpd) + "/", folder, signum)
    assert done.returncode == status, done.stderr[-3000:]
    assert "Traceback" not in done.stderr and done.stderr.endswith(said), done.stderr[-3000:]
    summary = json.loads(done.stdout.strip().splitlines()[-1])  # the finished capture's own summary
    assert sorted(urlsplit(u).path for u in summary["saved"]) == sorted(capture_site.SMALL_EXPECTED)
    assert summary["failed"] == [] and summary["queued"] == 0 and summary["pages"] == len(capture_site.SMALL_PAGES)

    if signum == signal.SIGTERM:  # as the app's Cancel landing then: its process reads that exit and output
        from recordlens.annotator.agent.site_capture import CaptureFromWeb

        process = CaptureFromWeb()
        process._cancelled = True
        result = process._result(done.returncode, QProcess.ExitStatus.NormalExit, done.stdout.splitlines())
        assert result["ok"] is True and result["message"] == "cancelled: " + summary["message"], result
        assert result["pages"] == len(capture_site.SMALL_PAGES)
