"""What a command says when argparse refuses its arguments: argparse's own words, then what to do, worked out from
the parsers' own options (every command's, `CommandParser.commands`):

- a folder or file given without the option the command takes it by: that option (`ds/html is a folder: give it as
  --pages ds/html`), chosen by what the path is (a project, a dataset, a folder of pages or of predictions, a file);
  one that is not there yet, where it reads as an output (given after a path that is there, or as a path beside an
  input given, or a file of the kind an option writes), by the option that writes it (`run2 is not there yet: the
  folder extract writes is given as --out run2`); else, named closely beside one that is, that one (`ds/htlm: did you
  mean ds/html? it is a folder: give it as --pages ds/html`), as a misspelt input is never an output to write (nor
  is an output's name advised as a folder there, misspelt: it names the new one);
- a folder that is there, given where the command writes a folder (`WRITTEN_FOLDERS`), with what the command does
  with it: writes in it, resumes or replaces what it holds, adds beside it (`full is a folder: give it as --out
  full (export then writes the dataset's html/ and gt/ in it, beside the files it holds)`), or refuses it, and then
  a new folder it takes instead (`full is a folder extract refuses as --out: ...; give a new one, as --out full-2`);
- a project taken for one of the names a command takes (`import P ds`), where --project is missing: --project;
- an option the command does not have: the close one it has (`--pgaes: did you mean --pages?`); else, for a
  command that takes the value without an option, the command line that gives it so (the value where the command
  reads it: `project copy DEST --project P` is `project copy P DEST`); else the commands that take
  the option, or, for --project, how to do the same (`WITH_A_PROJECT`) or else what the command itself takes;
- a name that begins with a dash, which argparse reads as an option: the command line that gives it after `--`.

The exit status stays argparse's, 2."""

from __future__ import annotations

import argparse
import difflib
import os
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from ..command_hints import hint_option, hint_path, hint_words
from ..output_paths import overlap
from ..page.dataset import SYNTH_MANIFEST, dataset_pages
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


# What a command does with a folder that is there, given as the folder it writes (by the option's or name's dest):
# whether it writes there, and what it does there (said after the command's name) or why it refuses it. Each is
# the command's own rule: its own check asked where one can be asked without writing (extract's), else the same
# test as its own, named beside it (a test of each runs the command as advised)
Verdict = tuple[bool, str]


def _a_run_folder(folder: Path, args: argparse.Namespace) -> Verdict:
    """extract --out: `runner._refuse_a_folder_that_is_no_run`, then a run resumed (`_refuse_another_method`
    refuses another method's)."""
    from ..errors import DatasetError
    from ..runs.run_files import META_DIR, holds_page_records
    from ..runs.runner import _refuse_a_folder_that_is_no_run

    try:
        _refuse_a_folder_that_is_no_run(folder)
    except DatasetError:
        return False, (f"it holds files but no run ({META_DIR}/run.json), and a run is written into a new or empty "
                       "folder, or resumed in its own")
    if (folder / META_DIR / "run.json").is_file() or holds_page_records(folder):
        return True, ("resumes the run it holds, if of the same method: pages already written are skipped, and "
                      "--restart extracts every page again")
    return True, "writes its run in it"


def _a_synthetic_dataset_folder(folder: Path, args: argparse.Namespace) -> Verdict:
    """synth --out: `synth.pipeline.refuse_own_input`, then `_prepare_output`."""
    for given in (getattr(args, name, None) for name in ("pages", "gt", "project")):
        where = overlap(folder, given) if given else None
        if where is not None:
            return False, f"it {where} the input folder {hint_path(given)}, and synth replaces its --out whole"
    if not _holds_any(folder):
        return True, "writes the synthetic dataset in it"
    if (folder / SYNTH_MANIFEST).is_file():
        return True, (f"replaces the synthetic dataset it holds whole, an earlier synth output as its {SYNTH_MANIFEST} "
                      "says")
    return False, (f"it is not empty and holds no {SYNTH_MANIFEST}, and synth writes into a new or empty folder, or "
                   "replaces an earlier synth output whole")


