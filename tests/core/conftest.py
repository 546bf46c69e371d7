"""Fixtures the core tests share."""

from __future__ import annotations

import dataclasses

import pytest

from recordlens.core.extract import training
from recordlens.core.extract.training import FitConfig


@pytest.fixture
def quick_fits(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every fit with few trees: for tests of what is fitted and said (members, shares, stages), not of how well."""
    real_fit = training.fit

    def quick_fit(examples, seed=0, config=None, **options):  # noqa: ANN001, ANN202 - fit's own
        return real_fit(examples, seed, dataclasses.replace(config or FitConfig(), trees=10), **options)

    monkeypatch.setattr(training, "fit", quick_fit)
