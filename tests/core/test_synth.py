"""Synthetic datasets end to end: layout, byte-identical output for a seed, MHTML, dropped XPaths, project input,
the command line, a sample of the dev pages, and the demo variants the project ships being up to date."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.page.dataset import load_page, page_files
from recordlens.core.page.dom import parse_html
from recordlens.core.page.snapshot import read_snapshot
from recordlens.core.records.model import load_records
from recordlens.core.store.importer import import_paths
from recordlens.core.store.project import init_project
from recordlens.core.synth.pipeline import (
    MANIFEST,
    STAMP,
    Source,
    SynthError,
    SynthOptions,
    dataset_sources,
    synthesise_dataset,
    synthesise_page,
)

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "resources" / "demo" / "dataset"
SHIPPED = ROOT / "resources" / "demo" / "synthetic"
# The command that made resources/demo/synthetic; a test checks that the files still match it.
SHIPPED_ARGS = ["--variants", "2", "--seed", "0", "--formats", "html"]


def files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def synth(out: Path, **options: object) -> None:
    synthesise_dataset(dataset_sources(DEMO / "html", DEMO / "gt"), out, SynthOptions(**options))  # type: ignore[arg-type]


def test_the_same_seed_gives_byte_identical_files_and_another_seed_does_not(tmp_path: Path) -> None:
    synth(tmp_path / "a", variants=2, seed=5)
    synth(tmp_path / "b", variants=2, seed=5)
    synth(tmp_path / "c", variants=2, seed=6)
    first = files(tmp_path / "a")
    assert first == files(tmp_path / "b")
    other = {name.replace("_s6_v", "_s5_v"): content for name, content in files(tmp_path / "c").items()}
    assert first.keys() == other.keys() and first != other  # the seed is in the names (N_sS_vK)


def test_the_output_is_a_dataset_with_html_mhtml_ground_truth_and_a_manifest(tmp_path: Path) -> None:
    synth(tmp_path, variants=2, seed=1)
    names = [f"{n}_s1_v{k}" for n in "1234" for k in (1, 2)]
    assert sorted(p.stem for p in (tmp_path / "html").glob("*.html")) == sorted(names)
    assert sorted(p.stem for p in (tmp_path / "mhtml").glob("*.mhtml")) == sorted(names)
    assert sorted(p.stem for p in (tmp_path / "gt").glob("*.json")) == sorted(names)
    manifest = json.loads((tmp_path / MANIFEST).read_text(encoding="utf-8"))
    assert [p["name"] for p in manifest["pages"]] == names
    for entry in manifest["pages"]:
        assert entry["transforms"] and all({"name", "count", "detail"} <= t.keys() for t in entry["transforms"])
        assert entry["records_in"] == entry["records_out"]
    for name in names:
        html = (tmp_path / "html" / f"{name}.html").read_text(encoding="utf-8")
        assert read_snapshot(tmp_path / "mhtml" / f"{name}.mhtml").html == html
        assert STAMP not in html
        page = load_page(tmp_path / "mhtml" / f"{name}.mhtml").page
        records = load_records(tmp_path / "gt" / f"{name}.json").records
        assert all(page.resolve(x) is not None for r in records for x in r)


def test_an_output_page_carries_none_of_the_original_texts(tmp_path: Path) -> None:
    synth(tmp_path, variants=1, seed=2)
    for number in "1234":
        original = parse_html((DEMO / "html" / f"{number}.html").read_text(encoding="utf-8"))
        output = parse_html((tmp_path / "html" / f"{number}_s2_v1.html").read_text(encoding="utf-8"))
        old = {v for v in original.text_map.values() if re.search(r"[^\W\d_]{2}", v)}
        new = {v for v in output.text_map.values() if re.search(r"[^\W\d_]{2}", v)}
        assert not {v for v in old & new if len(v.split()) > 1}
        assert len(old & new) <= 0.05 * len(new)  # a lone word may happen to be another word of the page
        links = [e.attrs["href"] for e in output.elements if e.attrs.get("href")]
        assert all(re.match(r"(https?://[\w.]*example\.(com|org|net)|#)", h) for h in links), links


def test_xpaths_that_resolve_to_nothing_are_dropped_and_reported() -> None:
    html = (DEMO / "html" / "1.html").read_text(encoding="utf-8")
    truth = json.loads((DEMO / "gt" / "1.json").read_text(encoding="utf-8"))
    records = [[*truth[0], "/body[1]/nowhere[3]"], ["/body[1]/nowhere[1]"], *truth[1:]]
    result = synthesise_page(Source("1", html, records), 1, SynthOptions())
    assert result.dropped_xpaths == ["/body[1]/nowhere[3]", "/body[1]/nowhere[1]"]
    assert result.dropped_records == [2]
    assert len(result.records) == len(truth)
    assert result.manifest_entry()["records_in"] == len(truth) + 1


def test_hostile_nesting_is_cut_as_every_parse_cuts_it_and_said(monkeypatch) -> None:
    from recordlens.core.synth import styles

    depth = 6_000
    html = ("<html><head><style>li { color: red }</style></head><body><ul><li>Tea 2 kg</li><li>Rice 5 kg</li>"
            "</ul>" + "<div>x" * depth + "</div>" * depth + "</body></html>")
    parsed: list[str] = []
    real = styles.LexborHTMLParser  # the style sheets are read where they are put back (synth/styles.py)
    monkeypatch.setattr(styles, "LexborHTMLParser", lambda markup: parsed.append(markup) or real(markup))
    records = [["/html[1]/body[1]/ul[1]/li[1]"], ["/html[1]/body[1]/ul[1]/li[2]"]]
    result = synthesise_page(Source("1", html, records), 1, SynthOptions(transforms=()))
    assert any("more than 4,096 deep" in w for w in result.warnings)  # the output's structure changed: said
    assert len(result.records) == 2 and "color: red" in result.html
    # the style sheets are read from the bounded markup: lexbor's parse of deep nesting is quadratic
    assert parsed and all(markup != html for markup in parsed)


def test_an_earlier_synthetic_dataset_is_replaced_and_other_folders_are_refused(tmp_path: Path) -> None:
    synth(tmp_path / "out", variants=2)
    earlier = sum(1 for p in (tmp_path / "out").rglob("*") if p.is_file() and p.name != "synth.json")
    report = synthesise_dataset(dataset_sources(DEMO / "html", DEMO / "gt"), tmp_path / "out", SynthOptions(variants=1))
    assert report.replaced == earlier > 0  # said, so that files a user added there are not lost unawares
    (tmp_path / "out" / "gt" / "mine.json").write_text("[]")  # a file of the user's among them: kept, and said
    with pytest.raises(SynthError, match=r"mine\.json is not a page of the synthetic dataset"):
        synthesise_dataset(dataset_sources(DEMO / "html", DEMO / "gt"), tmp_path / "out", SynthOptions(variants=1))
    assert (tmp_path / "out" / "gt" / "mine.json").is_file() and list((tmp_path / "out" / "gt").glob("*_v1.json"))
    (tmp_path / "out" / "gt" / "mine.json").unlink()
    assert not list((tmp_path / "out").rglob("*_v2.*"))
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    with pytest.raises(SynthError, match="not empty"):
        synth(tmp_path / "other")


def test_the_command_writes_a_dataset_from_a_dataset_or_a_project(tmp_path: Path, capsys) -> None:
    assert main(["synth", "--pages", str(DEMO / "html"), "--gt", str(DEMO / "gt"), "--out", str(tmp_path / "a"),
                 "-k", "1", "-s", "4", "--transforms", "shuffle_records,wrap_records", "--rate", "1", "-q",
                 "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["pages"] == 4 and summary["dropped_xpaths"] == 0
    manifest = json.loads((tmp_path / "a" / MANIFEST).read_text(encoding="utf-8"))
    assert {t["name"] for p in manifest["pages"] for t in p["transforms"]} == {"shuffle_records", "wrap_records"}

    project = init_project(tmp_path / "project")
    import_paths(project, [DEMO])
    assert main(["synth", "--project", str(tmp_path / "project"), "--out", str(tmp_path / "b"), "-k", "1",
                 "-s", "4", "--transforms", "shuffle_records,wrap_records", "--rate", "1", "-q"]) == 0
    assert files(tmp_path / "b" / "gt") == files(tmp_path / "a" / "gt")

    assert main(["synth", "--list"]) == 0
    assert "table_cards" in capsys.readouterr().out
    assert main(["synth", "--out", str(tmp_path / "c")]) == 2
    assert main(["synth", "--pages", str(DEMO / "html"), "--gt", str(DEMO / "gt"), "--out", str(tmp_path / "c"),
                 "--transforms", "fold"]) == 2
    assert "unknown transformation" in capsys.readouterr().err


def test_the_shipped_demo_variants_match_what_the_command_makes(tmp_path: Path) -> None:
    assert main(["synth", "--pages", str(DEMO / "html"), "--gt", str(DEMO / "gt"), "--out", str(tmp_path),
                 *SHIPPED_ARGS, "-q"]) == 0
    shipped = {k: v for k, v in files(SHIPPED).items() if k != "README.md"}
    assert shipped == files(tmp_path), (
        "resources/demo/synthetic is out of date: run recordlens synth --pages resources/demo/dataset/html "
        f"--gt resources/demo/dataset/gt --out resources/demo/synthetic {' '.join(SHIPPED_ARGS)}")


def test_a_sample_of_dev_pages_keeps_every_record_with_all_transformations(dev_dir: Path) -> None:
    sample = ["1", "26", "50", "100", "128", "151"]
    for name in sample:
        html = read_snapshot(dev_dir / "html" / f"{name}.html").html
        truth = load_records(dev_dir / "gt" / f"{name}.json").records
        result = synthesise_page(Source(name, html, truth), 1, SynthOptions(seed=11, rate=1.0))
        page = parse_html(result.html)
        assert len(result.records) + len(result.dropped_records) == len(truth)
        assert not result.warnings
        assert all(page.resolve(x) is not None for r in result.records for x in r)


def test_an_unreadable_page_is_reported_and_the_others_are_made(tmp_path: Path) -> None:
    data = tmp_path / "data"
    for sub in ("html", "gt"):
        (data / sub).mkdir(parents=True)
    (data / "html" / "1.html").write_bytes((DEMO / "html" / "1.html").read_bytes())
    (data / "gt" / "1.json").write_bytes((DEMO / "gt" / "1.json").read_bytes())
    (data / "html" / "2.mhtml").write_bytes(b"MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary=z\r\n\r\n")
    (data / "gt" / "2.json").write_text('[["/body[1]"]]')
    (data / "gt" / "3.json").write_text('[["/body[1]"]]')
    report = synthesise_dataset(dataset_sources(data / "html", data / "gt"), tmp_path / "out", SynthOptions(variants=1))
    assert [p.name for p in report.pages] == ["1_v1"]
    assert any(p.startswith("page 2:") for p in report.problems)
    assert any(p.startswith("page 3:") and "no page 3.html" in p for p in report.problems)
    assert json.loads((tmp_path / "out" / MANIFEST).read_text(encoding="utf-8"))["problems"] == report.problems


def test_a_run_stopped_part_way_leaves_a_dataset_marked_unfinished_that_the_next_run_replaces(tmp_path: Path) -> None:
    def stopped_after_one(names):
        yield names[0]
        raise KeyboardInterrupt  # Ctrl+C while the second page is made

    sources = dataset_sources(DEMO / "html", DEMO / "gt")
    with pytest.raises(KeyboardInterrupt):
        synthesise_dataset(sources, tmp_path / "out", SynthOptions(variants=2), progress=stopped_after_one)
    manifest = json.loads((tmp_path / "out" / MANIFEST).read_text(encoding="utf-8"))
    assert manifest["complete"] is False and list((tmp_path / "out" / "gt").glob("*.json"))
    # Whatever reads the unfinished dataset says so: an import, and every command that lists its pages.
    with init_project(tmp_path / "p") as project:
        imported = import_paths(project, [tmp_path / "out"])
    assert imported.imported and any("unfinished synth dataset" in w for w in imported.warnings)
    listed: list[str] = []
    assert page_files(tmp_path / "out" / "html", listed) and "run the same synth command again" in listed[0]
    report = synthesise_dataset(dataset_sources(DEMO / "html", DEMO / "gt"), tmp_path / "out",
                                SynthOptions(variants=2))
    assert report.replaced > 0 and not report.problems
    assert json.loads((tmp_path / "out" / MANIFEST).read_text(encoding="utf-8"))["complete"] is True
    finished: list[str] = []
    assert page_files(tmp_path / "out" / "html", finished) and finished == []


def test_synth_exits_1_when_it_left_pages_out_or_a_variant_kept_no_record(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "data"
    for sub in ("html", "gt"):
        (data / sub).mkdir(parents=True)
    (data / "html" / "1.html").write_bytes((DEMO / "html" / "1.html").read_bytes())
    (data / "gt" / "1.json").write_bytes((DEMO / "gt" / "1.json").read_bytes())
    assert main(["synth", "--pages", str(data / "html"), "--gt", str(data / "gt"), "--out", str(tmp_path / "a"),
                 "-k", "1", "-q"]) == 0
    (data / "gt" / "3.json").write_text('[["/body[1]/p[1]"]]')  # labels without their page
    (data / "html" / "4.html").write_text("<html><body><p>x</p></body></html>", encoding="utf-8")
    (data / "gt" / "4.json").write_text('[["/body[1]/nowhere[1]"]]')  # every XPath names nothing
    capsys.readouterr()
    assert main(["synth", "--pages", str(data / "html"), "--gt", str(data / "gt"), "--out", str(tmp_path / "b"),
                 "-k", "1", "-q"]) == 1
    err = capsys.readouterr().err
    assert "no page 3.html" in err and "1 page of the dataset holds no record though its source page's labels hold " \
        "some (4_v1): the labels' XPaths name nothing in the page (said above); leave it out of scoring" in err