def _an_export_folder(folder: Path, args: argparse.Namespace) -> Verdict:
    """export --out: `exporter.export_project`'s `outside_of` the project, then jsonl's and csv's one file
    (replaced), or `export_nexteval`'s refusal of a folder that holds a dataset."""
    from ..store.exporter import export_file

    project = getattr(args, "project", None)
    where = overlap(folder, project) if project else None
    if where in ("is", "lies inside"):
        return False, f"it {where} the project {hint_path(project)}, and an export is written outside it"
    beside = ", beside the files it holds" if _holds_any(folder) else ""
    fmt = getattr(args, "format", None)
    if fmt in ("jsonl", "csv"):
        file = export_file(folder, fmt)
        return True, f"writes {hint_path(file)} in it{', replacing the one there' if file.exists() else beside}"
    nexteval = "" if fmt else ", with --format nexteval"
    if any((folder / "html").glob("*")) or any((folder / "gt").glob("*.json")):
        return False, f"it holds a dataset already (html/, gt/), and a dataset is exported into a folder that holds " \
                      f"none{nexteval}"
    return True, f"writes the dataset's html/ and gt/ in it{beside}{nexteval}"


def _a_copy_folder(folder: Path, args: argparse.Namespace) -> Verdict:
    """project copy DEST: `project_copy.copy_project`'s refusals."""
    if folder.exists() and not folder.is_dir():
        return False, "a project is copied into a new or empty folder"
    if _holds_any(folder):
        return False, "it is not empty, and a project is copied into a new or empty folder"
    project = getattr(args, "project", None)
    where = overlap(folder, project) if project else None
    if where in ("is", "lies inside"):
        return False, f"it {where} the project {hint_path(project)}, and a copy is made outside it"
    return True, "copies the project into it"


WRITTEN_FOLDERS: dict[tuple[str, str], Callable[[Path, argparse.Namespace], Verdict]] = {
    ("extract", "out"): _a_run_folder,
    ("synth", "out"): _a_synthetic_dataset_folder,
    ("export", "out"): _an_export_folder,
    ("project copy", "dest"): _a_copy_folder,
}


def _holds_any(folder: Path) -> bool:
    try:
        return any(folder.iterdir())
    except OSError:
        return False  # unreadable: the command's own write says why


def written_folder_refused(command: str, dest: str, word: str, args: argparse.Namespace, named: str,
                           given_as: Callable[[str], str]) -> str | None:
    """What to say of the folder `word`, there, given to `command` as the folder it writes (`WRITTEN_FOLDERS`,
    `dest`) when the command refuses it: why, and a new one given as `given_as` writes it (`--out full-2`, or the
    command line `project copy P full-2`); None when the command writes there, or has no rule for it."""
    verdict = written_folder_verdict(command, dest, word, args)
    if verdict is None or verdict[0]:
        return None
    new = new_one_taken(command, dest, word, args)
    instead = f"give a new one, as {given_as(new)}" if new else "give a new or empty folder"
    kind = "folder" if Path(word).is_dir() else "file"
    return f"{hint_path(word)} is a {kind} {command} refuses as {named}: {verdict[1]}; {instead}"


def written_folder_verdict(command: str, dest: str, word: str, args: argparse.Namespace) -> Verdict | None:
    """What `command` does with the folder `word` given as the one it writes (`WRITTEN_FOLDERS`, `dest`); None when
    nothing is there, or the command has no rule for it."""
    rule = WRITTEN_FOLDERS.get((command, dest))
    return None if rule is None or not Path(word).exists() else rule(Path(word), args)


def new_one_taken(command: str, dest: str, word: str, args: argparse.Namespace) -> str | None:
    """A new folder the command writes instead of `word`: beside it (`full-2`), or beside the first folder above it
    where one is taken (`P-2` for `P/snapshots`, which lies inside the project copied, as any folder beside it)."""
    rule = WRITTEN_FOLDERS[command, dest]
    for folder in (word, *map(str, Path(word).parents)):
        new = new_beside(folder if Path(folder).is_dir() else str(Path(folder).with_suffix("")))  # `notes.txt`: notes-2
        if new is not None and rule(Path(new), args)[0]:
            return new
    return None


def new_beside(word: str) -> str | None:
    """A name beside `word` that names nothing yet (`full-2`, `full-3`, ...), written from `word` as given; None for
    a path without a name of its own (`.`)."""
    path = Path(word)
    if path.name in ("", ".", ".."):
        return None
    for number in range(2, 1000):
        new = path.with_name(f"{path.name}-{number}")
        if not os.path.lexists(new):
            return str(new)
    return None


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
    if parser.option(_PROJECT) in offered:  # the pages come from the project given: --pages and --gt are its others
        offered.update(action for action in map(parser.option, (_PAGES, _GT)) if action is not None)
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
            said = (_path_advice(parser, stray, offered, given) or _path_to_write_advice(parser, stray, given, offered)
                    or _close_path_advice(parser, stray, offered, given))
            if said:
                yield said
    if message.startswith(_REQUIRED):
        said = _project_among_names_advice(parser, given, offered)
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
    parsed = _parsed(parser, words, lenient=lenient)
    return None if parsed is None else parsed[1]


