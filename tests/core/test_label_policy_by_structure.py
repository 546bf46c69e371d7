"""`labels check` judges page chrome by the page's structure, and a record's place in it by its text.

Two faults of the tag-only judgement: a footer of link columns made of `div`s (at the page's end, beside the
main content, mostly links) was not page chrome, so a page whose labels count its links was not told apart from
the others; and one image inside a `nav`, named by a record beside a card's texts, made that record, and so the
whole page, "label page chrome". The pages here are made for the test."""

from __future__ import annotations

from pathlib import Path

from recordlens.core.cli.command import main as cli_main
from recordlens.core.page.chrome import PageChrome
from recordlens.core.page.dom import parse_html
from recordlens.core.records.hygiene import check_page, summarise
from recordlens.core.records.model import save_records

ITEMS = ("<div class='{item}'><h3>Spade</h3><p>Steel blade and an ash handle, 12.00</p></div>"
         "<div class='{item}'><h3>Rake</h3><p>Fourteen tines, a long handle, 9.50</p></div>"
         "<div class='{item}'><h3>Hoe</h3><p>Forged head for weeding the beds, 7.25</p></div>")


def shop(top: str = "top", content: str = "content", item: str = "item", bottom: str = "footer") -> str:
    """A shop page laid out in `div`s only: a menu of links, the items, and a footer of two link columns."""
    return ("<html><body>"
            f"<div class='{top}'><a href='/'>Home</a> <a href='/tools'>Tools</a> <a href='/help'>Help</a></div>"
            f"<div class='{content}'><h1>Garden tools</h1>{ITEMS.format(item=item)}</div>"
            f"<div class='{bottom}'><div><a href='/a'>About us</a><a href='/c'>Careers</a><a href='/p'>Press</a>"
            "</div><div><a href='/r'>Returns</a><a href='/s'>Shipping</a><a href='/k'>Contact</a></div>"
            "<p>Tools Ltd.</p></div></body></html>")


RECORDS = [[f"/body[1]/div[2]/div[{i}]"] for i in (1, 2, 3)]
FOOTER_LINKS = [[f"/body[1]/div[3]/div[{c}]/a[{i}]"] for c in (1, 2) for i in (1, 2, 3)]


def test_a_footer_of_link_columns_made_of_divs_is_page_chrome() -> None:
    page = parse_html(shop())
    assert check_page("3", page, [*RECORDS, *FOOTER_LINKS]).in_chrome == [4, 5, 6, 7, 8, 9]
    assert check_page("3", page, [["/body[1]/div[1]/a[2]"]]).includes_chrome  # the menu at the page's start
    assert not check_page("1", page, RECORDS).includes_chrome


def test_a_page_that_labels_its_div_footer_differs_from_the_majority() -> None:
    page = parse_html(shop())
    checks = [check_page("1", page, RECORDS), check_page("2", page, RECORDS),
              check_page("3", page, [*RECORDS, *FOOTER_LINKS])]
    report = summarise(checks)
    assert report.majority_includes_chrome is False and report.policy_outliers == ["3"]


def test_class_words_decide_nothing() -> None:
    """The same page with its classes named otherwise, and with a content block whose class says footer."""
    for classes in ({"top": "x1", "content": "x2", "item": "x3", "bottom": "x4"},
                    {"top": "footer", "content": "footer nav", "item": "menu", "bottom": "main"}):
        page = parse_html(shop(**classes))
        assert check_page("3", page, [*RECORDS, *FOOTER_LINKS]).in_chrome == [4, 5, 6, 7, 8, 9]
        assert not check_page("1", page, RECORDS).includes_chrome


NAV_PAGE = ("<html><body><nav><a href='/'><img src='logo.png' alt='Tools'></a> <a href='/tools'>Tools</a> "
            "<a href='/help'>Help</a></nav><main>" + ITEMS.format(item="item") + "</main></body></html>")
CARDS = [[f"/body[1]/main[1]/div[{i}]"] for i in (1, 2, 3)]


