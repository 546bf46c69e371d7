"""LLM extraction runs you can trust: refused or cut-off answers are failed pages (kept, retried by a rerun,
listed by `score`), every attempt is recorded, budgets of 0 mean 0, the key never reaches a run folder, and a
run records the prompt it was made with. Against the loopback fake in tests/fake_gemini.py."""

from __future__ import annotations

import contextlib
import json
import os
import stat
from pathlib import Path

import pytest

from recordlens.core.atomic import file_mode
from recordlens.core.extract.base import Extraction, ExtractionFailedError
from recordlens.core.extract.gemini import GeminiExtractor
from recordlens.core.page.dataset import load_page
from recordlens.core.page.dom import parse_html
from recordlens.core.resource_files import resource_path
from recordlens.core.runs.runner import run_extractor
from tests.core.cli_runs import run
from tests.fake_gemini import FakeGemini, Step, answer, answer_with, no_candidates, raw_body, refused, status

DEMO = resource_path("demo", "dataset")
KEY = "test-key-not-real-456"
PAGE = parse_html("<main><ul><li><b>Camera</b> $399</li><li><b>Lens</b> $129</li></ul></main>")
RECORDS = [["/body[1]/main[1]/ul[1]/li[1]"], ["/body[1]/main[1]/ul[1]/li[2]"]]
TRUTH = {p: json.loads((DEMO / "gt" / f"{p}.json").read_text()) for p in ("1", "2", "3", "4")}
TITLES = {p: load_page(DEMO / "html" / f"{p}.html").snapshot.title for p in TRUTH}


def extractor(server: FakeGemini, **options: object) -> GeminiExtractor:
    settings = {"api_key": KEY, "base_url": server.url, "timeout_s": 5.0, "max_attempts": 3, "backoff_s": 0.01}
    settings.update(options)
    return GeminiExtractor(**settings)  # type: ignore[arg-type]


def page_of(body: dict) -> str:
    prompt = body["contents"][0]["parts"][0]["text"]
    return next(p for p, title in TITLES.items() if json.dumps(title, ensure_ascii=False) in prompt)


@pytest.mark.parametrize(("step", "reason"), [
    (refused("SAFETY"), "finishReason SAFETY"),
    (refused("RECITATION", '[["/body[1]"]]'), "finishReason RECITATION"),
    (refused("MAX_TOKENS", '[["/body[1]/main[1]'), "finishReason MAX_TOKENS"),
    (refused("OTHER"), "finishReason OTHER"),
    (no_candidates(), "no candidates"),
    (answer(""), "text is empty"),
])
def test_a_refused_or_cut_off_answer_is_a_failed_page_not_an_empty_prediction(step: Step, reason: str) -> None:
    with FakeGemini([step], default=answer(json.dumps(RECORDS))) as server, \
            pytest.raises(ExtractionFailedError) as caught:
        extractor(server).extract(PAGE)
    assert reason in caught.value.reason
    assert len(server.requests) == 1  # not retried with identical settings
    calls = caught.value.details["raw"]["calls"]  # type: ignore[index]
    assert calls[0]["statuses"] == [200] and calls[0]["tokens"]["total"] == 120


def test_unreadable_answers_after_the_retries_are_a_failed_page_with_every_answer() -> None:
    with FakeGemini([answer("nope"), answer("{}"), answer("still nope")]) as server, \
            pytest.raises(ExtractionFailedError, match="no readable answer after 3 call"):
        extractor(server).extract(PAGE)
    assert len(server.requests) == 3


def test_http_200_with_a_body_that_is_not_json_is_transient_and_retried() -> None:
    with FakeGemini([raw_body(b"<html>proxy says hello</html>"), raw_body(b""),
                     answer(json.dumps(RECORDS))]) as server:
        result = extractor(server).extract(PAGE)
    assert result.records == RECORDS
    assert len(server.requests) == 3
    assert result.raw["calls"][0]["statuses"] == [200, 200, 200]  # type: ignore[index]
    assert "not JSON" in result.raw["calls"][0]["errors"][0]  # type: ignore[index]


