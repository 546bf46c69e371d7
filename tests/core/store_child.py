"""A child process for the store's crash and concurrency tests: applies random label edits to one page of a
project and prints `HISTORY_ID ACTION` for each edit as soon as its transaction has committed.

Usage: python -m tests.core.store_child PROJECT PAGE EDITS SEED [GO_FILE [OTHER_PAGE]]
With GO_FILE it prints `ready` once the project is open and waits for that file before editing, so that
two children start writing at the same moment. With OTHER_PAGE too, after its first edit it says so (the file
GO_FILE.PAGE) and waits for the child editing OTHER_PAGE to say the same: the two children's edits then
interleave for certain, however the machine schedules them (a child's edits take a fraction of a second).
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

from recordlens.core.store.project import Change, Label, Project, Provenance, open_project

PERSON = Provenance.person("crash-test")
EXTRACTOR = Provenance.extractor("random", "1", "flat", seed=0)
MAX_RECORDS = 40


def random_edit(project: Project, page: str, rng: random.Random, labels: list[Label]) -> Change:
    """One random edit of the page, whose records are `labels` (as the last change left them)."""
    xpath = f"/body[1]/div[{rng.randint(1, 9)}]/span[{rng.randint(1, 99)}]"
    choices = ["add", "accept", "reject", "edit", "delete", "merge", "split"] if labels else ["add"]
    if len(labels) > MAX_RECORDS:
        choices = ["delete", "merge"]
    action = rng.choice(choices)
    label = rng.choice(labels) if labels else None
    if action == "add":
        return project.add_records(page, [[xpath, xpath + "/b[1]"]] * rng.randint(1, 3), EXTRACTOR)
    assert label is not None
    if action == "accept":
        return project.accept(label.id, PERSON)
    if action == "reject":
        return project.reject(label.id, PERSON)
    if action == "edit":
        return project.edit(label.id, [*label.xpaths, xpath], PERSON)
    if action == "merge" and len(labels) > 1:
        return project.merge([label.id, rng.choice([x for x in labels if x.id != label.id]).id], PERSON)
    if action == "split" and len(label.xpaths) > 1:
        cut = rng.randint(1, len(label.xpaths) - 1)
        return project.split(label.id, [label.xpaths[:cut], label.xpaths[cut:]], PERSON)
    return project.delete(label.id, PERSON)


def main(argv: list[str]) -> int:
    folder, page, edits, seed = argv[0], argv[1], int(argv[2]), int(argv[3])
    go_file = Path(argv[4]) if len(argv) > 4 else None
    other = argv[5] if len(argv) > 5 else None
    rng = random.Random(seed)
    with open_project(folder) as project:
        if go_file is not None:
            print("ready", flush=True)
            while not go_file.exists():
                time.sleep(0.001)
        made = 0
        # The page's records, kept up to date from each change's before and after (reading them all back after
        # every edit took most of the child's time; the parent checks the stored records against the history).
        labels = project.labels(page)
        while made < edits:
            change = random_edit(project, page, rng, labels)
            gone = {label.id for label in change.before}
            labels = [label for label in labels if label.id not in gone] + list(change.after)
            if change.id is None:
                continue  # a no-op (rejecting a rejected record) is not an edit: nothing was stored
            made += 1
            # Printed only after the commit returned: a line on stdout is an acknowledged edit.
            print(change.id, change.action, flush=True)
            if made == 1 and go_file is not None and other is not None:
                _meet(go_file, page, other)
    return 0


def _meet(go_file: Path, page: str, other: str, patience_s: float = 120.0) -> None:
    """Say this child made its first edit, and wait until the other child has made its own."""
    go_file.with_name(f"{go_file.name}.{page}").touch()
    deadline = time.monotonic() + patience_s
    while not go_file.with_name(f"{go_file.name}.{other}").exists() and time.monotonic() < deadline:
        time.sleep(0.001)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
