"""One worker of `fit_pool`: reads (index, fit, task) messages pickled on standard input until None, and answers
each with (index, fit(task)) pickled on standard output, or (index, the error it raised). Run as
`python -m recordlens.core.extract.fit_worker [PARENT_PID]`; it ends as its caller (PARENT_PID) dies, even mid-fit.
"""

from __future__ import annotations

import os
import pickle
import signal
import sys
import threading
import time
import traceback

PR_SET_PDEATHSIG = 1  # prctl(2): the signal this process gets when the thread that started it ends
PARENT_POLL_S = 0.5  # how often a worker off Linux asks whether its caller is still there


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


def end_with_parent(parent: int) -> None:
    """End this process as soon as its caller `parent` dies, even mid-fit: a caller killed outright (kill -9, out of
    memory) closes the pipe, but a worker reads it only between fits, and went on burning a core for the rest of
    its fit (half a minute) re-parented to init. On Linux the kernel kills it (PR_SET_PDEATHSIG, when the thread
    that started it ends: `fit_pool` starts and waits for its workers in one thread); elsewhere a thread watches
    the parent's pid change (on macOS; on Windows it never changes, and the pipe alone ends a worker). A caller
    dead before that was set up is seen here at once."""
    if sys.platform.startswith("linux"):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    else:
        threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    if os.getppid() != parent:  # died before that: re-parented already
        os._exit(0)


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_POLL_S)
    os._exit(0)


def _parent_given() -> int:
    """The caller's pid, as `fit_pool` passes it; else the parent's now (a worker started by hand)."""
    return int(sys.argv[1]) if len(sys.argv) > 1 else os.getppid()


def serve() -> int:
    end_with_parent(_parent_given())
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
