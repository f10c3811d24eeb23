"""This machine's side of sync, in a small SQLite file of its own in the data directory
(`sync.sqlite3`): ids and numbers only, never text.

It holds this machine's id and name, the storage (a `StorageConfig`, never its secret: that
is in the keyring), the local cursor published so far,
this machine's objects (live or removed, with the digest of each and the global ids each
holds, so a delete everywhere finds the objects to rewrite), an object being written (so a
sync killed half-way finishes it, or forgets it if it never reached the storage), per
other machine how far its sequence has been applied, and the deletes this machine published
(counts and times) for the status.
"""

from __future__ import annotations

import fcntl
import json
import os
import sqlite3
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from .layout import StorageConfig

STATE_NAME = "sync.sqlite3"
LOCK_NAME = "sync.lock"
LOCK_POLL_S = 0.05


class SyncBusy(Exception):
    """Another sync of this data directory is running."""


class SyncNotSetUp(Exception):
    """The data directory has no sync set up (any more): a sync, a status read or a change
    that was asked for before *Stop syncing* removed the state finds it gone, and never
    makes an empty one in its place."""

    kind = "not_set_up"

    def __init__(self) -> None:
        super().__init__("sync is not set up for this data directory")


@contextmanager
def sync_lock(home: Path, wait_s: float = 0.0) -> Iterator[None]:
    """Held for the length of one sync, setup, forget or passphrase change; taken once
    another's ends if that is within `wait_s` seconds, else SyncBusy."""
    fd = os.open(home / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o600)
    deadline = time.monotonic() + wait_s
    try:
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise SyncBusy("another sync of this data directory is running; try "
                                   "again when it has finished") from None
                time.sleep(LOCK_POLL_S)
        yield
    finally:
        os.close(fd)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS own_objects (
    seq INTEGER PRIMARY KEY, digest TEXT NOT NULL, live INTEGER NOT NULL, at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS own_id_lists (seq INTEGER PRIMARY KEY, ids TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS pending (
    seq INTEGER PRIMARY KEY, digest TEXT NOT NULL, cursor INTEGER, ids TEXT NOT NULL,
    replaces TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS peers (
    machine TEXT PRIMARY KEY, name TEXT NOT NULL DEFAULT '', frontier INTEGER NOT NULL
    DEFAULT 0, forgotten INTEGER NOT NULL DEFAULT 0, last_at TEXT NOT NULL DEFAULT '',
    read_of_mine INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS applied (
    machine TEXT NOT NULL, seq INTEGER NOT NULL, digest TEXT NOT NULL,
    PRIMARY KEY (machine, seq));
CREATE TABLE IF NOT EXISTS own_blobs (
    digest TEXT PRIMARY KEY, name TEXT NOT NULL, key_id TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS own_blob_refs (
    digest TEXT NOT NULL, gid TEXT NOT NULL, conv TEXT, PRIMARY KEY (digest, gid));
CREATE TABLE IF NOT EXISTS deletes (
    seq INTEGER NOT NULL, at TEXT NOT NULL, conversations INTEGER NOT NULL,
    turns INTEGER NOT NULL, records INTEGER NOT NULL);
"""


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def is_sync_set_up(home: Path) -> bool:
    """Whether sync is set up for the data directory `home` (a delete then asks whether
    it is meant everywhere or on this machine only)."""
    path = home / STATE_NAME
    if not path.is_file():
        return False
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        row = con.execute("SELECT value FROM settings WHERE key IN ('storage', 'folder')"
                          ).fetchone()
    except sqlite3.DatabaseError:
        return False
    finally:
        con.close()
    return row is not None


@dataclass(frozen=True, slots=True)
class Peer:
    machine: str
    name: str
    frontier: int
    forgotten: bool
    last_at: str
    read_of_mine: int


@dataclass(frozen=True, slots=True)
class PendingObject:
    seq: int
    digest: str
    cursor: int | None
    ids: list[str]
    replaces: list[int]


class SyncState:
    """The state file of one data directory; open with `SyncState.open(home)`."""

    def __init__(self, con: sqlite3.Connection) -> None:
        self._con = con

    @classmethod
    def open(cls, home: Path) -> SyncState:
        """The state of a data directory where sync is set up; SyncNotSetUp when it is not
        (or no longer: the file is never made again here, only by `create`)."""
        try:
            con = sqlite3.connect(f"{(home / STATE_NAME).absolute().as_uri()}?mode=rw", uri=True,
                                  isolation_level=None, timeout=30)
        except sqlite3.OperationalError:
            if (home / STATE_NAME).exists():
                raise
            raise SyncNotSetUp from None
        state = cls._prepared(con)
        if not (state.get("storage") or state.get("folder")):
            state.close()  # one a setup never finished
            raise SyncNotSetUp
        state._upgrade()
        return state

    @classmethod
    def create(cls, home: Path) -> SyncState:
        """The state a setup fills in: made when missing (only a setup calls this)."""
        return cls._prepared(sqlite3.connect(home / STATE_NAME, isolation_level=None,
                                             timeout=30))

    @classmethod
    def _prepared(cls, con: sqlite3.Connection) -> SyncState:
        con.execute("PRAGMA journal_mode=WAL")
        con.execute("PRAGMA synchronous=FULL")
        con.executescript(_SCHEMA)
        return cls(con)

    def _upgrade(self) -> None:
        """A state written before sync reached servers named its storage by a folder path
        alone (`folder`); it now keeps the whole `StorageConfig` (`storage`). One written
        before the first sync got faster kept a row (and two index entries) per id in its
        objects (`own_ids`); it now keeps one list per object."""
        folder = self.get("folder")
        if folder and not self.get("storage"):
            with self.transaction():
                self.put("storage", StorageConfig("folder", folder).dumps())
                self._con.execute("DELETE FROM settings WHERE key = 'folder'")
        if self._con.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND "
                             "name = 'own_ids'").fetchone():
            lists: dict[int, list[str]] = {}
            for seq, gid in self._con.execute("SELECT seq, gid FROM own_ids ORDER BY seq, gid"):
                lists.setdefault(seq, []).append(gid)
            with self.transaction():
                self._con.executemany("INSERT OR REPLACE INTO own_id_lists VALUES (?, ?)",
                                      ((seq, json.dumps(ids)) for seq, ids in lists.items()))
                self._con.execute("DROP TABLE own_ids")

    def close(self) -> None:
        self._con.close()

    def __enter__(self) -> SyncState:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[None]:
        self._con.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self._con.execute("ROLLBACK")
            raise
        self._con.execute("COMMIT")

    # ------------------------------------------------------------------ settings
    def get(self, key: str, default: str = "") -> str:
        row = self._con.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return default if row is None else str(row[0])

    def put(self, key: str, value: str | int) -> None:
        self._con.execute("INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) "
                          "DO UPDATE SET value = excluded.value", (key, str(value)))

    @property
    def machine_id(self) -> str:
        return self.get("machine_id")

    @property
    def machine_name(self) -> str:
        return self.get("machine_name")

    @property
    def storage(self) -> StorageConfig:
        """The storage this machine syncs through (set up, so always there)."""
        return StorageConfig.loads(self.get("storage"))

    @property
    def cursor(self) -> int:
        return int(self.get("cursor", "0"))

    @property
    def key_id(self) -> str:
        return self.get("key_id")

    def set_up(self, machine_id: str, name: str, storage: StorageConfig, key_id: str) -> None:
        with self.transaction():
            for key, value in (("machine_id", machine_id), ("machine_name", name),
                               ("storage", storage.dumps()), ("key_id", key_id),
                               ("cursor", 0)):
                self.put(key, value)

    # --------------------------------------------------------- this machine's objects
    def next_seq(self) -> int:
        row = self._con.execute(
            "SELECT max(m) FROM (SELECT max(seq) AS m FROM own_objects "
            "UNION ALL SELECT max(seq) FROM pending)").fetchone()
        return int(row[0] or 0) + 1

    def own(self) -> dict[int, tuple[str, bool]]:
        """seq → (digest, live) of every object this machine wrote under its id."""
        rows = self._con.execute("SELECT seq, digest, live FROM own_objects")
        return {seq: (digest, bool(live)) for seq, digest, live in rows}

    def live_objects(self) -> list[int]:
        return [r[0] for r in self._con.execute(
            "SELECT seq FROM own_objects WHERE live = 1 ORDER BY seq")]

    def add_pending(self, item: PendingObject) -> None:
        self._con.execute("INSERT INTO pending VALUES (?, ?, ?, ?, ?)",
                          (item.seq, item.digest, item.cursor, json.dumps(item.ids),
                           json.dumps(item.replaces)))

    def pending(self) -> list[PendingObject]:
        rows = self._con.execute("SELECT seq, digest, cursor, ids, replaces FROM pending "
                                 "ORDER BY seq").fetchall()
        return [PendingObject(s, d, c, json.loads(i), json.loads(r)) for s, d, c, i, r in rows]

    def drop_pending(self, seq: int) -> None:
        self._con.execute("DELETE FROM pending WHERE seq = ?", (seq,))

    def finish_pending(self, item: PendingObject, deletes: Iterable[tuple[int, int, int]] = (),
                       then: PendingObject | None = None) -> None:
        """The object is in the storage: it is live, what it replaces is not, and the
        cursor moves past what it published — all at once, and with it `then`, the next
        object about to be written, is noted (one transaction, not two, per object)."""
        with self.transaction():
            if then is not None:
                self.add_pending(then)
            self._con.execute("DELETE FROM pending WHERE seq = ?", (item.seq,))
            self._con.execute("INSERT INTO own_objects VALUES (?, ?, 1, ?)",
                              (item.seq, item.digest, now()))
            self._con.execute("INSERT INTO own_id_lists VALUES (?, ?)",
                              (item.seq, json.dumps(item.ids)))
            for old in item.replaces:
                self._con.execute("UPDATE own_objects SET live = 0 WHERE seq = ?", (old,))
                self._con.execute("DELETE FROM own_id_lists WHERE seq = ?", (old,))
            if item.cursor is not None:
                self.put("cursor", item.cursor)
            self._con.executemany("INSERT INTO deletes VALUES (?, ?, ?, ?, ?)",
                                  ((item.seq, now(), *d) for d in deletes))

    def objects_holding(self, gids: Iterable[str]) -> list[int]:
        """This machine's live objects that hold any of `gids`: one pass over their id
        lists (a list per object, not a row per id, keeps a first sync's writes few)."""
        wanted = set(gids)
        if not wanted:
            return []
        rows = self._con.execute(
            "SELECT l.seq, l.ids FROM own_id_lists l JOIN own_objects o ON o.seq = l.seq "
            "AND o.live = 1 ORDER BY l.seq")
        return [seq for seq, ids in rows if not wanted.isdisjoint(json.loads(ids))]

    # ------------------------------------------------------------ this machine's files
    def own_blob(self, digest: str) -> tuple[str, str] | None:
        """(name, key id) of a file's object this machine wrote, if any."""
        return self._con.execute("SELECT name, key_id FROM own_blobs WHERE digest = ?",
                                 (digest,)).fetchone()

    def add_own_blob(self, digest: str, name: str, key_id: str,
                     refs: Iterable[tuple[str, str | None]]) -> None:
        """A file's object is in the storage; `refs`: (record id, its conversation) of the
        records that name it."""
        with self.transaction():
            self._con.execute("INSERT INTO own_blobs VALUES (?, ?, ?) ON CONFLICT (digest) DO "
                              "UPDATE SET name = excluded.name, key_id = excluded.key_id",
                              (digest, name, key_id))
            self._con.executemany("INSERT OR IGNORE INTO own_blob_refs VALUES (?, ?, ?)",
                                  ((digest, gid, conv) for gid, conv in refs))

    def own_blobs(self) -> list[tuple[str, str, str]]:
        return self._con.execute("SELECT digest, name, key_id FROM own_blobs ORDER BY digest"
                                 ).fetchall()

    def unreferenced_blobs(self, deleted: set[str]) -> list[tuple[str, str]]:
        """(digest, name) of this machine's file objects whose every record was deleted."""
        found = []
        for digest, name in self._con.execute("SELECT digest, name FROM own_blobs").fetchall():
            refs = self._con.execute("SELECT gid, conv FROM own_blob_refs WHERE digest = ?",
                                     (digest,)).fetchall()
            if all(gid in deleted or conv in deleted for gid, conv in refs):
                found.append((digest, name))
        return found

    def drop_own_blob(self, digest: str) -> None:
        with self.transaction():
            self._con.execute("DELETE FROM own_blobs WHERE digest = ?", (digest,))
            self._con.execute("DELETE FROM own_blob_refs WHERE digest = ?", (digest,))

    # ------------------------------------------------------------------ other machines
    def peers(self) -> dict[str, Peer]:
        rows = self._con.execute("SELECT machine, name, frontier, forgotten, last_at, "
                                 "read_of_mine FROM peers")
        return {r[0]: Peer(r[0], r[1], r[2], bool(r[3]), r[4], r[5]) for r in rows}

    def peer(self, machine: str) -> Peer:
        return self.peers().get(machine) or Peer(machine, "", 0, False, "", 0)

    def applied_digest(self, machine: str, seq: int) -> str | None:
        row = self._con.execute("SELECT digest FROM applied WHERE machine = ? AND seq = ?",
                                (machine, seq)).fetchone()
        return None if row is None else str(row[0])

    def mark_applied(self, machine: str, seq: int, digest: str, name: str, at: str,
                     read_of_mine: int) -> None:
        """Every section up to `seq` of `machine` is applied (called inside a
        transaction)."""
        self._con.execute("INSERT OR REPLACE INTO applied VALUES (?, ?, ?)",
                          (machine, seq, digest))
        self._con.execute(
            "INSERT INTO peers (machine, name, frontier, last_at, read_of_mine) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (machine) DO UPDATE SET name = excluded.name, "
            "frontier = max(frontier, excluded.frontier), last_at = max(last_at, "
            "excluded.last_at), read_of_mine = max(read_of_mine, excluded.read_of_mine)",
            (machine, name, seq, at, read_of_mine))

    def forget(self, machine: str) -> None:
        self._con.execute("INSERT INTO peers (machine, forgotten) VALUES (?, 1) "
                          "ON CONFLICT (machine) DO UPDATE SET forgotten = 1", (machine,))

    def frontiers(self) -> dict[str, int]:
        return {p.machine: p.frontier for p in self.peers().values() if not p.forgotten}

    def forgotten(self) -> list[str]:
        return sorted(p.machine for p in self.peers().values() if p.forgotten)

    def keep_last_report(self, waiting: list[str], problems: list[str]) -> None:
        """What the last sync waited for and refused (machine ids and numbers only)."""
        self.put("last_report", json.dumps({"waiting": waiting, "problems": problems}))

    def last_report(self) -> dict[str, list[str]]:
        raw = self.get("last_report")
        return json.loads(raw) if raw else {"waiting": [], "problems": []}

    def deletes(self) -> list[tuple[int, str, int, int, int]]:
        return self._con.execute("SELECT seq, at, conversations, turns, records FROM deletes "
                                 "ORDER BY seq").fetchall()

    # ----------------------------------------------------------- a restored machine
    def take_new_machine_id(self, new_id: str) -> str:
        """Restored from an old backup: the storage knows more of this machine's sequence
        than this state does. Its numbers are never reused: it becomes `new_id`, publishes
        its log again from the start, and reads its old self as another machine."""
        old = self.machine_id
        with self.transaction():
            self._con.execute("DELETE FROM own_objects")
            self._con.execute("DELETE FROM own_id_lists")
            self._con.execute("DELETE FROM pending")
            self._con.execute("DELETE FROM deletes")
            self._con.execute("DELETE FROM own_blobs")
            self._con.execute("DELETE FROM own_blob_refs")
            self._con.execute("DELETE FROM peers WHERE machine = ?", (old,))
            self.put("machine_id", new_id)
            self.put("cursor", 0)
            self.put("previous_machine_id", old)
        return old
