"""One notion of two names that read alike (`text_forms.read_alike`): `import --annotator` refuses such a name
as another spelling of a set's, and `agreement` takes it for that set, or names it, in the same cases."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.core.store.agreement import project_agreement
from recordlens.core.store.importer import import_paths
from recordlens.core.store.project import StoreError, init_project
from recordlens.core.text_forms import read_alike, spelling

PAGE = "<html><body><ul><li>a</li><li>b</li></ul></body></html>"


def a_dataset(root: Path) -> Path:
    (root / "html").mkdir(parents=True)
    (root / "gt").mkdir()
    (root / "html" / "1.html").write_text(PAGE, encoding="utf-8")
    (root / "gt" / "1.json").write_text(json.dumps([["/body[1]/ul[1]/li[1]"], ["/body[1]/ul[1]/li[2]"]]),
                                        encoding="utf-8")
    return root


@pytest.mark.parametrize("other", ["Ann  Lee", "Ann\u00a0Lee", "Ann Lee ", "\uff21nn Lee"])
def test_names_that_read_alike(other: str) -> None:
    assert spelling(other) == spelling("Ann Lee")
    assert read_alike(other, "Ann Lee") == (other != "Ann Lee")
    assert not read_alike("Ann Lee", "ann lee")  # another case is another name, said apart (`other_cases`)


def test_import_and_agreement_agree_on_another_spelling(tmp_path: Path) -> None:
    with init_project(tmp_path / "p") as project:
        import_paths(project, [a_dataset(tmp_path / "ann")])
        import_paths(project, [a_dataset(tmp_path / "lee")], annotator="Ann Lee")
        with pytest.raises(StoreError, match="is another spelling of 'Ann Lee'"):
            project.annotators.check_new_name("Ann  Lee")

        compared = project_agreement(project, "project", "Ann  Lee")  # taken for the set it spells
        assert ("'Ann  Lee' is read as the annotator 'Ann Lee', the same name written with other spaces or character "
                "forms") in compared.notes
