"""A project's own learnt selector model: where it lives, whether it still matches the labels, training it.

A project keeps the selector trained on its own labelled pages as `PROJECT_MODEL` inside its folder; Propose uses
it when present (`project_model`). Training it (`train_on_project`, `train --project`, the app's Learn) holds the
project's lock, sets the model it replaces aside (`save_project_model`), and keeps a model already in place that it
would write again (`project_model_in_place`); setting the model aside by hand (`forget_project_model`) is refused
while a training holds that lock, as its end would write a model again, and holds it for its move (the lock's line
says which of the two holds it, for the words of a refusal); `model_freshness` says whether the model is still the
one the labels give. The training itself is `extract.training`'s, imported on use: it brings the
learner's modules, which opening a project does not need.
"""

from __future__ import annotations

import contextlib
import logging
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from .. import atomic, owner_files
from ..command_hints import hint_path
from ..errors import DatasetError, RecordLensError, said_without_path
from ..output_paths import OutputPathError, writable_file
from ..version import recordlens_version
from ..wording import counted, named_and_more
from .files import remove_stale_files
from .project import Project, open_project
from .removed_files import hidden_folder, name_folder
from .scoring import labelled_page_names, labelled_pages

if TYPE_CHECKING:
    from ..extract.selector_model import SelectorModel
    from ..extract.training import LabelledPage, PagesToRead
    from ..runs.cross_validation import ShippedComparison

PROJECT_MODEL = Path("models") / "selector.json"  # a project's own selector model, inside its folder
FORGOTTEN_MODEL = Path("models") / "selector.forgotten.json"  # the last one set aside, kept rather than deleted
# A project model file that is no model at all (damaged, cut short), replaced: kept here rather than over
# FORGOTTEN_MODEL, which may hold the only copy of a usable model set aside before (a model of older features still
# goes there: it is a model, to be trained again)
UNUSABLE_MODEL = Path("models") / "selector.unusable.json"
# Held (`owner_files`) while the project's own model is trained and written, or set aside: hidden, so a copy of the
# project leaves it out, and gone once that ends
TRAINING_LOCK = Path("models") / ".training.lock"
# What its line says its holder does (`owner_files` purpose): a lock that says nothing is an earlier RecordLens's,
# which took it to train alone
_TRAINING, _SETTING_ASIDE = "training", "setting-aside"

_log = logging.getLogger(__name__)


def check_project_to_train(project_dir: str | Path) -> None:
    """Refuse a folder that is not a project (no project.db: open_project's words) before training takes its lock
    or writes its model: nothing is made in such a folder, and a folder not there is said as such, not as a lock
    that cannot be taken."""
    open_project(project_dir).close()


@contextlib.contextmanager
def training_the_project(project_dir: str | Path) -> Iterator[list[str]]:
    """Hold the project's training lock while its own model is trained and written (`train --project`, the app's
    Learn): two at once would each set aside the model the other wrote, and the project's earlier model would be
    lost, so the second is refused at once, naming who trains (or, as the lock's line says, who sets the model
    aside: `forget_project_model` holds the lock for its move). A lock whose holder was killed is taken over; where
    none can be taken (a file system without locks), training goes on: the notes it yields say so."""
    path = Path(project_dir) / TRAINING_LOCK
    try:
        path.parent.mkdir(exist_ok=True)
        lock = owner_files.take(path, purpose=_TRAINING)
    except owner_files.Held as held:
        raise _training_refused(project_dir, held.owner, held.purpose) from None
    except OSError as error:
        yield [f"the project's training lock cannot be taken ({error.strerror or error}): a second training of the "
               "project at once would not be refused"]
        return
    try:  # a killed holder's lock taken over is said, as extract says it of a run folder's
        yield owner_files.taken_over(lock, _work_of(project_dir, lock.stale_purpose)) + _killed_writes_removed(
            project_dir)
    finally:
        owner_files.release(lock)


