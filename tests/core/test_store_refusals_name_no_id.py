"""The store's refusals that reach the app's status bar name a record or a change as the person knows it, never
by its database id (shown nowhere): a record deleted meanwhile, a split of a record changed meanwhile, a restore
to a change no longer in the page's history."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from recordlens.core.store.importer import import_paths
from recordlens.core.store.project import Project, Provenance, StoreError, init_project

HTML = "<html><body><ul><li>one</li><li>two</li><li>three</li></ul></body></html>"
ITEM = "/body[1]/ul[1]/li[{}]"
PERSON = Provenance.person("ann")


@pytest.fixture
def project(tmp_path: Path):
    dataset = tmp_path / "ds"
    (dataset / "html").mkdir(parents=True)
    (dataset / "gt").mkdir()
    (dataset / "html" / "1.html").write_text(HTML, encoding="utf-8")
    (dataset / "gt" / "1.json").write_text(json.dumps([[ITEM.format(1), ITEM.format(2)], [ITEM.format(3)]]),
                                           encoding="utf-8")
    with init_project(tmp_path / "p") as made:
        assert import_paths(made, [dataset]).imported == ["1"]
        yield made


def refusal(action) -> str:  # noqa: ANN001 - a call the store refuses
    with pytest.raises(StoreError) as refused:
        action()
    return str(refused.value)


def no_id(text: str, *ids: int) -> bool:
    return not any(re.search(rf"\b{i}\b", text) for i in ids)


def test_a_record_deleted_meanwhile_is_said_gone_not_by_its_id(project: Project) -> None:
    first, second = project.labels("1")
    project.delete(first.id, PERSON)
    for action in (lambda: project.accept(first.id, PERSON), lambda: project.reject(first.id, PERSON),
                   lambda: project.edit(first.id, [ITEM.format(1)], PERSON), lambda: project.delete(first.id, PERSON),
                   lambda: project.split(first.id, [[ITEM.format(1)], [ITEM.format(2)]], PERSON)):
        said = refusal(action)
        assert said == "the record selected is no longer in the project (deleted meanwhile, in another window?)"
    said = refusal(lambda: project.merge([second.id, first.id], PERSON))
    assert said == "a record selected is no longer in the project (deleted meanwhile, in another window?)"


def test_a_split_of_a_record_changed_meanwhile_and_a_restore_to_another_page_s_change_name_no_id(
        project: Project) -> None:
    first = project.labels("1")[0]
    project.edit(first.id, [ITEM.format(1)], PERSON)  # another window took item 2 out of it
    said = refusal(lambda: project.split(first.id, [[ITEM.format(1)], [ITEM.format(2)]], PERSON))
    assert said == ("a split can only use the record's own XPaths (changed meanwhile, in another window?); not one "
                    f"of them: {ITEM.format(2)}")
    entry = project.history("1")[-1].id
    assert entry is not None
    said = refusal(lambda: project.restore("1", entry + 1000, PERSON))
    assert said.startswith("that change is no longer in page 1's history") and no_id(said, entry + 1000)
