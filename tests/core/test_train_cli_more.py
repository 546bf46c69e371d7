"""More of what `recordlens train` does and says: the model in place that these pages, labels, seed and version
give is said at once and not fitted again (`--force` fits it anyway); how long training took; one unreadable
label file leaves its page out, named, rather than stopping training; the label problems `labels check` flags
are counted; labels that teach nothing say what is wrong with them; `--cv` says what its figures are."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.core.cli.command import main as cli_main
from recordlens.core.extract import training
from recordlens.core.extract.selector_model import SelectorModel
from recordlens.core.extract.training import (
    dataset_pages,
    fit,
    fitted_from,
    prepare,
    training_entries,
)
from recordlens.core.page.dom import parse_html
from recordlens.core.records.model import save_records
from recordlens.core.store import import_paths, init_project, train_on_project
from recordlens.core.store.db import Provenance
from recordlens.core.store.learnt_model import project_model_path
from recordlens.core.store.project import open_project
from tests.core.catalogue_pages import write_dataset


def project_of(tmp_path: Path, pages: int) -> Path:
    data, _ = write_dataset(tmp_path / "data", [None] * pages, seed=5)  # type: ignore[list-item]
    with init_project(tmp_path / "p") as project:
        assert not import_paths(project, [data.parent]).problems
    return tmp_path / "p"


def no_fit(*args: object, **kwargs: object) -> None:
    raise AssertionError("fitted again")


# -- B: the model in place, said at once -----------------------------------------------------------------------


def test_train_project_again_says_at_once_that_the_model_is_the_one_it_had(tmp_path: Path, capsys,
                                                                          monkeypatch) -> None:
    project = project_of(tmp_path, 3)
    assert cli_main(["train", "--project", str(project), "-q"]) == 0
    said = capsys.readouterr().out  # the model written, with its figures: the command's result, on stdout
    assert f"{project_model_path(project)}: selector model from 3 labelled pages of the project p, seed 0, " in said
    assert " kB, trained in " in said, said  # how long it took
    written = project_model_path(project).read_bytes()

    monkeypatch.setattr(training, "fit", no_fit)  # nothing may be fitted now, nor any page parsed again
    assert cli_main(["train", "--project", str(project), "-q"]) == 0
    said = capsys.readouterr().out
    assert said.startswith(f"{project_model_path(project)}: the project's model is the one it had (the same 3 "
                           "labelled pages and labels, seed 0, RecordLens "), said
    assert "not trained again" in said and "--force trains it anyway" in said
    assert project_model_path(project).read_bytes() == written
    assert not (project / "models" / "selector.forgotten.json").exists()  # nothing set aside

    for other in (["--seed", "1"], ["--force"]):  # another seed, or asked to: fitted
        with pytest.raises(AssertionError, match="fitted again"):
            cli_main(["train", "--project", str(project), "-q", *other])


def test_labels_changed_since_train_the_project_again(tmp_path: Path, capsys, monkeypatch) -> None:
    project = project_of(tmp_path, 3)
    assert cli_main(["train", "--project", str(project), "-q"]) == 0
    with open_project(project) as opened:
        opened.delete(opened.labels("1")[0].id, Provenance("person", "me"))
    monkeypatch.setattr(training, "fit", no_fit)
    with pytest.raises(AssertionError, match="fitted again"):
        cli_main(["train", "--project", str(project), "-q"])


def test_a_dataset_trained_again_to_the_same_file_is_not_fitted_again(tmp_path: Path, capsys, monkeypatch) -> None:
    pages, gt = write_dataset(tmp_path / "data", [None] * 2, seed=5)  # type: ignore[list-item]
    model = tmp_path / "m.json"
    command = ["train", "--pages", str(pages), "--gt", str(gt), "--out", str(model), "-q"]
    assert cli_main(command) == 0
    capsys.readouterr()
    monkeypatch.setattr(training, "fit", no_fit)
    assert cli_main(command) == 0
    assert "the model there is the one these pages give (the same 2 labelled pages and labels, seed 0" \
        in capsys.readouterr().out
    save_records(gt / "1.json", json.loads((gt / "1.json").read_text(encoding="utf-8"))[:2])
    with pytest.raises(AssertionError, match="fitted again"):
        cli_main(command)


def test_a_model_is_fitted_from_its_pages_seed_and_version_only(monkeypatch) -> None:
    from tests.core.catalogue_pages import labelled_pages

    examples = prepare(labelled_pages(3, 3, with_secondary=False))  # one stage, unbagged: smaller than asked
    model = fit(examples, seed=2, workers=1, description="three")
    entries = training_entries(examples)
    assert fitted_from(model, entries, 2, "three")
    assert not fitted_from(model, entries, 3, "three")
    assert not fitted_from(model, entries, 2, "another description")
    assert not fitted_from(model, entries[::-1], 2, "three")  # another order gives another model
    assert not fitted_from(model, [dict(entries[0], digest="0" * 16), *entries[1:]], 2, "three")
    assert not fitted_from(model, entries, 2, "three", config=training.FitConfig(trees=10))
    monkeypatch.setattr(training, "recordlens_version", lambda: "99.0")
    assert not fitted_from(model, entries, 2, "three")


def test_learn_and_train_project_keep_a_page_given_twice_once_alike(tmp_path: Path, capsys, quick_fits) -> None:
    """A page imported twice (other bytes, the same texts and labels) is used once by `train --project`, and so
    by the app's Learn: the two write the same model."""
    pages, gt = write_dataset(tmp_path / "data", [None] * 3, seed=5)  # type: ignore[list-item]
    (pages / "3.html").write_bytes((pages / "0.html").read_bytes() + b"<!-- a copy -->")
    (gt / "3.json").write_bytes((gt / "0.json").read_bytes())
    with init_project(tmp_path / "p") as project:
        assert not import_paths(project, [pages.parent]).problems
    train_on_project(tmp_path / "p")
    learnt = project_model_path(tmp_path / "p").read_bytes()
    assert cli_main(["train", "--project", str(tmp_path / "p"), "-q"]) == 0
    captured = capsys.readouterr()
    said = captured.err + captured.out  # the warnings on stderr, the model's line on stdout
    assert "page 3 of" in said and "is page 0 of" in said and "used once" in said
    assert "the project's model is the one it had" in said
    assert project_model_path(tmp_path / "p").read_bytes() == learnt


