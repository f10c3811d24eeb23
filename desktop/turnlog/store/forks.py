"""`store.forks`: going on from an earlier turn in a new conversation, with its
provenance (the turns copied, new ids, same text; the pins taken from them along).
Calling the part lists a conversation's forks (`store.forks(id)`)."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ..core.failures import StoreError
from ..core.model import Conversation, Turn
from ..core.numbers import TurnNumbers
from ..core.title_sources import USER
from ..core.versions import ForkOrigin
from . import drafts, rows, titles, versions
from .conversations import Conversations, conversation_row
from .database import Database
from .errors import NotFound
from .models import ConversationRow, ForkRow, TurnRow, insert
from .turns import Turns

if TYPE_CHECKING:
    from .memory import Memory


class Forks:
    """The forks of one store's conversations. `memory` gives the store's memory part,
    made when a fork first copies pins (reading where a conversation came from loads no
    memory)."""

    def __init__(self, database: Database, conversations: Conversations, turns: Turns,
                 memory: Callable[[], Memory]) -> None:
        self.database = database
        self.db = database.db
        self.conversations = conversations
        self.turns = turns
        self.memory = memory

    def __call__(self, conversation_id: int) -> list[Conversation]:
        return self.of(conversation_id)

    def at(self, conversation_id: int, at_ordinal: int, *, title: str | None = None
             ) -> tuple[Conversation, str]:
        """A new conversation holding copies (new ids, same text) of the active turns
        before turn `at_ordinal`, with its provenance; returns it and turn `at_ordinal`'s
        question, saved as its draft. The source's summaries are not copied."""
        self.database.need_writer()
        source = self.conversations.get(conversation_id)
        with self.database.guard():
            at = TurnRow.select().where((TurnRow.conversation == conversation_id)
                                     & (TurnRow.ordinal == at_ordinal)).first(self.db)
        if at is None:
            raise NotFound(f"Conversation {conversation_id} has no turn {at_ordinal}.")
        kept = [t for t in self.turns.active(conversation_id) if t.ordinal < at_ordinal]
        return self.make(source, kept, at_ordinal, str(at.question), title)

    def with_version(self, turn_id: str, *, title: str | None = None,
                          conversation_id: int | None = None) -> tuple[Conversation, str]:
        """Go on from a version of a turn that later turns followed (only the last turn's
        versions can be switched in place, `use_version`): a new conversation holding
        copies of the active turns before that turn, then a copy of version `turn_id`,
        with the question of the turn that came next as its draft and its provenance.
        Returns it and that draft. `conversation_id`, if given, must hold the turn."""
        self.database.need_writer()
        with self.database.guard():
            row = TurnRow.select().where(TurnRow.id == turn_id).first(self.db)
            if row is None or conversation_id not in (None, row.conversation_id):
                raise NotFound(f"There is no turn {turn_id}"
                               + (f" in conversation {conversation_id}." if conversation_id
                                  is not None else "."))
            chosen, cid = rows.turn(row), row.conversation_id
            found = versions.read(self.db, cid)
        source = self.conversations.get(cid)
        line = self.turns.active(cid)
        active = found.active_of(turn_id)
        at = next((i for i, t in enumerate(line) if t.id == active), None)
        if at is None or at + 1 >= len(line):
            raise StoreError(f"Turn {chosen.ordinal} is a version of the last turn: use it "
                             "there (use-version) instead of forking.")
        after = line[at + 1]
        return self.make(source, [*line[:at], chosen], after.ordinal, after.question,
                               title)

    def make(self, source: Conversation, kept: Sequence[Turn], at_ordinal: int,
                   draft: str, title: str | None) -> tuple[Conversation, str]:
        """The fork of `source` at turn `at_ordinal`: copies of `kept` (its pins along),
        `draft` saved in its composer."""
        from ..core.pending import PendingTurn  # a fork writes: reading the origin needs none

        copies = [PendingTurn(id=uuid.uuid4().hex, question=t.question, answer=t.answer,
                              model=t.model, finish_reason=t.finish_reason, usage=t.usage,
                              created_at=t.created_at, incomplete=t.incomplete,
                              attachments=t.attachments, tools=t.tools)
                  for t in kept]
        with self.database.guard(), self.db.atomic("IMMEDIATE"):
            fork = self.conversations.create(
                title or source.title, system_prompt=source.system_prompt,
                model=source.model, settings=source.settings,
                title_source=USER if title else source.title_source,
                source=source.source, source_model=source.source_model)
            insert(self.db, ForkRow, conversation=fork.id, source_id=source.id,
                   at_ordinal=at_ordinal)
            self.turns.commit_many(fork.id, copies)
            # A derived title follows the fork's own first turn (none: the neutral one).
            titles.follow_first_turn(self.db, fork.id,
                                     first_before=copies[0].id if copies else None)
            # The pins taken from the copied turns come along, their sources remapped.
            self.memory().copy_pins(source.id, fork.id,
                             {t.id: c.id for t, c in zip(kept, copies, strict=True)})
        drafts.save_draft(self.database.home, fork.id, draft)  # ready in its composer
        return self.conversations.get(fork.id), draft

    def origin(self, conversation_id: int) -> ForkOrigin | None:
        """Where a fork came from (None: not a fork), with its source's title now."""
        with self.database.guard():
            row = ForkRow.select().where(ForkRow.conversation == conversation_id).first(self.db)
            if row is None:
                return None
            source = None if row.source_id is None else \
                conversation_row(self.db, row.source_id)
            # Once the source is deleted its numbering is gone: the number it had then.
            at = row.at_ordinal if source is None else \
                TurnNumbers.of(versions.read(self.db, source.id)).number(row.at_ordinal)
            machine = None if row.continued_on is None else self._machine(row.continued_on)
        return ForkOrigin(row.at_ordinal, source.id if source else None,
                          source.title if source else None, at, machine)

    def _machine(self, machine_id: str) -> str:
        """A machine's name as the sync last heard it (its id's start when it never did)."""
        found = self.db.execute_sql('SELECT "name" FROM "sync_machines" WHERE "id" = ?',
                                    (machine_id,)).fetchone()
        return str(found[0]) if found is not None else machine_id[:8]

    def of(self, conversation_id: int) -> list[Conversation]:
        """The conversations holding copies of this one's turns (forks of forks too)."""
        from . import deletion  # what a delete would reach: the privacy dialog's

        with self.database.guard():
            ids = deletion.forks_of(self.db, conversation_id)
            found = ConversationRow.select().where(ConversationRow.id.in_(ids)) \
                .order_by(ConversationRow.id)
            return [rows.conversation(r) for r in found.execute(self.db)]