def _killed_writes_removed(project_dir: str | Path) -> list[str]:
    """Remove what writes of the project's model killed part way (kill -9) left in its `models/`, a whole model's
    size each, which nothing else removes: the hidden temporary files of the new model and of the copies set aside
    (`atomic.temporaries_of`), and a new model written whole but never renamed into place. Called with the training
    lock held, which every writer of these files holds (a training, a setting aside): none of them is being written
    now, whatever its age. Says what went, as an export says the leftovers of earlier exports it removes."""
    models = project_model_path(project_dir).parent
    new = _new_model_path(project_dir)
    left = [path for target in (new, project_model_path(project_dir), Path(project_dir) / FORGOTTEN_MODEL,
                                Path(project_dir) / UNUSABLE_MODEL) for path in atomic.temporaries_of(target)]
    left += [new] if new.is_file() else []
    removed = remove_stale_files(left, models, older_than_s=0.0)
    if not removed.files:
        return []
    return [f"removed {counted(removed.files, 'hidden file')} ({removed.size / 1e6:.1f} MB) in {hint_path(models)}, "
            "left by a training killed while it wrote the model (kill -9)"]


def _training_refused(project_dir: str | Path, owner: tuple[str, int] | None, purpose: str) -> RecordLensError:
    """A training refused while the lock is held: by another training, or while the model is set aside (a moment)."""
    if purpose == _SETTING_ASIDE:
        return RecordLensError(f"{_holding(project_dir, owner, purpose)}: train once that is done (it takes a "
                               "moment)")
    return RecordLensError(f"{_holding(project_dir, owner, purpose)}: wait for it to end (or stop it), then train "
                           "again if its labels changed meanwhile; two trainings of one project at once would each "
                           "set aside the model the other wrote, and lose the project's earlier model")


def _holding(project_dir: str | Path, owner: tuple[str, int] | None, purpose: str) -> str:
    """"the project P is being trained by process 4242 on host right now (P/models/.training.lock)", or "the learnt
    model of the project P is being set aside by ...": how what the training lock refuses (a training, setting the
    model aside) names what holds it, as its line says (`purpose`)."""
    doing = (f"the learnt model of the project {hint_path(project_dir)} is being set aside"
             if purpose == _SETTING_ASIDE else f"the project {hint_path(project_dir)} is being trained")
    return f"{doing} by {owner_files.owner_named(owner)} right now ({hint_path(Path(project_dir) / TRAINING_LOCK)})"


def _work_of(project_dir: str | Path, purpose: str) -> str:
    """The work of a killed holder of the lock, as `owner_files.taken_over` names it ("a training of the project P
    by process 4242 ended without releasing its lock ...")."""
    if purpose == _SETTING_ASIDE:
        return f"a setting aside of the learnt model of the project {hint_path(project_dir)}"
    return f"a training of the project {hint_path(project_dir)}"


@contextlib.contextmanager
def _no_training_meanwhile(project_dir: str | Path) -> Iterator[None]:
    """Hold the training lock while the project's model is set aside, refused (naming the training) while a
    training holds it: that training writes a model as it ends, which would undo the setting aside unsaid (and one
    set aside meanwhile would not be the model that training replaced). Where no lock can be taken here (a read-only
    folder, a file system without locks), a live holder its file names still refuses; otherwise the setting aside
    goes on, and says itself why it cannot write, if it cannot. The lock's line says it is held to set the model
    aside, so that a training refused meanwhile is not told a training runs. A killed holder's lock is taken over,
    and logged in the words a training says it in (no training is left to say it)."""
    path = Path(project_dir) / TRAINING_LOCK
    try:
        lock = owner_files.take(path, purpose=_SETTING_ASIDE)
    except owner_files.Held as held:
        raise _setting_aside_refused(project_dir, held.owner, held.purpose) from None
    except OSError:
        holder = owner_files.holder(path)
        if holder is not False:
            raise _setting_aside_refused(project_dir, holder if isinstance(holder, tuple) else None,
                                         owner_files.purpose_of(path)) from None
        yield
        return
    try:
        for note in owner_files.taken_over(lock, _work_of(project_dir, lock.stale_purpose)):
            _log_warning(note)
        yield
    finally:
        owner_files.release(lock)