# -- C: an unreadable label file leaves its page out ---------------------------------------------------------------


def test_an_unreadable_label_file_leaves_its_page_out_and_names_the_file(tmp_path: Path, capsys, quick_fits) -> None:
    pages, gt = write_dataset(tmp_path / "data", [None] * 3, seed=5)  # type: ignore[list-item]
    (gt / "1.json").write_text(json.dumps({"records": [["/body[1]"]]}), encoding="utf-8")  # a dict, not a list
    model = tmp_path / "m.json"
    assert cli_main(["train", "--pages", str(pages), "--gt", str(gt), "--out", str(model), "-q"]) == 0
    said = capsys.readouterr().err
    assert (f"warning: page 1 of {pages} is left out: {gt / '1.json'}: expected a list of records, found dict; "
            "correct that file (or move it away) and train again") in said, said
    assert [p["name"] for p in SelectorModel.load(model).provenance["pages"]] == ["0", "2"]


def test_no_readable_label_file_is_an_error_and_writes_nothing(tmp_path: Path, capsys) -> None:
    pages, gt = write_dataset(tmp_path / "data", [None] * 1, seed=5)  # type: ignore[list-item]
    (gt / "0.json").write_text('{"records": []}', encoding="utf-8")
    model = tmp_path / "m.json"
    assert cli_main(["train", "--pages", str(pages), "--gt", str(gt), "--out", str(model), "-q"]) == 2
    said = capsys.readouterr().err
    assert "page 0 of" in said and "expected a list of records, found dict" in said
    assert "recordlens: error: no page could be read (1 page left out, above): nothing to train on" in said
    assert not model.exists()


# -- D: what `labels check` flags, counted -------------------------------------------------------------------------


