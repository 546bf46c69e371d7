"""When a Gemini run cannot go on: `bench` stops a method as `extract` stops a run (and says so in its table and
exit status), waits honour the budget and a capped Retry-After and are said, a budget stop part way through a
page keeps what was paid for, a key written into --base-url is never recorded, and seeded runs are neither
mixed with a single-seed run nor refused by `runs --add`. Against the loopback fake in tests/fake_gemini.py."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from pathlib import Path

import pytest

from recordlens.core.llm.gemini import (
    Budget,
    BudgetExceededError,
    CallSettings,
    GeminiCaller,
    QuotaWaitError,
)
from recordlens.core.resource_files import resource_path
from tests.core.cli_runs import gemini_extract as extract
from tests.core.cli_runs import run
from tests.fake_gemini import FakeGemini, answer, refused, status

DEMO = resource_path("demo", "dataset")
KEY = "test-key-not-real-789"
TRUTH = {p: json.loads((DEMO / "gt" / f"{p}.json").read_text()) for p in ("1", "2", "3", "4")}



def bench(server: FakeGemini, *more: str) -> tuple[str, ...]:
    return ("bench", "--pages", str(DEMO / "html"), "--gt", str(DEMO / "gt"), "--methods", "gemini:flat,mdr",
            "--base-url", server.url, "--no-chart", "-q", *more)


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", KEY)


@pytest.fixture
def quick_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(GeminiCaller, "_backoff", lambda self, attempt, error: 0.01)


# 1. bench stops a method as extract stops a run, and its table and exit status say so


def test_bench_stops_a_method_whose_endpoint_fails_page_after_page(quick_retries: None,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    with FakeGemini(default=status(503, "down")) as server:
        code, out, err = run(capsys, *bench(server, "--json"))
        asked = len(server.requests)
    assert code == 4 and asked == 3 * 5  # three pages' five attempts; the fourth page is not asked
    rows = {r["method"]: r for r in json.loads(out)["table2"]}
    assert (rows["gemini"]["failed_pages"], rows["gemini"]["not_reached_pages"]) == (3, 1)
    assert "failed on 3 pages in a row" in rows["gemini"]["stopped"]
    assert (rows["mdr"]["failed_pages"], rows["mdr"]["not_reached_pages"], rows["mdr"]["stopped"]) == (0, 0, None)
    assert "gemini:flat stopped: the model endpoint failed on 3 pages in a row" in err
    with FakeGemini(default=status(503, "down")) as server:
        code, out, _ = run(capsys, *bench(server))
    gemini_row = next(line for line in out.splitlines() if line.startswith("gemini"))
    # the page it never reached is left out of every row (mdr's too): the rows are on the same 3 pages
    assert code == 4 and gemini_row.endswith(" 3 (3 failed, 1 not reached)")
    assert "(gemini:flat stopped: the model endpoint failed on 3 pages in a row" in out


def test_bench_stopped_by_its_budget_says_so_and_exits_3(capsys: pytest.CaptureFixture[str]) -> None:
    with FakeGemini(default=answer("[]")) as server:
        code, out, err = run(capsys, *bench(server, "--max-requests", "2", "--json"))
        asked = len(server.requests)
    gemini = next(r for r in json.loads(out)["table2"] if r["method"] == "gemini")
    assert code == 3 and asked == 2
    assert (gemini["pages"], gemini["failed_pages"], gemini["not_reached_pages"]) == (2, 0, 2)  # 3, 4 left out
    assert "request budget used up (2 of 2)" in gemini["stopped"]
    assert "gemini:flat stopped: request budget used up (2 of 2)" in err and "2 pages not reached (3, 4)" in err


def test_bench_with_pages_a_method_failed_on_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    with FakeGemini([refused("SAFETY")], default=answer("[]")) as server:
        code, out, _ = run(capsys, *bench(server))
    assert code == 1 and "(1 failed)" in out


# 2. a key written into --base-url is never recorded


def test_no_file_of_a_run_or_a_project_holds_a_key_written_into_the_base_url(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_dir, project = tmp_path / "run", tmp_path / "project"
    with FakeGemini(default=answer("[]")) as server:
        with_key = server.url.replace("http://", f"http://user:{KEY}@")
        code, _, err = run(capsys, "extract", "--method", "gemini", "--pages", str(DEMO / "html"), "--out",
                           str(run_dir), "--base-url", with_key, "-q")
    assert code == 0, err
    recorded = json.loads((run_dir / "_run" / "run.json").read_text())["settings"]["base_url"]
    assert recorded == server.url.replace("http://", "http://[key]@")
    assert run(capsys, "project", "init", str(project))[0] == 0
    assert run(capsys, "import", str(DEMO), "--project", str(project))[0] == 0
    code, out, err = run(capsys, "runs", "--project", str(project), "--add", str(run_dir), "--json")
    assert code == 0 and KEY not in out + err and "[key]@" in out
    for path in [*run_dir.rglob("*"), *project.rglob("*")]:
        assert not path.is_file() or KEY.encode() not in path.read_bytes(), path


# 3 and 4. seeded runs


def test_seeds_into_a_folder_holding_a_single_seed_run_are_refused_before_any_request(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_dir = tmp_path / "run"
    with FakeGemini(default=answer("[]")) as server:
        assert run(capsys, *extract(run_dir, server))[0] == 0
        before = len(server.requests)
        code, _, err = run(capsys, *extract(run_dir, server, "--seeds", "2"))
        assert len(server.requests) == before
    assert code == 2 and "holds a run of one seed" in err and "choose another --out" in err
    assert not (run_dir / "seed-0").exists()


def test_runs_add_of_a_seeded_run_stores_each_seed_as_a_run(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    run_dir, project = tmp_path / "run", tmp_path / "project"
    with FakeGemini(default=answer("[]")) as server:
        assert run(capsys, *extract(run_dir, server, "--seeds", "2"))[0] == 0
    assert run(capsys, "project", "init", str(project))[0] == 0
    assert run(capsys, "import", str(DEMO), "--project", str(project))[0] == 0
    code, out, err = run(capsys, "runs", "--project", str(project), "--add", str(run_dir))
    assert code == 0, err
    assert "holds a run written with --seeds (2 seeds): each seed-S/ is stored as a run of its own" in err
    assert f"stored {run_dir / 'seed-0'} as run 1" in err and f"stored {run_dir / 'seed-1'} as run 2" in err
    assert "seed 0" in out and "seed 1" in out and "from run/seed-1" in out


# 5. waits: the budget first, a capped Retry-After in either form, and said


def caller(server: FakeGemini, slept: list[float], said: list[str] | None = None,
           budget: Budget | None = None) -> GeminiCaller:
    settings = CallSettings(base_url=server.url, timeout_s=5.0, max_attempts=3, backoff_s=0.01)
    return GeminiCaller(settings, api_key=KEY, budget=budget, sleep=slept.append, rng=random.Random(0),
                        notify=said.append if said is not None else None)


def test_no_wait_when_the_budget_cannot_pay_for_the_retry(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    slept: list[float] = []
    with FakeGemini([status(429, "quota", {"Retry-After": "30"})], default=answer("[]")) as server, \
            pytest.raises(BudgetExceededError, match=r"request budget used up \(1 of 1\); not waiting"):
        caller(server, slept, budget=Budget(max_requests=1)).generate("hello")
    assert slept == []
    with FakeGemini([status(429, "quota", {"Retry-After": "30"})], default=answer("[]")) as server:
        code, _, err = run(capsys, *extract(tmp_path / "run", server, "--max-requests", "1"))
    assert code == 3 and "not waiting to retry after HTTP 429" in err and "waiting 30 s" not in err
    paid = json.loads((tmp_path / "run" / "_run" / "1.json").read_text())["raw"]["calls"][0]
    assert paid["statuses"] == [429] and paid["waited_s"] == 0  # the paid 429 is kept, no wait was made


def test_retry_after_is_capped_and_read_in_both_forms_and_a_long_wait_is_said(
        capsys: pytest.CaptureFixture[str]) -> None:
    slept: list[float] = []
    # A quota, not a failing endpoint: the run stops (and resumes later) rather than fail page after page.
    with FakeGemini([status(429, "quota", {"Retry-After": "86400"})], default=answer("[]")) as server, \
            pytest.raises(QuotaWaitError, match=r"asks to wait 86,400 s \(Retry-After: a quota\), more than the 300 s"):
        caller(server, slept).generate("hello")
    assert slept == []
    soon = format_datetime(datetime.now(UTC) + timedelta(seconds=40), usegmt=True)
    said: list[str] = []
    with FakeGemini([status(429, "quota", {"Retry-After": soon})], default=answer("[]")) as server:
        caller(server, slept, said).generate("hello")
    assert len(slept) == 1 and 30 <= slept[0] <= 41
    assert said == [f"HTTP 429: waiting {slept[0]:.0f} s as the server asks (Retry-After)"]
    with FakeGemini([status(503, "busy", {"Retry-After": "30"})], default=answer("[]")) as server:
        caller(server, []).generate("hello")  # said on stderr when no one else is told
    assert "HTTP 503: waiting 30 s as the server asks (Retry-After)" in capsys.readouterr().err


# 6. a budget stop part way through a page keeps what was paid for


def test_a_budget_stop_part_way_through_a_page_keeps_its_paid_calls(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    run_dir = tmp_path / "run"
    with FakeGemini(default=answer('[["/body[1]/', usage=(70, 5))) as server:  # unreadable: asked again
        code, printed, err = run(capsys, *extract(run_dir, server, "--max-requests", "2"))
        assert code == 3
        assert "0 extracted, 0 already there, 0 failed, stopped on page 1 (its paid calls kept in _run/1.json), " \
               "3 not reached" in printed and "150 tokens" in printed
        kept = json.loads((run_dir / "_run" / "1.json").read_text())
        assert kept["status"] == "not finished" and "request budget used up (2 of 2)" in kept["reason"]
        assert len(kept["raw"]["answers"]) == 2 and kept["tokens"]["total"] == 150
        assert not (run_dir / "1.json").exists()
        # resumed through the same endpoint (another would be refused: its answers would mix with the paid calls'):
        # the page is asked again, the paid calls stay
        server.script(default=answer("[]"))
        code, _, err = run(capsys, *extract(run_dir, server))
    done = json.loads((run_dir / "_run" / "1.json").read_text())
    assert code == 0 and done["status"] == "done" and len(done["earlier"][0]["raw"]["answers"]) == 2


# 7. a stopped run's pages counted alike everywhere, its reason given whole; a refused key is the endpoint's


def test_a_stopped_run_is_counted_alike_and_its_reason_given_whole(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    run_dir, project = tmp_path / "run", tmp_path / "project"
    with FakeGemini([answer("[]"), refused("SAFETY")], default=answer("[]")) as server:
        code, printed, err = run(capsys, *extract(run_dir, server, "--max-requests", "3"))
    assert code == 3 and "2 extracted, 0 already there, 1 failed, 1 not reached" in printed
    assert run(capsys, "project", "init", str(project))[0] == 0
    assert run(capsys, "import", str(DEMO), "--project", str(project))[0] == 0
    assert run(capsys, "runs", "--project", str(project), "--add", str(run_dir))[0] == 0
    stored = json.loads(run(capsys, "runs", "--project", str(project), "--json")[1])[0]
    assert "predicted_pages" not in stored and "predictions_stamp" not in stored  # the store's own words
    assert (stored["pages_with_records"], stored["failed_pages"], stored["pages_stored"]) == (2, 1, 3)
    code, out, _ = run(capsys, "runs", "--project", str(project))
    assert out.splitlines()[1].split()[4:6] == ["2", "1"]
    assert "check" not in out and "run again to resume from page 4)" in out  # whole, not cut
    code, out, _ = run(capsys, "score", "--project", str(project), "--run", "1", "-q")
    assert "4: not extracted (no N.json): the run stopped before it: request budget used up (3 of 3)" in out
    code, out, _ = run(capsys, "score", "--pred", str(run_dir), "--gt", str(DEMO / "gt"), "--pages",
                       str(DEMO / "html"), "-q")
    assert "4: not extracted (no N.json): the run stopped before it: request budget used up (3 of 3)" in out


def test_a_key_gemini_refuses_stops_the_run_as_a_failing_endpoint(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    refusal = status(400, "API key not valid. Please pass a valid API key.")
    with FakeGemini(default=refusal) as server:
        code, _, err = run(capsys, *extract(tmp_path / "run", server))
        asked = len(server.requests)
    assert code == 4 and asked == 3 and "the model endpoint failed on 3 pages in a row" in err


def test_a_page_shipped_to_a_worker_keeps_what_an_earlier_stopped_run_paid_for_on_it(tmp_path: Path) -> None:
    from recordlens.core.runs.engine_runs import _write_shipped
    from recordlens.core.runs.run_files import META_DIR, RunSummary

    out = tmp_path / "run"
    (out / META_DIR).mkdir(parents=True)
    (out / META_DIR / "7.json").write_text(json.dumps({"status": "not finished", "calls": 2}), encoding="utf-8")
    (out / "7.json").write_text("[]", encoding="utf-8")  # a --restart's old answer
    part = RunSummary(out)
    part.stopped_on = "7"  # the worker's budget ran out on it again
    again = {"status": "not finished", "calls": 1}
    _write_shipped(out, "7", part, {f"{META_DIR}/7.json": json.dumps(again).encode("utf-8")})
    kept = json.loads((out / META_DIR / "7.json").read_text(encoding="utf-8"))
    assert kept["calls"] == 1 and kept["earlier"] == [{"status": "not finished", "calls": 2}]
    assert not (out / "7.json").exists()
