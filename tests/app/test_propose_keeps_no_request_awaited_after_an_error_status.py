"""A Propose with Gemini keeps the page being asked in its run as its budget counts, a request sent among its
answers whose tokens are unknown until its attempt ends. An attempt answered with an error status (a 503) counts
nothing, yet its request is awaited no more: before, the app learnt it only from the status bar's notice of the wait
before the retry, which a wait shorter than the notice's threshold (`WAIT_NOTICE_S`) never gives, so the 503's
request stayed kept as one whose tokens are unknown while the app waited (killed then, it left it so). The app now
learns it as `extract` does, from the caller's end of each attempt (`spending_told(..., attempts=caller)`). Against
the loopback fake of Gemini, the wait before the retry replaced by a look at what the run keeps meanwhile."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from recordlens.annotator.labelling.propose import ProposeWorker
from recordlens.core import extract
from recordlens.core.llm.gemini import UNCOUNTED, WAIT_NOTICE_S
from recordlens.core.runs import NOT_FINISHED, model_calls
from recordlens.core.runs.run_files import paid_tokens
from recordlens.core.store import open_project
from tests.app.gemini_helpers import SHOP_PAGE, SHOP_RECORDS
from tests.app.window_helpers import imported_project
from tests.fake_gemini import FakeGemini, answer, status

pytestmark = pytest.mark.app

KEY = "test-key-not-real-503"


def page_kept(folder: Path) -> dict[str, object]:
    """Page 1's record in the project's one run, as it is stored now."""
    with open_project(folder) as project:
        (run,) = project.runs.all()
        return dict(project.runs.get(run.id).cost["page_costs"]["1"])


def test_a_request_answered_by_a_503_is_not_kept_awaited_during_a_wait_too_short_to_be_said(
        qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = imported_project(tmp_path, {"html/1.html": SHOP_PAGE.format(1)})
    waits: list[float] = []
    during: list[dict[str, object]] = []
    real_create = extract.create

    def create(name: str, **params: object) -> extract.Extractor:
        made = real_create(name, **params)

        def wait(seconds: float) -> None:  # the wait before the retry: what the run keeps of the page meanwhile
            waits.append(seconds)
            during.append(page_kept(folder))

        made.caller._sleep = wait  # type: ignore[attr-defined]
        return made

    monkeypatch.setattr(extract, "create", create)
    with FakeGemini([status(503, "overloaded"), answer(SHOP_RECORDS, usage=(100, 20))]) as server:
        worker = ProposeWorker(folder, ["1"], "gemini", {"api_key": KEY, "base_url": server.url, "backoff_s": 0.5})
        notices: list[str] = []
        worker.notice.connect(notices.append)
        ended = threading.Event()
        worker.done.connect(lambda *_: ended.set())
        worker.start()
        qtbot.waitUntil(ended.is_set, timeout=60_000)
        worker.wait()
    assert len(waits) == 1 and waits[0] < WAIT_NOTICE_S, waits  # a wait too short to be said
    assert not notices, notices
    (kept,) = during
    # the 503's request: sent, answered (with an error), nothing paid in tokens, and no answer awaited
    assert kept["status"] == NOT_FINISHED, kept
    assert sum(int(call.get("attempts") or 0) for call in model_calls(kept.get("raw"))) == 1, kept
    assert UNCOUNTED not in paid_tokens(kept), kept
    assert "warnings" not in kept, kept
    done = page_kept(folder)
    assert done["status"] == "done" and paid_tokens(done) == {"prompt": 100, "completion": 20, "total": 120}, done
