"""A Gemini run folder whose pages failed is part of its run: its failed pages' records keep the calls they paid
for, which a resume keeps under "earlier" of each page's next record. So a folder whose pages ALL failed is resumed
only with the run's own settings (another --format, another --base-url is refused, as for a folder with a page
done: the run's cost would count the other settings' calls as its own), and a finished run's failed pages retried
by the same `extract` (as its failure message advises) bring the run stored from it up to date in place, its
first session's tokens counted once. Against the loopback fake in tests/fake_gemini.py, real files, real SQLite."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.core.cli_runs import DEMO, demo_project, folder_files, run
from tests.fake_gemini import FakeGemini, Step, answer, refused

KEY = "test-key-not-real-retried"
ANSWER = '[["/body[1]/div[1]"]]'
USAGE = (100, 20)  # every answer's tokens: 120 a request
# Markers of demo pages 2 and 3 in the prompt each page is sent with
PAGE_2, PAGE_3 = "Valdoria League", "Marrowby Courier"


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", KEY)


def _extract(capsys: pytest.CaptureFixture[str], out: Path, server: FakeGemini, *more: str) -> tuple[int, str]:
    code, said, err = run(capsys, "extract", "--method", "gemini", "--pages", str(DEMO / "html"), "--out", str(out),
                          "--base-url", server.url, "-q", *more)
    return code, said + err


def _refusing(*markers: str) -> Step:
    """Answers every page, except those whose prompt holds one of `markers`, refused (SAFETY: paid for)."""
    def respond(body: dict[str, Any]) -> str | Step:
        prompt = "\n".join(part.get("text", "") for content in body.get("contents", [])
                           for part in content.get("parts", []))
        return refused("SAFETY") if any(marker in prompt for marker in markers) else ANSWER
    return Step("answer", respond=respond, usage=USAGE)


def _answered(server: FakeGemini) -> int:
    return sum(not request.path.endswith(":countTokens") for request in server.requests)


def _runs(capsys: pytest.CaptureFixture[str], project: Path) -> list[dict]:
    code, listing, _ = run(capsys, "runs", "--project", str(project), "--json")
    assert code == 0
    return json.loads(listing)


def test_a_folder_whose_pages_all_failed_refuses_another_format(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    with FakeGemini(default=refused("SAFETY")) as server:
        code, said = _extract(capsys, out, server, "--format", "flat")
        assert code == 1 and "0 extracted, 0 already there, 4 failed" in said, said
        before = folder_files(out)
        server.script(default=answer(ANSWER))
        code, said = _extract(capsys, out, server, "--format", "slim")
        assert _answered(server) == 4  # nothing asked of the refused resume
    assert code == 2, said
    assert "input_format: 'flat' -> 'slim'" in said, said
    assert folder_files(out) == before  # the run's description and its pages' records as they were


def test_a_folder_whose_pages_all_failed_refuses_another_endpoint(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    with FakeGemini(default=refused("SAFETY")) as first:
        assert _extract(capsys, out, first)[0] == 1
    before = folder_files(out)
    with FakeGemini(default=answer(ANSWER)) as second:
        code, said = _extract(capsys, out, second)
        assert _answered(second) == 0
    assert code == 2, said
    assert f"base_url: '{first.url}' -> '{second.url}'" in said and "two endpoints' answers" in said, said
    assert folder_files(out) == before


def test_a_folder_whose_pages_all_failed_resumes_with_its_own_settings(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    with FakeGemini(default=refused("SAFETY")) as server:
        assert _extract(capsys, out, server, "--format", "slim")[0] == 1
        server.script(default=answer(ANSWER))
        code, said = _extract(capsys, out, server, "--format", "slim")
    assert code == 0 and "4 extracted" in said, said
    record = json.loads((out / "_run" / "1.json").read_text(encoding="utf-8"))
    assert [earlier["status"] for earlier in record["earlier"]] == ["failed"]  # its refused call kept, as paid for


def test_a_finished_run_s_failed_pages_retried_update_the_run_in_place(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    project = demo_project(capsys, tmp_path / "p")
    out = tmp_path / "run"
    with FakeGemini(default=_refusing(PAGE_2, PAGE_3)) as server:
        assert _extract(capsys, out, server)[0] == 1  # pages 2 and 3 failed: "run the same command again"
        code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(out))
        assert code == 0 and f"stored {out} as run 1" in err, err
        first = _runs(capsys, project)[0]
        assert (first["failed_pages"], first["cost"]["tokens"]["total"]) == (2, 4 * 120)
        server.script(default=_refusing())
        code, said = _extract(capsys, out, server)  # the failed pages retried, as the failure message advises
        assert code == 0 and "2 extracted, 2 already there" in said, said
        spent = _answered(server) * 120
    code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(out))
    assert code == 0, err
    assert "kept apart" not in err and f"stored {out} as run 2" not in err, err
    assert "run 1 now holds what the folder holds" in err, err
    (stored,) = _runs(capsys, project)  # one run, brought up to date: the first session's tokens counted once
    assert (stored["id"], stored["failed_pages"], stored["pages_with_records"]) == (1, 0, 4)
    assert stored["cost"]["tokens"]["total"] == spent == 6 * 120
    code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(out))
    assert code == 0 and f"{out} is stored already, as run 1" in err, err


def test_failed_pages_that_fail_again_when_retried_count_their_calls_in_the_run(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = demo_project(capsys, tmp_path / "p")
    out = tmp_path / "run"
    with FakeGemini(default=_refusing(PAGE_2)) as server:
        assert _extract(capsys, out, server)[0] == 1
        assert run(capsys, "runs", "--project", str(project), "--add", str(out))[0] == 0
        assert _extract(capsys, out, server)[0] == 1  # page 2 asked again, refused again: paid for again
        spent = _answered(server) * 120
    code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(out))
    assert code == 0 and "kept apart" not in err, err
    (stored,) = _runs(capsys, project)
    assert (stored["id"], stored["failed_pages"]) == (1, 1)
    assert stored["cost"]["tokens"]["total"] == spent == 5 * 120


def test_a_restart_of_a_run_with_failed_pages_is_stored_as_a_run_of_its_own(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = demo_project(capsys, tmp_path / "p")
    out = tmp_path / "run"
    with FakeGemini(default=_refusing(PAGE_2)) as server:
        assert _extract(capsys, out, server)[0] == 1
        assert run(capsys, "runs", "--project", str(project), "--add", str(out))[0] == 0
        server.script(default=_refusing())
        assert _extract(capsys, out, server, "--restart")[0] == 0  # every page asked again: new records
    code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(out))
    assert code == 0 and f"stored {out} as run 2" in err and "run 1 was stored from" in err, err
    assert [stored["id"] for stored in _runs(capsys, project)] == [1, 2]


def test_a_restart_with_another_format_sets_the_failed_calls_of_the_run_before_aside(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = demo_project(capsys, tmp_path / "p")
    out = tmp_path / "run"
    with FakeGemini(default=_refusing(PAGE_2)) as server:
        assert _extract(capsys, out, server, "--format", "flat")[0] == 1
        refused_before = (out / "_run" / "2.json").read_bytes()
        server.script(default=_refusing())
        code, said = _extract(capsys, out, server, "--format", "slim", "--restart")  # as the refusal advises
    assert code == 0, said
    (aside,) = (out / "_run").glob("set-aside.*")
    assert (aside / "_run" / "2.json").read_bytes() == refused_before  # kept, never deleted: it was paid for
    assert json.loads((aside / "_run" / "run.json").read_text(encoding="utf-8"))["parameters"]["input_format"] == "flat"
    assert ("--restart: the run before it in" in said and "input_format: 'flat' -> 'slim'" in said
            and "the calls it paid for on 1 page (2) that gave no answer kept (failed, or stopped part way) are set "
            f"aside in {aside} with that run's run.json, not counted as this run's" in said), said
    assert "earlier" not in json.loads((out / "_run" / "2.json").read_text(encoding="utf-8"))
    assert run(capsys, "runs", "--project", str(project), "--add", str(out))[0] == 0
    (stored,) = _runs(capsys, project)
    assert stored["cost"]["tokens"]["total"] == 4 * 120  # the slim run's own calls, not the flat run's refused one


def test_a_restart_with_the_same_settings_keeps_the_failed_calls_as_the_run_s(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    with FakeGemini(default=_refusing(PAGE_2)) as server:
        assert _extract(capsys, out, server)[0] == 1
        server.script(default=_refusing())
        code, said = _extract(capsys, out, server, "--restart")
    assert code == 0 and "set aside" not in said, said
    record = json.loads((out / "_run" / "2.json").read_text(encoding="utf-8"))
    assert [earlier["status"] for earlier in record["earlier"]] == ["failed"]