def _setting_aside_refused(project_dir: str | Path, owner: tuple[str, int] | None, purpose: str) -> RecordLensError:
    """Setting the model aside refused while the lock is held: by a training, or by another setting it aside."""
    if purpose == _SETTING_ASIDE:
        return RecordLensError(f"{_holding(project_dir, owner, purpose)}: nothing more to do, it is kept in "
                               f"{hint_path(Path(project_dir) / FORGOTTEN_MODEL)} once that is done")
    return RecordLensError(f"{_holding(project_dir, owner, purpose)}: its learnt model is not set aside, as that "
                           "training writes one as it ends, which Propose would use; wait for it to end (or stop "
                           "it), then set the model aside")


def project_model_path(project_dir: str | Path) -> Path:
    """Where a project keeps the selector model trained on its own labelled pages (Propose uses it if present)."""
    return Path(project_dir) / PROJECT_MODEL


def is_project_model(path: str | Path, project_dir: str | Path) -> bool:
    """Whether `path` names the project's own model however it is written (absolute, relative, through `..`):
    writing there is training the project's own model, under its lock, with the model it replaces set aside."""
    return Path(path).resolve() == project_model_path(project_dir).resolve()


def forget_project_model(project_dir: str | Path) -> Path | None:
    """Set the project's own model aside (Propose then uses the shipped one again) and return where it now is;
    None when the project has none. It is kept, replacing one set aside before, so that forgetting is undone by
    moving it back. Where it cannot be set aside (a read-only folder, no permission) an OutputPathError says why,
    and the model is left in place. While a training of the project runs (its lock held by a live process: `train
    --project`, another window's Learn) a RecordLensError refuses in the lock's words, whether or not a model is in
    place yet: the training's end would write the model Propose then uses."""
    path = project_model_path(project_dir)
    if not path.parent.is_dir():  # no models/: nothing learnt, and no training under way (it makes models/ first)
        return None
    with _no_training_meanwhile(project_dir):
        return _set_aside(project_dir, path)


def _set_aside(project_dir: str | Path, path: Path) -> Path | None:
    """`forget_project_model`'s move, no training running: where the model is kept, None when there is none."""
    if not path.is_file():
        return None
    # Where it goes checked first, in the words a failed Learn uses for its model (a read-only folder, no
    # permission, a folder in the way): the model stays in place, and Propose goes on using it.
    kept = writable_file(Path(project_dir) / FORGOTTEN_MODEL, "the learnt model set aside")
    try:
        path.replace(kept)
    except OSError as error:  # changed since the check (permissions, the disk gone)
        raise OutputPathError(f"cannot write {hint_path(kept)}: {error.strerror or error}") from None
    return kept


def keep_learnt_models(project_dir: str | Path, folder: Path, stem: str) -> Path | None:
    """A copy of the project's learnt models as they are now (every file of its models/ but hidden ones: its own
    model, the one set aside, an unusable one kept), in a new folder `stem[-K]` of `folder`, made whole under a
    hidden name before it is named (`hidden_folder`, `name_folder`); None when it has none. What an upgrade keeps
    beside the database as it was: a training by the new version writes its model over the project's, and sets
    that one aside over the one set aside before, in a format the earlier RecordLens may not read, so going back
    needs these too. OSError when it cannot be made, nothing of it left."""
    models = Path(project_dir) / PROJECT_MODEL.parent
    if not models.is_dir():
        return None
    files = sorted(path for path in models.iterdir() if path.is_file() and not path.name.startswith("."))
    if not files:
        return None
    hidden = hidden_folder(folder, stem)
    try:
        for path in files:
            shutil.copyfile(path, hidden / path.name)
            atomic.sync_file(hidden / path.name)
        atomic.sync_folder(hidden)
        return name_folder(hidden, stem)
    except BaseException:
        shutil.rmtree(hidden, ignore_errors=True)
        raise


