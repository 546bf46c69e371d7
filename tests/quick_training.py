"""Training made quick for tests of what it does and says (members, shares, stages, messages, files, the
policy of made pages), not of how well it fits real pages."""

from __future__ import annotations

import dataclasses

import pytest

from recordlens.core.extract import training

FEW_TREES = 15  # the boosted trees of each fit under `few_trees`: enough for the made pages' policies


def few_trees(monkeypatch: pytest.MonkeyPatch, trees: int = FEW_TREES) -> None:
    """Every fit from now on grows at most `trees` boosted trees. The fewer trees travel in each fit's task, so
    worker processes fit them too; the settings asked for are left as they are, so the model's provenance (and
    whether a model in place is the one a training would give) is what it is without this."""
    def fewer(build):  # noqa: ANN001, ANN202 - a fit's task builder, and the same with fewer trees
        def built(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202 - the builder's own
            x, y, w, seed, config = build(*args, **kwargs)
            return x, y, w, seed, dataclasses.replace(config, trees=min(trees, config.trees))
        return built

    for name in ("_first_stage_task", "_second_stage_task"):
        monkeypatch.setattr(training, name, fewer(getattr(training, name)))
