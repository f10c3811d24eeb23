"""A sync feed for the wire side's tests, kept in a real SQLite file, that implements the seam
(`outgoing`, `incoming`, `deleted`) faithfully for a small log: conversations, their turns
and renames, and deletes (everywhere, with tombstones kept for good, and on this machine
only, with a local marker).

Named for what it is: a list-shaped log, kept beside `StoreFeed` (a real data directory's
`TurnlogStore` and its `store.sync_feed`) so the wire side is checked against a second,
independent implementation of the seam. `FEEDS` is what the end-to-end tests are
parametrised over.

Like the store's: applying is idempotent and in one transaction; a malformed record, or a
turn or rename of a conversation this log has never seen (nor deleted), raises
`SyncRecordInvalid` and nothing of the batch is applied; records of deleted ids are ignored.
"""

from __future__ import annotations

import json
import sqlite3
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from turnlog.sync.seam import Outgoing, SyncRecordInvalid, needs_reading

MAX_RECORD = 4 * 1024 * 1024
KINDS = {"conversation", "turn", "rename", "delete"}

_SCHEMA = """
CREATE TABLE IF NOT EXISTS journal (n INTEGER PRIMARY KEY AUTOINCREMENT, gid TEXT NOT NULL,
    conv TEXT, record TEXT NOT NULL, kind TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS records (gid TEXT PRIMARY KEY, kind TEXT NOT NULL, conv TEXT,
    hlc TEXT NOT NULL, body TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tombstones (gid TEXT PRIMARY KEY);
CREATE TABLE IF NOT EXISTS here_only (gid TEXT PRIMARY KEY);
CREATE TABLE IF NOT EXISTS clock (n INTEGER NOT NULL);
"""


@dataclass
class Applied:
    counts: dict[str, int] = field(default_factory=dict)
    erased: list[str] = field(default_factory=list)


