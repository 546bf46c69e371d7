"""Reading the JSON in a model's answer text: where a bracket closes, strings read as JSON reads them."""

from __future__ import annotations


def closing_bracket(text: str, start: int, opening: str = "[", closing: str = "]") -> int | None:
    """The position of the bracket that closes the one at `start` (None: it never closes: a cut-off answer),
    counting the brackets of `opening` and `closing` outside JSON strings."""
    depth = 0
    in_string = escaped = False
    for position in range(start, len(text)):
        char = text[position]
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in opening:
            depth += 1
        elif char in closing:
            depth -= 1
            if depth == 0:
                return position
    return None
