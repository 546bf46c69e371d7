"""`agreement` lists the matched records whose XPaths differ: a pair of the same text (overlap 1) is one record to
the score, other labels once exported; a pair matched below overlap 1 (`--threshold 0.2`: a pair at 0.20) shares
only part of its text and counts by its overlap, and is said apart, not under the words of the same text. Found at
`--threshold 0.2`: a pair at overlap 0.20 was listed as "one record to the score"."""

from __future__ import annotations

from pathlib import Path

from recordlens.core.cli.command import main
from tests.core.two_annotators import one_page_labelled_twice

# div 1 holds five texts, div 2 one
PAGE = ("<html><body><div>" + "".join(f"<p>text {k}</p>" for k in range(1, 6)) + "</div><div><p>alone</p></div>"
        "</body></html>")
OURS = [["/body[1]/div[1]"], ["/body[1]/div[2]"]]
THEIRS = [["/body[1]/div[1]/p[1]"], ["/body[1]/div[2]/p[1]"]]  # 1/5 of div 1's text; all of div 2's


def test_a_pair_matched_below_overlap_one_is_not_said_to_be_the_same_text(tmp_path: Path, capsys) -> None:
    one_page_labelled_twice(tmp_path, PAGE, OURS, THEIRS).close()
    args = ["agreement", "--project", str(tmp_path / "p"), "--between", "project", "bea", "-q", "--threshold", "0.2"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert ("matched records with other XPaths (one record to the score, other labels once exported): page 1 (1)\n"
            "matched records with other XPaths and only part of their text in common (paired at overlap 0.2 or more, "
            "below 1: each counts by its overlap to the score): page 1 (1)\n") in out
    assert "  other XPaths (overlap 0.20)  A1: /body[1]/div[1]  |  B1: /body[1]/div[1]/p[1]\n" in out
    assert main(args[:-2]) == 0  # at the default threshold the pair at 0.20 disagrees: only the same text is listed
    out = capsys.readouterr().out
    assert "only part of their text" not in out
    assert "matched records with other XPaths (one record to the score, other labels once exported): page 1 (1)\n" \
        in out
