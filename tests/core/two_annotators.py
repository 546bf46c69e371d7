"""Two annotators of three pages of the dev sample, for the tests of agreement and adjudication: a dataset of the
pages with ana's labels or with labels changed from hers (as bea's), a project of ana's labels with bea's label set
beside them, and the adjudicator ann's decisions on them."""

from __future__ import annotations

import json
import shutil
from collections.abc import Sequence
from pathlib import Path

from recordlens.core.store.adjudication import Adjudication
from recordlens.core.store.importer import import_paths
from recordlens.core.store.project import Project, Provenance, init_project

PAGES = ("1", "7", "11")
ANN = Provenance.person("ann")  # who adjudicates
EXTRA = "/body[1]/p[99]"  # an element only bea's record names (a merge adds it to the project's)


def dataset(dev: Path, root: Path, change=None) -> Path:  # noqa: ANN001 - a function as `bea`
    """PAGES of the dev sample `dev` as a dataset in `root`, each with its labels (ana's) or with what
    `change(page, records)` makes of them."""
    (root / "html").mkdir(parents=True)
    (root / "gt").mkdir()
    for name in PAGES:
        shutil.copy(dev / "html" / f"{name}.html", root / "html")
        records = json.loads((dev / "gt" / f"{name}.json").read_text(encoding="utf-8"))
        if change:
            records = change(name, records)
        (root / "gt" / f"{name}.json").write_text(json.dumps(records), encoding="utf-8")
    return root


def bea(name: str, records: list) -> list:
    """The second annotator: leaves out page 1's first record and labels only half of page 7's first."""
    if name == "1":
        return records[1:]
    if name == "7":
        first = records[0]
        return [first[: max(1, len(first) // 2)] if len(first) > 1 else [first[0] + "/*[1]"], *records[1:]]
    return records


def project_of_ana_and_bea(dev_dir: Path, tmp_path: Path, beas_labels=bea) -> Path:  # noqa: ANN001 - as `bea`
    """A project of the dev sample labelled by ana (the project's labels), with bea's label set beside them (made
    from ana's by `beas_labels(page, records)`)."""
    folder = tmp_path / "p"
    with init_project(folder) as project:
        import_paths(project, [dataset(dev_dir, tmp_path / "ana")])
        import_paths(project, [dataset(dev_dir, tmp_path / "bea", beas_labels)], annotator="bea")
    return folder


def merge_one(project):  # noqa: ANN001, ANN201 - a Project; the change, the project's record, theirs, the merge
    """ann merges bea's version of the project's first record of page 1, which names EXTRA too."""
    label = project.labels("1")[0]
    theirs = [*label.xpaths, EXTRA]
    records = project.annotators.records("bea", "1")
    project.annotators.set_page("bea", "1", [theirs, *records[1:]])
    change = project.adjudication.merge("1", label, "bea", theirs, ANN)
    return change, label, theirs, Adjudication.merged(label.xpaths, theirs)


def one_page_labelled_twice(root: Path, page: str, ours: list[list[str]], theirs: list[list[str]],
                            annotators: Sequence[str] = ("bea",)) -> Project:
    """A project of one page labelled twice, as the agreement tests compare them: `root/p` (open: close it, or use
    it in `with`) holding page 1 with `ours` as its labels and `theirs` as each of `annotators`' label set."""
    for who, records in (("ours", ours), ("theirs", theirs)):
        (root / who / "html").mkdir(parents=True)
        (root / who / "gt").mkdir()
        (root / who / "html" / "1.html").write_text(page, encoding="utf-8")
        (root / who / "gt" / "1.json").write_text(json.dumps(records), encoding="utf-8")
    project = init_project(root / "p")
    import_paths(project, [root / "ours"])
    for annotator in annotators:
        import_paths(project, [root / "theirs"], annotator=annotator)
    return project
