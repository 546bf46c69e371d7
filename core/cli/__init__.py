"""The `recordlens` command: one module per command group, and `main` that assembles them."""

from .command import main

__all__ = ["main"]
