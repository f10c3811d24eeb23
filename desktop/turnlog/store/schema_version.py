"""What opening a data directory needs to know about its schema: the newest version this
Turnlog knows and the version a file is at. The frozen steps themselves (store/migrations.py,
with the search index's DDL) load only when a file is older and must be upgraded."""

from __future__ import annotations

from collections.abc import Callable

import peewee

# The number of steps in `migrations.MIGRATIONS` (a test holds the two together).
SCHEMA_VERSION = 23

# Hears (done, total) while an upgrade fills derived data.
Progress = Callable[[int, int], None]


def current_version(db: peewee.SqliteDatabase) -> int:
    return int(db.execute_sql("PRAGMA user_version").fetchone()[0])


def table_names(db: peewee.SqliteDatabase) -> list[str]:
    rows = db.execute_sql(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
        "ORDER BY name"
    ).fetchall()
    return [str(name) for (name,) in rows]
