"""Every `--help` says what its command is and what each option does, with its default, names only options the
command has, and the README's command lines name only options the commands have, showing an option with a default as
optional. Found by a reader of the help: `agent run --requests-per-minute` spoke of --max-tokens, which `agent run`
refuses; `represent` showed --format as required in the README, optional in the help with no default said; `demo`,
`labels check`, `project init` and `site build` had no description; options had no help at all."""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from recordlens.core.cli.command import build_parser

README = Path(__file__).resolve().parents[2] / "README.md"
OPTION = re.compile(r"(?<![\w-])--[a-z][a-z-]*")


def _actions_of(parser: argparse.ArgumentParser) -> argparse._SubParsersAction | None:
    return next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)), None)


def _commands(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()
              ) -> Iterator[tuple[str, argparse.ArgumentParser, str]]:
    """(command as typed, its parser, the line its parent lists it with) for every command and action."""
    actions = _actions_of(parser)
    if actions is None:
        return
    listed = {choice.dest: choice.help or "" for choice in actions._choices_actions}
    for name, command in actions.choices.items():
        yield " ".join((*path, name)), command, listed.get(name, "")
        yield from _commands(command, (*path, name))


COMMANDS = list(_commands(build_parser()))
NAMES = sorted({name.split()[0] for name, _, _ in COMMANDS})


def _options(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    return [a for a in parser._actions if not isinstance(a, argparse._HelpAction | argparse._SubParsersAction)]


def _said_by(parser: argparse.ArgumentParser, listed: str) -> str:
    """Everything a command's help says in words, but what it quotes of other commands (`recordlens score ...`,
    `import --annotator`), which names their options."""
    text = " ".join([parser.description or "", listed, *(a.help or "" for a in _options(parser))])
    commands = "|".join(map(re.escape, NAMES))
    return re.sub(rf"`(recordlens )?({commands})\b[^`]*`", "", text)


@pytest.mark.parametrize(("name", "parser", "listed"), COMMANDS, ids=[name for name, _, _ in COMMANDS])
def test_every_command_says_what_it_is_and_what_each_option_does(name: str, parser: argparse.ArgumentParser,
                                                                 listed: str) -> None:
    assert parser.description, f"`{name} --help` starts with no description"
    assert parser.format_help().split("\n\n")[1].strip(), name
    unexplained = [a.option_strings[0] if a.option_strings else a.dest for a in _options(parser) if not a.help]
    assert not unexplained, f"{name}: no help for {unexplained}"
    # a value the command takes when the option is not given is said (a list of repeats starts empty: nothing to say)
    unsaid = [a.option_strings[0] for a in _options(parser) if a.option_strings and a.nargs != 0
              and a.default not in (None, [], "") and "default" not in (a.help or "")]
    assert not unsaid, f"{name}: the default of {unsaid} is not said"


@pytest.mark.parametrize(("name", "parser", "listed"), COMMANDS, ids=[name for name, _, _ in COMMANDS])
def test_a_help_names_only_options_its_command_has_and_no_internal_wording(name: str, parser: argparse.ArgumentParser,
                                                                          listed: str) -> None:
    own = {option for a in parser._actions for option in a.option_strings}
    foreign = sorted(set(OPTION.findall(_said_by(parser, listed))) - own)
    assert not foreign, f"{name}'s help names {foreign}, which {name} does not take"
    assert not re.search(r"\bissue\b", _said_by(parser, listed), re.IGNORECASE), f"{name}'s help speaks of an issue"


@pytest.mark.parametrize(("name", "parser", "listed"), [c for c in COMMANDS if _actions_of(c[1]) is not None],
                         ids=[c[0] for c in COMMANDS if _actions_of(c[1]) is not None])
def test_a_command_with_actions_names_each_in_its_line(name: str, parser: argparse.ArgumentParser,
                                                       listed: str) -> None:
    actions = _actions_of(parser)
    assert actions is not None
    missing = [action for action in actions.choices if not re.search(rf"(?<![\w-]){re.escape(action)}(?![\w-])",
                                                                      listed)]
    assert not missing, f"the line of `{name}` ({listed!r}) does not name {missing}"


def _readme_command_lines() -> list[str]:
    blocks = re.findall(r"```[a-z]*\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    return [line.split("  #")[0] for block in blocks for line in block.splitlines() if line.startswith("recordlens ")]


def _parser_of(words: list[str]) -> tuple[str, argparse.ArgumentParser, list[str]]:
    """The command a README line runs, its parser, and the words after it."""
    parser, path = build_parser(), []
    while (actions := _actions_of(parser)) is not None and len(path) + 1 < len(words) and \
            words[len(path) + 1] in actions.choices:
        path.append(words[len(path) + 1])
        parser = actions.choices[path[-1]]
    return " ".join(path), parser, words[len(path) + 1:]


PLACEHOLDER = re.compile(r"[A-Z][A-Z_]*(\.\.\.)?|[^|\s]+(\|[^|\s]+)+")  # K, DIR, flat|hier|...


@pytest.mark.parametrize("line", _readme_command_lines())
def test_the_readme_s_command_lines_name_the_options_as_the_commands_take_them(line: str) -> None:
    for part in line.split(";"):
        name, parser, words = _parser_of(part.split())
        assert name, f"the README runs no command: {part!r}"
        own = {option: a for a in parser._actions for option in a.option_strings}
        depth = 0
        for i, word in enumerate(words):
            if word == "|" and depth == 0:  # `site build DIR | capture URL...`: another command follows
                break
            bare = depth == 0 and word.startswith("--")
            depth += word.count("[") + word.count("(") - word.count("]") - word.count(")")
            for option in OPTION.findall(word):
                assert option in own, f"the README gives `{name}` {option}, which it does not take: {line!r}"
                value = words[i + 1] if i + 1 < len(words) else ""
                # shown bare with a placeholder, an option reads as required: one with a default is optional
                if bare and word == option and PLACEHOLDER.fullmatch(value):
                    default = own[option].default
                    assert default is None or default is False or own[option].required, (
                        f"the README shows `{name} {option} {value}` as required, but it has a default "
                        f"({default!r}): show it as [{option} {value}]: {line!r}")
