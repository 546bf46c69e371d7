"""The words for decisions on another annotator's labels (T, Shift+T and O in the Review tab), one home for
the status bar, the undo names and History, so that one decision goes by one name everywhere."""

from __future__ import annotations


def take(name: str) -> str:
    """T on a record only they made."""
    return f"take {name}'s record"


def take_version(name: str) -> str:
    """T on a pair: their version of the project's record."""
    return f"take {name}'s version of the record"


def accept_rejected(name: str) -> str:
    """T on a record the project had rejected that `name` made."""
    return f"accept the project's rejected record as {name}'s"


def accept_proposed(name: str) -> str:
    """T on a record of `name`'s that the page holds as a proposal (or a proposal covering its text)."""
    return f"accept the project's proposed record as {name}'s"


def accepting_proposed(records: str) -> str:
    """How take-all takes the records of theirs the page holds as proposals, as T does (`accept_proposed`): "by
    accepting the project's proposed record 3" (`records`: "record 3", "records 3, 5")."""
    return f"by accepting the project's proposed {records}"


def keep(name: str) -> str:
    """O: the project's version kept over theirs."""
    return f"keep the project's version over {name}'s"


def delete(name: str) -> str:
    """T on a record only the project made."""
    return f"delete the record {name} did not make"


def merge(name: str) -> str:
    """Shift+T: their record's elements added to the project's."""
    return f"merge {name}'s record into the project's"


def decided(taken: int = 0, deleted: int = 0, merged: int = 0, kept: int = 0) -> str:
    """How the disagreements with an annotator were decided, each as it was: "2 taken, 1 deleted, 1 merged
    (Shift+T), 1 kept (O)" (the parts there are; T takes or deletes, take-all takes)."""
    parts = [f"{taken} taken"] if taken else []
    parts += [f"{deleted} deleted"] if deleted else []
    parts += [f"{merged} merged (Shift+T)"] if merged else []
    parts += [f"{kept} kept (O)"] if kept else []
    return ", ".join(parts)
