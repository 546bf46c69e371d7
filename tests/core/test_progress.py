"""The progress bar on stderr: redrawn in place on a terminal, a line now and then elsewhere, full at the end."""

from __future__ import annotations

import io

from recordlens.core.runs.progress import ProgressBar, progress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_on_a_terminal_the_bar_is_redrawn_in_place_and_ends_its_line() -> None:
    out = Terminal()
    assert list(progress(["a", "b"], label="pages", stream=out)) == ["a", "b"]
    assert out.getvalue() == ("\rpages [###############...............] 1/2"
                              "\rpages [##############################] 2/2\n")


def test_elsewhere_a_line_is_written_at_the_end_and_not_for_every_item() -> None:
    out = io.StringIO()
    list(progress(range(50), label="pages", stream=out))
    lines = out.getvalue().splitlines()
    assert lines[-1] == "pages [##############################] 50/50" and len(lines) <= 2


def test_a_count_said_twice_is_drawn_once_and_finish_fills_the_bar() -> None:
    out = Terminal()
    bar = ProgressBar("fits", stream=out)
    for done in (0, 0, 0, 1, 1):
        bar.update(done, 4)
    bar.finish()
    assert out.getvalue() == ("\rfits [..............................] 0/4\rfits [#######.......................] 1/4"
                              "\rfits [##############################] 4/4\n")


def test_a_disabled_bar_writes_nothing() -> None:
    out = Terminal()
    bar = ProgressBar("fits", stream=out, enabled=False)
    bar.update(1, 2)
    bar.finish()
    assert out.getvalue() == ""