def project_pages_to_read(project_dir: str | Path) -> PagesToRead:
    """A project's pages marked labelled (or reviewed), with their accepted and edited records, read one at a time
    as they are iterated."""
    from ..extract.training import PagesToRead, as_labelled

    with open_project(project_dir) as project:
        count = len(labelled_page_names(project))
    if not count:
        raise DatasetError(f"no page marked labelled in the project {hint_path(project_dir)}: mark the pages you "
                           "have labelled (L in the app), or import a dataset with its labels (html/ and gt/)")

    def read() -> Iterator[LabelledPage]:
        with open_project(project_dir) as project:
            yield from as_labelled(labelled_pages(project), project_source(project.root))

    return PagesToRead(count, read)


def project_source(project_dir: str | Path) -> str:
    """The project as a model learnt from it names it: its full path, however it was typed (`P`, `.`, absolute,
    through `..` or a link), so that the same pages, labels and seed give the same model bytes from the CLI and
    the app alike, and a model already in place is known as such."""
    return str(Path(project_dir).resolve())


def project_description(count: int, project_dir: str | Path) -> str:
    """What a model learnt from a project's labelled pages says it was trained on (the folder's own name: `.` has
    none)."""
    from ..extract.training import labelled_pages_said

    return f"{labelled_pages_said(count)} of the project {Path(project_source(project_dir)).name}"


def project_training_entries(project: Project) -> list[dict[str, str]]:
    """The project's labelled pages as a model learnt from them states them (`training_entries`, a page given
    twice with the same labels once, as training keeps it), without parsing a page whose digest the project
    remembers (`label_checks.training_digest`)."""
    from ..extract.training import training_entry

    entries, seen = [], set()
    for name in labelled_page_names(project):
        digest = project.label_checks.training_digest(name)
        if digest not in seen:
            seen.add(digest)
            entries.append(training_entry(name, project_source(project.root), digest))
    return entries


def project_model_in_place(project_dir: str | Path, path: str | Path, seed: int) -> SelectorModel | None:
    """`model_in_place` for the project's labelled pages, before any page is read: their digests are those the
    project remembers (`project_training_entries`), asked only when the model lists the pages labelled now, by
    name and in order (a page parsed only where its labels changed since its digest was last asked)."""
    from ..extract.training import fitted_from, readable_model

    model = readable_model(path)
    if model is None:
        return None
    learnt = [p.get("name") for p in model.provenance.get("pages", []) if isinstance(p, dict)]
    with open_project(project_dir) as project:
        if learnt != labelled_page_names(project):  # other pages (or a page twice): trained as before
            return None
        pages = project_training_entries(project)
    return model if fitted_from(model, pages, seed, project_description(len(pages), project_dir)) else None


@dataclass(frozen=True)
class ModelFreshness:
    """How a project's learnt model stands against the project's labelled pages now (`model_freshness`): of the
    pages marked labelled or reviewed, those it learnt from as they are (`learnt`), those labelled since it was
    learnt (`new`), those it learnt from whose labels changed since (`changed`: their texts and labels, as its
    provenance's page digests hold them); and the pages it learnt from that are no longer labelled (`gone`)."""

    labelled: int
    learnt: int
    new: list[str]
    changed: list[str]
    gone: list[str]
    trained_by: str = ""  # the RecordLens version that learnt it, when not this one

    @property
    def current(self) -> bool:
        """Whether the model is the one the labels give now (learning again would learn from the same pages)."""
        return not (self.new or self.changed or self.gone)

    def sentence(self) -> str:
        """"learnt from 9 of the 10 labelled pages; labels of 1 changed since"."""
        if self.current:
            return f"learnt from {_all(self.labelled)} as {'it is' if self.labelled == 1 else 'they are'} labelled now"
        parts = [f"learnt from {self.learnt} of the {counted(self.labelled, 'labelled page')}"]
        if self.new:
            parts.append(f"{len(self.new)} labelled since")
        if self.changed:  # a page's texts change only as another version reads them: said then
            parts.append(f"labels of {len(self.changed)} changed since" if not self.trained_by else
                         f"{len(self.changed)} changed since (their labels, or how RecordLens "
                         f"{recordlens_version()} reads them: the model is of {self.trained_by})")
        if self.gone:
            parts.append(f"{counted(len(self.gone), 'page')} it learnt from "
                         f"{'is' if len(self.gone) == 1 else 'are'} no longer labelled")
        return "; ".join(parts)

    def changes(self) -> str:
        """What changed in the labelled pages since the model learnt them, by page: "labels of page 46 changed,
        page 7 marked labelled" ("" when nothing did): what a training that ends with labels edited meanwhile
        says it left out."""
        def pages(names: list[str]) -> str:
            return f"page{'s' if len(names) > 1 else ''} {named_and_more(names)}"

        parts = [f"labels of {pages(self.changed)} changed"] if self.changed else []
        if self.new:
            parts.append(f"{pages(self.new)} marked labelled")
        if self.gone:
            parts.append(f"{pages(self.gone)} no longer marked labelled")
        return ", ".join(parts)