class ListFeed:
    """One data directory's log and its side of the seam."""

    def __init__(self, home: Path) -> None:
        home.mkdir(parents=True, exist_ok=True)
        self.node = uuid.uuid4().hex[:8]
        self.machine = "this machine"  # as the store's feed: the wire side names it
        self.con = sqlite3.connect(home / "list-log.sqlite3", isolation_level=None,
                                   timeout=30)
        self.con.execute("PRAGMA secure_delete=ON")
        self.con.execute("PRAGMA journal_mode=WAL")
        self.con.executescript(_SCHEMA)
        if self.con.execute("SELECT count(*) FROM clock").fetchone()[0] == 0:
            self.con.execute("INSERT INTO clock VALUES (0)")

    def close(self) -> None:
        self.con.close()

    # ---------------------------------------------------------------- local acts
    def _hlc(self, seen: str | None = None) -> str:
        n = self.con.execute("SELECT n FROM clock").fetchone()[0]
        if seen is not None:
            n = max(n, int(seen.split(".")[0]))
        self.con.execute("UPDATE clock SET n = ?", (n + 1,))
        return f"{n + 1:012d}.{self.node}"

    def _local(self, record: dict[str, Any]) -> dict[str, Any]:
        self.con.execute("BEGIN IMMEDIATE")
        record = {"v": 1, **record, "hlc": self._hlc()}
        self._store(record)
        self.con.execute("INSERT INTO journal (gid, conv, record, kind) VALUES (?, ?, ?, ?)",
                         (record["id"], record["conv"], _written(record), record["kind"]))
        self.con.execute("COMMIT")
        return record

    def new_conversation(self, title: str) -> str:
        gid = str(uuid.uuid4())
        self._local({"kind": "conversation", "id": gid, "conv": gid, "title": title})
        return gid

    def add_turn(self, conv: str, question: str, answer: str, model: str = "m") -> str:
        gid = str(uuid.uuid4())
        self._local({"kind": "turn", "id": gid, "conv": conv, "question": question,
                     "answer": answer, "model": model})
        return gid

    def rename(self, conv: str, title: str) -> None:
        self._local({"kind": "rename", "id": str(uuid.uuid4()), "conv": conv, "title": title})

    def delete_everywhere(self, conv: str) -> None:
        targets = self._ids_of(conv)
        self.con.execute("BEGIN IMMEDIATE")
        self._erase(targets)
        self.con.executemany("INSERT OR IGNORE INTO tombstones VALUES (?)",
                             ((t,) for t in targets))
        record = {"v": 1, "kind": "delete", "id": str(uuid.uuid4()), "conv": conv,
                  "hlc": self._hlc(), "targets": targets,
                  "counts": {"conversation": 1, "turn": sum(
                      1 for t in targets if self._kind_was.get(t) == "turn")}}
        self._store(record)
        self.con.execute("INSERT INTO journal (gid, conv, record, kind) VALUES (?, ?, ?, ?)",
                         (record["id"], None, _written(record), "delete"))
        self.con.execute("COMMIT")

    def delete_here(self, conv: str) -> None:
        targets = self._ids_of(conv)
        self.con.execute("BEGIN IMMEDIATE")
        self._erase(targets)
        self.con.executemany("INSERT OR IGNORE INTO here_only VALUES (?)",
                             ((t,) for t in targets))
        self.con.execute("COMMIT")

    def _ids_of(self, conv: str) -> list[str]:
        rows = self.con.execute("SELECT gid, kind FROM records WHERE conv = ? OR gid = ?",
                                (conv, conv)).fetchall()
        self._kind_was = dict(rows)
        return sorted({conv, *(r[0] for r in rows)})

    def _erase(self, targets: list[str]) -> None:
        for gid in targets:
            self.con.execute("DELETE FROM records WHERE gid = ? OR conv = ?", (gid, gid))
            self.con.execute("DELETE FROM journal WHERE gid = ? OR conv = ?", (gid, gid))

    def _store(self, record: dict[str, Any]) -> None:
        self.con.execute("INSERT OR IGNORE INTO records VALUES (?, ?, ?, ?, ?)",
                         (record["id"], record["kind"], record.get("conv"), record["hlc"],
                          json.dumps(record)))

    # ---------------------------------------------------------------------- the seam
    def outgoing(self, after: int, limit: int = 2000) -> tuple[list[dict[str, Any]], int]:
        rows = self.con.execute("SELECT n, record FROM journal WHERE n > ? ORDER BY n LIMIT ?",
                                (after, limit)).fetchall()
        if not rows:
            last = self.con.execute("SELECT max(n) FROM journal").fetchone()[0]
            return [], max(after, last or 0)
        return [json.loads(r[1]) for r in rows], rows[-1][0]

    def outgoing_json(self, after: int, limit: int = 2000) -> tuple[list[Outgoing], int]:
        """`outgoing`, each record as the journal keeps its JSON, as bytes (read only when
        the wire side needs more than its kind, id and conversation)."""
        rows = self.con.execute("SELECT n, CAST(record AS BLOB), kind, gid, conv FROM journal "
                                "WHERE n > ? ORDER BY n LIMIT ?", (after, limit)).fetchall()
        if not rows:
            return [], self.outgoing(after, limit)[1]
        out = []
        for _, text, kind, gid, conv in rows:
            if kind == "delete":  # its journal row names no conversation; the record does
                record = json.loads(text)
                out.append(Outgoing(text, kind, gid, record.get("conv"),
                                    record if needs_reading(record) else None))
            else:
                out.append(Outgoing(text, kind, gid, conv))
        return out, rows[-1][0]

    def incoming(self, records: list[dict[str, Any]], origin: str) -> Applied:
        applied = Applied()
        self.con.execute("BEGIN IMMEDIATE")
        try:
            for record in records:
                self._apply(record, applied)
        except BaseException:
            self.con.execute("ROLLBACK")
            raise
        self.con.execute("COMMIT")
        return applied

    def deleted(self) -> set[str]:
        return {r[0] for r in self.con.execute("SELECT gid FROM tombstones")}

    def _apply(self, record: dict[str, Any], applied: Applied) -> None:
        _check(record)
        gone = {r[0] for r in self.con.execute(
            "SELECT gid FROM tombstones WHERE gid IN (?, ?) UNION SELECT gid FROM here_only "
            "WHERE gid IN (?, ?)", (record["id"], record["conv"], record["id"],
                                    record["conv"]))}
        if record["kind"] == "delete":
            targets = record["targets"]
            self._erase(targets)
            self.con.executemany("INSERT OR IGNORE INTO tombstones VALUES (?)",
                                 ((t,) for t in targets))
            applied.erased.extend(targets)
        elif gone:
            return
        elif record["kind"] != "conversation" and self.con.execute(
                "SELECT 1 FROM records WHERE gid = ?", (record["conv"],)).fetchone() is None:
            raise SyncRecordInvalid(f"a {record['kind']} of a conversation never seen")
        self._hlc(record["hlc"])
        self._store(record)
        applied.counts[record["kind"]] = applied.counts.get(record["kind"], 0) + 1

    # ----------------------------------------------------------------- reading back
    def dump(self) -> dict[str, Any]:
        """The log by global id: each conversation's title (the latest rename by clock) and
        its turns."""
        rows = self.con.execute("SELECT gid, kind, conv, hlc, body FROM records").fetchall()
        out: dict[str, Any] = {}
        renames: dict[str, tuple[str, str]] = {}
        for gid, kind, conv, hlc, body in sorted(rows, key=lambda r: r[3]):
            data = json.loads(body)
            if kind == "conversation":
                out.setdefault(gid, {"turns": {}})["title"] = data["title"]
            elif kind == "rename":
                renames[conv] = max(renames.get(conv, ("", "")), (hlc, data["title"]))
            elif kind == "turn":
                out.setdefault(conv, {"turns": {}})["turns"][gid] = [
                    data["question"], data["answer"], data["model"]]
        for conv, (_, title) in renames.items():
            if conv in out:
                out[conv]["title"] = title
        return out