def test_attempts_statuses_wait_finish_reason_and_tokens_are_kept_per_page(tmp_path: Path) -> None:
    (tmp_path / "pages").mkdir()
    (tmp_path / "pages" / "1.html").write_text("<main><ul><li>a</li><li>b</li></ul></main>")
    slept: list[float] = []
    with FakeGemini([status(429, "quota"), status(503), answer(json.dumps(RECORDS), usage=(50, 7))]) as server:
        gemini = extractor(server, max_attempts=5)
        gemini.caller._sleep = slept.append  # no real waiting
        summary = run_extractor(gemini, tmp_path / "pages", tmp_path / "run")
    assert summary.extracted == ["1"]
    cost = json.loads((tmp_path / "run" / "_run" / "1.json").read_text())
    call = cost["raw"]["calls"][0]
    assert cost["status"] == "done"
    assert call["attempts"] == 3 and call["statuses"] == [429, 503, 200]
    assert call["waited_s"] == pytest.approx(sum(slept), abs=1e-3) and call["waited_s"] > 0
    assert call["finish_reason"] == "STOP" and call["tokens"] == {"prompt": 50, "completion": 7, "total": 57}


def test_a_call_that_fails_for_good_leaves_its_reason_and_attempts_in_the_run(tmp_path: Path) -> None:
    (tmp_path / "pages").mkdir()
    (tmp_path / "pages" / "1.html").write_text("<main><ul><li>a</li><li>b</li></ul></main>")
    with FakeGemini(default=status(500, "boom")) as server:
        gemini = extractor(server, max_attempts=2)
        gemini.caller._sleep = lambda seconds: None
        summary = run_extractor(gemini, tmp_path / "pages", tmp_path / "run")
    assert "HTTP 500" in summary.failed["1"]
    cost = json.loads((tmp_path / "run" / "_run" / "1.json").read_text())
    assert cost["status"] == "failed" and "HTTP 500" in cost["reason"]
    assert cost["raw"]["calls"][0]["statuses"] == [500, 500]
    assert not (tmp_path / "run" / "1.json").exists()


def test_failed_pages_are_kept_retried_by_a_rerun_and_listed_by_score(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", KEY)
    run_dir = tmp_path / "run"
    refuse = {"2": refused("SAFETY"), "3": refused("MAX_TOKENS", '[["/body[1]')}

    def respond(body: dict) -> str | Step:
        page = page_of(body)
        return refuse.get(page) or json.dumps(TRUTH[page])

    extract = ("extract", "--method", "gemini", "--pages", str(DEMO / "html"), "--out", str(run_dir), "-q")
    with FakeGemini(default=answer_with(respond)) as server:
        code, _, err = run(capsys, *extract, "--base-url", server.url)
    assert code == 1 and "page 2 failed" in err and "SAFETY" in err
    assert sorted(p.name for p in run_dir.glob("*.json")) == ["1.json", "4.json"]
    failed = json.loads((run_dir / "_run" / "2.json").read_text())
    assert failed["status"] == "failed" and "SAFETY" in failed["reason"]
    assert failed["raw"]["calls"][0]["finish_reason"] == "SAFETY"

    code, out, err = run(capsys, "score", "--pred", str(run_dir), "--gt", str(DEMO / "gt"), "--pages",
                         str(DEMO / "html"), "-q")
    assert code == 0 and "the run failed on it" in err
    assert "pages without a prediction (2 failed;" in out and "2: the model did not finish (finishReason SAFETY)" in out
    assert "without failed" in out and "(pages 2)" in out
    code, out, _ = run(capsys, "score", "--pred", str(run_dir), "--gt", str(DEMO / "gt"), "--pages",
                       str(DEMO / "html"), "--json", "-q")
    report = json.loads(out)
    assert set(report["failed_pages"]) == {"2", "3"}
    assert report["without_failed"]["f1"] == pytest.approx(1.0) and report["without_failed"]["pages"] == 2
    assert report["mean"]["f1"] == pytest.approx(0.5)

    # Stored in a project, the run keeps its failed pages: score names them there too.
    project = tmp_path / "project"
    assert run(capsys, "project", "init", str(project))[0] == 0
    assert run(capsys, "import", str(DEMO), "--project", str(project))[0] == 0
    code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(run_dir))
    assert code == 0 and "page 2: the run failed on it" in err
    run_id = max(r["id"] for r in json.loads(run(capsys, "runs", "--project", str(project), "--json")[1]))
    code, out, err = run(capsys, "score", "--project", str(project), "--run", str(run_id), "-q")
    assert code == 0 and "pages without a prediction (2 failed;" in out and "failed on it" in err
    listed = run(capsys, "runs", "--project", str(project))[1]  # the run's settings tell it from others
    assert "flat, seed 0" in listed and f"from {run_dir.name}" in listed

    refuse.clear()  # the model answers now: a rerun tries exactly the failed pages again
    with FakeGemini(default=answer_with(respond), port=server.port) as server:
        code, _, err = run(capsys, *extract, "--base-url", server.url)
        assert sorted(page_of(r.body) for r in server.requests) == ["2", "3"]
    assert code == 0, err
    assert json.loads((run_dir / "_run" / "2.json").read_text())["status"] == "done"