def test_one_image_inside_a_nav_does_not_make_a_page_label_chrome() -> None:
    page = parse_html(NAV_PAGE)
    with_image = [CARDS[0] + ["/body[1]/nav[1]/a[1]/img[1]"], *CARDS[1:]]  # a card and the menu's logo
    assert not check_page("3", page, with_image).includes_chrome
    assert not check_page("4", page, [*CARDS, ["/body[1]/nav[1]/a[1]/img[1]"]]).includes_chrome  # the image alone
    with_link = [CARDS[0] + ["/body[1]/nav[1]/a[2]"], *CARDS[1:]]  # a card and one short link of the menu
    assert not check_page("7", page, with_link).includes_chrome
    checks = [check_page("1", page, CARDS), check_page("2", page, CARDS), check_page("3", page, with_image)]
    assert summarise(checks).policy_outliers == []
    # The menu's links themselves are chrome, and so is a record made mostly of them
    assert check_page("5", page, [*CARDS, ["/body[1]/nav[1]/a[2]"], ["/body[1]/nav[1]/a[3]"]]).in_chrome == [4, 5]
    assert check_page("6", page, [["/body[1]/nav[1]"]]).includes_chrome


def test_the_main_content_is_never_chrome_though_it_is_all_links() -> None:
    """A page whose records are links (a list of headlines after a short introduction), and a list of records
    laid out as blocks alike, one of them all links."""
    links = "".join(f"<li><a href='/{i}'>Headline number {i} of the day</a></li>" for i in range(1, 9))
    page = parse_html(f"<html><body><div><p>Today's news, as sent in by readers.</p></div><ul>{links}</ul>"
                      "</body></html>")
    assert not PageChrome(page).keys
    blocks = "".join(f"<div class='item'><h3>Item {i}</h3><p>About item {i}, at length.</p></div>" for i in range(3))
    page = parse_html(f"<html><body><div>{blocks}<div class='item'><a href='/x'>Item x</a></div></div></body></html>")
    assert not PageChrome(page).keys


def test_outside_main_a_footer_of_links_is_chrome_however_long() -> None:
    columns = "".join(f"<div><a href='/{i}'>A footer link with a long name {i}</a></div>" for i in range(40))
    page = parse_html(f"<html><body><main>{ITEMS.format(item='item')}</main><div>{columns}</div></body></html>")
    assert check_page("p", page, [["/body[1]/div[1]/div[1]/a[1]"]]).includes_chrome
    assert not check_page("p", page, CARDS).includes_chrome


def test_the_command_names_the_page_that_labels_its_div_footer(tmp_path: Path, capsys) -> None:
    (tmp_path / "html").mkdir()
    for name, records in (("1", RECORDS), ("2", RECORDS), ("3", [*RECORDS, *FOOTER_LINKS])):
        (tmp_path / "html" / f"{name}.html").write_text(shop(), encoding="utf-8")
        save_records(tmp_path / "gt" / f"{name}.json", records)
    assert cli_main(["labels", "check", "--pages", str(tmp_path / "html"), "--gt", str(tmp_path / "gt")]) == 0
    out = capsys.readouterr().out
    assert ("page 3: labels page chrome (navigation, header, footer, aside), unlike most pages: 6 of 9 records "
            "(4, 5, 6, 7, 8, ...)") in out


def test_a_card_s_own_header_in_a_list_of_cards_is_not_page_chrome() -> None:
    cards = "".join(f"<li><header><b>Seller {i}</b> <span>2 days ago</span></header><p>Lamp number {i}</p>"
                    f"<footer>{i} likes</footer></li>" for i in (1, 2, 3))
    page = parse_html(f"<html><body><header><a href='/'>Home</a></header><div><ul>{cards}</ul></div></body></html>")
    records = [[f"/body[1]/div[1]/ul[1]/li[{i}]"] for i in (1, 2, 3)]
    assert not check_page("p", page, records).includes_chrome
    assert check_page("p", page, [*records, ["/body[1]/header[1]/a[1]"]]).in_chrome == [4]  # the page's own header
