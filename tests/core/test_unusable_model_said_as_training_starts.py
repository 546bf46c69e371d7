"""`train --project` over a project whose own model cannot be used (damaged, cut short, of another version) says so
in one line as it starts, with what it does with that file (replaced, and kept where), and goes on training: it
used to say it only after the fits, minutes later. The file is kept, as it was, where the line said."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.core.extract import training
from recordlens.core.extract.selector_model import SelectorModel
from recordlens.core.store import project_model
from recordlens.core.store.learnt_model import FORGOTTEN_MODEL, UNUSABLE_MODEL, project_model_path
from tests.core.catalogue_pages import six_pages_and_page_4_in_progress
from tests.core.cli_runs import run

pytestmark = [pytest.mark.usefixtures("quick_fits"), pytest.mark.timeout(300)]

CUT_SHORT = SelectorModel([], provenance={"trained_on": "cut"}).to_json().encode("utf-8")[:40]
OLDER = json.dumps({"format": "recordlens-selector/0", "members": []}).encode("utf-8")
CASES = {"cut short": (CUT_SHORT, UNUSABLE_MODEL, "not a selector model (invalid JSON: "),
         "of another version": (OLDER, FORGOTTEN_MODEL, "a selector model of format 'recordlens-selector/0'")}


@pytest.mark.parametrize("case", list(CASES))
def test_an_unusable_model_is_said_before_the_fits_and_replaced(case: str, tmp_path: Path, monkeypatch,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    broken, kept, why = CASES[case]
    project = six_pages_and_page_4_in_progress(tmp_path)
    own = project_model_path(project)
    own.parent.mkdir(parents=True, exist_ok=True)
    own.write_bytes(broken)
    said_before_the_fits: list[str] = []
    real_fit = training.fit

    def fit(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202 - `training.fit`'s own signature
        if not said_before_the_fits:  # the first fit (the comparison with the shipped model fits again after)
            said_before_the_fits.append(capsys.readouterr().err)
        return real_fit(*args, **kwargs)

    monkeypatch.setattr(training, "fit", fit)
    code, _, err_after = run(capsys, "train", "--project", str(project), "-q", "--workers", "1")
    assert code == 0, said_before_the_fits + [err_after]
    before = said_before_the_fits[0]
    line = f"warning: the project's model {own} is unusable ({why}"
    assert line in before, before
    said = next(text for text in before.splitlines() if text.startswith(line))  # one line, saying it all
    assert said.endswith(f"): the model trained replaces it, and it is kept as {project / kept}"), said
    # and so it is, once trained
    assert project_model(project) == (own, "")
    assert (project / kept).read_bytes() == broken
    assert f"is kept as {project / kept}" in err_after, err_after


def test_a_usable_model_is_not_said_as_training_starts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = six_pages_and_page_4_in_progress(tmp_path)
    assert run(capsys, "train", "--project", str(project), "-q", "--workers", "1", "--seed", "1")[0] == 0
    code, _, err = run(capsys, "train", "--project", str(project), "-q", "--workers", "1")
    assert code == 0, err
    assert "unusable" not in err, err
