"""The selector's model as plain data: bagged two-stage boosted tree ensembles, the threshold and the provenance.

Contract. A `SelectorModel` maps a page's candidates (their `candidates.FEATURE_NAMES` vectors, and in a
second stage `context.CONTEXT_NAMES` as well) to a probability that each is a region of true records: the mean
of its members' probabilities, each member (`Stages`) a first-stage ensemble and an optional second one fitted
on its own share of the training pages (bagging over pages: one member's choice of level or of secondary lists
swings with the pages it saw; the mean does not). It is stored as JSON (trees as flat arrays), so a model file
is small, loads in milliseconds, needs no scikit-learn at extraction time and cannot run code when it is read
(unlike a pickle). `Ensemble.from_sklearn` converts a fitted `GradientBoostingClassifier`; the converted model
gives the same probabilities (a test checks it). A file whose feature names differ from the code's is refused
with a clear error rather than silently misread; a file of the first format (one member) still loads.
"""

from __future__ import annotations

import codecs
import gzip
import hashlib
import json
import math
import zlib
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from ..command_hints import hint_path
from ..errors import RecordLensError, system_words
from ..file_kinds import open_regular_file, unreadable_kind
from ..incomplete_install import IncompleteInstall
from ..resource_files import is_shipped
from ..wording import json_problem, listed
from .candidates import FEATURE_NAMES, PageCandidates, feature_matrix
from .context import CONTEXT_NAMES, context_features

FORMAT = "recordlens-selector/3"
# /1: one member, stored as "first" and "second"; /2: members of boosted trees only; /3: a stage may be a Blend
FORMATS = ("recordlens-selector/1", "recordlens-selector/2", FORMAT)
FORMAT_FAMILY = FORMAT.rsplit("/", 1)[0] + "/"  # what every model file's "format" starts with, of any version


GZIP_MAGIC = b"\x1f\x8b"
# The bytes of a file's start (decompressed, for a gzip file) read before the rest: enough to tell a model's JSON, which
# begins with "{", from a file of another kind, which is then refused unread (a page archive, a database, a video).
MODEL_START = 64


class ModelError(RecordLensError):
    pass


class MissingShippedModel(IncompleteInstall, ModelError):
    """The model RecordLens ships is not in its install: no fault of the user's, said as the app says a file of its
    folder missing (with how to install again), and still a ModelError to whoever reads a model."""


class OtherVersionModel(ModelError):
    """A selector model that another version of RecordLens wrote (another format, or other candidate features):
    still a model, to be trained again, unlike a damaged file (one that names a format this version reads but
    lacks what a model holds), which no version can use."""


@dataclass
class Tree:
    """One regression tree: node arrays as scikit-learn keeps them (-1 children mark a leaf)."""

    left: np.ndarray
    right: np.ndarray
    feature: np.ndarray
    threshold: np.ndarray
    value: np.ndarray

    def predict(self, x: np.ndarray) -> np.ndarray:
        node = np.zeros(len(x), dtype=np.int64)
        rows = np.arange(len(x))
        # Walk every row down one level per step; a tree of depth d needs d steps.
        while True:
            inner = self.left[node] >= 0
            if not inner.any():
                return self.value[node]
            go_left = x[rows, np.where(inner, self.feature[node], 0)] <= self.threshold[node]
            node = np.where(inner, np.where(go_left, self.left[node], self.right[node]), node)

    def as_dict(self) -> dict[str, list[Any]]:
        return {"left": self.left.tolist(), "right": self.right.tolist(), "feature": self.feature.tolist(),
                "threshold": self.threshold.tolist(), "value": self.value.tolist()}

    @classmethod
    def from_dict(cls, data: dict[str, list[Any]], features: int) -> Tree:
        return trees_from_dicts([data], features)[0]


