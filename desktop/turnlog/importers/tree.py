"""One ChatGPT conversation's message tree, held in a private temporary SQLite database.

A conversation of 80,000 turns is a `mapping` of some 200,000 messages, 100 MB of JSON:
as Python objects it took over 600 MB. Here each message is kept as its JSON text in a
temporary database (SQLite keeps it in its page cache, `CACHE_KIB`, and moves what does
not fit to a temporary file it deletes when closed), the path to `current_node` is found
by a recursive query, and the turns made from it wait in the same database until the
store writes them. What Python holds is one message and one batch at a time, whatever the
size of the conversation. The database is emptied before each conversation.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from typing import Any

from ..core.imports import ImportProblem

CACHE_KIB = 16 * 1024
BATCH = 1_000
_SCHEMA = (
    "CREATE TABLE nodes (seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, parent TEXT, "
    "root INTEGER NOT NULL, counts INTEGER NOT NULL, valid INTEGER NOT NULL, raw TEXT)",
    "CREATE TABLE path (depth INTEGER NOT NULL, seq INTEGER NOT NULL)",
    "CREATE TABLE turns (seq INTEGER PRIMARY KEY, id TEXT, question TEXT, answer TEXT, "
    "model TEXT, created_at TEXT)",
)
_PATH = (
    "INSERT INTO path (depth, seq) WITH RECURSIVE up(depth, id) AS (SELECT 0, ? UNION ALL "
    "SELECT up.depth + 1, n.parent FROM up JOIN nodes n ON n.id = up.id "
    "WHERE n.valid AND n.parent IS NOT NULL AND up.depth <= ?) "
    "SELECT up.depth, n.seq FROM up JOIN nodes n ON n.id = up.id")


class MessageTree:
    """The messages of the conversation being read, and then the turns made of them."""

    def __init__(self) -> None:
        # "": a private temporary database, in memory until it outgrows the cache.
        self._db = sqlite3.connect("", isolation_level=None)
        self._db.execute(f"PRAGMA cache_size = -{CACHE_KIB}")
        self._db.execute("PRAGMA journal_mode = OFF")
        self._db.execute("PRAGMA synchronous = OFF")
        for statement in _SCHEMA:
            self._db.execute(statement)
        # One transaction, never committed (closing discards it): a commit would write the
        # cache out to the temporary file each time, 30 times slower than keeping it.
        self._db.execute("BEGIN")
        self._nodes: list[tuple[Any, ...]] = []
        self._turns: list[tuple[Any, ...]] = []
        self.generation = 0

    def close(self) -> None:
        self._db.close()

    def reset(self) -> None:
        """Empty, for the next conversation (its turns' reader stops working)."""
        self.generation += 1
        self._nodes.clear()
        self._turns.clear()
        for table in ("nodes", "path", "turns"):
            self._db.execute(f"DELETE FROM {table}")  # noqa: S608 - fixed names

    def add(self, node_id: str, node: Any, raw: str, counts: bool) -> None:
        """One entry of `mapping` (`raw`: its JSON text)."""
        valid = isinstance(node, dict)
        parent = node.get("parent") if valid else None
        self._nodes.append((node_id, parent if isinstance(parent, str) else None,
                            valid and parent is None, counts, valid, raw if valid else None))
        if len(self._nodes) >= BATCH:
            self._flush_nodes()

    def _flush_nodes(self) -> None:
        self._db.executemany("INSERT OR REPLACE INTO nodes (id, parent, root, counts, valid, "
                             "raw) VALUES (?, ?, ?, ?, ?, ?)", self._nodes)
        self._nodes.clear()

    def _has(self, node_id: str) -> bool:
        return self._db.execute("SELECT 1 FROM nodes WHERE id = ?", (node_id,)).fetchone() \
            is not None

    def walk(self, current: Any, where: str) -> int:
        """Find the path from the root to `current` (else to the newest leaf); returns how
        many messages a person saw lie off it."""
        self._flush_nodes()
        if not isinstance(current, str) or not self._has(current):
            current = self._newest_leaf()
        if current is None:
            return self._scalar("SELECT count(*) FROM nodes WHERE counts")
        total = self._scalar("SELECT count(*) FROM nodes")
        self._db.execute(_PATH, (current, total))
        rows, distinct = self._db.execute(
            "SELECT count(*), count(DISTINCT seq) FROM path").fetchone()
        if rows != distinct:
            raise ImportProblem(f"{where}: its message tree has a cycle")
        bad = self._db.execute("SELECT n.id FROM path p JOIN nodes n ON n.seq = p.seq "
                               "WHERE NOT n.valid LIMIT 1").fetchone()
        if bad is not None:
            raise ImportProblem(f"{where}: message {bad[0]!r} is not a JSON object")
        on_path = self._scalar("SELECT count(*) FROM path p JOIN nodes n ON n.seq = p.seq "
                               "WHERE n.counts")
        return self._scalar("SELECT count(*) FROM nodes WHERE counts") - on_path

    def _scalar(self, sql: str) -> int:
        return int(self._db.execute(sql).fetchone()[0])

    def _newest_leaf(self) -> str | None:
        """With no usable `current_node`: follow the newest child from the first root."""
        row = self._db.execute("SELECT id FROM nodes WHERE root ORDER BY seq LIMIT 1").fetchone()
        node: str | None = row[0] if row else None
        steps, total = 0, self._scalar("SELECT count(*) FROM nodes")
        while node is not None and steps <= total:
            (raw,) = self._db.execute("SELECT raw FROM nodes WHERE id = ?", (node,)).fetchone()
            listed = json.loads(raw).get("children") if raw else None
            children = [c for c in listed if isinstance(c, str) and self._has(c)] \
                if isinstance(listed, list) else []
            if not children:
                return node
            node, steps = children[-1], steps + 1
        return node

    def messages(self) -> Iterator[Any]:
        """The path's messages, root first."""
        cursor = self._db.execute("SELECT n.raw FROM path p JOIN nodes n ON n.seq = p.seq "
                                  "ORDER BY p.depth DESC")
        for (raw,) in cursor:
            yield json.loads(raw).get("message")

    def add_turn(self, turn_id: str, question: str, answer: str, model: str,
                 created_at: str) -> None:
        self._turns.append((turn_id, question, answer, model, created_at))
        if len(self._turns) >= BATCH:
            self.flush_turns()

    def flush_turns(self) -> None:
        self._db.executemany("INSERT INTO turns (id, question, answer, model, created_at) "
                             "VALUES (?, ?, ?, ?, ?)", self._turns)
        self._turns.clear()

    def turns(self) -> Iterator[tuple[str, str, str, str, str]]:
        """The turns made of this conversation, in order, a batch at a time."""
        generation = self.generation
        after = 0
        while True:
            if self.generation != generation:
                raise RuntimeError("a conversation's turns are read before the next one")
            rows = self._db.execute(
                "SELECT seq, id, question, answer, model, created_at FROM turns "
                "WHERE seq > ? ORDER BY seq LIMIT ?", (after, BATCH)).fetchall()
            if not rows:
                return
            after = rows[-1][0]
            for row in rows:
                yield row[1], row[2], row[3], row[4], row[5]
