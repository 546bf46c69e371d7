"""What a command says when argparse refuses its arguments: argparse's own words, then what to do, worked out from
the parsers' own options (every command's, `CommandParser.commands`):

- a folder or file given without the option the command takes it by: that option (`ds/html is a folder: give it as
  --pages ds/html`), chosen by what the path is (a project, a dataset, a folder of pages or of predictions, a file);
  one that is not there yet, where it reads as an output (given after a path that is there, or as a path beside an
  input given, or a file of the kind an option writes), by the option that writes it (`run2 is not there yet: the
  folder extract writes is given as --out run2`); else, named closely beside one that is, that one (`ds/htlm: did you
  mean ds/html? it is a folder: give it as --pages ds/html`), as a misspelt input is never an output to write;
- an option the command does not have: the close one it has (`--pgaes: did you mean --pages?`); else, for a
  command that takes the value without an option, the command line that gives it so; else the commands that take
  the option, or, for --project, how to do the same (`WITH_A_PROJECT`) or else what the command itself takes;
- a name that begins with a dash, which argparse reads as an option: the command line that gives it after `--`.

The exit status stays argparse's, 2."""

from __future__ import annotations

import argparse
import difflib
import os
import re
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

from ..command_hints import hint_option, hint_path, hint_words
from ..page.dataset import dataset_pages
from ..store.import_layout import project_folder_of
from ..wording import listed

_UNRECOGNIZED = "unrecognized arguments: "
_REQUIRED = "the following arguments are required: "
_PROJECT = "--project"  # the option every command that works on a project takes it by
_PAGES, _GT = "--pages", "--gt"  # and every command that reads a dataset takes its two folders by
_CLOSE = 0.8  # how alike a misspelt option and the option meant are (difflib's ratio: `--pgaes`, `--pages` 0.86)
_CLOSE_NAME = 0.7  # and a misspelt file or folder name and the one beside it meant (`htlm`, `html` 0.75)
_ENTRIES_LOOKED_AT = 1000  # the entries of a folder compared with a misspelt name in it, at most

# How to do with a project what a command that takes none does (the rest say which commands take --project)
WITH_A_PROJECT = {
    "extract": "it writes a run folder from a folder of pages (--pages DIR --out RUN), and `recordlens runs "
               "{project} --add RUN` then stores that run in the project (the project's pages as such a folder: "
               "`recordlens export {project} --format nexteval --all-pages --out DIR`, then --pages DIR/html)",
    "bench": "it measures datasets (--pages DIR --gt DIR): `recordlens export {project} --format nexteval --out "
             "DIR` writes the project's labelled pages as one, then --pages DIR/html --gt DIR/gt (a run stored in "
             "the project is scored by `recordlens score {project} --run ID`)",
}


class _Refused(Exception):  # noqa: N818 - argparse's refusal while a parse is only tried (`_tried`)
    pass


class CommandParser(argparse.ArgumentParser):
    """A command's parser (and its actions'), which refuses an option it does not know itself, with its own usage
    line (argparse leaves it to the top parser, whose usage line names no command), and says what to do."""

    commands: Sequence[CommandParser] = ()  # every command's parser (`advise_among`), whose options advice names
    _given: Sequence[str] = ()
    _trying = False

    def parse_known_args(self, args=None, namespace=None):  # noqa: ANN001, ANN201 - argparse's own signature
        self._given = list(sys.argv[1:] if args is None else args)
        parsed, extras = super().parse_known_args(args, namespace)
        if extras:
            self.error(f"{_UNRECOGNIZED}{' '.join(extras)}")
        return parsed, extras

    def error(self, message: str):  # noqa: ANN201 - never returns
        if self._trying:
            raise _Refused(message)
        advice = list(_advice(self, message))
        super().error("; ".join([message, *advice]))

    def option(self, given: str) -> argparse.Action | None:
        """The option `given` names as argparse reads it: the whole option string, before any `=`, or a long
        option's unambiguous abbreviation (`--proj` for `--project`)."""
        name = given.split("=", 1)[0]
        if name in self._option_string_actions:
            return self._option_string_actions[name]
        if not (self.allow_abbrev and name.startswith("--") and len(name) > 2):
            return None
        meant = {action for option, action in self._option_string_actions.items() if option.startswith(name)}
        return meant.pop() if len(meant) == 1 else None

    @property
    def name(self) -> str:
        """The command as a user types it after `recordlens` (`labels check`)."""
        return self.prog.split(" ", 1)[-1]

    def positionals(self) -> list[argparse.Action]:
        return [action for action in self._actions if not action.option_strings
                and not isinstance(action, argparse._SubParsersAction)]

    def has_subcommands(self) -> bool:
        return any(isinstance(action, argparse._SubParsersAction) for action in self._actions)


