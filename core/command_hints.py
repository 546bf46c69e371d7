"""The commands a message hands the user to run (`recordlens score --project P --run 1`), written so that the line
runs as printed in a POSIX shell whatever the names in it: each user value quoted for the shell, and one that begins
with a dash (a project folder named `-proj`) written so that the command does not read it as an option."""

from __future__ import annotations

import shlex

__all__ = ["hint_option", "hint_path"]


def hint_option(name: str, value: object) -> str:
    """An option and its value as a hint writes them: `--project P`, quoted for the shell (`--project 'my p'`), and
    joined to the option by `=` when the value begins with a dash (`--project=-proj`), which the command would
    otherwise take for an option of its own ("expected one argument")."""
    text = str(value)
    if text.startswith("-"):
        return shlex.quote(f"{name}={text}")
    return f"{name} {shlex.quote(text)}"


def hint_path(value: object) -> str:
    """A path given as a positional argument, as a hint writes it: quoted for the shell, and a relative one that
    begins with a dash written `./-x` (the same file), which the command would otherwise take for an option."""
    text = str(value)
    return shlex.quote(f"./{text}" if text.startswith("-") else text)