def trees_from_dicts(datas: list[dict[str, list[Any]]], features: int) -> list[Tree]:
    """Trees read back, checked: a damaged file must fail here, not loop or crash in `predict`. The checks run
    over all the trees' nodes at once (a model holds thousands of small trees)."""
    trees = [Tree(_whole_numbers(d["left"]), _whole_numbers(d["right"]), _whole_numbers(d["feature"]),
                  np.asarray(d["threshold"], dtype=np.float64), np.asarray(d["value"], dtype=np.float64))
             for d in datas]
    sizes = []
    for tree in trees:
        n = len(tree.left)
        if n == 0 or any(len(a) != n or a.ndim != 1 for a in (tree.left, tree.right, tree.feature, tree.threshold,
                                                              tree.value)):
            raise ValueError("a tree's node arrays differ in length")
        sizes.append(n)
    if not trees:
        return trees
    left, right, feature, threshold, value = (np.concatenate([getattr(t, name) for t in trees])
                                              for name in ("left", "right", "feature", "threshold", "value"))
    if not (np.isfinite(threshold).all() and np.isfinite(value).all()):
        raise ValueError("a tree holds a threshold or a value that is not a finite number")
    nodes = np.concatenate([np.arange(n) for n in sizes])  # each node's number within its own tree
    count = np.repeat(sizes, sizes)  # each node's tree's size
    inner = left >= 0
    leaves_agree = ((right >= 0) == inner).all()
    # Children come after their parent (as scikit-learn numbers them), so no walk can loop or leave the tree.
    nodes, count, left, right, feature = nodes[inner], count[inner], left[inner], right[inner], feature[inner]
    bad = not leaves_agree or bool(((left <= nodes) | (right <= nodes) | (left >= count) | (right >= count)
                                    | (feature < 0) | (feature >= features)).any())
    # A tree, not a graph: no node is the child of two (the stack's walk relies on each node having one parent).
    first = np.repeat(np.cumsum([0] + sizes[:-1]), sizes)[inner]
    children = np.concatenate([left + first, right + first])
    bad = bad or len(np.unique(children)) != len(children)
    if bad:
        raise ValueError("a tree's nodes point outside it or to a feature the model does not have")
    return trees


def _whole_numbers(values: Any) -> np.ndarray:
    """Node indices or feature numbers read back: whole numbers only (1.5 would be truncated, silently)."""
    array = np.asarray(values)
    if array.dtype.kind in "iu":  # JSON integers: whole already (the common case, checked cheaply)
        return array.astype(np.int64, copy=False)
    array = np.asarray(values, dtype=np.float64)
    if not np.all(np.isfinite(array) & (array == np.round(array))):
        raise ValueError("a tree's node or feature numbers are not whole numbers")
    return array.astype(np.int64)


class TreeStack:
    """Trees walked all at once: their nodes in flat arrays, so that a prediction takes one numpy step per level
    of the deepest tree for every tree and row together, instead of one per level of every tree (a forest of
    deep trees would otherwise cost hundreds of milliseconds on a large page). The nodes are renumbered level by
    level so that a node's two children are neighbours (the right one is the left one + 1; trees only: a file whose
    nodes share a child is refused on load): a step is then one lookup of the left child plus the comparison's
    outcome. A leaf is its own left child with an infinite
    threshold, so a row that reached its leaf stays there while the others go on down; each tree's leaf values
    are the ones `Tree.predict` gives."""

    def __init__(self, trees: list[Tree]) -> None:
        sizes = [len(t.left) for t in trees]
        shift = np.repeat(np.cumsum([0] + sizes[:-1]), sizes)  # each node's tree's first node in the flat arrays
        left, right, feature, threshold, value = (np.concatenate([getattr(t, name) for t in trees])
                                                  for name in ("left", "right", "feature", "threshold", "value"))
        inner = left >= 0
        left = np.where(inner, left + shift, -1)
        right = np.where(inner, right + shift, -1)
        renumbered = np.empty(len(left), dtype=np.int64)
        placed: list[np.ndarray] = []  # old node numbers in their new order
        level = np.cumsum([0] + sizes[:-1])  # the roots: the first level, numbered 0 to trees - 1
        self.depth = -1  # the longest path's splits
        while len(level):
            renumbered[level] = np.arange(len(level)) + sum(map(len, placed))
            placed.append(level)
            self.depth += 1
            splits = level[inner[level]]
            level = np.column_stack([left[splits], right[splits]]).ravel()  # each node's children side by side
        old = np.concatenate(placed)
        own = np.arange(len(old))
        self.left = np.where(inner[old], renumbered[np.maximum(left[old], 0)], own)
        self.feature = np.where(inner[old], feature[old], 0)
        self.threshold = np.where(inner[old], threshold[old], np.inf)
        self.value = value[old]
        self.roots = np.arange(len(trees))[None, :]

    def values(self, x: np.ndarray) -> np.ndarray:
        """(rows, trees): the leaf value each tree gives each row of `x`."""
        node = np.repeat(self.roots, len(x), axis=0)
        row_starts = (np.arange(len(x)) * x.shape[1])[:, None]
        # scikit-learn compares features as float32 against float64 thresholds: round the same way.
        flat = np.asarray(x, dtype=np.float32).astype(np.float64).ravel()
        # A missing value goes right at a split, as `x <= t` fails for NaN, and stays at a leaf (inf <= inf).
        flat[np.isnan(flat)] = np.inf
        for _ in range(self.depth):
            go_right = ~(flat[row_starts + self.feature[node]] <= self.threshold[node])
            node = self.left[node] + go_right
        return self.value[node]


