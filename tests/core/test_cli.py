"""The `recordlens` command as a user runs it: stdout holds only the document, everything else goes to stderr."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.page.formats import parse_outline
from recordlens.core.records.model import save_records
from recordlens.core.resource_files import resource_path
from tests.core.cli_runs import run

DEMO = resource_path("demo", "dataset")


def test_represent_prints_only_the_document(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "represent", str(DEMO / "html" / "1.html"), "--format", "flat")
    assert code == 0 and err == ""
    flat = json.loads(out)
    assert list(flat)[0] == "/head[1]/title[1]"
    code, out, _ = run(capsys, "represent", str(DEMO / "html" / "1.html"), "-f", "outline")
    assert parse_outline(out.rstrip("\n")) == flat


def test_represent_to_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "slim.html"
    code, out, err = run(capsys, "represent", str(DEMO / "html" / "2.html"), "-f", "slim", "--out", str(target))
    assert code == 0 and out == "" and "wrote" in err
    assert target.read_text(encoding="utf-8").startswith("<html><head>")


def test_score_json_shape_and_missing_predictions_warn(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pred = tmp_path / "pred"
    pred.mkdir()
    for page in ("1", "2", "3"):  # page 4 has no prediction
        shutil.copy(DEMO / "gt" / f"{page}.json", pred / f"{page}.json")
    code, out, err = run(capsys, "score", "--pred", str(pred), "--gt", str(DEMO / "gt"),
                         "--pages", str(DEMO / "html"), "--json", "-q")
    assert code == 0
    report = json.loads(out)
    assert set(report["mean"]) == {"precision", "recall", "f1", "hallucination_rate", "hallucinated_record_share"}
    assert [p["page"] for p in report["pages"]] == ["1", "2", "3", "4"]
    assert {"page", "precision", "recall", "f1", "hallucinated", "records", "empty_records"} <= set(report["pages"][0])
    assert report["mean"]["f1"] == pytest.approx(0.75)
    assert "page 4: no prediction" in err


def test_score_reports_stale_records_by_page(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "html").mkdir()
    (tmp_path / "html" / "9.html").write_text("<ul><li>a</li><li>b</li></ul>", encoding="utf-8")
    save_records(tmp_path / "gt" / "9.json", [["/body[1]/ul[1]/li[1]"], ["/body[1]/ul[1]/li[7]"]])
    save_records(tmp_path / "pred" / "9.json", [["/body[1]/ul[1]/li[1]"], ["/body[1]/nav[1]"]])
    code, out, err = run(capsys, "score", "--pred", str(tmp_path / "pred"), "--gt", str(tmp_path / "gt"),
                         "--pages", str(tmp_path / "html"), "-q")
    assert code == 0 and "page 9:" in err and "expanding to nothing" in err


def test_score_names_every_ground_truth_it_cannot_score_and_scores_the_others(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Pages that cannot be read are left out, named, and the figures said as over the others, exit 1 (README,
    "score"; before, one such page refused the whole score, exit 2, while extract had done the others)."""
    gt = tmp_path / "gt"
    shutil.copytree(DEMO / "gt", gt)
    (gt / "2.json").write_text("[[", encoding="utf-8")            # cut off
    (gt / "3.json").write_bytes(b"\xff\xfe[\x00]\x00")          # not UTF-8
    shutil.copy(gt / "1.json", gt / "99.json")                    # no page 99
    code, out, err = run(capsys, "score", "--pred", str(DEMO / "gt"), "--gt", str(gt), "--pages",
                         str(DEMO / "html"), "-q")
    assert code == 1 and "Traceback" not in err
    assert "pages 2 of 5 (3 left out, below)" in out
    assert "3 pages of 5 with ground truth cannot be scored" in err and "over the other 2 (exit status 1)" in err
    left = out.split("pages left out of the figures (3;")[1]
    assert "2.json" in left and "3.json" in left and "no page 99.html or 99.mhtml" in left


def test_inspect_and_clear_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "inspect", str(DEMO / "html" / "3.html"), "--json")
    info = json.loads(out)
    assert code == 0 and info["text_entries"] > 50 and info["characters"]["outline"] < info["characters"]["flat"]
    broken = tmp_path / "broken.mhtml"
    broken.write_bytes(b"MIME-Version: 1.0\r\nContent-Type: text/plain\r\n\r\nhello")
    code, out, err = run(capsys, "inspect", str(broken))
    assert code == 2 and out == "" and err.startswith("recordlens: error:") and "broken.mhtml" in err


