"""Which stored run a run folder holds, for `runs --add`: a run is known by what makes it that run, not by where
its folder lies now. What makes it that run is its description (`run_files.run_identity`, the folder's path
aside) and its pages' own records (`_run/N.json`: each page's calls, answers and times, written once as the page is
done, or as the run stops on it part way, its paid calls kept; a resume that asks a page again, one failed or
stopped part way, keeps its old record under the new one's "earlier"). A stored run keeps a digest of each of its
pages' records (`RECORDS_KEPT`); a folder holding one of those very records, as a page's record or kept under
"earlier", holds that run (moved, copied, or gone on since), and one holding none of them was extracted again. A
run stored before the digests were kept, or from a folder without page records, is known by the folder it was
added from, as before.

Knowing the run, a page whose record is the one the run was stored with but whose prediction file is gone or says
other records was deleted or edited by hand since (no extract writes a prediction without its record): the stored
run keeps the prediction its method made, and the folder is not taken for another run for it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..runs.run_files import (
    ADDED_FROM,
    PageCosts,
    earlier_record_digests,
    read_page_costs,
    record_digest,
    run_identity,
    stored_cost,
)
from ..wording import listed

if TYPE_CHECKING:  # `runs` keeps these keys with a deleted run's copy: it imports this module
    from .runs import RunInfo, StoredRun

# A stored run's cost: page -> a digest of the record (`_run/N.json`) its folder held for it when stored, which
# tells the run's folder wherever it lies (`runs_of_the_folder`)
RECORDS_KEPT = "page_records"
# A stored run's cost: the page it stopped on part way (its record "not finished", its paid calls kept), which
# `score --project P --run ID` says as stopped on, as `score --pred FOLDER` does
STOPPED_ON = "stopped_on"
# What a stored run's cost keeps for `runs --add` alone: no figure of the run, left out of `runs --json`
MATCHING_ONLY = (RECORDS_KEPT,)
# ... and what a deleted run's copy (`runs.write_run_folder`) keeps of them in its run.json (`STORED_COST`): the copy
# holds no record of a page it did, nor of the page it stopped on, and `runs --add` of it takes these back
KEPT_FOR_ADDING = (RECORDS_KEPT, STOPPED_ON)


def kept_for_adding(described: Mapping[str, object]) -> dict[str, object]:
    """What a deleted run's copy's run.json keeps of these keys of the run's cost (`KEPT_FOR_ADDING`); {} for any
    other run folder."""
    return stored_cost(described, KEPT_FOR_ADDING)


def record_digests(run_dir: Path, names: Sequence[str], costs: PageCosts | None = None) -> dict[str, str]:
    """Page -> a digest of the page's record in the folder (`_run/N.json`, read as JSON: its layout aside), for
    the pages named that have a readable one. The caller names the pages whose records tell the run (the
    importer: those it did, failed, and stopped on part way). `costs`: the folder's records already read
    (`read_page_costs`), else read here."""
    costs = read_page_costs(run_dir, slim=True) if costs is None else costs
    return {name: record_digest(costs[name]) for name in names if name in costs}


def earlier_digests(run_dir: Path, names: Sequence[str], costs: PageCosts | None = None) -> dict[str, list[str]]:
    """Page -> digests of the records kept under its record's "earlier" (`run_files.earlier_records`), each as it
    was written before a resume moved it there, for the pages named that have any: a run stored then (its pages
    failed, say, and it stopped) was stored with those very records. `costs`: the folder's records already read,
    else read here."""
    costs = read_page_costs(run_dir, slim=True) if costs is None else costs
    chains = {name: earlier_record_digests(costs[name]) for name in names if name in costs}
    return {name: chain for name, chain in chains.items() if chain}


def stopped_on(cost: Mapping[str, object]) -> list[str]:
    """The pages a stored run stopped on part way (`STOPPED_ON`), [] for a run stored before it was kept."""
    pages = cost.get(STOPPED_ON)
    return [str(page) for page in pages] if isinstance(pages, list) else []


def kept_records(cost: Mapping[str, object]) -> dict[str, str]:
    """Page -> the digest of its record when the run was stored (`RECORDS_KEPT`); {} for a run stored before they
    were kept, or from a folder without page records."""
    kept = cost.get(RECORDS_KEPT)
    return {str(page): str(digest) for page, digest in kept.items()} if isinstance(kept, dict) else {}


def placeless(parameters: Mapping[str, object]) -> dict[str, object]:
    """What makes a run the one it is (`run_identity`), the folder it was added from aside: a folder moved holds
    the same run."""
    return run_identity(without_folder(parameters))


def without_folder(parameters: Mapping[str, object]) -> dict[str, object]:
    """A stored run's parameters (or a folder's, as `runs --add` reads them) without the folder it came from."""
    return {key: value for key, value in parameters.items() if key != "source"}


def first_folder(run: StoredRun) -> str | None:
    """The folder a stored run was first added from (a run stored again from its deleted copy names it in its
    cost: `ADDED_FROM`)."""
    source = run.cost.get(ADDED_FROM) or run.parameters.get("source")
    return str(source) if source else None


def holds_the_run(run: RunInfo, source: str, made: Mapping[str, str],
                  earlier: Mapping[str, Sequence[str]] | None = None) -> bool:
    """Whether a folder (`source`, its pages' records' digests `made`, and those of the records kept under their
    "earlier", `earlier_digests`) holds stored run `run` (its description aside): one of its pages' records, or
    one a resume kept under a page's record, is one the run was stored with; or, where either says no page record,
    it is the folder the run was added from."""
    kept, before = kept_records(run.cost), earlier or {}
    if kept and made:
        return any(made.get(page) == digest or digest in before.get(page, ()) for page, digest in kept.items())
    return added_from(run, source)


def asked_again(run: RunInfo, made: Mapping[str, str], earlier: Mapping[str, Sequence[str]]) -> list[str]:
    """The pages of stored run `run` whose record in the folder (`made`) is a new one since it was stored, which
    keeps the one the run was stored with under "earlier" (`earlier_digests`): asked again by a resume (a page it
    failed on, or stopped on part way), the calls of that new record paid for too."""
    return [page for page, digest in kept_records(run.cost).items()
            if made.get(page) != digest and digest in earlier.get(page, ())]


def resumed_since(run: RunInfo, made: Mapping[str, str], earlier: Mapping[str, Sequence[str]]) -> list[str]:
    """The pages of stored run `run` a resume of its folder asked again since (`asked_again`: its failed pages
    retried by the same `extract`), when every other page of the run holds the very record it was stored with, so
    that no --restart wrote them again (a --restart keeps a failed page's record under "earlier" too); [] when
    any did, or the run kept no records to tell by."""
    asked = asked_again(run, made, earlier)
    others = {page: digest for page, digest in kept_records(run.cost).items() if page not in asked}
    return asked if all(made.get(page) == digest for page, digest in others.items()) else []


def added_from(run: StoredRun, source: str | None) -> bool:
    """Whether stored run `run` was added from the folder `source`: first (`first_folder`), or last."""
    return first_folder(run) == source or run.parameters.get("source") == source


def runs_of_the_folder(runs: Sequence[RunInfo], method: str, parameters: Mapping[str, object],
                       made: Mapping[str, str], earlier: Mapping[str, Sequence[str]] | None = None) -> list[RunInfo]:
    """The stored runs, in the order stored, that a folder described so (its `source` among its parameters) holds:
    the same method and description (`placeless`), and its pages' records (`holds_the_run`)."""
    identity, source = placeless(parameters), str(parameters.get("source"))
    return [run for run in runs if run.method == method and placeless(run.parameters) == identity
            and holds_the_run(run, source, made, earlier)]


@dataclass(frozen=True)
class ChangedByHand:
    """The pages of a stored run whose record in its folder is the one it was stored with, but whose prediction
    file is gone (`deleted`) or says other records (`edited`) since: changed by hand, not by its method."""

    run: RunInfo
    deleted: tuple[str, ...]
    edited: tuple[str, ...]

    def __bool__(self) -> bool:
        return bool(self.deleted or self.edited)

    @property
    def pages(self) -> tuple[str, ...]:
        return (*self.deleted, *self.edited)

    def message(self, run_dir: Path) -> str:
        """Said by `runs --add`: what changed, how that is known, and what the run keeps."""
        changes = [_changed(pages, done, first=not (self.deleted and done == "edited"))
                   for pages, done in ((self.deleted, "deleted"), (self.edited, "edited")) if pages]
        many = len(self.deleted) + len(self.edited) > 1
        return (f"{run_dir} holds run {self.run.id}, stored before; since then {' and '.join(changes)} (by hand: "
                f"{'their records' if many else 'its record'} in _run/ "
                f"{'are' if many else 'is'} still the one{'s' if many else ''} run {self.run.id} was stored with, "
                f"so no extract changed {'them' if many else 'it'}): run {self.run.id} keeps the "
                f"prediction{'s' if many else ''} its method made, and the folder is not taken for another run for "
                f"{'them' if many else 'it'}")


def _changed(pages: Sequence[str], done: str, *, first: bool) -> str:
    """"the prediction file of page 3 was deleted", "those of pages 4, 5 were edited" (`first`: the file named)."""
    one = len(pages) == 1
    what = ("the prediction file" if one else "the prediction files") if first else ("that" if one else "those")
    return f"{what} of {_pages(pages)} {'was' if one else 'were'} {done}"


def _pages(names: Sequence[str]) -> str:
    return f"page {names[0]}" if len(names) == 1 else f"pages {listed(list(names), 8, total=True)}"


def changed_by_hand(run: RunInfo, held: Mapping[str, str], failed: Mapping[str, str],
                    made: Mapping[str, str], predictions: Mapping[str, str],
                    errors: Mapping[str, str]) -> ChangedByHand:
    """Of the pages stored run `run` holds records for (`held`: page -> the digest of its records,
    `runs.records_digest`; `failed`: those it failed on), those the folder's prediction files say otherwise
    (`predictions`: page -> the digest of its file's records) while their record (`made`) is the one the run was
    stored with."""
    kept = kept_records(run.cost)
    unchanged = [page for page in held if page not in failed and page in kept and made.get(page) == kept[page]]
    deleted = tuple(page for page in unchanged if page not in predictions and page not in errors)
    edited = tuple(page for page in unchanged if page in predictions and predictions[page] != held[page])
    return ChangedByHand(run, deleted, edited)


def extracted_again(run: RunInfo, pages: Sequence[str], made: Mapping[str, str]) -> str:
    """How a folder came to hold these pages of a stored run otherwise, as far as the records tell: extracted again
    (their records new ones since), or, where the run kept no record to tell by, extracted again or changed."""
    kept = kept_records(run.cost)
    if kept and all(page in kept and made.get(page) != kept[page] for page in pages):
        return ("extracted again since: " + ("their records in _run/ are new ones" if len(pages) > 1
                                              else "its record in _run/ is a new one"))
    return "extracted again, or changed, since"
