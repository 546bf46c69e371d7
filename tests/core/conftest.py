"""Fixtures the core tests share (pytest finds them here)."""

from tests.core.held_database import held_database

__all__ = ["held_database"]
