"""Synthetic datasets: K variants of every labelled page, restructured (`transforms`), with changed content
(`content`) and the page's saved style sheets inlined (`styles`), each written with its records located again
in the variant (`pipeline`).

    from recordlens.core.synth import SynthOptions, dataset_sources, synthesise_dataset
"""

from .pipeline import (
    CONTENT,
    FORMATS,
    MANIFEST,
    MAX_VARIANTS,
    TRANSFORM_NAMES,
    Source,
    SynthError,
    SynthOptions,
    SynthPage,
    SynthReport,
    WrittenPage,
    dataset_sources,
    project_sources,
    synthesise_dataset,
    synthesise_page,
    variant_prefix,
)
from .transforms import TRANSFORMS, describe

__all__ = [
    "CONTENT", "FORMATS", "MANIFEST", "MAX_VARIANTS", "TRANSFORMS", "TRANSFORM_NAMES",
    "Source", "SynthError", "SynthOptions", "SynthPage", "SynthReport", "WrittenPage",
    "dataset_sources", "describe", "project_sources", "synthesise_dataset", "synthesise_page", "variant_prefix",
]