def _tree_of(fitted: Any, values: np.ndarray) -> Tree:
    """A scikit-learn tree (`estimator.tree_`) as a `Tree`, with these leaf values."""
    return Tree(fitted.children_left.astype(np.int64), fitted.children_right.astype(np.int64),
                fitted.feature.astype(np.int64), fitted.threshold.astype(np.float64), values.astype(np.float64))


class _TreeLearner:
    """What the two kinds of tree learner share: their trees, walked together as one `TreeStack`."""

    trees: list[Tree]

    @cached_property
    def stack(self) -> TreeStack:
        return TreeStack(self.trees)


@dataclass
class Ensemble(_TreeLearner):
    """Boosted trees: P = sigmoid(base + rate * sum of tree values)."""

    base: float
    rate: float
    trees: list[Tree]

    def predict(self, features: np.ndarray) -> np.ndarray:
        if len(features) == 0:
            return np.zeros(0)
        raw = np.full(len(features), self.base)
        for column in self.stack.values(features).T:  # summed tree by tree, in order, as before
            raw += self.rate * column
        # A very unlikely candidate overflows exp to inf, and 1 / (1 + inf) is its right probability, 0.
        with np.errstate(over="ignore"):
            return 1.0 / (1.0 + np.exp(-raw))

    def as_dict(self) -> dict[str, Any]:
        return {"base": self.base, "rate": self.rate, "trees": [t.as_dict() for t in self.trees]}

    @classmethod
    def from_dict(cls, data: dict[str, Any], features: int) -> Ensemble:
        base, rate = float(data["base"]), float(data["rate"])
        if not (math.isfinite(base) and math.isfinite(rate)):
            raise ValueError("an ensemble's base or rate is not a finite number")
        if not data["trees"]:
            raise ValueError("an ensemble without trees")
        return cls(base, rate, trees_from_dicts(data["trees"], features))

    @classmethod
    def from_sklearn(cls, model: Any) -> Ensemble:
        """Convert a fitted binary `GradientBoostingClassifier` (log-loss)."""
        trees = [_tree_of(estimator.tree_, estimator.tree_.value[:, 0, 0]) for estimator in model.estimators_[:, 0]]
        probe = np.zeros((1, model.n_features_in_), dtype=np.float64)
        tree_sum = sum(tree.predict(probe)[0] for tree in trees)
        base = float(model.decision_function(probe)[0] - model.learning_rate * tree_sum)
        return cls(base, float(model.learning_rate), trees)


@dataclass
class Forest(_TreeLearner):
    """A random forest: P = the mean over its trees of the leaf's share of regions of records."""

    trees: list[Tree]

    def predict(self, features: np.ndarray) -> np.ndarray:
        if len(features) == 0:
            return np.zeros(0)
        return self.stack.values(features).mean(axis=1)

    def as_dict(self) -> dict[str, Any]:
        return {"trees": [t.as_dict() for t in self.trees]}

    @classmethod
    def from_dict(cls, data: dict[str, Any], features: int) -> Forest:
        if not data["trees"]:
            raise ValueError("a forest without trees")
        trees = trees_from_dicts(data["trees"], features)
        if any(np.any((t.value < 0) | (t.value > 1)) for t in trees):
            raise ValueError("a forest's leaf holds a share outside 0 to 1")
        return cls(trees)

    @classmethod
    def from_sklearn(cls, model: Any) -> Forest:
        """Convert a fitted binary `RandomForestClassifier`: each leaf keeps its share of the positive class."""
        trees = []
        for estimator in model.estimators_:
            counts = estimator.tree_.value[:, 0, :].astype(np.float64)
            trees.append(_tree_of(estimator.tree_, counts[:, 1] / np.maximum(counts.sum(axis=1), 1e-300)))
        return cls(trees)


