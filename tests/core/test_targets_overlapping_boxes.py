"""Agreement counted a click on row 106 of a list as the reference's click on row 120 because both boxes were at
the same viewport place (the agent's view was scrolled otherwise): `targets_match` fell through the XPath, the
name and the text to box overlap, which then singled out the other row. And `find_target` let a box alone name
an element whose XPath, name and text all differ from the target's, which made replay click the wrong row."""

from __future__ import annotations

from recordlens.core.agent.targets import Target, find_target, targets_match

BOX = (48.0, 869.88, 141.25, 19.0)
ROW_120 = Target(label=47, xpath="/body[1]/ol[1]/li[120]/a[1]", text="Item number 120", role="link",
                 name="Item number 120", bbox=BOX)
ROW_106 = Target(label=12, xpath="/body[1]/ol[1]/li[106]/a[1]", text="Item number 106", role="link",
                 name="Item number 106", bbox=BOX)


def test_two_rows_at_the_same_place_are_not_the_same_element() -> None:
    assert not targets_match(ROW_120, ROW_106)
    assert not targets_match(ROW_106, ROW_120)


def test_the_same_element_still_matches_by_xpath_or_by_its_words_when_the_xpath_drifted() -> None:
    assert targets_match(ROW_120, Target(xpath=ROW_120.xpath, bbox=(0, 0, 5, 5)))
    drifted = Target(xpath="/body[1]/div[1]/ol[1]/li[120]/a[1]", text="item number  120", role="link",
                     name="Item Number 120", bbox=(48, 40, 141, 19))
    assert targets_match(ROW_120, drifted)
    assert not targets_match(ROW_120, Target(xpath=drifted.xpath, text="Item number 120", role="link",
                                             name="Details"))


def test_targets_known_by_their_box_alone_still_match_by_box() -> None:
    assert targets_match(Target(bbox=BOX), Target(bbox=(49, 870, 140, 19)))
    assert not targets_match(Target(bbox=BOX), Target(bbox=(48, 10, 140, 19)))


def test_a_box_alone_never_names_an_element_whose_other_identities_differ() -> None:
    assert find_target(ROW_120, [ROW_106]) is None
    assert find_target(Target(bbox=BOX), [ROW_106]) is ROW_106  # a target known by its box alone
    # Among the elements its text names, the box still chooses.
    twin = Target(xpath="/body[1]/p[1]/a[1]", text="Item number 120", bbox=(48, 10, 141, 19))
    assert find_target(Target(text="Item number 120", bbox=BOX), [twin, ROW_120]) is ROW_120
