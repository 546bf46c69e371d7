"""How messages word counts and lists of names, in the app and on the command line: "1 record", "2 records";
"1, 2, 3, 4, 5, ..."; "an unable verdict", "a URL"; a text a reader cannot see whole, quoted."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from .text_forms import visible, written

__all__ = ["as_clause", "below_one", "counted", "json_problem", "listed", "named_and_more", "shortened", "shown",
           "with_article"]


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """`count` and the noun, singular for one ("1 record"), else plural (the noun and "s", or `plural`)."""
    return f"{count:,} {noun if count == 1 else plural or noun + 's'}"


# Where the letter misleads the ear: a vowel read as "you" or "wun", a silent h
_SAID_WITH_A = ("uni", "use", "usu", "uti", "ure", "euro", "eu", "one", "once", "ubiq")
_SAID_WITH_AN = ("hour", "honest", "honour", "honor", "heir")
_LETTERS_SAID_WITH_AN = set("AEFHILMNORSX")  # an acronym read letter by letter: "an HTML page", "a PNG"


def as_clause(message: object) -> str:
    """A message that may end a sentence (an error's words: "…the file is empty.") as a clause that the sentence
    goes on after ("…the file is empty; left out"): its closing full stop dropped, an ellipsis kept."""
    said = str(message)
    return said[:-1] if said.endswith(".") and not said.endswith("..") else said


def below_one(options: Mapping[str, int | None]) -> str | None:
    """What is wrong among whole-number options that must be at least 1 (`{"--runs": 0, "--step-budget": 5}`; None:
    not given), naming only those below it: "--runs must be at least 1 (got 0)", "--runs and --step-budget must be
    at least 1 (got 0 and -1)"; None when none is."""
    wrong = {option: value for option, value in options.items() if value is not None and value < 1}
    if not wrong:
        return None
    return f"{' and '.join(wrong)} must be at least 1 (got {' and '.join(map(str, wrong.values()))})"


def with_article(word: str) -> str:
    """`word` after "a" or "an", by how it sounds: "an unable", "a similar", "a unique", "an hour", "an XPath",
    "a URL" (a message that puts a variable word after an article: "a {status} verdict" read "a unable")."""
    first = word.split()[0] if word.split() else word
    letters = first.rstrip(".,;:")
    if len(letters) > 1 and letters[:2].isupper():  # read letter by letter (URL, HTML, XPath)
        sound_an = letters[0] in _LETTERS_SAID_WITH_AN
    else:
        lower = letters.lower()
        sound_an = (lower[:1] in tuple("aeiou") and not lower.startswith(_SAID_WITH_A)
                    or lower.startswith(_SAID_WITH_AN))
    return f"{'an' if sound_an else 'a'} {word}"


def listed(names: Sequence[str], limit: int = 5, *, total: bool = False, sep: str = ", ") -> str:
    """The first `limit` names, and ", ..." when there are more (a line names some, the count says how many);
    with `total`, ", … (N in all)" where the line itself gives no count. `sep` parts names that hold commas.

    For a list set apart from its sentence (in parentheses, after a colon), and for items that are phrases of
    their own ("URL failed: why"): the tail after `sep` cannot be read as part of the last item. Where a few short
    names are read within the sentence itself ("labels of pages 3, 7 and 2 more changed"), `named_and_more`."""
    if len(names) <= limit:
        return sep.join(names)
    return sep.join(names[:limit]) + (f"{sep}… ({len(names):,} in all)" if total else f"{sep}...")


def named_and_more(names: Sequence[str], limit: int = 5, *, sep: str = ", ") -> str:
    """The first `limit` names and how many more, "a, b and 3 more", where a short line names a few of many.

    For short names (pages, ids) read as part of the sentence ("labels of pages 3, 7 and 2 more changed"). Items
    that are phrases of their own (a URL and why it failed) would take " and 3 more" as their last words, and a
    list set apart in parentheses or after a colon reads as a list: `listed` there, with `total` where the line
    gives no count."""
    more = len(names) - limit
    return sep.join(names[:limit]) + (f" and {more} more" if more > 0 else "")


def json_problem(error: ValueError) -> str:
    """What is wrong with a JSON text, as `json` says it, and "cut short?" where it ends before its value does (a
    file a full disk or a killed copy left half written): json names only where it stopped reading."""
    said = str(error)
    if not isinstance(error, json.JSONDecodeError):
        return said
    ended_early = (error.pos >= len(error.doc.rstrip()) or error.msg.startswith("Unterminated string")
                   or error.msg.startswith("Expecting value") and not error.doc[error.pos:].strip())
    return f"{said}; cut short?" if ended_early and error.doc.strip() else said


def shown(text: str) -> str:
    """`text` as it is, or in double quotes as `text_forms.written` writes it, its invisible characters escaped
    (a space at either end, a no-break or zero-width space, a newline; a combining mark in a text not in NFC; a
    private-use or unassigned character; a lone surrogate) and a quote in it too, when it would otherwise look
    like another text."""
    return written(text, '"') if visible(text) != text or text != text.strip() else text


def shortened(text: str, width: int) -> str:
    """`text` in at most `width` characters, cut after a whole word and marked "…" when cut."""
    if len(text) <= width:
        return text
    return text[: width - 1].rsplit(" ", 1)[0].rstrip(",;:") + "…"