@dataclass
class Blend:
    """The mean of the boosted trees' and the forest's probabilities: two learners whose errors differ (boosting
    fits the pages' hard cases closely, the forest averages over deep, decorrelated trees), so their mean swings
    less with the pages a fit saw than either one."""

    boosted: Ensemble
    forest: Forest

    def predict(self, features: np.ndarray) -> np.ndarray:
        return 0.5 * (self.boosted.predict(features) + self.forest.predict(features))

    def as_dict(self) -> dict[str, Any]:
        return {"boosted": self.boosted.as_dict(), "forest": self.forest.as_dict()}


Learner = Ensemble | Blend


def learner_from_dict(data: dict[str, Any], features: int) -> Learner:
    if "forest" in data:
        return Blend(Ensemble.from_dict(data["boosted"], features), Forest.from_dict(data["forest"], features))
    return Ensemble.from_dict(data, features)


FEATURES = {"first": FEATURE_NAMES, "second": FEATURE_NAMES + CONTEXT_NAMES}


@dataclass
class Stages:
    """One member: `first` rates each candidate from its own features; `second` (optional) re-rates it with the
    first stage's view of the page added (`context.context_features`)."""

    first: Learner
    second: Learner | None = None

    def predict(self, pc: PageCandidates, x: np.ndarray) -> np.ndarray:
        p1 = self.first.predict(x)
        if self.second is None or len(x) == 0:
            return p1
        return self.second.predict(np.hstack([x, context_features(pc, p1, x)]))

    def as_dict(self) -> dict[str, Any]:
        return {"first": self.first.as_dict(), "second": self.second.as_dict() if self.second else None}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Stages:
        return cls(_stage(data, "first"), None if data.get("second") is None else _stage(data, "second"))


def _stage(member: dict[str, Any], name: str) -> Learner:
    """A member's stage read back; an entry missing from a damaged file is named with where it is missing."""
    if name not in member:
        raise ValueError(f"it has no {name} stage")
    try:
        return learner_from_dict(member[name], len(FEATURES[name]))
    except KeyError as missing:
        raise ValueError(f"its {name} stage has no {missing.args[0]!r} entry") from None


