"""A page of fields inside their labels, and the names Chromium gives them: what the text browser's and the Qt
browser's tests of label names share."""

from __future__ import annotations

from pathlib import Path

from recordlens.core.agent.sites import Site, build_site
from recordlens.core.page.mhtml_writer import write_mhtml

HOME = "https://labels.example.org/"
PAGE = """<!DOCTYPE html><html><head><meta charset="utf-8"><title>Labels</title></head><body>
<p><label>Colour <select name="c"><option>Red</option><option selected>Blue</option></select></label></p>
<p><label>Name <input name="n" value="Ann"></label></p>
<p><label>Notes <textarea name="t">hello notes</textarea></label></p>
<p><label for="s2">Shade <select id="s2" name="s2"><option>Dark</option><option selected>Light</option></select>
</label></p>
<p><label>Size <input name="z" value="5"> cm</label></p>
<p><label>Col<b>our</b> two <select name="c2"><option>Red</option><option selected>Green</option></select></label></p>
<p><label><input type="checkbox" name="r"> Remember me</label></p>
<p><label>Qty <input name="q" value="3"> <select name="u"><option>kg</option><option selected>lb</option></select>
</label></p>
<p><label>Pick <select name="m" multiple size="3"><option>One</option><option selected>Two</option></select></label></p>
<p><label>Hidden <span hidden>secret</span> word <input name="h"></label></p>
<p><label>Password <input type="password" name="pw" value="hunter2"></label></p>
<p><label for="w">Word <input type="password" name="pw2" value="secret99"></label><input id="w" name="w"></p>
<p><label>First <span style="visibility: hidden">x</span> name <input name="f"></label></p>
<p><label>Amount <span aria-hidden="true">*</span><input name="a"></label></p>
<p><label for="g" style="visibility: hidden">Ghost</label><input id="g" name="g"></p>
<p><span id="full">Full <span style="visibility: hidden">x</span> <span aria-hidden="true">*</span>
<span style="display: none">y</span> name</span><input name="l1" aria-labelledby="full"></p>
<p><span id="secret" hidden>Secret <b>bold</b> <span style="display: none">z</span></span>
<input name="l2" aria-labelledby="secret"></p>
<p><a href="/h1" style="visibility: hidden">H1</a> <span style="display: none"><a href="/h2">H2</a></span>
<label style="display: none">Lab <input name="l3"></label> <span style="visibility: hidden"><a href="/h4">H4</a>
<a href="/shown" style="visibility: visible">Shown</a></span> <a href="/h6" style="opacity: 0">H6</a>
<a href="/h7" style="visibility: collapse">H7</a> <dialog><a href="/h8">H8</a></dialog></p>
</body></html>"""
PASSWORDS = ("hunter2", "secret99")  # the password fields' values: in no name or text the agent is shown
# The roles and names of its elements, in order, as Chromium's accessibility tree of this page (captured by
# `recordlens site capture`) names them: a label names the field it wraps by its own text, without the field's
# content (a list's options, a text area's text); another field inside it gives its value ("Qty lb"), a password
# field a bullet for each character ("Word ••••••••"); hidden text (`hidden`, visibility: hidden, aria-hidden) and
# inline markup add no words ("Col<b>our</b>" is "Colour"), and a hidden label names nothing. The second list of
# "Qty" and the password field in "Word"'s label are labelled by nothing. The names from "Password" on were read
# from Chromium's tree by DevTools' Accessibility.getFullAXTree, as the capture reads it. So were the last three:
# aria-labelledby's element on show gives its text without its hidden parts ("Full name"), a hidden one all its
# text, hidden parts too ("Secret bold z"). Of the links and fields the page's markup keeps from view (an own
# style's visibility: hidden or collapse; inside an element of display: none, or of visibility: hidden, or a closed
# dialog) only "Shown", visible again inside an invisible element, is in the tree. The link of opacity 0 ("H6") is
# in the tree too, but neither browser numbers it: the Qt browser's set-of-mark leaves a transparent element out.
NAMES = [("combobox", "Colour"), ("textbox", "Name"), ("textbox", "Notes"), ("combobox", "Shade"),
         ("textbox", "Size cm"), ("combobox", "Colour two"), ("checkbox", "Remember me"), ("textbox", "Qty lb"),
         ("combobox", ""), ("listbox", "Pick"), ("textbox", "Hidden word"), ("textbox", "Password"), ("textbox", ""),
         ("textbox", "Word \u2022\u2022\u2022\u2022\u2022\u2022\u2022\u2022"), ("textbox", "First name"),
         ("textbox", "Amount"), ("textbox", ""), ("textbox", "Full name"), ("textbox", "Secret bold z"),
         ("link", "Shown")]
# What a password field shows as its text: Chromium's bullets, one a character ("hunter2": seven).
PASSWORD_TEXTS = ("\u2022" * 7, "\u2022" * 8)


def labels_site(folder: Path) -> Site:
    write_mhtml(folder / "home.mhtml", PAGE, url=HOME)
    return build_site(folder)
