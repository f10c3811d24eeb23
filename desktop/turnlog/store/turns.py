"""`store.turns`: the log's turns, committed one transaction each, read whole or a page
at a time; their versions.

Calling the part gives a conversation's active line (`store.turns(id)`), as core's
`LogStore` asks. Turns are append-only; each is written in one transaction with its
question and answer together.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator, Sequence
from dataclasses import replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from peewee import SQL, fn

from ..core.failures import FailureKind, StoreError
from ..core.model import Conversation, ConversationSettings, Turn
from ..core.title_sources import QUESTION, USER
from ..core.versions import Versions
from . import attachments, rows, salvage, titles, versions
from .conversations import FIRST_SEND, Conversations, conversation_row
from .database import Database
from .errors import NotFound, TurnIdConflict
from .models import ConversationRow, ToolResultRow, TurnRow, insert
from .pages import LogPages

if TYPE_CHECKING:  # a commit's: reading the log loads neither
    from ..core.pending import PendingTurn


def _mine(conversation_id: int, hidden: frozenset[str]) -> Any:
    """The turns of a conversation, less `hidden` (superseded) ones."""
    mine = TurnRow.conversation == conversation_id
    return mine & TurnRow.id.not_in(list(hidden)) if hidden else mine


@lru_cache(maxsize=64)
def _page_sql(hidden: int, after: bool, from_oldest: bool) -> str:
    """One page read as a statement of its own (SQLite keeps it prepared by its text): a
    page read builds no query in Python, so a page read ahead on another thread holds the
    interpreter lock for little more than making its turns."""
    columns = ", ".join(f'"{name}"' for name in rows.TURN_COLUMNS)
    unseen = f' AND "id" NOT IN ({", ".join("?" * hidden)})' if hidden else ""
    newer = ' AND "ordinal" > ?' if after else ""
    order = "ASC" if from_oldest else "DESC"
    return (f'SELECT {columns} FROM "turns" WHERE "conversation_id" = ?{unseen} AND '
            f'"ordinal" <= ?{newer} ORDER BY "ordinal" {order} LIMIT ? OFFSET ?')


class Turns:
    """The turns of one store's conversations."""

    def __init__(self, database: Database, conversations: Conversations) -> None:
        self.database = database
        self.db = database.db
        self.conversations = conversations
        # conversation id → (turns in its active line, the newest ordinal, the hidden
        # turns they were counted without); `changes` counts the writes since open.
        self.kept: dict[int, tuple[int, int, frozenset[str]]] = {}
        self.kept_lock = threading.Lock()
        self.changes = 0

    def __call__(self, conversation_id: int) -> tuple[Turn, ...]:
        """The active line (every turn no newer version superseded), oldest first, as an
        immutable tuple, read now: what a projection works on (`active_turns`).

        Not kept: reading a long log costs time and memory in proportion to it, so what
        only needs its newest turns or its count reads `log` instead.
        """
        return self.active(conversation_id)

    def active(self, conversation_id: int) -> tuple[Turn, ...]:
        """The turns that are not superseded, oldest first."""
        hidden = self.versions(conversation_id).superseded
        return tuple(t for t in self.all(conversation_id) if t.id not in hidden)

    def all(self, conversation_id: int) -> tuple[Turn, ...]:
        """The whole log, superseded versions included, oldest first (export, show)."""
        self.conversations.get(conversation_id)
        with self.database.guard():
            # Rows straight from the cursor: converting each value through peewee's model
            # machinery costs more than the query itself on a long log.
            query = (
                TurnRow.select(*(getattr(TurnRow, name) for name in rows.TURN_COLUMNS))
                .where(TurnRow.conversation == conversation_id)
                .order_by(TurnRow.ordinal)
            )
            found = [rows.turn_of(*r) for r in self.db.execute(query).fetchall()]
            return tuple(self.with_files(found))

    def with_files(self, turns: list[Turn]) -> list[Turn]:
        """`turns` with their attachments (as they were sent) read in."""
        files = attachments.of_turns(self.db, (t.id for t in turns))
        if not files:
            return turns
        return [replace(t, attachments=files[t.id]) if t.id in files else t for t in turns]

    def batches(self, conversation_id: int, size: int = 1_000) -> Iterator[list[Turn]]:
        """The whole log, oldest first, `size` turns at a time (an export of any length
        in bounded memory)."""
        columns = ", ".join(rows.TURN_COLUMNS)
        after = -1
        while True:
            with self.database.guard():
                found = self.db.execute_sql(
                    f"SELECT {columns} FROM turns WHERE conversation_id = ? AND ordinal > ? "
                    "ORDER BY ordinal LIMIT ?", (conversation_id, after, size)).fetchall()
            if not found:
                return
            with self.database.guard():
                batch = self.with_files([rows.turn_of(*r) for r in found])
            yield batch
            after = batch[-1].ordinal

    def next_ordinal(self, conversation_id: int) -> int:
        with self.database.guard():
            row = conversation_row(self.db, conversation_id)
        if row is None:
            raise NotFound(f"There is no conversation {conversation_id}.")
        return int(row.next_ordinal)

    def versions(self, conversation_id: int) -> Versions:
        """Which turns are superseded, and which are versions of one another."""
        with self.database.guard():
            return versions.read(self.db, conversation_id)

    def version_members(self, conversation_id: int) -> tuple[Versions, dict[str, Turn]]:
        """The versions and every turn that is one of several versions of its position."""
        with self.database.guard():
            known = versions.read(self.db, conversation_id)
            ids = [t for group in known.groups() for t in group]
            found = self.by_id(ids) if ids else {}
        return known, {turn_id: turn for turn_id, (_, turn) in found.items()}

    def log(self, conversation_id: int) -> LogPages:
        """The active line as it is now, read a page at a time as it is looked at
        (`LogPages`): one counting query over the index here, no turn read yet."""
        hidden = self.versions(conversation_id).superseded
        count, newest = self.line_size(conversation_id, hidden)
        if not count:
            self.conversations.get(conversation_id)  # NotFound when there is no such conversation
        return LogPages(self, conversation_id, count, newest, hidden=hidden)

    def line_size(self, conversation_id: int, hidden: frozenset[str]) -> tuple[int, int]:
        """How many turns the active line has and its newest ordinal: kept by a writer
        (the only one writing this file) from its first count on, and brought up to date
        by each commit and delete it makes, so a send does not count a long log again."""
        with self.kept_lock:
            kept = self.kept.get(conversation_id)
            seen = self.changes
        if kept is not None and kept[2] == hidden:
            return kept[0], kept[1]
        mine = _mine(conversation_id, hidden)
        with self.database.guard():
            # Two queries: SQLite answers MAX from the index's edge alone, and COUNT with a
            # plain walk over the index, faster than both in one.
            (count,) = self.db.execute(TurnRow.select(fn.COUNT(SQL("*"))).where(mine)).fetchone()
            (newest,) = self.db.execute(TurnRow.select(fn.MAX(TurnRow.ordinal)).where(mine)
                                        ).fetchone()
        size = int(count or 0), int(newest or 0)
        with self.kept_lock:
            # Kept only when no write came between: its count could be older than it.
            if self.database.writable and self.changes == seen \
                    and not self.db.in_transaction():
                self.kept[conversation_id] = (*size, hidden)
        return size

    def counts_changed(self, conversation_id: int | None, *, appended: int | None = None
                       ) -> None:
        """After a write has committed: a conversation's active line (None: every one)
        changed. `appended`: by one turn of that ordinal at its end (the kept count goes
        up by one); otherwise the kept count is dropped and made again when next asked."""
        with self.kept_lock:
            self.changes += 1
            kept = self.kept.get(conversation_id) if conversation_id is not None else None
            if conversation_id is None:
                self.kept.clear()
            elif kept is not None and appended is not None and appended > kept[1]:
                self.kept[conversation_id] = (kept[0] + 1, appended, kept[2])
            else:
                self.kept.pop(conversation_id, None)

    def turn_page(self, conversation_id: int, *, newest: int, limit: int,
                  before: int | None = None, after: int | None = None, skip: int = 0,
                  from_oldest: bool = False, hidden: frozenset[str] = frozenset()
                  ) -> list[Turn]:
        """Up to `limit` turns numbered ≤ `newest`, oldest first: the newest ones (below
        `before`, past the `skip` newest) or, `from_oldest`, the oldest ones (above `after`,
        past the `skip` oldest)."""
        # One upper bound: given two, SQLite may seek by the looser one and step past every
        # turn between them (a page far back read as slowly as by counting).
        top = newest if before is None else min(newest, before - 1)
        ids = tuple(hidden)
        params = (conversation_id, *ids, top, *(() if after is None else (after,)), limit,
                  skip)
        sql = _page_sql(len(ids), after is not None, from_oldest)
        with self.database.guard():
            page = self.with_files([rows.turn_of(*r)
                                     for r in self.db.execute_sql(sql, params).fetchall()])
        if not from_oldest:
            page.reverse()
        return page

    def newer_count(self, conversation_id: int, ordinal: int, *, newest: int,
                    hidden: frozenset[str] = frozenset()) -> int | None:
        """How many turns numbered ≤ `newest` come after turn `ordinal` (None if there is no
        such turn): counted over the index from the newest end, where the rows on show are."""
        if ordinal > newest:
            return None
        mine = _mine(conversation_id, hidden)
        with self.database.guard():
            if TurnRow.select().where(mine & (TurnRow.ordinal == ordinal)).count(self.db) == 0:
                return None
            return int(TurnRow.select().where(
                mine & (TurnRow.ordinal > ordinal) & (TurnRow.ordinal <= newest)).count(self.db))

    def turn_ordinals(self, conversation_id: int, *, newest: int, skip: int, limit: int,
                      hidden: frozenset[str] = frozenset()) -> list[int]:
        """The ordinals of `limit` turns numbered ≤ `newest`, past the `skip` oldest, read
        from the index alone."""
        query = (TurnRow.select(TurnRow.ordinal)
                 .where(_mine(conversation_id, hidden) & (TurnRow.ordinal <= newest))
                 .order_by(TurnRow.ordinal).limit(limit).offset(skip or None))
        with self.database.guard():
            return [ordinal for (ordinal,) in self.db.execute(query).fetchall()]

    def turn_keys(self, conversation_id: int, *, newest: int, skip: int, limit: int,
                  after: int | None = None, hidden: frozenset[str] = frozenset()
                  ) -> list[tuple[str, int]]:
        """(id, ordinal) of `limit` turns numbered ≤ `newest` (and > `after`), past the
        `skip` oldest of those."""
        query = (TurnRow.select(TurnRow.id, TurnRow.ordinal)
                 .where(_mine(conversation_id, hidden) & (TurnRow.ordinal <= newest))
                 .order_by(TurnRow.ordinal).limit(limit).offset(skip or None))
        if after is not None:
            query = query.where(TurnRow.ordinal > after)
        with self.database.guard():
            return [(turn_id, ordinal) for turn_id, ordinal in self.db.execute(query).fetchall()]

    def count(self, conversation_id: int) -> int:
        with self.database.guard():
            return int(TurnRow.select().where(TurnRow.conversation == conversation_id)
                       .count(self.db))

    def get(self, turn_id: str) -> tuple[int, Turn]:
        """A turn by id, with its conversation id."""
        with self.database.guard():
            row = TurnRow.select().where(TurnRow.id == turn_id).first(self.db)
        if row is None:
            raise NotFound(f"There is no turn {turn_id}.")
        with self.database.guard():
            (turn,) = self.with_files([rows.turn(row)])
        return row.conversation_id, turn

    def commit(self, conversation_id: int, pending: PendingTurn) -> Turn:
        """Append a complete turn in one transaction. Idempotent by `pending.id`."""
        from ..core.tools import rounds_to_json  # a tool exchange's encoding: a writer's

        self.database.need_writer()
        usage = pending.usage.to_json()
        with self.database.guard(), self.db.atomic("IMMEDIATE"):
            conv = conversation_row(self.db, conversation_id)
            if conv is None:
                raise StoreError(
                    "The conversation was deleted while the answer arrived; it was not saved.",
                    kind=FailureKind.CONVERSATION_GONE,
                )
            existing = TurnRow.select().where(TurnRow.id == pending.id).first(self.db)
            if existing is not None:
                if (
                    existing.conversation_id != conversation_id
                    or existing.question != pending.question
                ):
                    raise TurnIdConflict(
                        f"Turn id {pending.id} is already used by a different question."
                    )
                (turn,) = self.with_files([rows.turn(existing)])
                return turn
            if pending.generation is not None and conv.generation != pending.generation:
                raise StoreError(
                    "Turns of this conversation were deleted while the answer arrived; "
                    "it was not saved.",
                    kind=FailureKind.CONVERSATION_GONE,
                )
            if pending.replaces is not None:
                versions.check_replaceable(self.db, conversation_id, pending.replaces)
            ordinal = conv.next_ordinal
            row = insert(
                self.db, TurnRow,
                id=pending.id,
                conversation=conversation_id,
                ordinal=ordinal,
                question=pending.question,
                answer=pending.answer,
                model=pending.model,
                finish_reason=pending.finish_reason,
                created_at=pending.created_at.isoformat(timespec="microseconds"),
                usage=json.dumps(usage) if usage else None,
                reasoning=pending.reasoning,
                incomplete=pending.incomplete,
                tool_exchange=rounds_to_json(pending.tools) if pending.tools else None,
            )
            # The question's files, with the turn or not at all.
            attachments.add_to_turn(self.db, pending.id, pending.attachments)
            self.keep_full_results(pending)
            changes: dict[Any, Any] = {ConversationRow.next_ordinal: ordinal + 1,
                                       ConversationRow.updated_at: rows.now_iso()}
            if ordinal == 1 and f'"{FIRST_SEND}"' in conv.settings:
                # Answered: no longer a conversation a first send left behind.
                changes[ConversationRow.settings] = fn.json_remove(
                    ConversationRow.settings, f"$.{FIRST_SEND}")
            ConversationRow.update(changes).where(
                ConversationRow.id == conversation_id).execute(self.db)
            if pending.replaces is not None:  # the new version and its record, together
                versions.append(self.db, conversation_id, pending.replaces, pending.id)
            if conv.title_source == QUESTION:  # a title taken from the first question
                titles.follow_first_turn(self.db, conversation_id)
        # One more turn at the end, unless it replaced one (the hidden turns changed) or
        # an outer transaction (an import, a first send) may still roll it back.
        self.counts_changed(conversation_id, appended=None if pending.replaces is not None
                            or self.db.in_transaction() else ordinal)
        return replace(rows.turn(row), attachments=tuple(
            replace(a, original=None) for a in pending.attachments))

    def keep_full_results(self, pending: PendingTurn) -> None:
        """Inside the commit's transaction: the full results of calls cut for sending."""
        rows_ = [{"turn": pending.id, "call_id": call_id, "content": text}
                 for tool_round in pending.tools
                 for call_id, text in tool_round.full_results.items()]
        if rows_:
            ToolResultRow.insert_many(rows_).execute(self.db)

    def tool_result(self, turn_id: str, call_id: str) -> str | None:
        """The full result of a call whose result was cut for sending (None: not cut, or
        no such call)."""
        with self.database.guard():
            row = ToolResultRow.select().where((ToolResultRow.turn == turn_id)
                                            & (ToolResultRow.call_id == call_id)).first(self.db)
        return row.content if row is not None else None

    def commit_many(
        self, conversation_id: int, turns: Sequence[PendingTurn]
    ) -> list[Turn]:
        """Append many turns in one transaction (import), by `commit`'s rules (idempotent
        by id, a reused id with another question refused), but with one read of the
        conversation, the ids looked up in batches and the rows written at once: 100,000
        turns take seconds, not minutes."""
        from ..core.tools import rounds_to_json

        self.database.need_writer()
        with self.database.guard(), self.db.atomic("IMMEDIATE"):
            conv = conversation_row(self.db, conversation_id)
            if conv is None:
                raise StoreError("The conversation was deleted; nothing was imported.",
                                 kind=FailureKind.CONVERSATION_GONE)
            if any(p.generation not in (None, conv.generation) for p in turns):
                raise StoreError("Turns of this conversation were deleted meanwhile; nothing "
                                 "was imported.", kind=FailureKind.CONVERSATION_GONE)
            known = self.by_id([p.id for p in turns])
            ordinal = conv.next_ordinal
            out: list[Turn] = []
            new_rows: list[tuple[Any, ...]] = []
            for pending in turns:
                if pending.id in known:
                    owner, turn = known[pending.id]
                    if owner != conversation_id or turn.question != pending.question:
                        raise TurnIdConflict(
                            f"Turn id {pending.id} is already used by a different question.")
                    out.append(turn)
                    continue
                usage = pending.usage.to_json()
                values = (pending.id, ordinal, pending.question, pending.answer, pending.model,
                          pending.finish_reason,
                          pending.created_at.isoformat(timespec="microseconds"),
                          json.dumps(usage) if usage else None, "", pending.incomplete,
                          rounds_to_json(pending.tools) if pending.tools else None)
                turn = replace(rows.turn_of(*values), attachments=tuple(
                    replace(a, original=None) for a in pending.attachments))
                known[pending.id] = (conversation_id, turn)
                new_rows.append((conversation_id, *values))
                out.append(turn)
                ordinal += 1
            self.db.cursor().executemany(
                "INSERT INTO turns (conversation_id, id, ordinal, question, answer, model, "
                "finish_reason, created_at, usage, reasoning, incomplete, tool_exchange) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", new_rows)
            fresh = {values[1] for values in new_rows}
            for pending in turns:
                if pending.id in fresh and pending.attachments:
                    attachments.add_to_turn(self.db, pending.id, pending.attachments)
            if new_rows:
                ConversationRow.update(next_ordinal=ordinal, updated_at=rows.now_iso()).where(
                    ConversationRow.id == conversation_id).execute(self.db)
        self.counts_changed(conversation_id)
        return out

    # ------------------------------------------------------------ versions, forks
    def use_version(self, turn_id: str) -> int:
        """Make `turn_id` (a version of the last turn) active again, by an appended
        record; returns its conversation id. Already active: nothing is written."""
        self.database.need_writer()
        with self.database.guard(), self.db.atomic("IMMEDIATE"):
            cid, _ = versions.use_version(self.db, turn_id)
            titles.follow_first_turn(self.db, cid, first_before=None)
        self.counts_changed(cid)
        return cid

    def by_id(self, ids: Sequence[str]) -> dict[str, tuple[int, Turn]]:
        """The stored turns among `ids`, with their conversation ids (batches of 500)."""
        found: dict[str, tuple[int, Turn]] = {}
        columns = ", ".join(rows.TURN_COLUMNS)
        for start in range(0, len(ids), 500):
            batch = ids[start:start + 500]
            marks = ", ".join("?" * len(batch))
            cursor = self.db.execute_sql(
                f"SELECT conversation_id, {columns} FROM turns WHERE id IN ({marks})", batch)
            for owner, *values in cursor.fetchall():
                found[values[0]] = (owner, rows.turn_of(*values))
        return found

    def start_with_turn(
        self, title: str, pending: PendingTurn, *, model: str = "",
        settings: ConversationSettings | None = None, title_source: str = USER,
    ) -> tuple[Conversation, Turn]:
        """A new conversation and its first turn, in one transaction: a first question
        that fails, or a process killed before its answer is saved, leaves no
        conversation behind. `title_source` "question": titled after that question."""
        self.database.need_writer()
        with self.database.guard(), self.db.atomic("IMMEDIATE"):
            conversation = self.conversations.create(title, model=model, settings=settings,
                                                    title_source=title_source)
            turn = self.commit(conversation.id, replace(
                pending, generation=None))
        return self.conversations.get(conversation.id), turn

    def exists(self, turn_id: str) -> bool:
        with self.database.guard():
            return TurnRow.select().where(TurnRow.id == turn_id).first(self.db) is not None

    def readable(self, conversation_id: int) -> salvage.Readable:
        """Export what can be read: see `Conversations.readable_turns`."""
        return self.conversations.readable_turns(conversation_id)

