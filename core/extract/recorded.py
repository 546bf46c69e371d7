"""Recorded model answers as an extractor: `sampleK_F_content.json` files (NEXT-EVAL's demo assets) become a
run, so that published answers are scored with exactly the same code as live ones.

`index.json` beside the answers folder maps `sampleK` to a page name (`"sample1": 111`); the matching
`sampleK_F_usage.json`, when present, gives the tokens the provider reported.
"""

from __future__ import annotations

import glob
import json
import time
from pathlib import Path

from ..command_hints import hint_path
from ..errors import DatasetError, system_words
from ..file_kinds import link_to_nothing, read_regular_file, unreadable_kind
from ..page.dom import Page
from ..records.model import parse_records
from .base import Extraction

# The recorded answers came from the reference's own pipeline, whose hierarchical JSON is the lossy nesting:
# their prompts (and token counts) were made on what RecordLens calls `hier-ref`.
REFERENCE_INPUT = {"hier": "hier-ref"}
# The answer files' format named by the input they were made on: `--format hier-ref` replays the `hier` answers
# (one name for one thing, as bench and run.json call them `hier-ref`).
ANSWERS_MADE_ON = {made_on: named for named, made_on in REFERENCE_INPUT.items()}


class ReplayExtractor:
    name = "replay"
    version = "1"

    def __init__(self, answers: str | Path, input_format: str = "flat") -> None:
        self.answers = Path(answers)
        index_path = self.answers.parent / "index.json"
        if not self.answers.is_dir():
            raise DatasetError(f"{hint_path(self.answers)}: no such folder of recorded answers")
        try:
            index = json.loads(_recorded_text(index_path, "page index"))
        except FileNotFoundError:
            raise DatasetError(f"{hint_path(index_path)}: no index.json beside the answers folder") from None
        except json.JSONDecodeError as error:
            raise DatasetError(f"{hint_path(index_path)}: not valid JSON ({error})") from None
        self.sample_of_page = {str(page): sample for sample, page in index.items()}
        suffix = "_content.json"  # answers are SAMPLE_FORMAT_content.json, and a sample's name may hold a _
        recorded = sorted({p.name[len(sample) + 1:-len(suffix)] for sample in set(self.sample_of_page.values())
                           for p in self.answers.glob(f"{glob.escape(sample)}_*{suffix}")})
        if input_format not in recorded and ANSWERS_MADE_ON.get(input_format) in recorded:
            input_format = ANSWERS_MADE_ON[input_format]  # hier-ref: the hier answers, the same run as --format hier
        if input_format not in recorded:  # said once, not as a failure on every page
            has = [f"{named} (made on {REFERENCE_INPUT[named]})" if named in REFERENCE_INPUT else named
                   for named in recorded]
            raise DatasetError(f"{hint_path(self.answers)} holds no recorded answers in the {input_format} format "
                               f"(it has: {', '.join(has) or 'none'})")
        self.input_format = input_format

    @property
    def parameters(self) -> dict[str, object]:
        # `input_format` names the answer files (sampleK_hier_content.json); `read_format` the input the model was
        # given, the reference's own lossy hierarchy where it differs from ours ("hier-ref")
        return {"answers": str(self.answers), "input_format": self.input_format,
                "read_format": REFERENCE_INPUT.get(self.input_format, self.input_format)}

    def pages(self) -> list[str]:
        return list(self.sample_of_page)

    def extract(self, page: Page) -> Extraction:
        start = time.monotonic()
        sample = self.sample_of_page.get(str(page.name))
        if sample is None:
            index = hint_path(self.answers.parent / "index.json")
            raise DatasetError(f"no recorded answer for page {page.name} in {index}")
        content = self.answers / f"{sample}_{self.input_format}_content.json"
        try:
            records_file = parse_records(json.loads(_recorded_text(content, "recorded answer")), name=str(content))
        except FileNotFoundError:
            raise DatasetError(f"{hint_path(content)}: no such recorded answer") from None
        except json.JSONDecodeError as error:
            raise DatasetError(f"{hint_path(content)}: not valid JSON ({error})") from None
        return Extraction(records=records_file.records, method=self.name, version=self.version,
                          parameters=self.parameters, seconds=time.monotonic() - start,
                          input_format=REFERENCE_INPUT.get(self.input_format, self.input_format),
                          tokens=self._usage(sample),
                          warnings=list(records_file.warnings))

    def _usage(self, sample: str) -> dict[str, int] | None:
        path = self.answers / f"{sample}_{self.input_format}_usage.json"
        try:
            usage = json.loads(_recorded_text(path, "usage file"))
        except (FileNotFoundError, json.JSONDecodeError):
            return None
        return {"prompt": int(usage.get("promptTokens", 0)), "completion": int(usage.get("completionTokens", 0)),
                "total": int(usage.get("totalTokens", 0))}


def _recorded_text(path: Path, what: str) -> str:
    """A file of the recorded answers, read through the guarded reader: a FIFO named like one is not waited on, a
    folder is said as one, and a file of an open project's database (a hard link) is not opened. A file that is
    not there raises FileNotFoundError (each caller says it in its words); any other that cannot be read, a
    DatasetError naming it and what it is."""
    try:
        return read_regular_file(path).decode("utf-8")
    except OSError as error:
        if isinstance(error, FileNotFoundError) and link_to_nothing(path) is None:
            raise
        said = unreadable_kind(path, error, what) or f"cannot be read ({system_words(error)})"
        raise DatasetError(f"{hint_path(path)}: {said}") from None
