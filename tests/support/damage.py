"""Damage a database file as a failing disk would, for the fail-closed tests."""

from __future__ import annotations

import sqlite3
from pathlib import Path


def scribble_over_table(path: Path, table: str = "turns") -> None:
    """Overwrite `table`'s root page of the (closed, checkpointed) database at `path`."""
    con = sqlite3.connect(path)
    try:
        page_size = con.execute("PRAGMA page_size").fetchone()[0]
        root = con.execute("SELECT rootpage FROM sqlite_master WHERE name = ?",
                           (table,)).fetchone()[0]
    finally:
        con.close()
    with open(path, "r+b") as f:
        f.seek((root - 1) * page_size)
        f.write(b"\xff" * page_size)
