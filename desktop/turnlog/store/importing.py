"""`store.imports`: writing imported conversations, each import in one transaction
(the batched writes themselves are `imports.ImportWriter`'s)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from ..core.imports import ImportedConversation, ImportOutcome
from ..core.model import Conversation
from ..core.pending import PendingTurn
from ..core.side_records import SideQuestion
from ..core.versions import restore_order
from . import versions
from .conversations import Conversations
from .database import Database
from .imports import ImportWriter
from .memory import Memory
from .side import SideQuestions
from .turns import Turns


class Imports:
    """The imports into one store."""

    def __init__(self, database: Database, conversations: Conversations, turns: Turns,
                 side: SideQuestions, memory: Memory) -> None:
        self.database = database
        self.db = database.db
        self.conversations = conversations
        self.turns = turns
        self.side = side
        self.memory = memory

    def write_one(
        self, title: str, *, system_prompt: str, model: str, turns: Sequence[PendingTurn],
        superseded_by: Mapping[str, str] | None = None,
        side: Sequence[SideQuestion] = (),
    ) -> Conversation:
        """A new conversation with `turns`, in one transaction: all of it or nothing. The
        transaction sits inside the fault translation, so a full disk is named as such
        (the original SQLite error, not the rollback's). `superseded_by` (turn id → the
        id of the turn that replaced it, both among `turns`) restores their versions."""
        self.database.need_writer()
        with self.database.guard(), self.db.atomic():
            conversation = self.conversations.create(title, system_prompt=system_prompt,
                                                    model=model)
            for pending in turns:
                self.turns.commit(conversation.id, pending)
            for old, new in restore_order(superseded_by or {}):
                versions.append(self.db, conversation.id, old, new)
            for question in side:
                self.side.add(conversation.id, question, spent_here=False)
        return self.conversations.get(conversation.id)

    def write(
        self, items: Iterable[ImportedConversation], *,
        cancelled: Callable[[], bool] = lambda: False,
        progress: Callable[[int], None] = lambda turns: None,
        as_copies: bool = False,
    ) -> list[ImportOutcome]:
        """Write every conversation `items` yields, in one transaction with batched
        inserts: all of them or, on any error or a cancel (`ImportCancelled`), none.
        `progress` is told the number of turns written so far. A Turnlog file's
        conversation already stored is not added again unless `as_copies`."""
        self.database.need_writer()
        with self.database.guard(), self.db.atomic("IMMEDIATE"), ImportWriter.open(
                self.db, cancelled=cancelled, progress=progress,
                as_copies=as_copies) as writer:
            outcomes = []
            for item in items:
                outcome = writer.write(item)
                if outcome.id is not None and not item.source_ids and writer.created:
                    self.add_held(outcome.id, item, writer.stored_ids)
                outcomes.append(outcome)
            writer.check()  # a cancel that came after the last batch still counts
            return outcomes

    def add_held(self, conversation_id: int, item: ImportedConversation,
                     stored_ids: dict[str, str]) -> None:
        """What a Turnlog file's conversation holds besides its turns: side questions (with
        fresh ids), pins (their sources mapped to the ids the turns were stored under; a
        source not in the file is dropped), notes, and the preferences not there yet."""
        taken = {q.id for q in self.side.of(conversation_id)}
        renamed: dict[str, str] = {}
        for question in item.side_questions:
            if not question.id or question.id in taken or self._side_stored(question.id):
                renamed[question.id] = uuid.uuid4().hex  # a copy's get fresh ids
            taken.add(renamed.get(question.id, question.id))
        for question in item.side_questions:
            self.side.add(conversation_id, replace(
                question, id=renamed.get(question.id, question.id),
                side_ids=tuple(renamed.get(s, s) for s in question.side_ids)), spent_here=False)
        memory = item.memory or {}
        for pin in memory.get("pins", []):
            sources = [stored_ids[s] for s in pin.get("sources", []) if s in stored_ids]
            self.memory.add_pin(conversation_id, pin["text"], sources=sources,
                                kind=str(pin.get("kind") or ""),
                                created_at=pin.get("created_at"))
        for note in memory.get("notes", []):
            self.memory.add_note(conversation_id, note["text"], priority=note.get("priority", 3),
                                 created_at=note.get("created_at"))
        have = {p.text.strip() for p in self.memory.preferences()}
        for preference in memory.get("preferences", []):
            if preference["text"].strip() not in have:
                self.memory.add_preference(preference["text"],
                                           priority=preference.get("priority", 3),
                                           created_at=preference.get("created_at"))
                have.add(preference["text"].strip())

        self._summaries(conversation_id, item.summaries, stored_ids)

    def _summaries(self, conversation_id: int, summaries: list[dict[str, Any]],
                   stored_ids: dict[str, str]) -> None:
        """A file's rolling summaries with their provenance and times; one covering a turn
        that is not in the file any more is dropped (derived data follows its source)."""
        for entry in summaries:
            covered = entry["covered_ids"]
            if not all(i in stored_ids for i in covered):
                continue
            self.db.execute_sql(
                "INSERT INTO summaries (conversation_id, first_ordinal, last_ordinal, "
                "covered_count, covered_digest, covered_ids, content, model, settings_key, "
                "created_at, content_bytes, content_tokens, usages, warnings) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (conversation_id, entry["first_ordinal"], entry["last_ordinal"], len(covered),
                 entry["covered_digest"], json.dumps([stored_ids[i] for i in covered]),
                 entry["content"], entry["model"], entry["settings_key"], entry["created_at"],
                 len(entry["content"].encode("utf-8")), entry["content_tokens"],
                 json.dumps(entry.get("usages", [])),
                 json.dumps(entry.get("warnings", []), ensure_ascii=False)))

    def exported_summaries(self, conversation_id: int) -> list[dict[str, Any]]:
        """A conversation's rolling summaries as an export's `summary` records carry
        them: provenance (the turn ids covered, model, settings, time) and content."""
        with self.database.guard():
            cursor = self.db.execute_sql(
                "SELECT first_ordinal, last_ordinal, covered_digest, covered_ids, content, "
                "model, settings_key, created_at, content_tokens, usages, warnings FROM "
                "summaries WHERE conversation_id = ? ORDER BY id", (conversation_id,))
            return [{"first_ordinal": first, "last_ordinal": last, "covered_digest": digest,
                     "covered_ids": json.loads(ids), "content": content, "model": model,
                     "settings_key": key, "created_at": created, "content_tokens": tokens,
                     "usages": json.loads(usages), "warnings": json.loads(warnings)}
                    for first, last, digest, ids, content, model, key, created, tokens,
                    usages, warnings in cursor.fetchall()]

    def _side_stored(self, side_id: str) -> bool:
        return self.db.execute_sql("SELECT 1 FROM side_questions WHERE id = ?",
                                   (side_id,)).fetchone() is not None
