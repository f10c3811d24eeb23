"""Bringing a database to this version's schema, with a copy to fall back on.

A new database is created at the current version. An existing one at an older
version is first copied aside as `turnlog.sqlite3.before-v<N>`, N being the version it
is upgraded *from* (the copy is a complete schema-N database: put it back in place and
the Turnlog of that version opens it). The copy is private (0600) and consistent (made
with SQLite's backup API, so pages still in the WAL are included). After the upgrade the
file is reopened and checked (`integrity_check`, and every table that existed before
holds as many rows as before); only then is the copy overwritten with zeros and
removed, on that same start. If the checks fail the copy is kept and `UpgradeFailed`
names it. A privacy delete also removes any such copy (`remove_copies`), so no deleted
text survives in one.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
from collections.abc import Sequence
from pathlib import Path

import peewee

from .errors import STORE_EXCEPTIONS, DatabaseCorrupt, UpgradeFailed, classify
from .migrations import MIGRATIONS, Step, migrate
from .schema_version import Progress, current_version, table_names

log = logging.getLogger(__name__)
COPY_MARK = ".before-v"
_COMPANIONS = ("", "-wal", "-shm", "-journal")
_ZEROS = bytes(1 << 20)


def copy_path(db_path: Path, version: int) -> Path:
    return db_path.with_name(f"{db_path.name}{COPY_MARK}{version}")


def copies(db_path: Path) -> list[Path]:
    """Copies made before an upgrade that are still on disk."""
    return sorted(db_path.parent.glob(f"{db_path.name}{COPY_MARK}*"))


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _overwrite(path: Path) -> None:
    with open(path, "r+b", buffering=0) as f:
        left = os.fstat(f.fileno()).st_size
        while left > 0:
            left -= f.write(_ZEROS[: min(left, len(_ZEROS))])
        os.fsync(f.fileno())


def remove_securely(path: Path) -> None:
    """Overwrite `path` (and any journal SQLite left beside it) with zeros, sync, unlink.
    SQLite's `secure_delete` only covers pages inside its own file, not a copy of it."""
    for companion in _COMPANIONS:
        target = path.with_name(path.name + companion)
        if not target.exists():
            continue
        _overwrite(target)
        target.unlink()
    _fsync_dir(path.parent)


def remove_copies(db_path: Path) -> int:
    """Remove every copy made before an upgrade; returns how many there were."""
    found = copies(db_path)
    for path in found:
        remove_securely(path)
        log.info("Removed %s, the copy kept from before a schema upgrade.", path.name)
    return len(found)


def copy_aside(db: peewee.SqliteDatabase, db_path: Path, version: int) -> Path:
    """A consistent private copy of the open database, as `<name>.before-v<version>`."""
    target = copy_path(db_path, version)
    if target.exists():
        remove_securely(target)  # from an earlier start whose upgrade did not finish
    os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    try:
        copy = sqlite3.connect(target)
        try:
            db.connection().backup(copy)
            copy.execute("PRAGMA journal_mode = DELETE")
        finally:
            copy.close()
        with open(target, "rb") as f:
            os.fsync(f.fileno())
        _fsync_dir(target.parent)
    except BaseException:
        with contextlib.suppress(OSError):
            remove_securely(target)
        raise
    return target


def row_counts(db: peewee.SqliteDatabase) -> dict[str, int]:
    return {
        name: int(db.execute_sql(f'SELECT count(*) FROM "{name}"').fetchone()[0])
        for name in table_names(db)
    }


def problems_after(db: peewee.SqliteDatabase, before: dict[str, int]) -> list[str]:
    """What is wrong with the upgraded file: integrity, or rows that went missing."""
    found = []
    integrity = [str(r[0]) for r in db.execute_sql("PRAGMA integrity_check").fetchall()]
    if integrity != ["ok"]:
        found.append("integrity check: " + "; ".join(integrity[:5]))
    after = row_counts(db)
    for name, count in before.items():
        # The search index is derived from the turns: a step may rebuild it in a new shape;
        # a step may journal rows already stored for the sync to publish (none go).
        grown = name == "sync_journal" and after.get(name, 0) >= count
        if after.get(name) != count and not name.startswith("search_") and not grown:
            found.append(f"table {name} had {count:,} rows, now {after.get(name, 0):,}")
    return found


def bring_up_to_date(
    db: peewee.SqliteDatabase, db_path: Path, steps: Sequence[Step] = MIGRATIONS, *,
    progress: Progress | None = None,
) -> int:
    """Create or upgrade the open database to the newest of `steps`; returns the version
    it was at. `progress` hears (done, total) of a step filling derived data."""
    version = current_version(db)
    newest = len(steps)
    if version >= newest:
        return version
    if version == 0:
        if table_names(db):
            raise DatabaseCorrupt(f"The database {db_path} has tables but no Turnlog schema "
                                  "version: it is not a Turnlog database.")
        migrate(db, steps, progress)
        return version
    before = row_counts(db)
    copy = copy_aside(db, db_path, version)
    log.info("Copied %s to %s before upgrading it from schema %d to %d.",
             db_path.name, copy.name, version, newest)
    try:
        migrate(db, steps, progress)
        db.close()
        db.connect()
        problems = problems_after(db, before)
    except STORE_EXCEPTIONS as err:
        known = classify(err, str(db_path))
        log.error("Upgrading %s failed; its copy from before stays at %s.", db_path, copy)
        if known is None:
            err.add_note(f"The database from before the upgrade is kept at {copy}.")
            raise
        raise UpgradeFailed(f"Upgrading {db_path} from schema {version} to {newest} failed: "
                            f"{known} The database from before the upgrade is kept at {copy}.",
                            str(copy)) from err
    if problems:
        log.error("Upgraded %s fails its checks (%s); its copy from before stays at %s.",
                  db_path, "; ".join(problems), copy)
        raise UpgradeFailed(
            f"{db_path} was upgraded from schema {version} to {newest} but fails its checks "
            f"({'; '.join(problems)}). The database from before the upgrade is kept at {copy}: "
            "close Turnlog and put it back in place of the upgraded file, then report this.",
            str(copy),
        )
    remove_securely(copy)
    log.info("Upgraded %s to schema %d; removed the copy from before.", db_path.name, newest)
    return version
