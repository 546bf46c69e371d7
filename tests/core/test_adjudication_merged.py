"""Shift+T's merged record (`Adjudication.merged`): both versions' XPaths, each once, none that an ancestor XPath of
the record already covers (explorers' report: `li[1]` merged with `li[1]/b[1]` and `li[1]/span[1]` was stored as
three elements for one)."""

from __future__ import annotations

from recordlens.core.store.adjudication import Adjudication

LI = "/body[1]/ul[1]/li[1]"


def test_xpaths_inside_another_of_the_record_are_left_out():
    assert Adjudication.merged([LI], [f"{LI}/b[1]", f"{LI}/span[1]"]) == [LI]
    assert Adjudication.merged([f"{LI}/b[1]"], [LI]) == [LI]  # theirs holds the project's: theirs alone


def test_each_xpath_once_in_any_spelling_the_project_s_first():
    other = "/body[1]/ul[1]/li[2]"
    assert Adjudication.merged([LI, other], ["/html[1]/body/ul/li[2]", f"{other}/b[1]", "/body[1]/p[1]"]) == [
        LI, other, "/body[1]/p[1]"]


def test_a_sibling_whose_name_starts_alike_is_not_inside():
    assert Adjudication.merged([f"{LI}/b[1]"], [f"{LI}/b[10]"]) == [f"{LI}/b[1]", f"{LI}/b[10]"]
