"""One ChatGPT conversation's message tree: as objects while it is small, else in a private
temporary SQLite database.

A conversation of 80,000 turns is a `mapping` of some 200,000 messages, 100 MB of JSON:
as Python objects it took over 600 MB. A conversation's messages are held as objects
until their JSON passes `SPILL_BYTES` (most conversations never do, and walking them in
memory is the fastest way); past that, each message is kept as its JSON text in a
temporary database (SQLite keeps it in its page cache, `CACHE_KIB`, and moves what does
not fit to a temporary file it deletes when closed), the path to `current_node` is found
by a recursive query, and the turns made from it wait in the same database until the
store writes them. What Python then holds is one message and one batch at a time,
whatever the size of the conversation. Both are emptied before each conversation.
"""

from __future__ import annotations

import json
import pickle  # noqa: S403 - of this process's own values, in its own private database
import sqlite3
from collections.abc import Callable, Iterator
from datetime import datetime
from typing import IO, Any

from ...core.imports import ImportProblem
from ...core.model import Usage
from ...core.send import PendingTurn
from .jsonstream import TOO_LARGE, ArrayReader

CACHE_KIB = 16 * 1024
BATCH = 1_000
SPILL_BYTES = 1024 * 1024  # a conversation's JSON held as objects up to this much
_SCHEMA = (
    "CREATE TABLE nodes (seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, parent TEXT, "
    "root INTEGER NOT NULL, counts INTEGER NOT NULL, valid INTEGER NOT NULL, raw TEXT)",
    "CREATE TABLE path (depth INTEGER NOT NULL, seq INTEGER NOT NULL)",
    "CREATE TABLE turns (seq INTEGER PRIMARY KEY, id TEXT, question TEXT, answer TEXT, "
    "model TEXT, finish_reason TEXT, created_at TEXT, reasoning TEXT, more BLOB)",
)
_PATH = (
    "INSERT INTO path (depth, seq) WITH RECURSIVE up(depth, id) AS (SELECT 0, ? UNION ALL "
    "SELECT up.depth + 1, n.parent FROM up JOIN nodes n ON n.id = up.id "
    "WHERE n.valid AND n.parent IS NOT NULL AND up.depth <= ?) "
    "SELECT up.depth, n.seq FROM up JOIN nodes n ON n.id = up.id")