def advise_among(root: argparse.ArgumentParser) -> None:
    """Every command parser under `root` told of all of them, whose options its advice names."""
    every = list(_command_parsers(root))
    for parser in every:
        parser.commands = every


def _command_parsers(parser: argparse.ArgumentParser) -> Iterator[CommandParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for command in dict.fromkeys(action.choices.values()):  # an alias names a parser twice
                if isinstance(command, CommandParser):
                    yield command
                yield from _command_parsers(command)


def _advice(parser: CommandParser, message: str) -> Iterator[str]:
    """What to do, for each argument the refusal is about."""
    given = list(parser._given)
    extras = _extras(parser, given, message)
    offered: set[argparse.Action] = set(_given_options(parser, given))
    explained: set[str] = set()  # the dashed words said to be options, which are then no names
    for option, value, strays in _grouped(parser, extras):
        if option is not None:
            said, of_the_value = _option_advice(parser, option, value, given)
            if said:
                explained.add(option)
                yield said
            if value is not None and not of_the_value:  # a folder given by another command's option, say
                strays = [value, *strays]
        for stray in strays:
            said = (_path_advice(parser, stray, offered) or _path_to_write_advice(parser, stray, given, offered)
                    or _close_path_advice(parser, stray, offered))
            if said:
                yield said
    said = _dashed_names_advice(parser, given, explained)
    if said:
        yield said


def _extras(parser: CommandParser, given: list[str], message: str) -> list[str]:
    """The arguments the command did not take: those refused, or, when argparse first found an argument missing,
    those it would have refused (a folder given without its option is often the very one missing)."""
    if message.startswith(_UNRECOGNIZED):
        return _tried(parser, given, lenient=False) or []
    if message.startswith(_REQUIRED) and not parser.has_subcommands():
        return _tried(parser, given, lenient=True) or []
    return []


def _tried(parser: CommandParser, words: list[str], *, lenient: bool) -> list[str] | None:
    """The words `parser` leaves over, parsed again (with nothing required, when `lenient`); None when it refuses
    them. Only ever on words argparse took to their end already, so no `--help` among them."""
    required = [(item, item.required) for item in [*parser._actions, *parser._mutually_exclusive_groups]]
    parser._trying = True
    try:
        if lenient:
            for item, _ in required:
                item.required = False
        return argparse.ArgumentParser.parse_known_args(parser, words, argparse.Namespace())[1]
    except _Refused:
        return None
    finally:
        parser._trying = False
        for item, was in required:
            item.required = was


def _grouped(parser: CommandParser, extras: list[str]) -> Iterator[tuple[str | None, str | None, list[str]]]:
    """The words refused as (an option the command does not have, its value, the words after it), the words
    before any such option first (with no option)."""
    option: str | None = None
    words: list[str] = []
    for word in extras:
        if _is_option(parser, word):
            if option is not None or words:
                yield _split(parser, option, words)
            option, words = word, []
        else:
            words.append(word)
    if option is not None or words:
        yield _split(parser, option, words)


def _split(parser: CommandParser, option: str | None, words: list[str]) -> tuple[str | None, str | None, list[str]]:
    if option is None or "=" in option or not words or _takes_no_value(parser, option):
        return option, (option.split("=", 1)[1] if option and "=" in option else None), words
    return option, words[0], words[1:]


def _is_option(parser: CommandParser, word: str) -> bool:
    """Whether argparse reads `word` as an option (`-5` is a number, as argparse reads it where no option looks
    like one)."""
    return (word.startswith(tuple(parser.prefix_chars)) and len(word) > 1
            and not parser._negative_number_matcher.match(word))


def _takes_no_value(parser: CommandParser, option: str) -> bool:
    """Whether the commands that have `option` take it alone (`--json`)."""
    actions = [action for _, action in _elsewhere(parser, option)]
    return bool(actions) and all(action.nargs == 0 for action in actions)


def _option_advice(parser: CommandParser, option: str, value: str | None,
                   given: list[str]) -> tuple[str | None, bool]:
    """What to do with an option `parser` does not have: the close one it has, the command line that gives the
    value without an option, or the commands that take it; and whether that says what to do with its value too."""
    name = option.split("=", 1)[0]
    close = difflib.get_close_matches(name, [o for o in parser._option_string_actions if len(o) > 2], 1, _CLOSE)
    if close:
        return f"{name}: did you mean {close[0]}?", True
    elsewhere = _elsewhere(parser, option)
    if not elsewhere:
        return None, False
    meant = _long(elsewhere[0][1])
    # a project given so to a command whose names are pages or URLs is no name of them (`represent P`)
    without = _without_the_option(parser, option, given) if meant != _PROJECT or _names_a_project(parser) else None
    if without:
        return without, True
    if meant == _PROJECT:
        return _project_advice(parser, value), True
    commands = [command.name for command, _ in elsewhere]
    return f"{parser.name} takes no {name} ({meant} is an option of {listed(commands, 6, total=True)})", False


def _elsewhere(parser: CommandParser, option: str) -> list[tuple[CommandParser, argparse.Action]]:
    """The other commands that take `option`, each with its action, in the order `recordlens --help` lists them."""
    found = [(command, command.option(option)) for command in parser.commands if command is not parser]
    return [(command, action) for command, action in found if action is not None]


def _without_the_option(parser: CommandParser, option: str, given: list[str]) -> str | None:
    """For a command that takes its value without an option (`inspect PAGE`), the command line given so, if it
    then reads every word."""
    positionals = parser.positionals()
    if not positionals:
        return None
    name, _, value = option.partition("=")
    words = [value if word == option else word for word in given if word != option or value]
    if _tried(parser, words, lenient=True) != []:
        return None
    shown = " ".join(action.metavar or action.dest for action in positionals)
    return (f"{parser.name} takes no {name}: its {shown} is given without an option, as in "
            f"`{hint_words(['recordlens', *parser.name.split(), *words])}`")


def _names_a_project(parser: CommandParser) -> bool:
    """Whether a name the command takes without an option is a project's folder (`project copy DIR DEST`)."""
    return any(re.search(r"\bproject\b", action.help or "") for action in parser.positionals())


def _project_advice(parser: CommandParser, project: str | None) -> str:
    """What a command that takes no project says of one: how to do the same where there is a way, else what it
    takes (the commands that take a project are no answer to what this one does)."""
    way = WITH_A_PROJECT.get(parser.name)
    named = hint_option(_PROJECT, project or "P")
    if way:
        return f"{parser.name} takes no {_PROJECT}: {way.format(project=named)}"
    return f"{parser.name} takes no {_PROJECT}: it takes {_what_it_takes(parser)}"


def _what_it_takes(parser: CommandParser) -> str:
    """A command's own arguments, as a sentence: its names given without an option, with what each is, and its
    options (`page (an .html or .mhtml file) and the options --format, --out`)."""
    names = [f"{action.metavar or action.dest} ({action.help})" if action.help else str(action.metavar or action.dest)
             for action in parser.positionals()]
    options = [_long(action) for action in parser._actions if action.option_strings
               and not isinstance(action, argparse._HelpAction) and action.help != argparse.SUPPRESS]
    said = [*names, *([f"the option{'s' if len(options) > 1 else ''} {listed(options, 8, total=True)}"]
                      if options else [])]
    return " and ".join(said) if said else "no arguments"


def _path_advice(parser: CommandParser, word: str, offered: set[argparse.Action]) -> str | None:
    """For a folder or file given without its option, the option the command takes it by (then `offered`)."""
    path = Path(word)
    if not path.exists():
        return None
    project = project_folder_of(path) if path.is_dir() else None
    if project is not None:  # its snapshots/ too: pages named by a hash, without their labels
        return _a_project(parser, word, project, offered)
    pages = _dataset_pages(path)
    if pages is not None:
        said = _a_dataset(parser, word, pages, offered)
        if said:
            return said
    kind = "folder" if path.is_dir() else "file"
    options = sorted(_options_for(parser, path, kind, offered), key=lambda action: _fit(action, path))
    if not options:
        return None
    offered.add(options[0])
    return f"{hint_path(word)} is a {kind}: give it as {hint_option(_long(options[0]), word)}"


def _path_to_write_advice(parser: CommandParser, word: str, given: list[str],
                          offered: set[argparse.Action]) -> str | None:
    """For a path that is not there, given without an option where it reads as an output (`_read_as_an_output`):
    the option by which the command writes such a file or folder (then `offered`). Only a path the command writes
    can be one that is not there yet; a path it reads that is not there is no path advice can name an option for."""
    path = Path(word)
    if path.exists() or not _read_as_an_output(parser, word, given, offered):
        return None
    # a name ending in a slash is a folder's; one with a suffix (`out.json`) a file's; a bare name either, a folder
    # first (`run2`), as a command's output folder is more often named so than its output file
    kinds = ("folder",) if word.endswith(("/", os.sep)) else ("file",) if path.suffix else ("folder", "file")
    for kind in kinds:
        options = sorted(_options_to_write(parser, path, kind, offered), key=lambda action: _fit(action, path))
        if options:
            offered.add(options[0])
            return (f"{hint_path(word)} is not there yet: the {kind} {parser.name} writes is given as "
                    f"{hint_option(_long(options[0]), word)}")
    return None


def _read_as_an_output(parser: CommandParser, word: str, given: list[str], offered: set[argparse.Action]) -> bool:
    """Whether a word that names nothing there reads as a path the command writes: given after a path that is there,
    as an output follows its input (`--pages ds/html run2`); written as a path on a line that gives one that is
    there, the input it is then not (`extract out/run2 --pages ds/html`); or a file of the kind only an option that
    writes names (bench's `--chart`, the PNG bar chart: `chart.png`). Else a path may as well be an input misspelt
    (`extract ds/htlm` for ds/html: `_close_path_advice`), and a bare word anything (`extract mdr`: a method). A
    path named closely beside one there whose option is neither given nor advised yet is that one misspelt
    (`_a_misspelt_input`), wherever it stands: a prompt file given beside it is not the input it would be the
    output of."""
    if _a_misspelt_input(parser, word, offered):
        return False
    before = given[:given.index(word)] if word in given else []
    if _a_path_there_among(before):
        return True
    written_as_a_path = "/" in word or os.sep in word or bool(Path(word).suffix)
    return written_as_a_path and (_a_path_there_among(given) or _a_kind_only_written(parser, Path(word)))


def _a_path_there_among(words: list[str]) -> bool:
    """Whether any of `words`, or of the values they give options (`--pages=ds/html`), names a path that is there."""
    values = [word.split("=", 1)[-1] for word in words if word != "--"]
    return any(value and Path(value).exists() for value in values)


def _a_kind_only_written(parser: CommandParser, path: Path) -> bool:
    """Whether the file `path`'s suffix is named by an option that writes (`_fit`) and by none that reads."""
    if not path.suffix:
        return False
    named = [action for action in _one_path_options(parser, set()) if not _fit(action, path)]
    return bool(named) and all(_writes(action) for action in named)


def _a_misspelt_input(parser: CommandParser, word: str, offered: set[argparse.Action]) -> bool:
    """Whether a path not there is named closely beside one there (`_close_path`) that the command would take by an
    option not `offered` (given or advised: `extract ds/htlm`, --pages for ds/html). With that option given, the
    word is no second input (`extract ds/htlm --pages ds/html`)."""
    meant = _close_path(word)
    if meant is None:
        return False
    taken_by: set[argparse.Action] = set()
    return _path_advice(parser, meant, taken_by) is not None and not taken_by & offered


def _close_path(word: str) -> str | None:
    """For a path that is not there, one that is, named closely in the same folder (`ds/htlm` for ds/html: difflib
    against the folder's entries)."""
    path = Path(word)
    if path.exists() or not path.name:
        return None
    try:
        names = [entry.name for _, entry in zip(range(_ENTRIES_LOOKED_AT), path.parent.iterdir(), strict=False)]
    except OSError:
        return None
    close = difflib.get_close_matches(path.name, names, 1, _CLOSE_NAME)
    return str(path.parent / close[0]) if close else None


def _close_path_advice(parser: CommandParser, word: str, offered: set[argparse.Action]) -> str | None:
    """For a path that is not there, the one there named closely (`_close_path`), advised as it would be given
    itself (`_path_advice`): a misspelt input, which the option that writes would make a new folder or file of,
    beside (or inside) what it was meant to read."""
    meant = _close_path(word)
    if meant is None:
        return None
    said = _path_advice(parser, meant, offered)
    if said is None:
        return None
    told = said.removeprefix(f"{hint_path(meant)} ")
    return f"{hint_path(word)}: did you mean {hint_path(meant)}? {'it ' + told if told != said else said}"


def _long(action: argparse.Action) -> str:
    """The option as a hint names it: its long form (`--out`, not `-o`)."""
    return next((option for option in action.option_strings if option.startswith("--")), action.option_strings[0])


def _a_project(parser: CommandParser, word: str, project: Path, offered: set[argparse.Action]) -> str | None:
    """A project's folder (`word`, or a folder in it) given without --project: by --project, or, for a command
    that takes no project, what it does instead (`_project_advice`)."""
    named = word if project == Path(word) else str(project)
    action = parser.option(_PROJECT)
    if action is None:
        return _project_advice(parser, named)
    if action in offered:
        return None
    offered.add(action)
    if named == word:
        return f"{hint_path(word)} is a project: give it as {hint_option(_PROJECT, named)}"
    return (f"{hint_path(word)} lies in the project {hint_path(named)}: give the project as "
            f"{hint_option(_PROJECT, named)}")


def _dataset_pages(path: Path) -> tuple[Path, Path] | None:
    """The pages and labels of the dataset `path` is (DIR/html/ and DIR/gt/), or whose folder of pages it is."""
    if not path.is_dir():
        return None
    for root in (path, path.parent):
        pages = dataset_pages(root)
        if pages is not None and (root / "gt").is_dir() and (root == path or pages == path):
            return pages, root / "gt"
    return None


def _a_dataset(parser: CommandParser, word: str, folders: tuple[Path, Path],
               offered: set[argparse.Action]) -> str | None:
    """A dataset (or its pages) given without options, for a command that reads a dataset's two folders."""
    pages, labels = parser.option(_PAGES), parser.option(_GT)
    if pages is None or labels is None or pages in offered or labels in offered:
        return None
    offered.update((pages, labels))
    what = "a dataset" if Path(word) != folders[0] else "a dataset's folder of pages"
    return (f"{hint_path(word)} is {what}: give it as {hint_option(_PAGES, _as_given(word, folders[0]))} "
            f"{hint_option(_GT, _as_given(word, folders[1]))}")


def _as_given(word: str, folder: Path) -> str:
    """`folder` written from `word` as the user wrote it (`ds/html` for `ds`, `ds/gt` for `ds/html`)."""
    given = Path(word)
    if folder == given:
        return word
    return str(given / folder.name if folder.parent == given else given.parent / folder.name)


def _options_for(parser: CommandParser, path: Path, kind: str, offered: set[argparse.Action]) -> list[argparse.Action]:
    """The options not given yet by which `parser` takes one folder (or file) that is there: a project only by
    --project (`_a_project`), and a file never by an option that writes one (it would be written over)."""
    return [action for action in _one_path_options(parser, offered)
            if _says(action, kind) and not (kind == "file" and _writes(action))]


def _options_to_write(parser: CommandParser, path: Path, kind: str,
                      offered: set[argparse.Action]) -> list[argparse.Action]:
    """The options not given yet by which `parser` writes one folder (or file) `path`: a file's also by an option
    whose words name the file's suffix (`--chart`, `where to write the PNG bar chart`)."""
    return [action for action in _one_path_options(parser, offered) if _writes(action)
            and (_says(action, kind) or (kind == "file" and not _fit(action, path)))]


def _one_path_options(parser: CommandParser, offered: set[argparse.Action]) -> list[argparse.Action]:
    """The options not given yet that take one path, a project's aside (only --project takes one)."""
    return [action for action in parser._actions if action.option_strings and action not in offered
            and action.nargs is None and not action.choices
            and action.type in (None, str, Path) and _PROJECT not in action.option_strings]


def _says(action: argparse.Action, kind: str) -> bool:
    """Whether an option's own words (its help, its metavar) say it takes a folder (`DIR`) or a file."""
    metavar = action.metavar if isinstance(action.metavar, str) else ""
    return bool(re.search(rf"\b{kind}\b", action.help or "", re.IGNORECASE)) or metavar.endswith(
        "DIR" if kind == "folder" else "FILE")


def _writes(action: argparse.Action) -> bool:
    return re.search(r"\bwrite\b", action.help or "", re.IGNORECASE) is not None


def _fit(action: argparse.Action, path: Path) -> bool:
    """Whether an option fits a path less well than one whose words name the files the path is or holds: a folder
    of pages named files (`folder of N.html / N.mhtml`, `folder of predicted N.json`), a file of its kind (`tasks
    JSONL file`). Sorted by it, the options keep their order otherwise (the parser's)."""
    named = (r"\bN\.{}\b" if path.is_dir() else r"\b{}\b").format
    return not any(re.search(named(re.escape(suffix)), action.help or "", re.IGNORECASE if path.is_file() else 0)
                   for suffix in _suffixes(path))


def _suffixes(path: Path, looked_at: int = 200) -> set[str]:
    """The file suffixes, without the dot, of a file or of the first files in a folder (`html`, `json`)."""
    if not path.is_dir():
        return {path.suffix[1:].lower()} - {""}
    try:
        names = [entry.name for _, entry in zip(range(looked_at), path.iterdir(), strict=False)]
    except OSError:
        return set()
    return {Path(name).suffix[1:].lower() for name in names} - {""}


def _given_options(parser: CommandParser, given: list[str]) -> Iterator[argparse.Action]:
    for word in given:
        if word == "--":
            return
        action = parser.option(word)
        if action is not None:
            yield action


def _dashed_names_advice(parser: CommandParser, given: list[str], explained: set[str]) -> str | None:
    """How to give a name that begins with a dash (a page `-leading-dash`), which argparse reads as an option and
    then says only that PAGE is missing, or refuses: after `--`. For a command that takes names."""
    if not parser.positionals() or "--" in given:
        return None
    options = [(i, word, action) for i, word in enumerate(given) if (action := parser.option(word)) is not None]
    taken = {i for i, _, _ in options} | {i + 1 for i, word, action in options if "=" not in word
                                          and action.nargs != 0}
    dashed = [word for i, word in enumerate(given) if i not in taken and word.startswith("-")
              and word not in explained]
    if not dashed:
        return None
    names = [word for i, word in enumerate(given) if i not in taken and word not in explained]
    flags = [word for i, word in enumerate(given) if i in taken]
    return ("a name that begins with a dash reads as an option: give it after `--`, as in "
            f"`{hint_words(['recordlens', *parser.name.split(), *flags, '--', *names])}`")
