"""What a training says of its progress, as the app's Learn and `train` show it: the phase and its count, one
share of the whole that never goes back, and the time left at the fits' rate once a few are done."""

from __future__ import annotations

import gc
import weakref

from recordlens.core.extract.training_progress import (
    PREPARING_SHARE,
    TrainingProgress,
    duration_said,
    examples_kept_apart,
)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_the_phase_and_its_count_are_said() -> None:
    shown = TrainingProgress(clock=Clock())
    shown.preparing(512, 1040)
    assert shown.words == "preparing pages 512/1,040"
    shown.fitting(6, 80)
    assert shown.words.startswith("fitting 6/80")


def test_the_share_never_goes_back_from_the_pages_to_the_fits() -> None:
    shown = TrainingProgress(clock=Clock())
    shares = []
    for done in range(0, 11):
        shown.preparing(done, 10)
        shares.append(shown.share)
    for done in range(0, 81):
        shown.fitting(done, 80)
        shares.append(shown.share)
    shown.comparing(0, 5)
    shares.append(shown.share)
    assert shares == sorted(shares)
    assert shares[10] == PREPARING_SHARE and shares[-1] == 1.0


def test_the_time_left_comes_from_the_fits_rate_once_a_few_are_done() -> None:
    clock = Clock()
    shown = TrainingProgress(clock=clock)
    shown.preparing(1040, 1040)
    clock.now += 180
    shown.fitting(0, 80)
    clock.now += 60
    shown.fitting(2, 80)
    assert shown.time_left == "" and shown.words == "fitting 2/80"  # two fits are too few to tell
    clock.now += 30 * 60  # 6 fits in 31 min: about 5.2 min each, 74 to go
    shown.fitting(6, 80)
    assert shown.words == "fitting 6/80, about 6 h 20 min left"
    clock.now += 3 * 60 * 60
    shown.fitting(70, 80)  # 70 fits in 211 min: about 3 min each, 10 to go
    assert shown.words == "fitting 70/80, about 30 min left"
    shown.fitting(80, 80)
    assert shown.time_left == ""


def test_durations_are_said_as_estimates() -> None:
    assert duration_said(20) == "under a minute"
    assert duration_said(40 * 60 + 10) == "about 40 min"
    assert duration_said(2 * 3600 + 8 * 60) == "about 2 h 10 min"
    assert duration_said(3600 + 2 * 60) == "about 1 h"


def test_what_is_kept_apart_is_freed_when_let_go_and_collected_again_after() -> None:
    class Held:
        pass

    with examples_kept_apart() as settle:
        held = Held()
        ref = weakref.ref(held)
        settle()
        assert gc.get_freeze_count() > 0
        del held
        assert ref() is None  # frozen objects are still freed as their last reference goes
    assert gc.get_freeze_count() == 0