class MessageTree:
    """The messages of the conversation being read, and then the turns made of them."""

    def __init__(self, counts: Callable[[Any], bool]) -> None:
        """`counts(message)`: whether a person saw that message (a question, an answer)."""
        self._counts = counts
        self._db: sqlite3.Connection | None = None  # opened by the first large conversation
        self._spilled = False
        # Held as objects while small: id → node, in the order read.
        self._held: dict[str, Any] = {}
        self._held_bytes = 0
        self._path: list[Any] = []
        self._nodes: list[tuple[Any, ...]] = []
        self._turns: list[tuple[Any, ...]] = []
        self.generation = 0

    def _database(self) -> sqlite3.Connection:
        if self._db is None:
            # "": a private temporary database, in memory until it outgrows the cache.
            self._db = sqlite3.connect("", isolation_level=None)
            self._db.execute(f"PRAGMA cache_size = -{CACHE_KIB}")
            self._db.execute("PRAGMA journal_mode = OFF")
            self._db.execute("PRAGMA synchronous = OFF")
            for statement in _SCHEMA:
                self._db.execute(statement)
            # One transaction, never committed (closing discards it): a commit would write
            # the cache out to the temporary file each time, 30 times slower than keeping it.
            self._db.execute("BEGIN")
        return self._db

    def close(self) -> None:
        if self._db is not None:
            self._db.close()

    def reset(self) -> None:
        """Empty, for the next conversation (its turns' reader stops working)."""
        self.generation += 1
        self._held.clear()
        self._held_bytes = 0
        self._path = []
        self._nodes.clear()
        self._turns.clear()
        if self._spilled:
            db = self._database()
            for table in ("nodes", "path", "turns"):
                db.execute(f"DELETE FROM {table}")  # noqa: S608 - fixed names
            self._spilled = False

    def add(self, node_id: str, node: Any, raw: str) -> None:
        """One entry of `mapping` (`raw`: its JSON text)."""
        if not self._spilled:
            held = self._held
            if node_id in held:
                del held[node_id]  # a repeated id counts where it is read last
            held[node_id] = node
            self._held_bytes += len(raw)
            if self._held_bytes > SPILL_BYTES:
                self._spill()
            return
        self._add_row(node_id, node, raw)

    def _seen(self, node: Any) -> bool:
        return isinstance(node, dict) and self._counts(node.get("message"))

    def _add_row(self, node_id: str, node: Any, raw: str) -> None:
        valid = isinstance(node, dict)
        parent = node.get("parent") if valid else None
        self._nodes.append((node_id, parent if isinstance(parent, str) else None,
                            valid and parent is None, self._seen(node), valid,
                            raw if valid else None))
        if len(self._nodes) >= BATCH:
            self._flush_nodes()

    def _spill(self) -> None:
        """The conversation outgrew `SPILL_BYTES`: what is held goes to the database."""
        self._spilled = True
        self._database()
        held, self._held = self._held, {}
        for node_id, node in held.items():
            # ASCII: a lone surrogate (`\ud800` in the file) stays an escape, as it came.
            self._add_row(node_id, node, json.dumps(node))
        self._flush_nodes()

    def _flush_nodes(self) -> None:
        self._database().executemany(
            "INSERT OR REPLACE INTO nodes (id, parent, root, counts, valid, raw) "
            "VALUES (?, ?, ?, ?, ?, ?)", self._nodes)
        self._nodes.clear()

    def _has(self, node_id: str) -> bool:
        return self._database().execute(
            "SELECT 1 FROM nodes WHERE id = ?", (node_id,)).fetchone() is not None

    def walk(self, current: Any, where: str) -> int:
        """Find the path from the root to `current` (else to the newest leaf); returns how
        many messages a person saw lie off it."""
        if not self._spilled:
            return self._walk_held(current, where)
        self._flush_nodes()
        if not isinstance(current, str) or not self._has(current):
            current = self._newest_leaf()
        if current is None:
            return self._scalar("SELECT count(*) FROM nodes WHERE counts")
        db = self._database()
        total = self._scalar("SELECT count(*) FROM nodes")
        db.execute(_PATH, (current, total))
        rows, distinct = db.execute("SELECT count(*), count(DISTINCT seq) FROM path").fetchone()
        if rows != distinct:
            raise ImportProblem(f"{where}: its message tree has a cycle")
        bad = db.execute("SELECT n.id FROM path p JOIN nodes n ON n.seq = p.seq "
                         "WHERE NOT n.valid LIMIT 1").fetchone()
        if bad is not None:
            raise ImportProblem(f"{where}: message {bad[0]!r} is not a JSON object")
        on_path = self._scalar("SELECT count(*) FROM path p JOIN nodes n ON n.seq = p.seq "
                               "WHERE n.counts")
        return self._scalar("SELECT count(*) FROM nodes WHERE counts") - on_path

    def _walk_held(self, current: Any, where: str) -> int:
        held = self._held
        if not isinstance(current, str) or current not in held:
            current = self._newest_held_leaf()
        seen: list[str] = []
        visited: set[str] = set()
        node_id: Any = current
        while isinstance(node_id, str) and node_id in held:
            if node_id in visited:
                raise ImportProblem(f"{where}: its message tree has a cycle")
            visited.add(node_id)
            seen.append(node_id)
            node = held[node_id]
            if not isinstance(node, dict):
                raise ImportProblem(f"{where}: message {node_id!r} is not a JSON object")
            parent = node.get("parent")
            node_id = parent if isinstance(parent, str) else None
        self._path = [(n, held[n].get("message")) for n in reversed(seen)]
        return sum(1 for key, node in held.items() if key not in visited and self._seen(node))

    def _newest_held_leaf(self) -> str | None:
        held = self._held
        node = next((k for k, n in held.items()
                     if isinstance(n, dict) and n.get("parent") is None), None)
        steps = 0
        while node is not None and steps <= len(held):
            listed = held[node].get("children")
            children = [c for c in listed if isinstance(c, str) and c in held] \
                if isinstance(listed, list) else []
            if not children:
                return node
            node, steps = children[-1], steps + 1
        return node

    def _scalar(self, sql: str) -> int:
        return int(self._database().execute(sql).fetchone()[0])

    def _newest_leaf(self) -> str | None:
        """With no usable `current_node`: follow the newest child from the first root."""
        db = self._database()
        row = db.execute("SELECT id FROM nodes WHERE root ORDER BY seq LIMIT 1").fetchone()
        node: str | None = row[0] if row else None
        steps, total = 0, self._scalar("SELECT count(*) FROM nodes")
        while node is not None and steps <= total:
            (raw,) = db.execute("SELECT raw FROM nodes WHERE id = ?", (node,)).fetchone()
            listed = json.loads(raw).get("children") if raw else None
            children = [c for c in listed if isinstance(c, str) and self._has(c)] \
                if isinstance(listed, list) else []
            if not children:
                return node
            node, steps = children[-1], steps + 1
        return node

    def messages(self) -> Iterator[Any]:
        """The path's messages, root first."""
        for _node_id, message in self.nodes():
            yield message

    def nodes(self) -> Iterator[tuple[str, Any]]:
        """The path's node ids with their messages, root first."""
        if not self._spilled:
            yield from self._path
            return
        cursor = self._database().execute(
            "SELECT n.id, n.raw FROM path p JOIN nodes n ON n.seq = p.seq "
            "ORDER BY p.depth DESC")
        for node_id, raw in cursor:
            yield node_id, json.loads(raw).get("message")

    def add_turn(self, turn: PendingTurn) -> None:
        """One turn made of the path (its question's files, reasoning and tool exchange
        included)."""
        self._turns.append(turn)
        if self._spilled and len(self._turns) >= BATCH:
            self.flush_turns()

    def flush_turns(self) -> None:
        if not self._spilled:
            return  # held with the messages
        # Text as columns; files, tool exchange and usage pickled only where a turn has
        # them: a dataclass pickles 25 times slower than its fields.
        self._database().executemany(
            "INSERT INTO turns (id, question, answer, model, finish_reason, created_at, "
            "reasoning, more) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [(t.id, t.question, t.answer, t.model, t.finish_reason, t.created_at.isoformat(),
              t.reasoning, pickle.dumps((t.attachments, t.tools, t.usage))
              if t.attachments or t.tools or t.usage != Usage() else None)
             for t in self._turns])
        self._turns.clear()

    def turns(self) -> Iterator[PendingTurn]:
        """The turns made of this conversation, in order, a batch at a time."""
        generation = self.generation
        if not self._spilled:
            for turn in list(self._turns):
                if self.generation != generation:
                    raise RuntimeError("a conversation's turns are read before the next one")
                yield turn
            return
        after = 0
        while True:
            if self.generation != generation:
                raise RuntimeError("a conversation's turns are read before the next one")
            rows = self._database().execute(
                "SELECT seq, id, question, answer, model, finish_reason, created_at, "
                "reasoning, more FROM turns WHERE seq > ? ORDER BY seq LIMIT ?",
                (after, BATCH)).fetchall()
            if not rows:
                return
            after = rows[-1][0]
            for _seq, turn_id, question, answer, model, finish, created, reasoning, more \
                    in rows:
                # noqa below: this process's own values, from its own private database
                attached, tools, usage = pickle.loads(more) if more else (  # noqa: S301
                    (), (), Usage())
                yield PendingTurn(id=turn_id, question=question, answer=answer, model=model,
                                  finish_reason=finish, usage=usage,
                                  created_at=datetime.fromisoformat(created),
                                  reasoning=reasoning, attachments=attached, tools=tools)


