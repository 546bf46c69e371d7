"""Three wordings: `score`'s list of the pages without a prediction is in page order (page 2 before page 10, as
pages are ordered everywhere else, not as text sorts them: "10" before "2"); `runs` says where a run made in the
app was made in words ("made in the app's Propose"), not by its stored key ("made_in the app's Propose"); and an
answer that holds a record twice says "1 duplicate record", not "1 duplicate records"."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.extract.gemini import GeminiExtractor
from recordlens.core.page.dom import parse_html
from recordlens.core.resource_files import resource_path
from recordlens.core.runs.evaluate import FILE_MISSING
from recordlens.core.store.project import open_project
from tests.core.cli_runs import run
from tests.fake_gemini import FakeGemini, answer

DEMO = resource_path("demo", "dataset")
KEY = "test-key-not-real-wordings"

pytestmark = pytest.mark.timeout(300)


def test_score_lists_the_pages_without_a_prediction_in_page_order(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    names = {"1": "2", "2": "10", "3": "65", "4": "133"}  # the demo's pages, under names text sorts otherwise
    for folder in ("html", "gt"):
        (tmp_path / "data" / folder).mkdir(parents=True)
        for demo, name in names.items():
            suffix = ".html" if folder == "html" else ".json"
            shutil.copy(DEMO / folder / f"{demo}{suffix}", tmp_path / "data" / folder / f"{name}{suffix}")
    out = tmp_path / "run"
    code, _, err = run(capsys, "extract", "--method", "mdr", "--pages", str(tmp_path / "data" / "html"), "--out",
                       str(out), "-q")
    assert code == 0, err
    for name in names.values():  # by hand: two recorded failed, two done whose files are gone
        (out / f"{name}.json").unlink()
    for name in ("10", "133"):
        (out / "_run" / f"{name}.json").write_text(json.dumps({"status": "failed", "reason": "boom"}),
                                                   encoding="utf-8")
    code, table, err = run(capsys, "score", "--pred", str(out), "--gt", str(tmp_path / "data" / "gt"), "--pages",
                           str(tmp_path / "data" / "html"), "-q")
    assert code == 0, err
    listed = table.split("pages without a prediction (", 1)[1].splitlines()[1:5]
    assert listed == [f"  2: {FILE_MISSING}", "  10: boom", f"  65: {FILE_MISSING}", "  133: boom"], table


def test_runs_says_a_run_made_in_the_app_was_made_there_in_words(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["project", "init", str(tmp_path / "p")]) == 0
    with open_project(tmp_path / "p") as opened:
        opened.runs.add("gemini", {"made_in": "the app's Propose", "model": "gemini-x", "temperature": 0.0})
    capsys.readouterr()
    code, table, err = run(capsys, "runs", "--project", str(tmp_path / "p"))
    assert code == 0, err
    (settings,) = [line.strip() for line in table.splitlines() if "gemini-x" in line]
    assert settings == "made in the app's Propose; gemini-x, temperature 0.0", table


def test_an_answer_holding_one_record_twice_says_one_duplicate_record() -> None:
    page = parse_html("<main><div>Camera $399</div><div>Lens $129</div></main>")
    twice = [["/body[1]/main[1]/div[1]"], ["/body[1]/main[1]/div[1]"], ["/body[1]/main[1]/div[2]"]]
    with FakeGemini([answer(json.dumps(twice))]) as server:
        extractor = GeminiExtractor(api_key=KEY, base_url=server.url, timeout_s=30.0, max_attempts=3,
                                    backoff_s=0.01)
        result = extractor.extract(page)
    assert "the answer holds 1 duplicate record (3 records, 2 distinct); kept as answered" in result.warnings, \
        result.warnings
