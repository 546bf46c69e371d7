"""What `score` says when a selector run's model holds another model now: the shipped one changes with an update
of RecordLens (the user trained nothing), a model file of the user's when it was trained again."""

from __future__ import annotations

from types import SimpleNamespace

from recordlens.core.extract import selector
from recordlens.core.runs.in_sample import trained_on


def _changed(monkeypatch, name: str) -> str:  # noqa: ANN001 - pytest's monkeypatch
    monkeypatch.setattr(selector, "load_model", lambda path=None: SimpleNamespace(digest="another"))
    found = trained_on({"model": name, "model_digest": "the-run's"}, [("1", "d1")])
    assert found is not None
    return found.message()


def test_the_shipped_model_changed_with_an_update_not_a_training(monkeypatch) -> None:  # noqa: ANN001
    said = _changed(monkeypatch, "default")
    assert "the shipped selector model holds another model now" in said
    assert "a newer RecordLens ships another" in said
    assert "trained again since the run?" not in said


def test_a_model_file_of_ones_own_was_trained_again(monkeypatch, tmp_path) -> None:  # noqa: ANN001
    said = _changed(monkeypatch, str(tmp_path / "model.json"))
    assert "holds another model now (trained again since the run?)" in said
    assert "newer RecordLens" not in said