def _written(record: dict[str, Any]) -> str:
    """A record's JSON as the journal keeps it (and sends it): compact UTF-8."""
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def _check(record: Any) -> None:
    if not isinstance(record, dict) or record.get("v") != 1 or record.get("kind") not in KINDS:
        raise SyncRecordInvalid("a record of an unknown format or kind")
    if not isinstance(record.get("id"), str) or not isinstance(record.get("hlc"), str):
        raise SyncRecordInvalid("a record without its id or clock")
    if len(json.dumps(record)) > MAX_RECORD:
        raise SyncRecordInvalid("a record larger than 4 MiB")
    if record["kind"] == "delete" and not (
            isinstance(record.get("targets"), list)
            and all(isinstance(t, str) for t in record["targets"])):
        raise SyncRecordInvalid("a delete without its list of ids")
    if record["kind"] != "delete" and not isinstance(record.get("conv"), str):
        raise SyncRecordInvalid("a record without its conversation")


class DictsOnly:
    """A `ListFeed` behind the seam's plain methods only: its records handed as dicts (no
    `outgoing_json`), as a feed that does not write its records' JSON hands them."""

    def __init__(self, home: Path) -> None:
        self.inner = ListFeed(home)

    def __getattr__(self, name: str) -> Any:
        if name in ("outgoing_json", "inner"):
            raise AttributeError(name)
        return getattr(self.inner, name)