def _all(count: int) -> str:
    return "the 1 labelled page" if count == 1 else f"all {counted(count, 'labelled page')}"


def model_freshness(project: Project, path: str | Path | None = None) -> ModelFreshness | None:
    """Whether the project's learnt model (or the model at `path`, learnt from the project's pages) is still the
    one its labelled pages would give, page by page; None when the project has no model of its own that this
    version can use. Cheap enough before every Propose: the model is read once per file version
    (`selector.load_model`), and each page's digest is the one the project remembers beside its label check (a
    page is parsed only when its labels changed since it was last asked)."""
    from ..extract.selector import load_model

    if path is None:
        path, _ = project_model(project.root)
    if path is None:
        return None
    model = load_model(path)
    described = [p for p in model.provenance.get("pages", []) if isinstance(p, dict)]
    learnt_names = {str(p.get("name")) for p in described}
    learnt_digests = model.trained_digests()
    now = {name: project.label_checks.training_digest(name) for name in labelled_page_names(project)}
    digests_now = set(now.values())
    learnt = [name for name, digest in now.items() if digest in learnt_digests]
    changed = [name for name, digest in now.items() if digest not in learnt_digests and name in learnt_names]
    new = [name for name, digest in now.items() if digest not in learnt_digests and name not in learnt_names]
    gone = [str(p.get("name")) for p in described
            if str(p.get("name")) not in now and str(p.get("digest")) not in digests_now]
    version = str(model.provenance.get("recordlens", ""))
    return ModelFreshness(len(now), len(learnt), new, changed, gone, version if version != recordlens_version() else "")


def writable_model_path(path: str | Path, project_dir: str | Path | None = None) -> Path:
    """`path` if a model file can be written there (nothing, or a model written before by any version, even one
    this version refuses to load and says to train again): checked before the training work rather than after it.
    The project's own model path (`project_dir` given) belongs to the project: whatever file is there, a model cut
    short or damaged included, is set aside as an older model is (`save_project_model`), not refused; any other
    path keeps a file that is not a model (a mistyped --out must not destroy it)."""
    from ..extract.selector_model import is_model_file

    own = project_dir is not None and is_project_model(path, project_dir)
    return writable_file(path, "a selector model", replaces=None if own else is_model_file)


def _new_model_path(project_dir: str | Path) -> Path:
    """Where a new model of the project is written whole, hidden, before it is renamed over the project's own."""
    path = project_model_path(project_dir)
    return path.with_name(f".{path.name}.new")


def save_project_model(model: SelectorModel, project_dir: str | Path) -> tuple[Path, Path | None]:
    """Write `model` as the project's own, the one it replaces set aside as Forget sets it aside; returns where the
    model is and where the earlier one is kept (None: there was none). The new model is written whole first, under
    a hidden name beside it; the earlier one is then copied to where Forget sets it aside, and the new one renamed
    over it: at every instant, a kill or a power cut included, the project has a model, the earlier or the new
    (moving the earlier one aside first left it with none until the new one was renamed into place). A write that
    fails (a full disk) leaves the project's own model as it was. The model the project has already (the same
    pages, labels and seed) is not written again: setting it aside would push out the one set aside before."""
    from ..extract.training import save_model

    path = project_model_path(project_dir)
    if path.is_file() and path.read_bytes() == model.to_json().encode("utf-8"):
        return path, None
    written = save_model(model, _new_model_path(project_dir), named=path)
    try:
        kept = _copy_set_aside(project_dir)
        atomic.move_into_place(written, path)  # one rename over the earlier model
    except BaseException:
        written.unlink(missing_ok=True)
        raise
    return path, kept


