"""A page of forms, and what using them reaches, as QtWebEngine reaches it: what the text browser's and the Qt
browser's tests of form submission share (tests/core/test_text_browser_forms.py, tests/app/test_qt_browser_forms.py).

Each case opens the page afresh, takes its actions on elements named by their accessible name, and ends on a URL
(the page's own when nothing was submitted). The URLs were read from the Qt browser, and hold only characters QUrl
shows as they are sent (no `~`, nothing outside ASCII: the Qt browser shows those decoded)."""

from __future__ import annotations

from pathlib import Path

from recordlens.core.agent.actions import Step
from recordlens.core.agent.model import Observation
from recordlens.core.agent.sites import Site, build_site
from recordlens.core.agent.targets import Target
from recordlens.core.page.mhtml_writer import write_mhtml

HOME = "https://forms.example.org/shop/index.html"
BASE = "https://forms.example.org/catalogue/"  # the page's <base>: its forms and links are resolved against it
NOT_SENT = "&".join(("q=tea", "h=x+y", "c1=on", "c2=v2", "r=b", "s1=one", "s2=S2c", "s3=M1", "s3=m3", "s6=K1",
                     "t=line1%0D%0Aline2", "lg=2", "n=", "rg=50", "col=%23000000", "em=a%40b.c", "fl=", "bog=odd",
                     "sym=a*b-c_d.e%21f%27g%28h%29+i%2Bj%26k%3Dl%2Fm%3Fn", "cm=", "pc="))
PAGE = """<!DOCTYPE html><html><head><meta charset="utf-8"><title>Forms</title>
<base href="https://forms.example.org/catalogue/"></head><body>
<form action="results?old=1#top" method="get" id="f1">
  <label>Search <input name="q" value="tea"></label>
  <input type="hidden" name="h" value="x y">
  <input aria-label="Unnamed" value="lost"> <input name="" aria-label="Empty name" value="lost too">
  <label><input type="checkbox" name="c1" checked> New</label> <label><input type="checkbox" name="c2" value="v2"
  checked> Used</label> <label><input type="checkbox" name="c3"> Refurbished</label>
  <label><input type="radio" name="r" value="a" checked> Any</label> <label><input type="radio" name="r" value="b"
  checked> Today</label> <label><input type="radio" name="r" value="c"> This week</label>
  <select aria-label="Sort" name="s1"><option disabled>Pick one</option><option value="one">One</option>
    <option>  Two   words </option></select>
  <select aria-label="Size" name="s2"><optgroup label="g" disabled><option>G1</option></optgroup>
    <option selected>S2b</option>
    <option selected>S2c</option></select>
  <select aria-label="Colours" name="s3" multiple><option selected>M1</option><option>M2</option>
    <option selected value="m3">M3</option><option selected disabled>M4</option></select>
  <select aria-label="Brand" name="s4" size="3"><option>Z1</option><option>Z2</option></select>
  <select aria-label="Shop" name="s5" disabled><option>X</option></select>
  <select aria-label="Region" name="s6"><optgroup label="k"><option>K1</option></optgroup></select>
  <textarea name="t" aria-label="Note">line1
line2</textarea>
  <fieldset disabled><label>Gift code <input name="fd" value="1"></label>
    <legend><label>Legend field <input name="lg" value="2"></label></legend></fieldset>
  <label>Off <input name="dis" value="d" disabled></label>
  <label>Quantity <input type="number" name="n" value="abc"></label>
  <label>Price <input type="range" name="rg"></label>
  <label>Colour <input type="color" name="col"></label>
  <label>E-mail <input type="email" name="em" value="  a@b.c "></label>
  <label>Photo <input type="file" name="fl"></label>
  <label>Odd type <input type="bogus" name="bog" value="odd"></label>
  <label>Symbols <input name="sym" value="a*b-c_d.e!f'g(h) i+j&amp;k=l/m?n"></label>
  <textarea name="cm" placeholder="Say something"></textarea>
  <input name="pc" placeholder="e.g. 1000">
  <input type="submit" name="go" value="Go">
  <input type="submit" name="go2" aria-label="Plain submit">
  <button name="b3" value="bv">More</button>
  <button type="button" name="b4" value="no">Nothing</button>
  <button name="b5" value="g" type="garbage">Odd button</button>
  <input type="reset" name="rs">
</form>
<label>Outside <input name="outside" value="o" form="f1"></label>

<form action="two"><input name="a" aria-label="Two A"><input name="b" aria-label="Two B"></form>
<form action="one"><input name="a" aria-label="One A"><input type="checkbox" name="b" aria-label="One box">
  <input type="date" name="d" aria-label="One date"></form>
<form action="off"><input name="a" aria-label="Off A"><input type="submit" value="Off" disabled>
  <input type="submit" value="On"></form>
<form action="r4"><input name="a" readonly value="ro" aria-label="Reference">
  <input name="m" maxlength="3" aria-label="Code"><button formaction="/other" name="fa" value="1">Elsewhere</button>
  <button formmethod="post" name="fm" value="1">Post it</button></form>
<form action="post?k=v" method="post"><input name="a" value="p" aria-label="Posted">
  <input type="submit" value="Send post">
</form>
<form action="dialog" method="dialog"><input name="a" value="d" aria-label="Dialog"><input type="submit" value="Close">
</form>
<a href="javascript:void(0)">Script link</a> <a href="../shop/index.html#top">Top of this page</a>
<a href="rel">Relative link</a>
<form action="image"><input type="image" name="im" alt="Image named" width="40" height="20">
  <input type="image" alt="Image unnamed" width="40" height="20"></form>
<form action="latin" accept-charset="iso-8859-1"><input name="a" value="&#233;&#8364;&#10003;" aria-label="Latin">
  <input type="submit" value="Send latin"></form>
<form action="charset"><input name="e" aria-label="Charset field"><input type="hidden" name="_charset_">
  <input name="f" dirname="f.dir" value="x" aria-label="Directed"><input type="submit" value="Send charset"></form>
<form action="needs"><input name="a" aria-label="Needs A"><input name="b" required aria-label="Needs B">
  <input type="submit" value="Needs go"></form>
<form action="lax" novalidate><input name="a" aria-label="Lax A"><input name="b" required aria-label="Lax B">
  <input type="submit" value="Lax go"></form>
<form action="skip"><input name="a" aria-label="Skip A"><input name="b" required aria-label="Skip B">
  <input type="submit" value="Skip go" formnovalidate></form>
<form action="steps"><input type="number" name="n" min="2" max="10" step="2" aria-label="Even"></form>
<form action="mail"><input type="email" name="e" aria-label="Mail"></form>
<form action="pattern"><input name="p" pattern="[a-z]+" aria-label="Lower case"></form>
<form action="short"><input name="m" minlength="4" aria-label="Four or more"></form>
<form action="pick"><select name="s" required aria-label="Pick"><option value="">Pick</option><option>A</option>
  </select><input name="x" aria-label="Pick text"><input type="submit" value="Pick go"></form>
<form action="agree"><input type="checkbox" name="c" required aria-label="Agree">
  <input name="x" aria-label="Agree text">
  <input type="submit" value="Agree go"></form>
<form action="fixed"><input name="x" aria-label="Fixed text"><input name="r" required readonly aria-label="Fixed">
  <input type="submit" value="Fixed go"></form>
<form action="badmail"><input name="x" aria-label="Badmail text"><input type="email" name="e" value="bad"
  aria-label="Bad mail"><input type="submit" value="Badmail go"></form>
</body></html>"""