def test_max_requests_0_means_no_request(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", KEY)
    with FakeGemini(default=answer("[]")) as server:
        code, _, err = run(capsys, "extract", "--method", "gemini", "--pages", str(DEMO / "html"), "--out",
                           str(tmp_path / "run"), "--base-url", server.url, "--max-requests", "0", "-q")
    assert code == 3 and "request budget used up (0 of 0)" in err
    assert server.requests == []



def test_a_run_stopped_by_its_budget_is_scored_with_the_pages_it_never_extracted_named(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", KEY)
    run_dir = tmp_path / "run"
    with FakeGemini(default=answer_with(lambda body: json.dumps(TRUTH[page_of(body)]))) as server:
        code, _, _ = run(capsys, "extract", "--method", "gemini", "--pages", str(DEMO / "html"), "--out",
                         str(run_dir), "--base-url", server.url, "--max-requests", "2", "-q")
    assert code == 3
    code, out, err = run(capsys, "score", "--pred", str(run_dir), "--gt", str(DEMO / "gt"), "--pages",
                         str(DEMO / "html"), "-q")
    assert code == 0 and "pages without a prediction (2 not extracted;" in out
    assert (f"2 scored pages with no prediction in {run_dir} (3, 4; why, for each: not extracted (no N.json): the "
            "run stopped before it: request budget used up (2 of 2)") in err and "None" not in err
    assert "without failed" in out and "(pages 2)" in out
    project = tmp_path / "project"  # the same, for the run stored in a project
    assert run(capsys, "project", "init", str(project))[0] == 0
    assert run(capsys, "import", str(DEMO), "--project", str(project))[0] == 0
    assert run(capsys, "runs", "--project", str(project), "--add", str(run_dir))[0] == 0
    code, out, _ = run(capsys, "score", "--project", str(project), "--run", "1", "-q")
    assert code == 0 and "pages without a prediction (2 not extracted;" in out and "(pages 2)" in out
    code, out, _ = run(capsys, "runs", "--project", str(project))
    row = out.splitlines()[1].split()
    assert code == 0 and row[2] == "stopped" and "run 1 stopped before its last page: request budget" in out
    # resumed to the end, the same folder is a finished run: run.json no longer says it stopped
    with FakeGemini(default=answer_with(lambda body: json.dumps(TRUTH[page_of(body)])), port=server.port) as server:
        assert run(capsys, "extract", "--method", "gemini", "--pages", str(DEMO / "html"), "--out",
                   str(run_dir), "--base-url", server.url, "-q")[0] == 0
    assert "stopped" not in json.loads((run_dir / "_run" / "run.json").read_text())
    assert run(capsys, "runs", "--project", str(project), "--add", str(run_dir))[0] == 0
    code, out, _ = run(capsys, "runs", "--project", str(project), "--json")
    listed_runs = json.loads(out)
    assert [r["status"] for r in listed_runs] == ["finished"]  # run 1 brought up to date, not stored twice
    assert listed_runs[0]["pages_with_records"] == len(TRUTH) and listed_runs[0]["failed_pages"] == 0


def test_a_run_killed_part_way_is_stored_as_stopped_and_its_failed_pages_are_counted_apart(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    class DiesOnTheThirdPage:
        name, version, parameters = "scripted", "1", {}
        calls = 0

        def extract(self, page: object) -> Extraction:
            self.calls += 1
            if self.calls == 2:
                raise ExtractionFailedError("the model refused the page")
            if self.calls == 3:
                raise KeyboardInterrupt  # Ctrl+C, or a kill: the process ends here
            return Extraction([["/body[1]"]], self.name, self.version, {}, 0.0)

    run_dir = tmp_path / "run"
    with pytest.raises(KeyboardInterrupt):
        run_extractor(DiesOnTheThirdPage(), DEMO / "html", run_dir)  # type: ignore[arg-type]
    assert "did not finish" in json.loads((run_dir / "_run" / "run.json").read_text())["stopped"]
    project = tmp_path / "project"
    assert run(capsys, "project", "init", str(project))[0] == 0
    assert run(capsys, "import", str(DEMO), "--project", str(project))[0] == 0
    code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(run_dir))
    assert code == 0 and "the run stopped before its last page (it did not finish" in err
    code, out, _ = run(capsys, "runs", "--project", str(project))
    assert out.splitlines()[1].split()[:3] == ["1", "scripted", "stopped"]
    assert "failed: pages the method failed on" in out
    stored = json.loads(run(capsys, "runs", "--project", str(project), "--json")[1])[0]
    assert (stored["pages_with_records"], stored["failed_pages"], stored["status"]) == (1, 1, "stopped")


def test_raw_answers_are_stored_with_the_key_scrubbed(tmp_path: Path) -> None:
    (tmp_path / "pages").mkdir()
    (tmp_path / "pages" / "1.html").write_text("<main><ul><li>a</li><li>b</li></ul></main>")
    (tmp_path / "pages" / "2.html").write_text("<main><p>x</p></main>")
    echo = f'```json\n[["/body[1]/main[1]/ul[1]/li[1]"]]\n```\nYour key is {KEY}.'
    with FakeGemini([answer(echo), refused("SAFETY", f"I will not, {KEY}")]) as server:
        run_extractor(extractor(server), tmp_path / "pages", tmp_path / "run")
    for path in (tmp_path / "run").rglob("*.json"):
        assert KEY not in path.read_text(), path
    assert "[key]" in (tmp_path / "run" / "_run" / "1.json").read_text()
    assert "[key]" in (tmp_path / "run" / "_run" / "2.json").read_text()


def test_run_files_get_the_umasks_mode(tmp_path: Path) -> None:
    (tmp_path / "pages").mkdir()
    (tmp_path / "pages" / "1.html").write_text("<main><ul><li>a</li><li>b</li></ul></main>")
    with FakeGemini(default=answer(json.dumps(RECORDS))) as server:
        run_extractor(extractor(server), tmp_path / "pages", tmp_path / "run")
    for path in (tmp_path / "run").rglob("*.json"):
        assert stat.S_IMODE(os.stat(path).st_mode) == file_mode(), path


def test_a_prompt_file_is_sent_as_it_is_and_recorded_by_hash(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", KEY)
    prompt = tmp_path / "reference-prompt.txt"
    prompt.write_text("Find the data records of this page; answer string[][].\n<<{input}>>\n")
    run_dir = tmp_path / "run"
    with FakeGemini(default=answer("[]")) as server:
        code, _, err = run(capsys, "extract", "--method", "gemini", "--pages", str(DEMO / "html"), "--out",
                           str(run_dir), "--base-url", server.url, "--prompt-file", str(prompt), "--temperature",
                           "0", "-q")
    assert code == 0, err
    request = server.requests[0]
    assert request.prompt_text.startswith("Find the data records of this page; answer string[][].\n<<{")
    assert request.system_text == ""  # the file is the whole prompt
    described = json.loads((run_dir / "_run" / "run.json").read_text())
    parameters = described["parameters"]
    assert parameters["prompt"] == str(prompt) and len(parameters["prompt_sha256"]) == 64
    assert parameters["temperature"] == 0 and parameters["seed"] == 0 and parameters["model"]
    assert described["settings"]["max_attempts"] >= 1 and "malformed_retries" in described["settings"]
    shipped = GeminiExtractor(api_key=KEY).parameters
    assert shipped["prompt"] == "shipped" and shipped["prompt_sha256"] != parameters["prompt_sha256"]

    prompt.write_text("Another prompt entirely. {input}")  # resuming with another prompt would mix two methods
    with FakeGemini(default=answer("[]")) as server:
        code, _, err = run(capsys, "extract", "--method", "gemini", "--pages", str(DEMO / "html"), "--out",
                           str(run_dir), "--base-url", server.url, "--prompt-file", str(prompt), "--temperature",
                           "0", "-q")
    assert code != 0 and "would mix two methods" in err


def test_one_page_that_raises_anything_never_stops_a_run(tmp_path: Path) -> None:
    class Fragile:
        name, version = "fragile", "1"

        def extract(self, page):  # noqa: ANN001, ANN202
            if page.name == "1":
                raise ValueError("embedded null character")
            from recordlens.core.extract.base import Extraction
            return Extraction([], "fragile", "1", {}, 0.0)

    (tmp_path / "pages").mkdir()
    (tmp_path / "pages" / "1.html").write_text("<title>boom</title><p>x</p>")
    (tmp_path / "pages" / "2.html").write_text("<title>fine</title><p>y</p>")
    summary = run_extractor(Fragile(), tmp_path / "pages", tmp_path / "run")
    assert summary.extracted == ["2"] and "ValueError: embedded null character" in summary.failed["1"]
    assert json.loads((tmp_path / "run" / "_run" / "1.json").read_text())["status"] == "failed"


def test_a_run_described_before_prompts_were_recorded_resumes_with_the_shipped_prompt(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", KEY)
    run_dir = tmp_path / "run"
    (run_dir / "_run").mkdir(parents=True)
    (run_dir / "1.json").write_text("[]")
    old = {"method": "gemini", "version": "1", "parameters": {"model": "gemini-2.5-pro", "temperature": 1.0,
                                                              "seed": 0, "input_format": "flat"}}
    (run_dir / "_run" / "run.json").write_text(json.dumps(old))
    extract = ("extract", "--method", "gemini", "--pages", str(DEMO / "html"), "--out", str(run_dir), "-q")
    with FakeGemini(default=answer("[]")) as server:
        code, _, err = run(capsys, *extract, "--base-url", server.url)
        assert code == 0, err
        assert len(server.requests) == 3  # pages 2, 3 and 4; page 1 was done
    prompt = tmp_path / "p.txt"
    prompt.write_text("mine {input}")
    (run_dir / "_run" / "run.json").write_text(json.dumps(old))
    with FakeGemini(default=answer("[]")) as server:
        code, _, err = run(capsys, *extract, "--base-url", server.url, "--prompt-file", str(prompt))
    assert code != 0 and "would mix two methods" in err


def test_a_seeded_run_lists_each_seeds_failed_pages_with_its_figures_without_them(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", KEY)
    run_dir = tmp_path / "run"

    def respond(body: dict) -> str | Step:
        page = page_of(body)
        return refused("SAFETY") if page == "2" and body.get("generationConfig", {}).get("seed") == 1 \
            else json.dumps(TRUTH[page])

    with FakeGemini(default=answer_with(respond)) as server:
        code, _, err = run(capsys, "extract", "--method", "gemini", "--pages", str(DEMO / "html"), "--out",
                           str(run_dir), "--seeds", "2", "-q", "--base-url", server.url)
    assert code == 1 and "page 2 failed" in err
    score = ("score", "--pred", str(run_dir), "--gt", str(DEMO / "gt"), "--pages", str(DEMO / "html"), "-q")
    code, out, _ = run(capsys, *score)
    assert code == 0 and "seed 1: pages without a prediction (1 failed;" in out and "seed 0: pages" not in out
    assert "without failed" in out and "(pages 3)" in out
    code, out, _ = run(capsys, *score, "--json")
    report = json.loads(out)
    assert list(report["failed_pages"]) == ["1"] and list(report["failed_pages"]["1"]) == ["2"]
    assert report["without_failed"]["1"]["pages"] == 3 and report["without_failed"]["1"]["f1"] == pytest.approx(1.0)


def test_an_endpoint_failing_page_after_page_stops_the_run_after_three(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from recordlens.core.llm.gemini import GeminiCaller
    from tests.fake_gemini import status

    monkeypatch.setenv("GEMINI_API_KEY", KEY)
    monkeypatch.setattr(GeminiCaller, "_backoff", lambda self, attempt, error: 0.01)
    run_dir = tmp_path / "run"
    with FakeGemini(default=status(503, "down")) as server:
        code, _, err = run(capsys, "extract", "--method", "gemini", "--pages", str(DEMO / "html"), "--out",
                           str(run_dir), "--base-url", server.url, "-q")
        asked = len(server.requests)
    assert code == 4 and "the model endpoint failed on 3 pages in a row" in err
    assert asked == 3 * 5  # three pages' five attempts each; the fourth page is not tried
    assert len(list((run_dir / "_run").glob("[0-9]*.json"))) == 3


class OneAtATimeElsewhere:
    """An engine other than the local loop that runs each page as its own unit and asks `stop_when` of a result
    before handing it over, as Ray's does: the run-level rules must hold across units."""

    name = "elsewhere"

    def map(self, fn, items, *, key=str, progress=lambda names: names, stop_when=lambda result: False):  # noqa: ANN001, ANN201
        for item in items:
            result = fn(item)
            stopping = stop_when(result)
            yield item, result
            if stopping:
                return

    def shipping(self, extractor: object) -> object:
        return contextlib.nullcontext(extractor)

    def close(self) -> None:
        return None


def test_an_endpoint_failing_page_after_page_stops_a_run_on_another_engine_too(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from recordlens.core.llm.gemini import GeminiCaller
    from tests.fake_gemini import status

    monkeypatch.setattr(GeminiCaller, "_backoff", lambda self, attempt, error: 0.01)
    with FakeGemini(default=status(503, "down")) as server:
        summary = run_extractor(extractor(server, max_attempts=1), DEMO / "html", tmp_path / "run",
                                engine=OneAtATimeElsewhere())  # type: ignore[arg-type]
        asked = len(server.requests)
    assert summary.endpoint_failed and "the model endpoint failed on 3 pages in a row" in str(summary.stopped)
    assert asked == 3 and sorted(summary.failed) == ["1", "2", "3"]  # the fourth page is not tried
    assert "failed on 3 pages in a row" in json.loads((tmp_path / "run" / "_run" / "run.json").read_text())["stopped"]


def test_a_request_the_endpoint_refuses_is_one_page_s_failure_not_a_stop(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.fake_gemini import status

    monkeypatch.setenv("GEMINI_API_KEY", KEY)
    with FakeGemini(default=status(400, "the prompt is too long")) as server:
        code, _, err = run(capsys, "extract", "--method", "gemini", "--pages", str(DEMO / "html"), "--out",
                           str(tmp_path / "run"), "--base-url", server.url, "-q")
        asked = len(server.requests)
    assert code == 1 and "stopped" not in err and asked == 4  # one attempt a page, every page tried


def test_a_refused_page_s_paid_calls_count_in_the_run_and_are_kept_when_it_is_asked_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A refused answer is paid for: its tokens are in the run's total, and a rerun that asks the page again
    keeps them under "earlier" (they were thrown away), so that the stored run's cost counts both attempts."""
    monkeypatch.setenv("GEMINI_API_KEY", KEY)
    run_dir = tmp_path / "run"
    refuse = {"2": refused("SAFETY")}

    def respond(body: dict) -> str | Step:
        return refuse.get(page_of(body)) or json.dumps(TRUTH[page_of(body)])

    extract = ("extract", "--method", "gemini", "--pages", str(DEMO / "html"), "--out", str(run_dir), "-q")
    with FakeGemini(default=answer_with(respond)) as server:
        code, printed, _ = run(capsys, *extract, "--base-url", server.url)
    assert code == 1 and "480 tokens" in printed  # 4 pages of 120 tokens, the refused one too
    refuse.clear()
    with FakeGemini(default=answer_with(respond), port=server.port) as server:
        assert run(capsys, *extract, "--base-url", server.url)[0] == 0
    record = json.loads((run_dir / "_run" / "2.json").read_text())
    assert record["status"] == "done" and [e["status"] for e in record["earlier"]] == ["failed"]
    assert record["earlier"][0]["tokens"]["total"] == 120
    project = tmp_path / "project"
    assert run(capsys, "project", "init", str(project))[0] == 0
    assert run(capsys, "import", str(DEMO), "--project", str(project))[0] == 0
    assert run(capsys, "runs", "--project", str(project), "--add", str(run_dir))[0] == 0
    stored = json.loads(run(capsys, "runs", "--project", str(project), "--json")[1])[-1]
    assert stored["cost"]["tokens"]["total"] == 5 * 120  # four pages, one of them asked twice