def _copy_set_aside(project_dir: str | Path) -> Path | None:
    """A copy of the project's own model where Forget sets it aside (`FORGOTTEN_MODEL`, replacing the one set aside
    before, written atomically), the model itself left in place; a file that no version can use (cut short, or
    damaged inside: a member or the feature names missing) is copied to `UNUSABLE_MODEL` instead, never over a
    model set aside; None when the project has none."""
    path = project_model_path(project_dir)
    if not path.is_file():
        return None
    kept = FORGOTTEN_MODEL if _is_a_model_to_keep(path) else UNUSABLE_MODEL
    return atomic.copy_file(path, Path(project_dir) / kept)


def _is_a_model_to_keep(path: Path) -> bool:
    """Whether the file is a model worth keeping where Forget sets one aside: one this version uses, or one another
    version wrote (trained again to be used here). Whether it is JSON naming a model's format is not enough: a
    damaged model names it too, and set aside there it would push out a usable model kept before."""
    from ..extract.selector import load_model
    from ..extract.selector_model import ModelError, OtherVersionModel

    try:
        load_model(path)
    except OtherVersionModel:
        return True
    except ModelError:
        return False
    return True


def in_place_said(model: SelectorModel, own: bool) -> str:
    """"the project's model is the one it had (the same 12 labelled pages and labels, seed 0, RecordLens 1.0)":
    what `train` and the app's Learn say of a model already in place that training would write again (`own`: the
    project's own), before "not trained again"."""
    provenance = model.provenance
    pages = [p for p in provenance.get("pages", []) if isinstance(p, dict)]
    which = "the project's model is the one it had" if own else "the model there is the one these pages give"
    return (f"{which} (the same {counted(len(pages), 'labelled page')} and labels, seed {provenance.get('seed')}, "
            f"RecordLens {provenance.get('recordlens')})")


def train_on_project(project_dir: str | Path, *, out: str | Path | None = None, seed: int = 0,
                     progress: Callable[[str], None] | None = None,
                     check: Callable[[int, int], None] | None = None,
                     set_aside: Callable[[Path], None] | None = None,
                     in_place: Callable[[str], None] | None = None,
                     noted: Callable[[str], None] | None = None,
                     compared: Callable[[list[str], bool], None] | None = None,
                     comparing: Callable[[int, int], None] | None = None) -> Path:
    """Fit the selector on the project's labelled pages, so that proposals follow the project's own labelling
    policy, and write it (by default as the project's own, `save_project_model`: the model it replaces is kept as
    `FORGOTTEN_MODEL`, and `set_aside` is told where); the same pages (the project lists them in one order) and
    seed give the same file. Where it is written and the seed are checked before any work; `check` as in `fit`.
    A model already there that this training would write again (`project_model_in_place`, as `train --project`
    checks it) is kept, nothing is read or fitted, and `in_place` is told so in `train`'s words (`in_place_said`).
    `noted` is told what the project's training lock meets, in the words `train --project` warns of it (a killed
    training's lock taken over, a lock that cannot be taken), as it meets it: the app's Learn says it in its window,
    where no one reads a log; without `noted` it is logged. With `compared`, a model of one stage learnt from 2
    pages or more is first compared with the shipped model on the project's labelled pages (`shipped_comparison`,
    `comparing(folds done, folds)` its `check`, by default `check`), and `compared` is told how (its lines, and
    whether the shipped model did better), before the model is written: a cancel while they are compared writes no
    model."""
    # on use, as everywhere here; `fit` is so the training module's at each call (where tests stand in for it)
    from ..extract.training import check_seed, fit, for_training, once_each, save_model

    check_seed(seed)  # what was asked first, then where: no project is opened for a seed no training takes
    check_project_to_train(project_dir)
    path = writable_model_path(out if out is not None else project_model_path(project_dir), project_dir)
    own = is_project_model(path, project_dir)
    with training_the_project(project_dir) if own else contextlib.nullcontext([]) as notes:
        for note in notes:
            (noted or _log_warning)(note)
        if (current := project_model_in_place(project_dir, path, seed)) is not None:  # the same bytes again
            if in_place is not None:
                in_place(in_place_said(current, own))
            return path
        # a page given twice with the same labels once, as `train --project` keeps it: the same model either way
        labelled = [p.example for p in once_each(list(for_training(project_pages_to_read(project_dir), progress)))[0]]
        model = fit(labelled, seed=seed, check=check, description=project_description(len(labelled), project_dir))
        if compared is not None and (comparison := shipped_comparison(project_dir, model, seed,
                                                                      comparing or check)) is not None:
            compared(comparison.lines, comparison.shipped_better)
        if own:  # the project's own: the model it replaces set aside, as `train --project` sets it aside
            written, kept = save_project_model(model, project_dir)
            if kept is not None and set_aside is not None:
                set_aside(kept)
            return written
        return save_model(model, path)


