"""How a stop asked by a signal is told apart: Ctrl+C is Python's own KeyboardInterrupt; SIGTERM is `Terminated`.

Its own module, so that the app (a site capture's child process, the capture's window) can name it without loading
the command line's every command."""

import signal


class Terminated(KeyboardInterrupt):
    """SIGTERM (`timeout`, Slurm, cron, `kill`): the same clean stop as Ctrl+C's, wherever the work stands; exit
    143 (128 + SIGTERM), as shells and schedulers read a terminated command."""

    status = 128 + signal.SIGTERM
