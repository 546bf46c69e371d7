"""What every command shares about output: the document on stdout (or a file), warnings on stderr, and the two
streams as a command sees them (`command_streams`): stderr, which only says how the work goes, never stops the
work; stdout, which holds what the command was asked for, ends the command when it cannot be written."""

from __future__ import annotations

import argparse
import contextlib
import errno
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO, TextIO

from .. import atomic
from ..command_hints import hint_path
from ..errors import RecordLensError
from ..path_text import json_text, shown_bytes

STDOUT = "-"  # an output path that means stdout (`--out -`, `bench --json -`)
PIPE_CLOSED_STATUS = 128 + 13  # 128 + SIGPIPE: what a shell reports of a command whose reader went away


def refuse_a_project_with_a_dataset(args: argparse.Namespace) -> None:
    """`--project` given with `--pages`/`--gt` (synth, train, labels check): refused at once, in the same words by
    each, since one of the two would go unread (and checking one would hide the other)."""
    if args.project and (args.pages or args.gt):
        raise RecordLensError("give either --project DIR or --pages DIR --gt DIR, not both")


def warn(message: str) -> None:
    print(f"warning: {message}", file=sys.stderr)


def print_json(document: object, *, indent: int | None = 2) -> None:
    """A JSON document on stdout, text as it is (a name that stdout's encoding cannot hold is written as a JSON
    escape by the stream `command_streams` sets up, so the document stays valid), and a path whose bytes are not
    UTF-8 as JSON escapes (`\\udce9`) whatever the locale, which a JSON reader gives back as that path: written
    as its bytes (a C.UTF-8 locale's stdout would), the document would be no UTF-8."""
    print(json_text(json.dumps(document, ensure_ascii=False, indent=indent)))


