"""`store.imports`: writing imported conversations, each import in one transaction
(the batched writes themselves are `imports.ImportWriter`'s)."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace

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
                self.side.add(conversation.id, question)
        return self.conversations.get(conversation.id)

    def write(
        self, items: Iterable[ImportedConversation], *,
        cancelled: Callable[[], bool] = lambda: False,
        progress: Callable[[int], None] = lambda turns: None,
    ) -> list[ImportOutcome]:
        """Write every conversation `items` yields, in one transaction with batched
        inserts: all of them or, on any error or a cancel (`ImportCancelled`), none.
        `progress` is told the number of turns written so far."""
        self.database.need_writer()
        with self.database.guard(), self.db.atomic("IMMEDIATE"), ImportWriter.open(
                self.db, cancelled=cancelled, progress=progress) as writer:
            outcomes = []
            for item in items:
                outcome = writer.write(item)
                if outcome.id is not None and not item.source_ids:
                    self.add_held(outcome.id, item, writer.stored_ids)
                outcomes.append(outcome)
            writer.check()  # a cancel that came after the last batch still counts
            return outcomes

    def add_held(self, conversation_id: int, item: ImportedConversation,
                     stored_ids: dict[str, str]) -> None:
        """What a Turnlog file's conversation holds besides its turns: side questions (with
        fresh ids), pins (their sources mapped to the ids the turns were stored under; a
        source not in the file is dropped), notes, and the preferences not there yet."""
        for question in item.side_questions:
            self.side.add(conversation_id, replace(question, id=uuid.uuid4().hex))
        memory = item.memory or {}
        for pin in memory.get("pins", []):
            sources = [stored_ids[s] for s in pin.get("sources", []) if s in stored_ids]
            self.memory.add_pin(conversation_id, pin["text"], sources=sources,
                         kind=str(pin.get("kind") or ""))
        for note in memory.get("notes", []):
            self.memory.add_note(conversation_id, note["text"], priority=note.get("priority", 3))
        have = {p.text.strip() for p in self.memory.preferences()}
        for preference in memory.get("preferences", []):
            if preference["text"].strip() not in have:
                self.memory.add_preference(preference["text"],
                                           priority=preference.get("priority", 3))
                have.add(preference["text"].strip())