@dataclass
class SelectorModel:
    """The members' mean probability per candidate; candidates whose probability is at least `threshold` are
    eligible for selection."""

    members: list[Stages]
    threshold: float = 0.5
    provenance: dict[str, Any] = field(default_factory=dict)
    digest: str = ""  # of the file it was read from (names the exact model in run parameters)

    def predict(self, pc: PageCandidates, features: np.ndarray | None = None) -> np.ndarray:
        x = feature_matrix(pc) if features is None else features
        return np.mean([member.predict(pc, x) for member in self.members], axis=0)

    @property
    def stages(self) -> int:
        """How many stages every member has: 1 when training had too few pages, or too few with records, for the
        second stage (training.py), else 2."""
        return min(1 if member.second is None else 2 for member in self.members)

    def trained_digests(self) -> set[str]:
        """The digests of the pages it was trained on (`training.page_digest`), as its provenance lists them."""
        return {str(p.get("digest")) for p in self.provenance.get("pages", []) if isinstance(p, dict)}

    def describe(self) -> list[str]:
        """What a person asks of a model file: what it was trained on and how, in a few lines."""
        p = self.provenance
        pages = [x for x in p.get("pages", []) if isinstance(x, dict)]
        names = listed([f"{x.get('name')}" for x in pages], 10, total=True)
        lines = [f"selector model {self.digest or '(in memory)'}: {p.get('trained_on', 'no provenance recorded')}"]
        if pages:
            lines.append(f"pages, in the order trained on: {names} (each by the digest of its texts and labels; "
                         "`score` names the pages of a run it was trained on; another order gives another model)")
        lines += [f"seed {p.get('seed', '?')}, {len(self.members)} member(s), {self.stages} stage(s), threshold "
                  f"{self.threshold}",
                  f"learner: {p.get('learner', '?')}; second stage from {p.get('second_stage_from', '?')}"]
        config = p.get("config")
        asked = config.get("requested") if isinstance(config, dict) else None
        if isinstance(asked, dict):
            why = config.get("smaller_because")  # training.py records it beside what was asked
            because = f" ({why})" if isinstance(why, str) and why else ""
            lines.append(f"fitted smaller than asked{because}: {asked.get('stages', '?')} stage(s) and "
                         f"{asked.get('bags', '?')} bag(s) asked for")
        if p.get("recordlens"):
            lines.append(f"written by RecordLens {p['recordlens']}")
        return lines

    def to_json(self) -> str:
        return json.dumps({"format": FORMAT, "threshold": self.threshold,
                           "features": {k: list(v) for k, v in FEATURES.items()}, "provenance": self.provenance,
                           "members": [m.as_dict() for m in self.members]}, separators=(",", ":"))

    def save(self, path: str | Path) -> Path:
        """Write the model atomically, with the umask's mode (a model is a shareable file like any output)."""
        from .. import atomic

        if str(path).endswith(".gz"):  # mtime 0: the same model gives the same bytes
            return atomic.write_bytes(path, gzip.compress(self.to_json().encode("utf-8"), mtime=0))
        return atomic.write_text(path, self.to_json())

    @classmethod
    def from_json(cls, text: str, source: str = "model") -> SelectorModel:
        """The model `text` holds; a ModelError naming it `source` (words, or its file as a hint names one) when it
        holds none this version reads."""
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as error:  # also a number too long to read, or nesting too deep
            raise ModelError(f"{source}: not a selector model (invalid JSON: {json_problem(error)})") from None
        if not isinstance(data, dict) or data.get("format") not in FORMATS:
            named = data.get("format") if isinstance(data, dict) else None
            if isinstance(named, str) and named.startswith(FORMAT_FAMILY):
                raise OtherVersionModel(f"{source}: a selector model of format {named!r}, written by another "
                                        f"version of RecordLens (this one reads {', '.join(map(repr, FORMATS))}); "
                                        "train it again with `recordlens train`")
            raise ModelError(f"{source}: not a selector model (expected format {FORMAT!r})")
        if (problem := _features_problem(data)) is not None:
            raise ModelError(f"{source}: a damaged selector model ({problem})")
        if data["features"] != {k: list(v) for k, v in FEATURES.items()}:
            raise OtherVersionModel(f"{source}: the model was trained on other candidate features than this "
                                    "version computes; train it again with `recordlens train`")
        try:
            members = _members(data["members"]) if data["format"] != FORMATS[0] else [Stages.from_dict(data)]
            if not members:
                raise ValueError("no members")
            threshold = checked_threshold(data["threshold"], f"{source}: its threshold")
            return cls(members, threshold, dict(data.get("provenance") or {}))
        except KeyError as missing:
            raise ModelError(f"{source}: a damaged selector model (it has no {missing.args[0]!r} entry)") from None
        except (TypeError, ValueError, OverflowError, AttributeError, RecursionError) as error:
            raise ModelError(f"{source}: a damaged selector model ({error})") from None

    @classmethod
    def load(cls, path: str | Path) -> SelectorModel:
        path = Path(path)
        named = hint_path(path)  # every refusal names the file as a hint does (`project_model` cuts it off)
        try:
            text = _model_bytes(path).decode("utf-8")
        except NotAModelStart as refused:
            raise ModelError(f"{named}: not a selector model ({refused})") from None
        except (EOFError, gzip.BadGzipFile, zlib.error) as error:
            raise ModelError(f"{named}: not a selector model (a damaged gzip file: {error})") from None
        except OSError as error:
            if (inside := model_inside(path)) is not None:  # a project given for its model
                raise ModelError(f"{named} is a folder, not a selector model file (the project's own model is "
                                 f"{hint_path(inside)})") from None
            if isinstance(error, FileNotFoundError) and is_shipped(path):
                raise MissingShippedModel(named) from None
            said = unreadable_kind(path, error, "selector model") or system_words(error)
            raise ModelError(f"{named}: cannot read the model ({said})") from None
        except UnicodeDecodeError:
            raise ModelError(f"{named}: not a selector model (not UTF-8 text)") from None
        if not text:
            raise ModelError(f"{named}: not a selector model (the file is empty)")
        model = cls.from_json(text, named)
        model.digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
        return model