def test_train_counts_the_nested_or_doubled_records_and_the_pages_of_another_policy(tmp_path: Path, capsys,
                                                                                    quick_fits) -> None:
    pages, gt = write_dataset(tmp_path / "data", [None] * 4, seed=5)  # type: ignore[list-item]
    first = json.loads((gt / "0.json").read_text(encoding="utf-8"))
    save_records(gt / "0.json", [*first, [f"{first[0][0]}/h3[1]"]])  # a card's title beside the card: nested
    second = json.loads((gt / "1.json").read_text(encoding="utf-8"))
    save_records(gt / "1.json", [*second, ["/body[1]/header[1]/nav[1]/ul[1]/li[1]"]])  # navigation, unlike most
    assert cli_main(["train", "--pages", str(pages), "--gt", str(gt), "--out", str(tmp_path / "m.json"), "-q"]) == 0
    assert ("warning: 1 page has nested or doubled records (0 of data), 1 page labels page chrome (navigation, "
            "header, footer) unlike the others (1 of data): the model learns its policy from them as they are; "
            "`recordlens labels check` lists them") in capsys.readouterr().err


# -- E: what is wrong with labels that teach nothing; what --cv's figures are --------------------------------------


def test_one_page_whose_only_candidate_is_its_list_says_so(tmp_path: Path, capsys) -> None:
    html = "<html><body><ul><li>alpha one</li><li>beta two</li><li>gamma three</li></ul></body></html>"
    (tmp_path / "d" / "html").mkdir(parents=True)
    (tmp_path / "d" / "html" / "111.html").write_text(html, encoding="utf-8")
    save_records(tmp_path / "d" / "gt" / "111.json", [[f"/body[1]/ul[1]/li[{i}]"] for i in (1, 2, 3)])
    assert len(dataset_pages(tmp_path / "d" / "html", tmp_path / "d" / "gt")) == 1
    assert cli_main(["train", "--pages", str(tmp_path / "d" / "html"), "--gt", str(tmp_path / "d" / "gt"),
                     "--out", str(tmp_path / "m.json"), "-q"]) == 2
    said = capsys.readouterr().err
    assert ("recordlens: error: on page 111 (3 labelled records) the one candidate region is the list of the "
            "labelled records: training also needs regions that are not records") in said, said
    assert "page(s)" not in said


def test_a_page_whose_labels_match_no_candidate_says_so() -> None:
    html = "<html><body><ul><li>alpha one</li><li>beta two</li><li>gamma three</li></ul></body></html>"
    page = training.LabelledPage("7", parse_html(html), [["/body[1]/ul[1]"]])  # the whole list as one record
    assert training.nothing_to_learn(prepare([page])) == (
        "the one candidate region on page 7 does not hold the labelled records (1 labelled record) closely enough "
        "to count as a list of them: check what the labels name with `recordlens labels check`, or label more pages")


def test_cv_says_what_spam_is(tmp_path: Path, capsys, quick_fits) -> None:
    pages, gt = write_dataset(tmp_path / "data", [None] * 4, seed=5)  # type: ignore[list-item]
    assert cli_main(["train", "--pages", str(pages), "--gt", str(gt), "--out", str(tmp_path / "m.json"), "--cv", "2",
                     "--workers", "1", "-q"]) == 0
    out = capsys.readouterr().out
    assert "spam 0/4" in out or "spam 1/4" in out or "spam 2/4" in out, out
    assert "spam N/M: of the M pages, the N whose proposed records number under half or over twice the true " \
           "ones" in out


# -- F: what the model's bytes depend on ---------------------------------------------------------------------------


def test_a_dataset_copied_under_another_name_gives_the_same_members_in_another_file(tmp_path: Path,
                                                                                   quick_fits) -> None:
    """README: the provenance records the dataset folder's name, so the file differs; what proposes does not."""
    import shutil

    write_dataset(tmp_path / "alpha", [None] * 3, seed=5)  # type: ignore[list-item]
    shutil.copytree(tmp_path / "alpha", tmp_path / "beta")
    documents = []
    for name in ("alpha", "beta"):
        out = tmp_path / f"{name}.json"
        assert cli_main(["train", "--pages", str(tmp_path / name / "html"), "--gt", str(tmp_path / name / "gt"),
                         "--out", str(out), "-q"]) == 0
        documents.append(json.loads(out.read_text(encoding="utf-8")))
    alpha, beta = documents
    assert alpha["members"] == beta["members"] and alpha != beta
    assert {key for key in alpha["provenance"] if alpha["provenance"][key] != beta["provenance"][key]} == \
        {"trained_on", "pages"}
    assert {p["source"] for p in alpha["provenance"]["pages"]} == {"alpha"}