class Replacing:
    """A file about to be written whole: after the write, `said()` tells the user when an earlier one was there,
    so that it is not lost unawares (the write itself is atomic)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.existed = self.path.is_file()

    def said(self) -> None:
        if self.existed:
            print(f"replaced the earlier {hint_path(self.path)}", file=sys.stderr)


def write_document(text: str, out: str | None) -> None:
    """`text` into the file `out`, or on stdout without one (or with `-`)."""
    if out and out != STDOUT:
        atomic.write_text(out, text)  # as every file a command writes: a killed run leaves no half of one
        print(f"wrote {hint_path(out)} ({len(text):,} characters)", file=sys.stderr)
    else:
        sys.stdout.write(text)
        if not text.endswith("\n"):
            sys.stdout.write("\n")


class OutputLost(BaseException):  # noqa: N818 - a stop, as KeyboardInterrupt is, not a failure of the work
    """stdout could not be written (its reader went away, its disk is full, it is closed): the command ends there,
    as on Ctrl+C (a BaseException, so that no `except Exception` of the work takes it for a page's failure), and
    what it did so far is kept."""

    def __init__(self, error: OSError) -> None:
        super().__init__(str(error))
        self.error = error

    @property
    def pipe_closed(self) -> bool:
        return self.error.errno == errno.EPIPE

    def message(self) -> str:
        return f"could not write the output ({self.error.strerror or self.error})"


COMMAND_STOPS = (KeyboardInterrupt, OutputLost)  # what stops a command part way: Ctrl+C, SIGTERM (a KeyboardInterrupt
# too), a stdout that can no longer be written (`| head`); where a command says what it kept and how to go on


class _Stdout:
    """stdout as a command writes it: a failed write raises `OutputLost` (never blamed on a file or a project);
    text its encoding cannot hold (a page named `café` under PYTHONIOENCODING=ascii) is written with escapes,
    `\\u00e9`, which keep a JSON document valid and a table readable."""

    def __init__(self, stream: TextIO | None) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        stream = self._writable()
        with _lost_when_it_fails():
            try:
                return stream.write(text)
            except UnicodeEncodeError:
                return stream.write(_escaped(text, stream.encoding or "ascii"))

    def flush(self) -> None:
        if self._stream is None:
            return
        with _lost_when_it_fails():
            self._stream.flush()

    def isatty(self) -> bool:
        return _isatty(self._stream)

    @property
    def buffer(self) -> _StdoutBytes:
        """The bytes under stdout (code that writes `sys.stdout.buffer`), whose failed writes are `OutputLost` too
        (a closed pipe met there is no failure of a file or a project either)."""
        return _StdoutBytes(self._writable().buffer)

    def _writable(self) -> TextIO:
        if self._stream is None:  # started with stdout closed (`>&-`)
            raise OutputLost(OSError(errno.EBADF, "stdout is closed"))
        return self._stream

    def __getattr__(self, name: str) -> Any:  # noqa: ANN401 - whatever the stream has (encoding, fileno, buffer)
        if self._stream is None:
            raise AttributeError(name)
        return getattr(self._stream, name)


class _StdoutBytes:
    """`_Stdout`'s binary buffer: a failed write or flush raises `OutputLost`, as a text write does."""

    def __init__(self, buffer: BinaryIO) -> None:
        self._buffer = buffer

    def write(self, data: bytes) -> int:
        with _lost_when_it_fails():
            return self._buffer.write(data)

    def flush(self) -> None:
        with _lost_when_it_fails():
            self._buffer.flush()

    def __getattr__(self, name: str) -> Any:  # noqa: ANN401 - whatever the buffer has (fileno, raw, ...)
        return getattr(self._buffer, name)


class _Stderr:
    """stderr as a command writes it: progress and messages to a stderr that is closed, full or whose reader went
    away are dropped, and the work goes on (it is no part of what the command was asked for). A path whose bytes
    are not UTF-8 is written with those bytes as `\\xe9` (`path_text.shown_bytes`), as `text_forms.visible` shows
    a name: every message names it one way, whichever wrote it (Python's own stderr would write `\\udce9`)."""

    def __init__(self, stream: TextIO | None) -> None:
        self._stream = stream
        self.lost = stream is None

    def write(self, text: str) -> int:
        if not self.lost:
            try:
                self._stream.write(shown_bytes(text))  # type: ignore[union-attr]
                return len(text)
            except (OSError, ValueError):
                self._lose()
        return len(text)

    def flush(self) -> None:
        if not self.lost:
            try:
                self._stream.flush()  # type: ignore[union-attr]
            except (OSError, ValueError):
                self._lose()

    def isatty(self) -> bool:
        return not self.lost and _isatty(self._stream)

    def _lose(self) -> None:
        self.lost = True
        _point_at_nothing(self._stream)  # what its buffer holds would fail again at exit (and exit 120)

    def __getattr__(self, name: str) -> Any:  # noqa: ANN401
        if self._stream is None:
            raise AttributeError(name)
        return getattr(self._stream, name)


@contextlib.contextmanager
def command_streams() -> Iterator[None]:
    """stdout and stderr as a command writes them (`_Stdout`, `_Stderr`) while it runs; as they were after. They
    are the process's own `sys.stdout` and `sys.stderr` that are swapped: one command at a time (concurrent
    `main()` calls in threads would each put back the other's)."""
    before = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _Stdout(before[0]), _Stderr(before[1])  # type: ignore[assignment]
    try:
        yield
    finally:
        sys.stdout, sys.stderr = before


def end_on_lost_output(lost: OutputLost) -> int:
    """The exit status of a command whose stdout could not be written, said on stderr but for a reader that went
    away (`| head`: silent, as other commands are, 141); stdout then points at nothing, so that the interpreter's
    last flush of what it still holds cannot fail again."""
    _point_at_nothing(getattr(sys.stdout, "_stream", sys.stdout))
    if lost.pipe_closed:
        return PIPE_CLOSED_STATUS
    print(f"recordlens: error: {lost.message()}", file=sys.stderr)
    return 2


def _point_at_nothing(stream: TextIO | None) -> None:
    """Point a stream's file at /dev/null (where it has one: a test's captured stream has none)."""
    try:
        fd = stream.fileno()  # type: ignore[union-attr]
    except (AttributeError, OSError, ValueError):
        return
    with contextlib.suppress(OSError):
        nothing = os.open(os.devnull, os.O_WRONLY)
        os.dup2(nothing, fd)
        os.close(nothing)


def _isatty(stream: TextIO | None) -> bool:
    try:
        return stream is not None and stream.isatty()
    except (OSError, ValueError):
        return False


@contextlib.contextmanager
def _lost_when_it_fails() -> Iterator[None]:
    """A write or flush of stdout that fails is `OutputLost` (ValueError: a stream closed under us)."""
    try:
        yield
    except (OSError, ValueError) as error:
        raise OutputLost(error if isinstance(error, OSError) else OSError(errno.EBADF, str(error))) from None


def _escaped(text: str, encoding: str) -> str:
    """`text` with each character `encoding` cannot hold written as a JSON escape (`\\u00e9`; a pair of them for a
    character beyond the Basic Multilingual Plane), valid inside a JSON string and readable elsewhere."""
    def held(char: str) -> bool:
        try:
            char.encode(encoding)
        except UnicodeEncodeError:
            return False
        return True

    def escape(char: str) -> str:
        code = ord(char)
        if code <= 0xFFFF:
            return f"\\u{code:04x}"
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"

    return "".join(char if held(char) else escape(char) for char in text)