def model_inside(path: Path) -> Path | None:
    """The project's own model when `path` is a project's folder that has one (given where a model file goes)."""
    inside = path / "models" / "selector.json"
    return inside if path.is_dir() and inside.is_file() else None


def _features_problem(data: dict[str, Any]) -> str | None:
    """Why a model's "features" entry is damaged (missing, or not stage names each with its list of feature names),
    None when it is whole: every version wrote it so, so only a whole one that differs from this version's is a
    model of other features, to be trained again, rather than a damaged file."""
    if "features" not in data:
        return "it has no 'features' entry"
    features = data["features"]
    whole = isinstance(features, dict) and bool(features) and all(
        isinstance(names, list) and all(isinstance(name, str) for name in names) for names in features.values())
    return None if whole else "its 'features' entry is not the feature names of each stage"


class NotAModelStart(ValueError):
    """A file whose first bytes show it holds no model's JSON (`_model_bytes`): what they show, as a message says it
    after "not a selector model"."""


def _model_bytes(path: str | Path) -> bytes:
    """A model file's JSON bytes, as written plain or gzip-compressed (the shipped model), read through the guarded
    reader (`open_regular_file`). A file whose first bytes (decompressed) cannot begin a model's JSON raises
    NotAModelStart, the rest neither read nor decompressed: a large file of another kind given as a model is refused
    at once, not read whole first."""
    with open_regular_file(path) as stream:
        gzipped = stream.read(len(GZIP_MAGIC)) == GZIP_MAGIC
        stream.seek(0)
        source = gzip.GzipFile(fileobj=stream, mode="rb") if gzipped else stream
        start = source.read(MODEL_START)
        if (problem := _no_model_start(start)) is not None:
            raise NotAModelStart(problem)
        return start + source.read()


def _no_model_start(start: bytes) -> str | None:
    """Why a file that begins with `start` holds no model's JSON (its bytes are not UTF-8 text, or its first
    character other than white space is not "{"), None when it may."""
    try:  # incremental: a character the start cuts in two is no fault
        text = codecs.getincrementaldecoder("utf-8")().decode(start)
    except UnicodeDecodeError:
        return "not UTF-8 text"  # as a whole file's bytes are said (`SelectorModel.load`)
    first = text.lstrip(" \t\n\r")[:1]  # JSON's white space
    return None if first in ("", "{") else f"it begins with {first!r}, and a model's JSON begins with '{{'"


def is_model_file(path: str | Path) -> bool:
    """Whether the file is a selector model of any version, whether this one can load it or not: JSON, or JSON
    compressed with gzip, whose "format" names a selector model. A model of an older format or feature list is
    refused on load with "train it again", so training must be free to write over it."""
    try:
        document = json.loads(_model_bytes(path))
    except (OSError, EOFError, zlib.error, ValueError, RecursionError):
        # unreadable or not a regular file, a damaged gzip file, not JSON, or not from its start (NotAModelStart)
        return False
    named = document.get("format") if isinstance(document, dict) else None
    return isinstance(named, str) and named.startswith(FORMAT_FAMILY)


def _members(described: list[Any]) -> list[Stages]:
    """The members read back; a damaged one is named by its place (member 3 of 16)."""
    members = []
    for number, member in enumerate(described, 1):
        try:
            members.append(Stages.from_dict(member))
        except (TypeError, ValueError, OverflowError, AttributeError, RecursionError) as error:
            raise ValueError(f"member {number} of {len(described)}: {error}") from None
    return members


def checked_threshold(value: object, what: str) -> float:
    """A probability cut: a finite number from 0 to 1 (NaN would keep every candidate, as no `p < NaN` holds)."""
    try:
        threshold = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise ModelError(f"{what} must be a number from 0 to 1 (got {value!r})") from None
    if not 0.0 <= threshold <= 1.0:  # False for NaN too
        raise ModelError(f"{what} must be a number from 0 to 1 (got {value!r})")
    return threshold
