"""A stored run whose predictions changed since it was scored (a stopped run's folder added again once its extract
went on) has no means until it is scored again: the scores left are those of the pages it held as they were and of
the pages it had not reached (scored as empty), and their mean is a figure the run never had. Against the loopback
fake in tests/fake_gemini.py, each page answered with its labels."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.core.page.dataset import load_page
from recordlens.core.resource_files import resource_path
from recordlens.core.store.db import Provenance
from recordlens.core.store.project import open_project
from tests.core.cli_runs import demo_project, run
from tests.fake_gemini import FakeGemini, answer_with

DEMO = resource_path("demo", "dataset")
KEY = "test-key-not-real-figures"
TRUTH = {p: json.loads((DEMO / "gt" / f"{p}.json").read_text()) for p in ("1", "2", "3", "4")}
TITLES = {p: load_page(DEMO / "html" / f"{p}.html").snapshot.title for p in TRUTH}


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", KEY)


def _labels_of_the_page_asked(body: dict) -> str:
    prompt = body["contents"][0]["parts"][0]["text"]
    return json.dumps(next(TRUTH[p] for p, title in TITLES.items() if json.dumps(title, ensure_ascii=False) in prompt))


def _extract(capsys: pytest.CaptureFixture[str], out: Path, server: FakeGemini, *more: str) -> int:
    return run(capsys, "extract", "--method", "gemini", "--pages", str(DEMO / "html"), "--out", str(out),
               "--base-url", server.url, "-q", *more)[0]


@pytest.fixture
def project(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    return demo_project(capsys, tmp_path / "p")


def test_a_stopped_run_brought_up_to_date_has_no_means_until_it_is_scored_again(
        project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    with FakeGemini(default=answer_with(_labels_of_the_page_asked)) as server:
        assert _extract(capsys, out, server, "--max-requests", "1") == 3  # page 1 only
        assert run(capsys, "runs", "--project", str(project), "--add", str(out))[0] == 0
        assert run(capsys, "score", "--project", str(project), "--run", "1", "-q")[0] == 0
        with open_project(project) as opened:
            scored = opened.runs.get(1)
        assert (scored.f1, scored.scored_pages, scored.f1_with_prediction) == (0.25, 4, 1.0)
        assert _extract(capsys, out, server, "--max-requests", "1") == 3  # page 2 too, still stopped
    code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(out))
    assert code == 0 and "was stored as run 1 when its extract had stopped (1 page)" in err, err

    with open_project(project) as opened:
        now = opened.runs.get(1)
    # page 2's score went with its prediction; the 3 left (page 1's, and pages 3 and 4, not reached) would make a
    # mean of 0.333 over 3 pages, which the run never had: none
    assert (now.scores_dropped, now.scored_pages, now.scored_with_prediction) == (1, 3, 1)
    assert (now.precision, now.recall, now.f1, now.f1_with_prediction) == (None, None, None, None)
    code, listing, _ = run(capsys, "runs", "--project", str(project), "--json")
    (document,) = json.loads(listing)
    assert (document["f1"], document["scores_dropped"]) == (None, 1)

    assert run(capsys, "score", "--project", str(project), "--run", "1", "-q")[0] == 0
    with open_project(project) as opened:
        again = opened.runs.get(1)
    assert (again.scores_dropped, again.scored_pages, again.f1, again.f1_with_prediction) == (0, 4, 0.5, 1.0)


def test_a_run_whose_labels_changed_keeps_its_figures_marked_not_dropped(
        project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    with FakeGemini(default=answer_with(_labels_of_the_page_asked)) as server:
        assert _extract(capsys, out, server) == 0
    assert run(capsys, "runs", "--project", str(project), "--add", str(out))[0] == 0
    assert run(capsys, "score", "--project", str(project), "--run", "1", "-q")[0] == 0
    with open_project(project) as opened:  # a label deleted: the figures are of the labels as they were, kept
        opened.delete(opened.labels("1")[0].id, Provenance.person("ana"))
        run_info = opened.runs.get(1)
        assert opened.runs.stale_pages(1) == ["1"]
    assert (run_info.scores_dropped, run_info.f1) == (0, 1.0)
