"""One worker of `fit_pool`: reads (index, fit, task) messages pickled on standard input until None, and answers
each with (index, fit(task)) pickled on standard output, or (index, the error it raised). Run as
`python -m recordlens.core.extract.fit_worker`."""

from __future__ import annotations

import os
import pickle
import signal
import sys
import traceback


def _sendable(error: Exception) -> Exception:
    """The error itself when it survives pickling both ways, else a RuntimeError holding its traceback."""
    try:
        pickle.loads(pickle.dumps(error))
        return error
    except Exception:  # noqa: BLE001 - any error that does not travel is described instead
        text = "".join(traceback.format_exception(error))
        return RuntimeError(f"a fit failed in a worker process: {type(error).__name__}: {error}\n{text}")


def _next_request(requests: object) -> object:
    """The next message; None also when the caller is gone (its end of the pipe closed without the final None)."""
    try:
        return pickle.load(requests)  # type: ignore[arg-type]
    except EOFError:
        return None


def serve() -> int:
    # Results go out on a private copy of standard output; anything printed from here on (by Python or by
    # native code, while importing or fitting) goes to standard error instead of into the results.
    results = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    # Ctrl+C reaches every process of the terminal's group: the caller stops the work and ends its workers, so a
    # worker leaves the key to it rather than printing a KeyboardInterrupt traceback of its own.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    requests = sys.stdin.buffer
    while (message := _next_request(requests)) is not None:
        index, fit, task = message
        try:
            outcome: object = fit(task)
        except Exception as error:  # noqa: BLE001 - handed back to the caller, which raises it
            outcome = _sendable(error)
        try:
            pickle.dump((index, outcome), results, protocol=pickle.HIGHEST_PROTOCOL)
            results.flush()
        except BrokenPipeError:  # the caller is gone (interrupted, or it stopped the work): nothing to answer
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(serve())
