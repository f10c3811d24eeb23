"""Where the tests find the repository, its data files and the shared support files,
wherever in tests/ the file asking sits."""

from __future__ import annotations

from pathlib import Path

SUPPORT = Path(__file__).resolve().parent  # the shared support modules and peers
ROOT = next(p for p in SUPPORT.parents if (p / "pyproject.toml").is_file())
TESTS = ROOT / "tests"
DATA = TESTS / "data"  # database fixtures and files to import
DESKTOP = ROOT / "desktop"  # what PYTHONPATH names for a child process to import turnlog