def mapped_conversations(stream: IO[str], name: str, counts: Callable[[Any], bool],
                         what: str) -> Iterator[tuple[int, dict[str, Any], MessageTree]]:
    """Each conversation of an export whose conversations keep their messages in a
    `mapping` tree (ChatGPT, DeepSeek): its index, its fields (`mapping` is the tree) and
    the tree, read one at a time: decoded whole while its text is within `SPILL_BYTES`
    (most are), else walked message by message, never held as objects. `what` names the
    export in messages. A conversation's turns must be read before the next is asked for."""
    reader = ArrayReader(stream, name)
    tree = MessageTree(counts)
    try:
        for index, _start in enumerate(reader.positions(), start=1):
            if reader.peek() != "{":
                item = reader.value()
                raise ImportProblem(f"conversation {index} of {what} is not a JSON object but "
                                    f"{type(item).__name__}")
            tree.reset()
            whole = reader.small_value(SPILL_BYTES)
            fields = _fields_of(whole, tree) if whole is not TOO_LARGE else \
                _walked_fields(reader, tree)
            yield index, fields, tree
    finally:
        tree.close()


def _fields_of(item: dict[str, Any], tree: MessageTree) -> dict[str, Any]:
    """A conversation decoded whole: its messages go to `tree` as they are."""
    fields = dict(item)
    mapping = item.get("mapping")
    if isinstance(mapping, dict):
        for node_id, node in mapping.items():
            tree.add(node_id, node, "")
        fields["mapping"] = tree
    return fields


def _walked_fields(reader: ArrayReader, tree: MessageTree) -> dict[str, Any]:
    """A large conversation, its `mapping` read one message at a time into `tree`."""
    fields: dict[str, Any] = {}
    for key in reader.members():
        if key == "mapping" and reader.peek() == "{":
            for node_id in reader.members():
                node = reader.value(raw=True)
                tree.add(node_id, node, reader.raw)
            fields[key] = tree
        else:
            fields[key] = reader.value()
    return fields