def _read(parser: CommandParser, words: list[str]) -> argparse.Namespace:
    """What the command reads of `words`, with nothing required (nothing when it refuses them)."""
    parsed = _parsed(parser, words, lenient=True)
    return argparse.Namespace() if parsed is None else parsed[0]


def _parsed(parser: CommandParser, words: list[str], *,
            lenient: bool) -> tuple[argparse.Namespace, list[str]] | None:
    required = [(item, item.required) for item in [*parser._actions, *parser._mutually_exclusive_groups]]
    parser._trying = True
    try:
        if lenient:
            for item, _ in required:
                item.required = False
        return argparse.ArgumentParser.parse_known_args(parser, words, argparse.Namespace())
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
    then reads every word: the value where the command reads what the option names elsewhere (`project copy DEST
    --project P`: `project copy P DEST`, the project first), else where it was given; a name still missing by its
    metavar (`project copy P DEST`); and a folder to write that the command refuses, with a new one
    (`written_folder_refused`)."""
    positionals = parser.positionals()
    if not positionals:
        return None
    name = option.split("=", 1)[0]
    words = _in_its_place(parser, option, given)
    if words is None:
        value = option.partition("=")[2]
        words = [value if word == option else word for word in given if word != option or value]
    if _tried(parser, words, lenient=True) != []:
        return None
    read = _read(parser, words)
    missing = [str(action.metavar or action.dest) for action in positionals
               if getattr(read, action.dest, None) in (None, []) and action.nargs not in ("?", "*")]
    shown = " ".join(action.metavar or action.dest for action in positionals)
    said = f"{parser.name} takes no {name}: its {shown} is given without an option"

    def line(*changed: tuple[str, str]) -> str:
        return f"`{hint_words(['recordlens', *parser.name.split(), *_changed(words, changed), *missing])}`"

    for action in positionals:
        value = getattr(read, action.dest, None)
        if isinstance(value, str):
            refused = written_folder_refused(parser.name, action.dest, value, read, str(action.metavar or action.dest),
                                             lambda new, value=value: f"in {line((value, new))}")
            if refused:
                return f"{said}; {refused}"
    return f"{said}, as in {line()}"


def _changed(words: list[str], changes: Sequence[tuple[str, str]]) -> list[str]:
    """`words`, the first of each change's word replaced by its new one."""
    words = list(words)
    for old, new in changes:
        words[words.index(old)] = new
    return words


def _in_its_place(parser: CommandParser, option: str, given: list[str]) -> list[str] | None:
    """`given` with the option's value moved where the command reads, without an option, what the option names in
    the other commands (`--project P`: project copy's DIR, its first name); None when no name of the command is that
    (`inspect --pages PAGE`) or the option gives no value."""
    elsewhere = _elsewhere(parser, option)
    positionals = parser.positionals()
    place = next((i for i, action in enumerate(positionals)
                  if elsewhere and action.dest == elsewhere[0][1].dest), None)
    if place is None or option not in given:
        return None
    at = given.index(option)
    if "=" in option:
        value, rest = option.split("=", 1)[1], given[:at] + given[at + 1:]
    elif at + 1 < len(given):
        value, rest = given[at + 1], given[:at] + given[at + 2:]
    else:
        return None
    names = _name_positions(parser, rest)
    at = names[place] if place < len(names) else len(rest)
    return [*rest[:at], value, *rest[at:]]


def _name_positions(parser: CommandParser, words: list[str]) -> list[int]:
    """Where in `words` the command's names (its positionals' words) stand: not an option, nor an option's value."""
    found: list[int] = []
    skip = False
    for i, word in enumerate(words):
        if skip:
            skip = False
            continue
        if word == "--":
            return [*found, *range(i + 1, len(words))]
        action = parser.option(word)
        if action is not None or _is_option(parser, word):
            skip = action is not None and action.nargs != 0 and "=" not in word
            continue
        found.append(i)
    return found


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