def shipped_comparison(project_dir: str | Path, model: SelectorModel, seed: int = 0,
                       check: Callable[[int, int], None] | None = None, *, workers: int | None = None
                       ) -> ShippedComparison | None:
    """How a model of one stage, learnt from the project's labelled pages, does on them against the shipped model:
    its settings cross-validated on the pages (`comparison_folds`: one left out at a time, or `FOLDS` page-grouped
    folds where there are more pages, so that many pages cost a few fits, not one each; a synthetic variant left
    out with its source page, as `train --cv` folds them; `compare_with_shipped`), beside the shipped model on
    them. With a few pages, a model learnt from scratch often does worse there than the shipped model
    (docs/selector-experiments.md: 0.57 against 0.68 to 0.91 on a project's other pages, from 3 pages); the user
    is told so, and decides. None for a model of both stages, or where fewer than 2 pages (or groups of them) can
    be left out. The pages are read again, with what selecting regions on them needs (the model's training kept
    less of them); a page that cannot be read now is said in place of the figures: the comparison is a note, never
    a reason for the training to fail. `check` and `workers` as in `check_training`."""
    from ..extract.model_shape import ModelShape
    from ..extract.training import for_training, once_each
    from ..runs.cross_validation import ShippedComparison, Variants, compare_with_shipped
    from .importer import synthetic_sources_of

    shape = ModelShape.of(model)
    if shape.stages >= 2 or shape.pages < 2:
        return None
    try:
        with open_project(project_dir) as project:
            made_from = synthetic_sources_of(project)
        variants = Variants()
        read = for_training(variants.noted(project_pages_to_read(project_dir), made_from),
                            None if check is None else lambda _name: check(0, 1), keep_pages=True)
        examples = [p.example for p in once_each(list(read))[0]]
        groups = variants.groups(examples)
        if len(set(groups)) < 2:
            return None
        return compare_with_shipped(examples, seed, groups, shape, workers=workers, check=check)
    except (RecordLensError, OSError) as error:
        return ShippedComparison([f"not compared with the shipped model on the project's labelled pages: {error}"])


def _log_warning(note: str) -> None:
    _log.warning("%s", note)


def project_model(project_dir: str | Path) -> tuple[Path | None, str]:
    """The project's own selector model if it has one that this version can use; otherwise None and why not
    ("" when the project has learnt none; otherwise the reason, without the path). A model learnt by an older
    version, on other candidate features, is refused rather than misread: it must be learnt again."""
    from ..extract.selector import load_model
    from ..extract.selector_model import ModelError

    path = project_model_path(project_dir)
    if not path.is_file():
        return None, ""
    try:
        load_model(path)
    except ModelError as error:
        return None, said_without_path(error, path)  # the path is the project's own, known to the caller
    return path, ""


def unusable_said(why: str) -> str:
    """Said after "the project's earlier model" where a new one replaced it and it was set aside, when it could not
    be used (`project_model`'s reason: damaged, cut short, of older features): the file kept is no model to go
    back to as it is. "" for a usable one."""
    return f", which was unusable ({why})," if why else ""
