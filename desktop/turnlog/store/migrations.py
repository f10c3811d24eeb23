"""Schema versions. `PRAGMA user_version` holds the version; each step runs in a transaction."""

from __future__ import annotations

from collections.abc import Callable

import peewee

from .models import TABLES_V1, TABLES_V2


def _v1(db: peewee.SqliteDatabase) -> None:
    db.create_tables(TABLES_V1)


def _v2(db: peewee.SqliteDatabase) -> None:
    db.create_tables(TABLES_V2)


# Append new steps; never edit a released one.
MIGRATIONS: list[Callable[[peewee.SqliteDatabase], None]] = [_v1, _v2]
SCHEMA_VERSION = len(MIGRATIONS)


def current_version(db: peewee.SqliteDatabase) -> int:
    return int(db.execute_sql("PRAGMA user_version").fetchone()[0])


def migrate(db: peewee.SqliteDatabase) -> int:
    """Bring the database to `SCHEMA_VERSION`; returns the version it started at."""
    start = current_version(db)
    for version in range(start, SCHEMA_VERSION):
        with db.atomic():
            MIGRATIONS[version](db)
            db.execute_sql(f"PRAGMA user_version = {version + 1}")
    return start
