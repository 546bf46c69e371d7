"""A run whose pages other settings made, refused wherever its figures would pass for one run's: `runs --add` of its
folder, and `score --project P --run ID` (and `runs --compare`) of a run stored before `runs --add` refused such
folders, or stored otherwise (`import_run_folder` itself does not check).

The rule is the resume's (`run_files.ResumedRun.other_settings`: a page whose own record names other settings than
its run's, or whose prompt the run's prompt file cannot check); a stored run is read by the records of its folder
that speak for its stored predictions (the very records it was stored with), against the settings it was stored
with. A run whose folder is gone, or holds none of those records any more, leaves nothing to check."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from ..command_hints import hint_option
from ..errors import RecordLensError
from ..extract.gemini import PROMPT_SHA256
from ..records.model import load_records
from ..runs.run_files import (
    EXTRACTS_THEM_AGAIN,
    OtherSettings,
    ResumedRun,
    page_record,
    pages_of_other_settings,
    recorded_prompt,
    run_description_and_problem,
    stored_run_description,
)
from .run_matching import first_folder, kept_records, record_digests

if TYPE_CHECKING:
    from .project import Project
    from .runs import RunInfo

# What to do of a run's pages whose prompt its prompt file cannot check, before the folder is added (again)
CHECK_THE_PROMPT = ("run its extract command again with --prompt-file giving the file where it is now, which checks "
                    "them (and extracts again any made with another prompt)")


def refuse_a_folder_of_other_settings(folder: Path) -> None:
    """`runs --add`: a run folder some of whose pages hold records other settings than its run's made (a --restart
    with other settings that stopped before it came to them), or whose prompt the run's prompt file cannot check
    (gone, or changed since), named as `score` names them, is refused: stored, the run's figures would mix two
    settings' records under one run's settings, in the project's table and comparisons, where no warning follows
    them. Its extract command run again as said makes them the run's (the pages a resume reads as the run's, as
    `score` does, are the run's here too)."""
    if not folder.is_dir():  # storing it says what it is instead ("no such folder of predictions", a file)
        return
    found = pages_of_other_settings(folder)
    if found:
        raise RecordLensError(found.message(
            f"the run in {folder}", f"nothing stored: run its extract command again without --restart, which "
            f"{EXTRACTS_THEM_AGAIN}, then add the folder",
            f"nothing stored: {CHECK_THE_PROMPT}, then add the folder; or put the file back where the run names it"))


def refuse_a_stored_run_of_other_settings(project: Project, run: RunInfo, where: str) -> None:
    """`score --project` (and `runs --compare`) of a stored run some of whose predictions other settings than the
    run's made, as the records its folder holds of them say (`stored_other_settings`): refused before any score
    is stored, as `runs --add` refuses such a folder, naming the pages, with how to store the run whole (`where`:
    the project as given)."""
    folder, found = stored_other_settings(project, run)
    if folder is None or not found:
        return
    add = f"`recordlens runs {hint_option('--project', where)} {hint_option('--add', folder)}`"
    then = f"then add the folder again ({add}) and score the run it is stored as"
    raise RecordLensError(found.message(
        f"run {run.id} from {folder}", "nothing scored, as its figures would mix two settings' records under one "
        f"run's settings: run its extract command again without --restart, which {EXTRACTS_THEM_AGAIN}, {then}",
        f"nothing scored: {CHECK_THE_PROMPT}, {then}; or put the file back where the run names it"))


def stored_other_settings(project: Project, run: RunInfo) -> tuple[Path | None, OtherSettings]:
    """The folder whose records speak for stored run `run`'s predictions (`_speaking_records`; None when none
    does) and what they say of the settings that made them, against the settings the run was stored with."""
    failed = project.runs.errors(run.id)
    # the pages in the order their predictions are read, none of their records held (a run is read a row at a time)
    predicted = [name for name, _ in project.runs.prediction_rows(run.id) if name not in failed]
    for folder in _folders_of(run):
        records = _speaking_records(folder, predicted, kept_records(run.cost),
                                    lambda name: project.runs.page_prediction(run.id, name) or [])
        if records:
            described = stored_run_description(run.method, run.status, run.parameters, run.cost)
            return folder, _read_by_its_prompt(folder, described, records).other_settings(records)
    return None, OtherSettings({}, [])


def _folders_of(run: RunInfo) -> list[Path]:
    """The folders a stored run's page records may be in: the one it was stored from, and the one it was first
    added from when it was stored again from its deleted copy (which holds no record of a page it did)."""
    named = [run.parameters.get("source"), first_folder(run)]
    return [Path(str(folder)) for folder in dict.fromkeys(named) if folder and Path(str(folder)).is_dir()]


def _speaking_records(folder: Path, predicted: Sequence[str], kept: Mapping[str, str],
                      stored: Callable[[str], Sequence[Sequence[str]]]) -> dict[str, dict[str, object]]:
    """Of the stored run's predicted pages, the records (`_run/N.json`, slim: a run's every record is held) of
    `folder` that say how their stored predictions were made: the very records the run was stored with (`kept`:
    their digests); for a run stored before those were kept, a record whose prediction file holds the stored
    prediction (`stored`: a page's, read when asked). A page extracted again since holds a record of another
    answer, which says nothing of the stored one."""
    records = {name: record for name in predicted if (record := page_record(folder, name, slim=True))}
    if kept:
        digests = record_digests(folder, list(records), records)
        return {name: record for name, record in records.items() if kept.get(name) == digests.get(name)}
    return {name: record for name, record in records.items()
            if _holds_the_prediction(folder / f"{name}.json", stored(name))}


def _holds_the_prediction(path: Path, stored: Sequence[Sequence[str]]) -> bool:
    try:
        return [list(record) for record in load_records(path).records] == [list(record) for record in stored]
    except RecordLensError:
        return False


def _read_by_its_prompt(folder: Path, described: dict[str, object],
                        records: dict[str, dict[str, object]]) -> ResumedRun:
    """The stored run (`described`, its pages' `records`) read by its prompt file (`ResumedRun.of`'s reading),
    found where the run names it, else where its folder's run.json names it now, when that is the same prompt (its
    SHA-256): a resume given the file where it is now names it there from then on."""
    read = replace(ResumedRun.of(folder, described=described), records=records)
    if read.prompt_problem is None:
        return read
    now = run_description_and_problem(folder)[0]
    if _prompt_sha256(now) is None or _prompt_sha256(now) != _prompt_sha256(described):
        return read
    prompt = recorded_prompt(now)
    return read if prompt is None else replace(read, prompt=prompt, prompt_problem=None)


def _prompt_sha256(described: Mapping[str, object]) -> object:
    parameters = described.get("parameters")
    return parameters.get(PROMPT_SHA256) if isinstance(parameters, dict) else None
