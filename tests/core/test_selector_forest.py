"""Stages that blend the boosted trees with a random forest: the converted forest gives scikit-learn's
probabilities, the file round-trips, a damaged forest is refused, and models of boosted trees only still load."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest
from sklearn.ensemble import RandomForestClassifier

from recordlens.core.extract.selector_model import Blend, Ensemble, Forest, ModelError, SelectorModel, TreeStack
from recordlens.core.extract.training import _stack, fit, prepare
from tests.core.catalogue_pages import SMALL, labelled_pages

BLENDED = dataclasses.replace(SMALL, forest_trees=12)
BOOSTED = dataclasses.replace(SMALL, forest_trees=0)


@pytest.fixture(scope="module")
def examples():
    return prepare(labelled_pages(4, 12, with_secondary=True))


@pytest.fixture(scope="module")
def blended(examples) -> SelectorModel:
    """The pages' model of blended stages, fitted once for the tests that read it (none changes it)."""
    return fit(examples, seed=0, config=BLENDED)


@pytest.fixture(scope="module")
def boosted(examples) -> SelectorModel:
    """The pages' model of boosted trees only, fitted once for the tests that read it."""
    return fit(examples, seed=0, config=BOOSTED)


def test_stacked_trees_give_what_each_tree_gives(examples, blended: SelectorModel) -> None:
    """Forests and boosted trees are walked all at once (TreeStack), level by level: the same leaves."""
    model = blended
    for learner in (model.members[0].first.boosted, model.members[0].first.forest):
        x = np.vstack([e.features for e in examples]).astype(np.float32).astype(np.float64)
        one_by_one = np.column_stack([tree.predict(x) for tree in learner.trees])
        assert np.array_equal(TreeStack(learner.trees).values(x), one_by_one)


def test_stacked_trees_of_uneven_depth_send_a_missing_value_where_each_tree_does() -> None:
    """Trees of different depths, one a lone leaf, and rows holding NaN: the stack's renumbered nodes (a node's
    children side by side) reach the same leaves as each tree walked on its own."""
    rng = np.random.default_rng(3)
    x = rng.random((400, 5))
    y = ((x[:, 0] > 0.5) ^ (x[:, 1] * x[:, 2] > 0.3)).astype(int)
    forest = RandomForestClassifier(n_estimators=6, min_samples_leaf=1, max_depth=9, random_state=0).fit(x, y)
    trees = Forest.from_sklearn(forest).trees
    leaf = dataclasses.replace(trees[0], left=np.array([-1]), right=np.array([-1]), feature=np.array([-2]),
                               threshold=np.array([-2.0]), value=np.array([0.25]))
    trees = [trees[0], leaf, *trees[1:]]
    probe = rng.random((60, 5)).astype(np.float32).astype(np.float64)  # the stack compares as float32
    probe[::7, 1] = np.nan
    probe[3] = np.nan
    one_by_one = np.column_stack([tree.predict(probe) for tree in trees])
    assert np.array_equal(TreeStack(trees).values(probe), one_by_one)


def test_the_converted_forest_gives_scikit_learns_probabilities(examples) -> None:
    x, y, _ = _stack(examples, [e.features for e in examples], "none")
    x = x.astype(np.float32)
    forest = RandomForestClassifier(n_estimators=15, min_samples_leaf=3, max_depth=6, random_state=0).fit(x, y)
    assert np.allclose(Forest.from_sklearn(forest).predict(x), forest.predict_proba(x)[:, 1], atol=1e-12)


def test_a_blended_model_is_both_learners_mean_and_round_trips(tmp_path: Path, examples, blended: SelectorModel
                                                               ) -> None:
    model = blended
    stage = model.members[0].first
    assert isinstance(stage, Blend) and isinstance(model.members[0].second, Blend)
    e = examples[0]
    assert np.allclose(stage.predict(e.features),
                       (stage.boosted.predict(e.features) + stage.forest.predict(e.features)) / 2)
    loaded = SelectorModel.load(model.save(tmp_path / "m.json"))
    assert np.array_equal(loaded.predict(e.candidates), model.predict(e.candidates, e.features))
    assert "RandomForestClassifier" in model.provenance["learner"]
    assert fit(examples, seed=0, config=BLENDED).to_json() == model.to_json()  # deterministic


def test_models_of_boosted_trees_only_still_load(tmp_path: Path, examples, boosted: SelectorModel) -> None:
    """A project's model learnt before forests (format /2) keeps proposing as it did."""
    model = boosted
    assert isinstance(model.members[0].first, Ensemble)
    data = json.loads(model.to_json())
    data["format"] = "recordlens-selector/2"
    path = tmp_path / "old.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    e = examples[1]
    assert np.array_equal(SelectorModel.load(path).predict(e.candidates), model.predict(e.candidates))


@pytest.mark.parametrize("damage", ["a share above 1", "a negative share", "no trees", "no boosted part"])
def test_a_damaged_forest_is_refused(tmp_path: Path, blended: SelectorModel, damage: str) -> None:
    data = json.loads(blended.to_json())
    stage = data["members"][0]["first"]
    leaf = next(i for i, left in enumerate(stage["forest"]["trees"][0]["left"]) if left < 0)
    if damage == "a share above 1":
        stage["forest"]["trees"][0]["value"][leaf] = 1.5
    elif damage == "a negative share":
        stage["forest"]["trees"][0]["value"][leaf] = -0.1
    elif damage == "no trees":
        stage["forest"]["trees"] = []
    else:
        del stage["boosted"]
    path = tmp_path / "damaged.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ModelError, match="a damaged selector model"):
        SelectorModel.load(path)


def test_a_model_saved_as_gz_is_compressed_the_same_every_time_and_a_cut_one_is_refused(
        tmp_path: Path, boosted: SelectorModel) -> None:
    model = boosted
    packed = model.save(tmp_path / "m.json.gz")
    assert packed.read_bytes()[:2] == b"\x1f\x8b"
    assert model.save(tmp_path / "again.json.gz").read_bytes() == packed.read_bytes()
    assert SelectorModel.load(packed).to_json() == model.to_json()
    cut = tmp_path / "cut.json.gz"
    cut.write_bytes(packed.read_bytes()[: len(packed.read_bytes()) // 2])
    with pytest.raises(ModelError, match="a damaged gzip file"):
        SelectorModel.load(cut)


def test_a_tree_whose_nodes_share_a_child_is_refused() -> None:
    """Children after their parents, yet node 3 is the child of both 1 and 2: a graph, not a tree. The stack's
    walk assumes one parent per node, so such a file is refused rather than predicted differently."""
    from recordlens.core.extract.selector_model import trees_from_dicts

    shared = {"left": [1, 3, 3, -1, -1, -1], "right": [2, 4, 5, -1, -1, -1], "feature": [0, 0, 0, -2, -2, -2],
              "threshold": [0.5, 0.25, 0.75, -2.0, -2.0, -2.0], "value": [0.0, 0.0, 0.0, 30.0, 40.0, 50.0]}
    with pytest.raises(ValueError, match="point outside"):
        trees_from_dicts([shared], 1)
    proper = dict(shared, left=[1, 3, 5, -1, -1, -1, -1], right=[2, 4, 6, -1, -1, -1, -1],
                  feature=[0] * 3 + [-2] * 4, threshold=[0.5, 0.25, 0.75] + [-2.0] * 4, value=[0.0] * 3 + [1.0] * 4)
    assert len(trees_from_dicts([proper], 1)) == 1