class StoreFeed:
    """A real data directory (`TurnlogStore.open(home)`): the seam is the store's own
    `store.sync_feed`; the acts go through the store's API as the window and the CLI do."""

    def __init__(self, home: Path) -> None:
        from turnlog.store import TurnlogStore

        self.store = TurnlogStore.open(home)
        self.home = home

    @property
    def sync(self) -> Any:
        return self.store.sync_feed

    @property
    def machine(self) -> str:
        return self.store.sync_feed.machine

    @machine.setter
    def machine(self, name: str) -> None:  # the engine names this machine's forks' origin
        self.store.sync_feed.machine = name

    def close(self) -> None:
        self.store.close()

    def outgoing(self, after: int, limit: int = 2000) -> tuple[list[dict[str, Any]], int]:
        return self.sync.outgoing(after, limit)

    def incoming(self, records: list[dict[str, Any]], origin: str) -> Any:
        return self.sync.incoming(records, origin)

    def deleted(self) -> set[str]:
        return self.sync.deleted()

    def __getattr__(self, name: str) -> Any:  # the rest of the seam (blobs, forget …)
        if name == "store":
            raise AttributeError(name)
        return getattr(self.store.sync_feed, name)

    def _local_id(self, conv: str) -> int:
        row = self.store.db.execute_sql('SELECT "id" FROM "conversations" WHERE "gid" = ?',
                                        (conv,)).fetchone()
        if row is None:
            raise KeyError(conv)
        return row[0]

    def new_conversation(self, title: str) -> str:
        cid = self.store.conversations.create(title).id
        return self.store.db.execute_sql('SELECT "gid" FROM "conversations" WHERE "id" = ?',
                                         (cid,)).fetchone()[0]

    def add_turn(self, conv: str, question: str, answer: str, model: str = "m") -> str:
        from datetime import UTC, datetime

        from turnlog.core.model import Usage
        from turnlog.core.pending import PendingTurn

        turn = self.store.turns.commit(self._local_id(conv), PendingTurn(
            id=uuid.uuid4().hex, question=question, answer=answer, model=model,
            finish_reason="stop", usage=Usage(1, 2, 3), created_at=datetime.now(UTC)))
        return turn.id

    def add_version(self, conv: str, turn: str, question: str, answer: str) -> str:
        """A new version of `turn` (an edit or a regeneration), used from now on."""
        from datetime import UTC, datetime

        from turnlog.core.model import Usage
        from turnlog.core.pending import PendingTurn

        return self.store.turns.commit(self._local_id(conv), PendingTurn(
            id=uuid.uuid4().hex, question=question, answer=answer, model="m",
            finish_reason="stop", usage=Usage(1, 2, 3), created_at=datetime.now(UTC),
            replaces=turn)).id

    def rename(self, conv: str, title: str) -> None:
        self.store.conversations.update(self._local_id(conv), title=title)

    def delete_everywhere(self, conv: str) -> None:
        self.sync.delete_conversations([self._local_id(conv)], everywhere=True)

    def delete_here(self, conv: str) -> None:
        self.sync.delete_conversations([self._local_id(conv)], everywhere=False)

    def checkpoint(self) -> None:
        self.store.database.checkpoint()

    def file_bytes(self) -> bytes:
        """Every byte of the data directory's files (the database, its WAL, the rest)."""
        return b"".join(p.read_bytes() for p in sorted(self.home.rglob("*")) if p.is_file())

    def dump(self) -> dict[str, Any]:
        """The log by global id: each conversation's title, its turns (question, answer,
        model) by id, and for a fork the conversation it continues and the machine."""
        db = self.store.db
        gids = dict(db.execute_sql('SELECT "id", "gid" FROM "conversations"').fetchall())
        forks = {c: (gids.get(s), on) for c, s, on in db.execute_sql(
            'SELECT "conversation_id", "source_id", "continued_on" FROM "forks"')}
        out: dict[str, Any] = {}
        for cid, title in db.execute_sql('SELECT "id", "title" FROM "conversations"'):
            out[gids[cid]] = {"title": title, "turns": {}, "fork": forks.get(cid)}
        for cid, tid, question, answer, model in db.execute_sql(
                'SELECT "conversation_id", "id", "question", "answer", "model" FROM "turns"'):
            out[gids[cid]]["turns"][tid] = [question, answer, model]
        return out


# What the end-to-end tests are parametrised over: name → a factory of a feed for one data
# directory: a real data directory's store, and the list-shaped second implementation.
FEEDS: dict[str, Callable[[Path], Any]] = {"lists": ListFeed, "store": StoreFeed}
