"""Memory kept beside the log: pinned facts (with their source turns), notes, preferences.

Pins and notes belong to a conversation (deleted with it); a pin taken from a turn
names that turn, and deleting the turn deletes the pin (or, if asked, keeps it as
typed). Preferences are global and are only ever added by the user.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import peewee

from ..core.memory import (
    MAX_MEMORY_TEXT,
    StoredNote,
    StoredPin,
    StoredPreference,
    check_priority,
    conversation_memory,
)
from ..core.memory import Memory as ConversationMemory
from ..core.visible import has_surrogate
from . import rows
from .conversations import Conversations
from .database import Database
from .errors import NotFound
from .models import NoteRow, PinRow, PreferenceRow, TurnRow, insert


def _pin(row: PinRow) -> StoredPin:
    return StoredPin(row.id, row.conversation_id, row.text, row.kind,
                     tuple(json.loads(row.sources)), row.created_at)


def _note(row: NoteRow) -> StoredNote:
    return StoredNote(row.id, row.conversation_id, row.text, row.priority, row.created_at)


def _preference(row: PreferenceRow) -> StoredPreference:
    return StoredPreference(row.id, row.text, row.priority, row.created_at)


class TextRefused(ValueError):
    """A pin, note or preference that cannot be kept; `code` names why."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def _check_text(text: str) -> str:
    text = text.strip()
    if not text:
        raise TextRefused("empty_text", "The text is empty.")
    if len(text) > MAX_MEMORY_TEXT:
        raise TextRefused("text_too_long", f"The text is {len(text):,} characters; a pin, "
                          f"note or preference may be at most {MAX_MEMORY_TEXT:,}.")
    if has_surrogate(text):
        raise TextRefused("invalid_text", "The text is not valid UTF-8: it holds half of a "
                          "character pair or bytes that are not text.")
    return text


