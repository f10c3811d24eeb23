"""The database fixture of every released schema version."""

from __future__ import annotations

from places import DATA

FIXTURES = {int(p.stem.removeprefix("turnlog-v")): p for p in DATA.glob("turnlog-v*.sqlite3")}