def test_extract_writes_a_run_and_resumes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_dir = tmp_path / "run"
    code, printed, err = run(capsys, "extract", "--method", "mdr", "--pages", str(DEMO / "html"), "--out", str(out_dir),
                             "-q")
    assert code == 0 and "4 extracted" in printed
    assert sorted(p.name for p in out_dir.glob("*.json")) == ["1.json", "2.json", "3.json", "4.json"]
    (out_dir / "2.json").unlink()
    code, printed, err = run(capsys, "extract", "--method", "mdr", "--pages", str(DEMO / "html"), "--out", str(out_dir),
                             "-q")
    assert "1 extracted, 3 already there" in printed  # the closing line, a result, on stdout
    whole = (out_dir / "3.json").read_bytes()
    (out_dir / "3.json").write_bytes(whole[: len(whole) // 2])  # cut short by hand, or by another tool
    code, printed, err = run(capsys, "extract", "--method", "mdr", "--pages", str(DEMO / "html"), "--out", str(out_dir),
                             "-q")
    assert "1 extracted, 3 already there" in printed and "page 3: " in err and "extracted again" in err
    assert (out_dir / "3.json").read_bytes() == whole
    code, out, _ = run(capsys, "extract", "--list")
    assert "mdr" in out and "gemini" in out


def test_version_is_the_installed_package_s(capsys: pytest.CaptureFixture[str]) -> None:
    from importlib import metadata

    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.strip() == f"recordlens {metadata.version('recordlens')}"


def test_bench_json_and_chart(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    chart = tmp_path / "chart.png"
    code, out, _ = run(capsys, "bench", "--pages", str(DEMO / "html"), "--gt", str(DEMO / "gt"),
                       "--methods", "mdr", "--json", "--chart", str(chart), "-q")
    report = json.loads(out)
    assert code == 0 and [(r["method"], r["input"]) for r in report["table2"]] == [("mdr", "slim")]  # as it reads
    assert {r["format"] for r in report["table1"]} >= {"flat", "slim", "hier", "outline"}
    assert chart.read_bytes().startswith(b"\x89PNG")


def test_bench_on_recorded_answers_reproduces_the_reference(samples_dir: Path, dev_dir: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "bench", "--pages", str(dev_dir / "html"), "--gt", str(dev_dir / "gt"),
                         "--methods", "replay", "--answers", str(samples_dir / "llm"), "--json", "-q", "--no-chart")
    # The answers cover 20 of the 40 pages: said, with the pages left out, not only in the table's page count
    assert "20 page(s) with ground truth have no recorded answers: every method is measured on the other 20" in err
    rows = {r["input"]: r for r in json.loads(out)["table2"]}
    assert rows["flat"]["f1"] == pytest.approx(0.8672, abs=0.0005)
    assert rows["hier-ref"]["f1"] == pytest.approx(0.6584, abs=0.0005)  # made on the reference's lossy nesting
    assert rows["slim"]["f1"] == pytest.approx(0.2307, abs=0.0005)
    assert (rows["flat"]["hallucination_rate"], rows["hier-ref"]["hallucination_rate"],
            rows["slim"]["hallucination_rate"]) == (0.0, 0.4, 0.8)


def test_inspect_counts_tokens_with_gemini_when_a_key_is_set(monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    from tests.fake_gemini import FakeGemini

    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real")
    with FakeGemini() as server:
        code, out, err = run(capsys, "inspect", str(DEMO / "html" / "1.html"), "--json", "--base-url", server.url)
    tokens = json.loads(out)["tokens"]
    assert code == 0 and all(isinstance(tokens[f], int) and tokens[f] > 0 for f in ("flat", "slim", "outline"))
    assert {r.path.rsplit(":", 1)[1] for r in server.requests} == {"countTokens"}
    assert "test-key-not-real" not in out + err
    # An answer without the count is no count of 0: n/a, and said.
    with FakeGemini(counts_tokens=False) as server:
        code, out, err = run(capsys, "inspect", str(DEMO / "html" / "1.html"), "--json", "--base-url", server.url)
    assert code == 0 and all(v is None for v in json.loads(out)["tokens"].values()) and "countTokens failed" in err


def test_inspect_without_a_key_shows_tokens_as_not_available(monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("GEMINI_API_KEY", raising=False)
    monkeypatch.delenv("GOOGLE_API_KEY", raising=False)
    code, out, _ = run(capsys, "inspect", str(DEMO / "html" / "1.html"))
    assert code == 0 and "n/a" in out


def test_bench_counts_tokens_at_the_given_endpoint_and_survives_a_failure(monkeypatch: pytest.MonkeyPatch,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    from tests.fake_gemini import FakeGemini

    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real")
    with FakeGemini() as server:
        code, out, _ = run(capsys, "bench", "--pages", str(DEMO / "html"), "--gt", str(DEMO / "gt"), "--methods",
                           "mdr", "--count-tokens", "--base-url", server.url, "--json", "-q", "--no-chart")
    rows = {r["format"]: r for r in json.loads(out)["table1"]}
    assert code == 0 and rows["flat"]["token_source"] == "countTokens" and rows["flat"]["mean_prompt_tokens"] > 0
    code, out, err = run(capsys, "bench", "--pages", str(DEMO / "html"), "--gt", str(DEMO / "gt"), "--methods",
                         "mdr", "--count-tokens", "--base-url", "http://127.0.0.1:9", "--json", "-q", "--no-chart")
    assert code == 0 and "countTokens failed" in err and "test-key-not-real" not in err
    assert {r["token_source"] for r in json.loads(out)["table1"]} == {"n/a"}


def test_several_seeds_are_written_apart_then_scored_and_averaged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    from recordlens.core.page.dataset import load_page
    from tests.fake_gemini import FakeGemini, answer_with

    truth = {p: json.loads((DEMO / "gt" / f"{p}.json").read_text()) for p in ("1", "2", "3", "4")}
    titles = {p: load_page(DEMO / "html" / f"{p}.html").snapshot.title for p in truth}

    def respond(body: dict) -> str:
        # Seed 0 answers every page right; seed 1 answers with half of each page's records.
        seed = body["generationConfig"]["seed"]
        prompt = body["contents"][0]["parts"][0]["text"]
        page = next(p for p, title in titles.items() if json.dumps(title, ensure_ascii=False) in prompt)
        records = truth[page]
        return json.dumps(records if seed == 0 else records[: len(records) // 2])

    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real")
    run_dir = tmp_path / "run"
    with FakeGemini(default=answer_with(respond)) as server:
        code, _, err = run(capsys, "extract", "--method", "gemini", "--format", "flat", "--seeds", "2",
                           "--pages", str(DEMO / "html"), "--out", str(run_dir), "--base-url", server.url, "-q")
    assert code == 0, err
    assert sorted(p.name for p in run_dir.iterdir()) == ["seed-0", "seed-1"]
    code, out, err = run(capsys, "score", "--pred", str(run_dir), "--gt", str(DEMO / "gt"), "--pages",
                         str(DEMO / "html"), "--json", "-q")
    report = json.loads(out)
    f1 = {s["seed"]: s["mean"]["f1"] for s in report["seeds"]}
    assert f1[0] == pytest.approx(1.0) and f1[1] < 1.0
    assert report["mean"]["f1"] == pytest.approx((f1[0] + f1[1]) / 2)
    assert report["sd_over_seeds"]["f1"] > 0
    assert "mixes them" not in err  # two seeds of one model

    # A seed folder copied in from a run of another model: its figures would be averaged in, so it is said
    described = run_dir / "seed-1" / "_run" / "run.json"
    other = json.loads(described.read_text(encoding="utf-8"))
    other["parameters"]["model"] = "another-model"
    described.write_text(json.dumps(other), encoding="utf-8")
    code, _, err = run(capsys, "score", "--pred", str(run_dir), "--gt", str(DEMO / "gt"), "--pages",
                       str(DEMO / "html"), "-q")
    assert code == 0 and "seed(s) 1 were made by another method or model than seed 0" in err
    assert "model: " in err and "-> 'another-model'" in err  # what differs, as a resumed run says it


def test_inspect_and_represent_refuse_a_file_that_is_not_a_page_as_import_does(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    labels = tmp_path / "1.json"
    save_records(labels, [["/body[1]/p[1]"]])
    for command in (["inspect"], ["represent", "--format", "flat"]):
        code, out, err = run(capsys, *command, str(labels))
        assert code == 2 and out == ""
        assert err.strip().startswith(f"recordlens: error: {labels}: not an MHTML or HTML file (.mhtml, .mht, "
                                      ".html, .htm)")  # inspect adds that it is no model file either
    upper = tmp_path / "page.HTM"  # any case of a page's suffix is a page
    upper.write_text("<html><body><p>one</p></body></html>", encoding="utf-8")
    assert run(capsys, "inspect", "--no-tokens", str(upper))[0] == 0


def test_the_runs_listing_tells_two_project_models_apart_and_cuts_settings_after_a_word() -> None:
    from recordlens.core.store import run_settings
    from recordlens.core.wording import shortened

    first = run_settings({"parameters": {"model": "/p/models/selector.json", "model_digest": "0123456789abcdef",
                                         "threshold": 0.5}})
    second = run_settings({"parameters": {"model": "/q/models/selector.json", "model_digest": "fedcba9876543210",
                                          "threshold": 0.5}})
    assert first.startswith("selector.json 01234567") and second.startswith("selector.json fedcba98")
    long = "flat, seed 0, temperature 1, from a-folder-with-a-long-name"
    assert shortened(long, 30) == "flat, seed 0, temperature 1…"
    assert shortened("short", 30) == "short"


def test_two_model_files_for_one_selector_run_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "extract", "--model", "a.json", "--param", "model=b.json", "--pages",
                       str(DEMO / "html"), "--out", str(tmp_path / "r"))
    assert code == 2 and "--model a.json and --param model=b.json name two model files" in err