class Memory:
    """`store.memory`: the pinned facts, notes and preferences of one store. Calling it
    gives what a request of a conversation carries besides the log (`store.memory(id)`)."""

    def __init__(self, database: Database, conversations: Conversations) -> None:
        self.database = database
        self.db = database.db
        self.conversations = conversations

    def __call__(self, conversation_id: int) -> ConversationMemory:
        return self.for_request(conversation_id)

    # ------------------------------------------------------------------------- pins
    def add_pin(self, conversation_id: int, text: str, *, sources: Sequence[str] = (),
                kind: str = "", created_at: str | None = None) -> StoredPin:
        """Pin `text` in a conversation, taken from the turns `sources` (none: typed);
        `created_at` (ISO) only for one brought back by an import."""
        self.database.need_writer()
        text = _check_text(text)
        self.conversations.get(conversation_id)
        with self.database.guard(), self.db.atomic():
            for turn_id in sources:
                turn = TurnRow.select().where(TurnRow.id == turn_id).first(self.db)
                if turn is None or turn.conversation_id != conversation_id:
                    raise NotFound(f"Conversation {conversation_id} has no turn {turn_id}.")
            row = insert(self.db, PinRow, conversation=conversation_id, text=text, kind=kind,
                         sources=json.dumps(list(sources)),
                         created_at=created_at or rows.now_iso())
        return _pin(row)

    def pins(self, conversation_id: int) -> list[StoredPin]:
        with self.database.guard():
            found = PinRow.select().where(PinRow.conversation == conversation_id)
            return [_pin(r) for r in found.order_by(PinRow.id).execute(self.db)]

    def copy_pins(self, source_id: int, target_id: int, renamed: Mapping[str, str]) -> int:
        """For a fork: copy into `target_id` the pins of `source_id` whose source turns were
        all copied (`renamed`: old turn id → the copy's id), sources remapped, and the
        typed ones. Returns how many were copied."""
        self.database.need_writer()
        copied = 0
        with self.database.guard(), self.db.atomic():
            for row in PinRow.select().where(PinRow.conversation == source_id).order_by(
                    PinRow.id).execute(self.db):
                sources = json.loads(row.sources)
                if not all(s in renamed for s in sources):
                    continue
                insert(self.db, PinRow, conversation=target_id, text=row.text, kind=row.kind,
                       sources=json.dumps([renamed[s] for s in sources]),
                       created_at=row.created_at)
                copied += 1
        return copied

    def pins_of_turn(self, turn_id: str) -> list[StoredPin]:
        """The pins taken from one turn (what deleting it would take with it)."""
        with self.database.guard():
            turn = TurnRow.select().where(TurnRow.id == turn_id).first(self.db)
            if turn is None:
                return []
            from .deletion import pins_from  # a delete's question: loaded with the deletes

            return [_pin(r) for r in pins_from(self.db, turn.conversation_id, [turn_id])]

    def remove_pin(self, pin_id: int) -> None:
        self._remove(PinRow, pin_id, "pin")

    # ------------------------------------------------------------------------ notes
    def add_note(self, conversation_id: int, text: str, *, priority: int = 3,
                 created_at: str | None = None) -> StoredNote:
        self.database.need_writer()
        text, priority = _check_text(text), check_priority(priority)
        self.conversations.get(conversation_id)
        with self.database.guard(), self.db.atomic():
            row = insert(self.db, NoteRow, conversation=conversation_id, text=text,
                         priority=priority, created_at=created_at or rows.now_iso())
        return _note(row)

    def notes(self, conversation_id: int) -> list[StoredNote]:
        with self.database.guard():
            found = NoteRow.select().where(NoteRow.conversation == conversation_id)
            return [_note(r) for r in found.order_by(NoteRow.id).execute(self.db)]

    def remove_note(self, note_id: int) -> None:
        self._remove(NoteRow, note_id, "note")

    # ------------------------------------------------------------------ preferences
    def add_preference(self, text: str, *, priority: int = 3,
                       created_at: str | None = None) -> StoredPreference:
        """A preference for every conversation. Only the user adds one (never a reply)."""
        self.database.need_writer()
        text, priority = _check_text(text), check_priority(priority)
        with self.database.guard(), self.db.atomic():
            row = insert(self.db, PreferenceRow, text=text, priority=priority,
                         created_at=created_at or rows.now_iso())
        return _preference(row)

    def preferences(self) -> list[StoredPreference]:
        with self.database.guard():
            return [_preference(r) for r in
                    PreferenceRow.select().order_by(PreferenceRow.id).execute(self.db)]

    def remove_preference(self, preference_id: int) -> None:
        self._remove(PreferenceRow, preference_id, "preference")

    def delete_preferences(self) -> int:
        """Delete every preference (offered with delete-all)."""
        self.database.need_writer()
        with self.database.guard(), self.db.atomic():
            return int(PreferenceRow.delete().execute(self.db))

    # ------------------------------------------------------------------------ whole
    def pinned_facts(self, conversation_id: int) -> tuple[str, ...]:
        """The texts every request of this conversation carries word for word, oldest
        first: `project(..., pinned=store.memory.pinned_facts(id))` for a request that carries
        the pins but none of the optional items (a side question, say)."""
        return tuple(pin.text for pin in self.pins(conversation_id))

    def export_memory(self, conversation_id: int) -> dict[str, Any]:
        """The conversation's memory as an export's header carries it."""
        from ..formats.export import memory_section

        settings = self.conversations.get(conversation_id).settings
        return memory_section(self.pins(conversation_id), self.notes(conversation_id),
                              self.preferences() if settings.preferences else [])

    def for_request(self, conversation_id: int) -> ConversationMemory:
        """What a request of this conversation carries besides the log: its pins, its
        notes, the preferences unless it switched them off, and its memory share."""
        settings = self.conversations.get(conversation_id).settings
        preferences = self.preferences() if settings.preferences else []
        return conversation_memory(self.pins(conversation_id), self.notes(conversation_id),
                                   preferences, share_percent=settings.memory_share)

    def edit_note(self, note_id: int, text: str, priority: int) -> None:
        self._edit(NoteRow, note_id, "note", text=_check_text(text),
                   priority=check_priority(priority))

    def edit_preference(self, preference_id: int, text: str, priority: int) -> None:
        self._edit(PreferenceRow, preference_id, "preference", text=_check_text(text),
                   priority=check_priority(priority))

    def edit_pin(self, pin_id: int, text: str) -> None:
        self._edit(PinRow, pin_id, "pin", text=_check_text(text))

    def _edit(self, model: type[peewee.Model], item_id: int, what: str,
              **changes: object) -> None:
        from . import proofs  # what an edit takes out of the request proofs

        self.database.need_writer()
        with self.database.guard(), self.db.atomic():
            row = model.select().where(model.id == item_id).first(self.db)
            if row is None:
                raise NotFound(f"There is no {what} {item_id}.")
            model.update(**changes).where(model.id == item_id).execute(self.db)
            forgot = proofs.forget_item(self.db, what, str(item_id),
                                        getattr(row, "conversation_id", None),
                                        old=row.text, new=str(changes["text"]))
        if forgot:
            self._erase()

    def _remove(self, model: type[peewee.Model], item_id: int, what: str) -> None:
        from . import proofs  # what a removal takes out of the request proofs

        self.database.need_writer()
        with self.database.guard(), self.db.atomic():
            row = model.select().where(model.id == item_id).first(self.db)
            if row is None or not model.delete().where(model.id == item_id).execute(self.db):
                raise NotFound(f"There is no {what} {item_id}.")
            forgot = proofs.forget_item(self.db, what, str(item_id),
                                        getattr(row, "conversation_id", None))
        if forgot:
            self._erase()

    def _erase(self) -> None:
        """Text requests kept was deleted: no copy may stay in `-wal` (`secure_delete`
        already overwrote it in the main file). A reader holding the checkpoint up leaves
        it to the next one."""
        with self.database.guard():
            self.database.checkpoint()
