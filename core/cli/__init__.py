"""The `recordlens` command: one module per command group, and `main` that assembles them."""

from .main import main

__all__ = ["main"]
