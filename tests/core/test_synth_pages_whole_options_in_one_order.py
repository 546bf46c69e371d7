"""`recordlens synth` writes a page's files as one (a stop part way leaves all of them or none, and synth.json
describes only the pages whose files are all there); takes its options as sets (`--formats html,html` is html once,
the transformations of `-t` decide in no order of their own); and says what it says once and with what to do
(`-t content`, a dataset's folder given for its pages, a page nested too deep)."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from recordlens.core import atomic
from recordlens.core.synth import pipeline
from recordlens.core.synth.pipeline import MANIFEST, SynthError, SynthOptions, dataset_sources, synthesise_dataset
from tests.core.cli_runs import DEMO, run


def demo_copy(folder: Path) -> Path:
    shutil.copytree(DEMO / "html", folder / "html")
    shutil.copytree(DEMO / "gt", folder / "gt")
    return folder


def manifest(out: Path) -> dict:
    return json.loads((out / MANIFEST).read_text(encoding="utf-8"))


def names(folder: Path) -> set[str]:
    return {path.name.split(".")[0] for path in folder.iterdir()} if folder.is_dir() else set()


def hashes(out: Path) -> dict[str, str]:
    return {str(path.relative_to(out)): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(out.rglob("*")) if path.is_file() and path.name != MANIFEST}


def stop_at(calls: int, then: BaseException, original, *, done: bool = False):  # type: ignore[no-untyped-def]
    """`original`, stopped (`then` raised) at its `calls`-th call, before it (after it, when `done`)."""
    count = {"n": 0}

    def stopping(*args, **kwargs):  # type: ignore[no-untyped-def]
        count["n"] += 1
        if count["n"] == calls and not done:
            raise then
        result = original(*args, **kwargs)
        if count["n"] == calls:
            raise then
        return result

    return stopping


# -- a page's files as one ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("stop", [KeyboardInterrupt(), OSError(28, "No space left on device")])
def test_a_stop_while_a_page_is_written_leaves_none_of_its_files(tmp_path: Path, monkeypatch,
                                                                  stop: BaseException) -> None:
    data = demo_copy(tmp_path / "data")
    monkeypatch.setattr(pipeline, "write_mhtml", stop_at(3, stop, pipeline.write_mhtml))
    report = pipeline.SynthReport(tmp_path / "out")
    with pytest.raises(type(stop)):
        synthesise_dataset(dataset_sources(data / "html", data / "gt"), tmp_path / "out",
                           SynthOptions(variants=2, content=False), report=report)
    out = tmp_path / "out"
    written = names(out / "html")
    assert len(written) == 2 and names(out / "mhtml") == written and names(out / "gt") == written
    described = manifest(out)
    assert described["complete"] is False and {page["name"] for page in described["pages"]} == written
    assert len(report.pages) == 2 and report.files == 2 * 3  # html, mhtml and labels of each page written
    assert not [path for path in out.rglob("*") if path.name.endswith(".tmp")]


def test_a_stop_once_a_pages_first_file_is_in_place_takes_it_back(tmp_path: Path, monkeypatch) -> None:
    """Ctrl+C while the folder of a file just renamed into place is synced: that file goes too."""
    data = demo_copy(tmp_path / "data")
    calls = {"page files": 0}
    sync = atomic.sync_folder

    def stopping(folder: Path) -> None:
        sync(folder)
        if folder.name in ("html", "mhtml", "gt"):
            calls["page files"] += 1
            if calls["page files"] == 2 * 3 + 1:  # the first file of the third page
                raise KeyboardInterrupt

    monkeypatch.setattr(atomic, "sync_folder", stopping)
    with pytest.raises(KeyboardInterrupt):
        synthesise_dataset(dataset_sources(data / "html", data / "gt"), tmp_path / "out",
                           SynthOptions(variants=2, content=False))
    out = tmp_path / "out"
    written = names(out / "html")
    assert len(written) == 2 and names(out / "mhtml") == written and names(out / "gt") == written
    assert {page["name"] for page in manifest(out)["pages"]} == written


def test_a_stop_between_a_pages_entry_and_its_files_leaves_it_undescribed(tmp_path: Path, monkeypatch) -> None:
    data = demo_copy(tmp_path / "data")
    monkeypatch.setattr(pipeline._Manifest, "describe",
                        stop_at(3, KeyboardInterrupt(), pipeline._Manifest.describe, done=True))
    with pytest.raises(KeyboardInterrupt):
        synthesise_dataset(dataset_sources(data / "html", data / "gt"), tmp_path / "out",
                           SynthOptions(variants=2, content=False))
    out = tmp_path / "out"
    assert {page["name"] for page in manifest(out)["pages"]} == names(out / "html") == names(out / "gt")
    assert len(names(out / "html")) == 2


# -- options as sets ---------------------------------------------------------------------------------------------


def test_a_format_given_twice_is_written_and_counted_once(tmp_path: Path, capsys) -> None:
    assert SynthOptions(formats=("mhtml", "html", "mhtml")).formats == ("html", "mhtml")
    data = demo_copy(tmp_path / "data")
    code, _, _ = run(capsys, "synth", "--pages", str(data / "html"), "--gt", str(data / "gt"), "--out",
                     str(tmp_path / "out"), "-k", "1", "--formats", "html,html", "-q")
    assert code == 0 and manifest(tmp_path / "out")["options"]["formats"] == ["html"]


def test_a_format_synth_does_not_write_is_named_with_its_option(tmp_path: Path, capsys) -> None:
    code, _, err = run(capsys, "synth", "--pages", str(DEMO / "html"), "--gt", str(DEMO / "gt"), "--out",
                       str(tmp_path / "out"), "--formats", "html,pdf")
    assert code == 2 and "--formats: 'pdf' is not a format" in err and "html or mhtml" in err
    with pytest.raises(SynthError, match="--formats is empty"):
        SynthOptions(formats=())


def test_the_transformations_selected_decide_not_their_order(tmp_path: Path) -> None:
    some = ("shuffle_records", "attributes", "insert_chrome", "wrap_records")
    assert SynthOptions(transforms=some[::-1]).transforms == SynthOptions(transforms=some).transforms
    outs = []
    for number, order in enumerate((some, some[::-1])):
        out = tmp_path / f"out{number}"
        synthesise_dataset(dataset_sources(DEMO / "html", DEMO / "gt"), out,
                           SynthOptions(variants=4, transforms=order, content=False))
        outs.append(out)
    assert hashes(outs[0]) == hashes(outs[1])
    assert manifest(outs[0])["pages"] == manifest(outs[1])["pages"]


# -- messages ----------------------------------------------------------------------------------------------------


def test_content_is_listed_apart_and_refused_in_transforms_with_what_to_do(tmp_path: Path, capsys) -> None:
    code, out, _ = run(capsys, "synth", "--list")
    assert code == 0 and "\n\ncontent " in out and "not one of --transforms" in out
    code, _, err = run(capsys, "synth", "--pages", str(DEMO / "html"), "--gt", str(DEMO / "gt"), "--out",
                       str(tmp_path / "out"), "-t", "content")
    assert code == 2 and "'content' is not a transformation" in err and "--no-content" in err
    assert "unknown" not in err and not (tmp_path / "out").exists()


def test_a_datasets_folder_given_for_its_pages_says_where_they_are(tmp_path: Path, capsys) -> None:
    data = demo_copy(tmp_path / "data")
    code, _, err = run(capsys, "synth", "--pages", str(data), "--gt", str(data / "gt"), "--out",
                       str(tmp_path / "out"))
    assert code == 2 and "no page with ground truth" in err
    assert f"(a dataset? its pages are in {data / 'html'})" in err
    code, _, err = run(capsys, "synth", "--pages", str(data / "html"), "--gt", str(data), "--out",
                       str(tmp_path / "out"))
    assert code == 2 and f"(a dataset? its labels are in {data / 'gt'})" in err


def test_a_page_nested_too_deep_is_said_once_for_the_page_not_once_a_variant(tmp_path: Path, capsys) -> None:
    for sub in ("html", "gt"):
        (tmp_path / "deep" / sub).mkdir(parents=True)
    items = "".join(f"<li><b>Item {i}</b></li>" for i in range(3))
    (tmp_path / "deep" / "html" / "E.html").write_text(
        f"<html><body><div><ul>{items}</ul></div><div>{'<span>' * 5000}</body></html>", encoding="utf-8")
    (tmp_path / "deep" / "gt" / "E.json").write_text(json.dumps([[f"/body[1]/div[1]/ul[1]/li[{i}]"]
                                                                 for i in (1, 2)]))
    code, out, err = run(capsys, "synth", "--pages", str(tmp_path / "deep" / "html"), "--gt",
                         str(tmp_path / "deep" / "gt"), "--out", str(tmp_path / "out"), "-k", "3", "-q", "--json")
    said = [line for line in err.splitlines() if "nests elements" in line]
    assert len(said) == 1 and said[0].startswith("warning: page E (so each of its variants): ")
    assert json.loads(out)["problems"] == [line.removeprefix("warning: ") for line in said]
    # the manifest still says it of each variant, whose files were made from the page so read
    assert all(any("nests elements" in w for w in page["warnings"]) for page in manifest(tmp_path / "out")["pages"])
    assert code == 0
