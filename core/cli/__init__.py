"""The `recordlens` command: one module per command group, and `main` that assembles them."""

from .command import Terminated, main

__all__ = ["Terminated", "main"]