def _path_advice(parser: CommandParser, word: str, offered: set[argparse.Action],
                 given: Sequence[str] = ()) -> str | None:
    """For a folder or file given without its option, the option the command takes it by (then `offered`); for a
    folder the command would write in, with what it does there, or a new one where it refuses it
    (`WRITTEN_FOLDERS`), as read with the rest of the words `given`."""
    path = Path(word)
    if not path.exists():
        return None
    project = project_folder_of(path) if path.is_dir() else None
    if project is not None:  # its snapshots/ too: pages named by a hash, without their labels
        said = _a_project(parser, word, project, offered)
        if said is not None or not any(name == parser.name for name, _ in WRITTEN_FOLDERS):
            return said
    pages = _dataset_pages(path) if project is None else None
    if pages is not None:
        said = _a_dataset(parser, word, pages, offered)
        if said:
            return said
    kind = "folder" if path.is_dir() else "file"
    # the project given already, a folder of it given besides is none the command reads: the one it writes, refused
    options = sorted((action for action in _options_for(parser, path, kind, offered)
                      if project is None or (parser.name, action.dest) in WRITTEN_FOLDERS),
                     key=lambda action: _fit(action, path))
    if not options:
        return None
    offered.add(options[0])
    option = _long(options[0])
    if (parser.name, options[0].dest) in WRITTEN_FOLDERS and kind == "folder":
        read = _read(parser, list(given))
        refused = written_folder_refused(parser.name, options[0].dest, word, read, option,
                                         lambda new: hint_option(option, new))
        if refused:
            return refused
        does = WRITTEN_FOLDERS[parser.name, options[0].dest](path, read)[1]
        return f"{hint_path(word)} is a folder: give it as {hint_option(option, word)} ({parser.name} then {does})"
    return f"{hint_path(word)} is a {kind}: give it as {hint_option(option, word)}"


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
    return (_path_advice(parser, meant, taken_by) is not None and not taken_by & offered
            and not any(map(_writes, taken_by)))


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


def _close_path_advice(parser: CommandParser, word: str, offered: set[argparse.Action],
                       given: Sequence[str] = ()) -> str | None:
    """For a path that is not there, the one there named closely (`_close_path`), advised as it would be given
    itself (`_path_advice`): a misspelt input, which the option that writes would make a new folder or file of,
    beside (or inside) what it was meant to read. Not when it would be given by an option that writes: the name
    given is then the output's, new (`export ... fulll` for a new folder, not into `full`, which holds files)."""
    meant = _close_path(word)
    if meant is None:
        return None
    taken_by = set(offered)
    said = _path_advice(parser, meant, taken_by, given)
    if said is None or any(map(_writes, taken_by - offered)):
        return None
    offered.update(taken_by)
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
    folder = path.is_dir()  # a file not there yet is a file's name too (`chart.png`, named by `a PNG chart`)
    named = (r"\bN\.{}\b" if folder else r"\b{}\b").format
    return not any(re.search(named(re.escape(suffix)), action.help or "", 0 if folder else re.IGNORECASE)
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


def _project_among_names_advice(parser: CommandParser, given: list[str], offered: set[argparse.Action]) -> str | None:
    """For a command that takes names besides --project (`import PATH...`, `project remove-page PAGE...`), a
    project given without --project, which argparse took for one of the names, and so said only that --project is
    missing: --project, and the command line that gives it so when it then reads as it is."""
    action = parser.option(_PROJECT)
    if action is None or action in offered or not action.required:
        return None
    read = _read(parser, given)
    names = [getattr(read, name.dest, None) for name in parser.positionals()]
    words = [word for value in names for word in (value if isinstance(value, list) else [value])
             if isinstance(word, str | Path)]
    project = next((str(word) for word in words if project_folder_of(Path(word)) == Path(word)), None)
    if project is None or project not in given:
        return None
    offered.add(action)
    at = given.index(project)
    said = f"{hint_path(project)} is a project: give it as {hint_option(_PROJECT, project)}"
    # as `hint_option` gives it: joined by `=` when it begins with a dash, which would read as an option
    option = [f"{_PROJECT}={project}"] if project.startswith("-") else [_PROJECT, project]
    line = [*given[:at], *option, *given[at + 1:]]
    if _tried(parser, line, lenient=False) != []:
        return said
    return f"{said}, as in `{hint_words(['recordlens', *parser.name.split(), *line])}`"


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