# (what it shows, [(action, element name, value)], the URL reached)
CASES = [
    ("Enter submits by the first submit button, which is sent; every other button is not",
     [("type", "Search", "kettle")],
     BASE + "results?" + NOT_SENT.replace("q=tea", "q=kettle") + "&go=Go&outside=o#top"),
    ("a button element sends its value", [("click", "More", None)],
     BASE + "results?" + NOT_SENT + "&b3=bv&outside=o#top"),
    ("a submit input without a value sends Chromium's label", [("click", "Plain submit", None)],
     BASE + "results?" + NOT_SENT + "&go2=Submit&outside=o#top"),
    ("a button of an unknown type submits", [("click", "Odd button", None)],
     BASE + "results?" + NOT_SENT + "&b5=g&outside=o#top"),
    ("clicks check and uncheck boxes and choose a radio button",
     [("click", "Refurbished", None), ("click", "New", None), ("click", "This week", None), ("click", "More", None)],
     BASE + "results?" + NOT_SENT.replace("c1=on&c2=v2&r=b", "c2=v2&c3=on&r=c") + "&b3=bv&outside=o#top"),
    ("reset brings back the markup's state",
     [("click", "Refurbished", None), ("type", "Note", "hello"), ("click", "Reset", None), ("click", "More", None)],
     BASE + "results?" + NOT_SENT + "&b3=bv&outside=o#top"),
    ("Enter in a text area is a new line, sent as CRLF",
     [("type", "Note", "hello"), ("click", "More", None)],
     BASE + "results?" + NOT_SENT.replace("line1%0D%0Aline2", "hello%0D%0A") + "&b3=bv&outside=o#top"),
    ("a number field takes a number", [("type", "Quantity", "12")],
     BASE + "results?" + NOT_SENT.replace("n=&", "n=12&") + "&go=Go&outside=o#top"),
    ("a number field given no number stops the form", [("type", "Quantity", "kettle")], HOME),
    ("a field of an unknown type is a text field", [("type", "Odd type", "x")],
     BASE + "results?" + NOT_SENT.replace("bog=odd", "bog=x") + "&go=Go&outside=o#top"),
    ("a text area sends what was typed, never its placeholder",
     [("type", "Say something", "hi"), ("click", "More", None)],
     BASE + "results?" + NOT_SENT.replace("cm=", "cm=hi%0D%0A") + "&b3=bv&outside=o#top"),
    ("a type=button button does nothing", [("click", "Nothing", None)], HOME),
    ("Enter with two text fields and no submit button does nothing", [("type", "Two A", "x")], HOME),
    ("Enter with one text field and no submit button submits", [("type", "One A", "x")],
     BASE + "one?a=x&d="),
    ("Enter does nothing when the first submit button is disabled", [("type", "Off A", "x")], HOME),
    ("a read-only field keeps its value; a button's formaction", [("type", "Reference", "x")],
     "https://forms.example.org/other?a=ro&m=&fa=1"),
    ("maxlength cuts what is typed", [("type", "Code", "longer")], "https://forms.example.org/other?a=ro&m=lon&fa=1"),
    ("a formmethod=post button goes to the action URL", [("click", "Post it", None)], BASE + "r4"),
    ("a POST form goes to its action URL as it is", [("click", "Send post", None)], BASE + "post?k=v"),
    ("a dialog form goes nowhere", [("click", "Close", None)], HOME),
    ("a script link goes nowhere", [("click", "Script link", None)], HOME),
    ("a link to a place on this page stays on it", [("click", "Top of this page", None)], HOME),
    ("a link is resolved against the page's <base>", [("click", "Relative link", None)], BASE + "rel"),
    ("an image button sends where it was clicked", [("click", "Image named", None)], BASE + "image?im.x=20&im.y=10"),
    ("an image button without a name too", [("click", "Image unnamed", None)], BASE + "image?x=20&y=10"),
    ("accept-charset=iso-8859-1 sends windows-1252, the rest as character references",
     [("click", "Send latin", None)], BASE + "latin?a=%E9%80%26%2310003%3B"),
    ("_charset_ and dirname", [("type", "Charset field", "e")], BASE + "charset?e=e&_charset_=UTF-8&f=x&f.dir=ltr"),
    ("a required field left empty stops the form", [("type", "Needs A", "a")], HOME),
    ("a required field filled lets it go", [("type", "Needs B", "b")], BASE + "needs?a=&b=b"),
    ("novalidate", [("type", "Lax A", "a")], BASE + "lax?a=a&b="),
    ("formnovalidate", [("type", "Skip A", "a")], BASE + "skip?a=a&b="),
    ("a number off its steps stops the form", [("type", "Even", "3")], HOME),
    ("a number on its steps goes", [("type", "Even", "4")], BASE + "steps?n=4"),
    ("a number above max stops the form", [("type", "Even", "12")], HOME),
    ("an e-mail that is none stops the form", [("type", "Mail", "bad")], HOME),
    ("an e-mail goes", [("type", "Mail", "a@b")], BASE + "mail?e=a%40b"),
    ("a pattern not matched stops the form", [("type", "Lower case", "ABC")], HOME),
    ("a pattern matched goes", [("type", "Lower case", "abc")], BASE + "pattern?p=abc"),
    ("typed text shorter than minlength stops the form", [("type", "Four or more", "abc")], HOME),
    ("minlength reached goes", [("type", "Four or more", "abcd")], BASE + "short?m=abcd"),
    ("a required select on its placeholder option stops the form", [("type", "Pick text", "x")], HOME),
    ("a required checkbox unchecked stops the form", [("type", "Agree text", "x")], HOME),
    ("a required checkbox checked goes", [("click", "Agree", None), ("type", "Agree text", "x")],
     BASE + "agree?c=on&x=x"),
    ("a read-only field is not checked", [("type", "Fixed text", "x")], BASE + "fixed?x=x&r="),
    ("an e-mail field's markup value that is no e-mail stops the form", [("type", "Badmail text", "x")], HOME),
]


def forms_site(folder: Path) -> Site:
    write_mhtml(folder / "home.mhtml", PAGE, url=HOME)
    return build_site(folder)


def steps(actions: list[tuple[str, str, str | None]], elements: Observation | tuple[Target, ...]) -> list[Step]:
    """The actions as steps on the elements named so (by XPath: below the fold too)."""
    found = elements.elements if isinstance(elements, Observation) else elements
    by_name = {e.name: e for e in found}
    return [Step(action, Target(xpath=by_name[name].xpath), value) for action, name, value in actions]
