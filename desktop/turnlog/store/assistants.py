"""`store.assistants`: saved setups a new conversation starts from as a copy, their
files, and which assistant each conversation came from.

An assistant's files are attachments it refers to (blobs by SHA-256, as a turn's and a
draft's): they live while it or any turn names them, and go with the last of those.
Removing an assistant leaves the conversations it started as they are (they keep its
name; the link to it is cleared).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..core.assistants import Assistant, AssistantNote, AssistantRefused, AssistantSetup
from ..core.attachments import Attachment
from ..core.model import Conversation, ConversationSettings
from ..core.titles import QUESTION
from . import attachments, rows
from .conversations import Conversations
from .database import Database
from .errors import NotFound
from .folders import folder_for, folder_named
from .memory import Memory
from .models import AssistantRow, ConversationAssistantRow, ConversationRow, insert


@dataclass(frozen=True, slots=True)
class Origin:
    """The assistant a conversation started from: its id (None once removed), its name."""

    assistant_id: int | None
    name: str


def _setup(row: AssistantRow, folder: str) -> AssistantSetup:
    sampling = json.loads(row.sampling)
    return AssistantSetup(
        name=row.name, icon=row.icon, system_prompt=row.system_prompt, profile=row.profile,
        model=row.model, temperature=sampling.get("temperature"), top_p=sampling.get("top_p"),
        pins=tuple(json.loads(row.pins)),
        notes=tuple(AssistantNote(t, p) for t, p in json.loads(row.notes)),
        tools=tuple(json.loads(row.tools)), folder=folder)


def _columns(setup: AssistantSetup) -> dict[str, Any]:
    return {"name": setup.name, "icon": setup.icon, "system_prompt": setup.system_prompt,
            "profile": setup.profile, "model": setup.model,
            "sampling": json.dumps({"temperature": setup.temperature, "top_p": setup.top_p}),
            "pins": json.dumps(list(setup.pins), ensure_ascii=False),
            "notes": json.dumps([[n.text, n.priority] for n in setup.notes],
                                ensure_ascii=False),
            "tools": json.dumps(list(setup.tools), ensure_ascii=False)}


class Assistants:
    """The assistants of one store, in the order the person gave them."""

    def __init__(self, database: Database, conversations: Conversations,
                 memory: Memory) -> None:
        self.database = database
        self.db = database.db
        self.conversations = conversations
        self.memory = memory

    def __call__(self) -> list[Assistant]:
        return self.list()

    def list(self) -> list[Assistant]:
        with self.database.guard():
            found = AssistantRow.select().order_by(AssistantRow.position, AssistantRow.id)
            return [self._assistant(r) for r in found.execute(self.db)]

    def _assistant(self, row: AssistantRow) -> Assistant:
        names = self.db.execute_sql(
            'SELECT "name" FROM "assistant_files" WHERE "assistant_id" = ? ORDER BY "position"',
            (row.id,)).fetchall()
        folder = "" if row.folder_id is None else self.db.execute_sql(
            'SELECT "name" FROM "folders" WHERE "id" = ?', (row.folder_id,)).fetchone()[0]
        return Assistant(row.id, row.position, _setup(row, folder),
                         tuple(n for (n,) in names))

    def _folder_id(self, name: str, *, make: bool) -> int | None:
        """The folder `name` names (None for ""): made if missing with `make` (an
        import's), else `AssistantRefused`. In the caller's transaction."""
        if not name:
            return None
        if make:
            return folder_for(self.db, name)
        found = folder_named(self.db, name)
        if found is None:
            raise AssistantRefused("no_folder", f"There is no folder “{name}” (see "
                                   "turnlog-cli folder list).")
        return found

    def get(self, assistant_id: int) -> Assistant:
        with self.database.guard():
            row = AssistantRow.select().where(AssistantRow.id == assistant_id).first(self.db)
            if row is None:
                raise NotFound(f"There is no assistant {assistant_id}.")
            return self._assistant(row)

    def find(self, name: str) -> Assistant:
        """The assistant called `name` (or with that id), or `NotFound`."""
        with self.database.guard():
            row = AssistantRow.select().where(AssistantRow.name == name.strip()).first(self.db)
        if row is None and name.strip().isdigit():
            return self.get(int(name))
        if row is None:
            raise NotFound(f"There is no assistant “{name}” (see turnlog-cli assistant list).")
        with self.database.guard():
            return self._assistant(row)

    def files(self, assistant_id: int) -> tuple[Attachment, ...]:
        """Its files, with their originals, in order."""
        with self.database.guard():
            return attachments.load_assistant_files(self.db, assistant_id)

    # ------------------------------------------------------------------ changes
    def add(self, setup: AssistantSetup, files: Sequence[Attachment] = (), *,
            make_folder: bool = False) -> Assistant:
        """A new assistant at the end of the list. Its folder must exist, or is made with
        `make_folder` (an import's)."""
        self.database.need_writer()
        setup = setup.checked()
        with self.database.guard(), self.db.atomic("IMMEDIATE"):
            self._refuse_taken(setup.name, None)
            folder = self._folder_id(setup.folder, make=make_folder)
            last = self.db.execute_sql('SELECT max("position") FROM "assistants"').fetchone()[0]
            stamp = rows.now_iso()
            row = insert(self.db, AssistantRow, position=(last or 0) + 1, created_at=stamp,
                         updated_at=stamp, folder=folder, **_columns(setup))
            attachments.save_assistant_files(self.db, row.id, files)
        return self.get(row.id)

    def update(self, assistant_id: int, setup: AssistantSetup,
               files: Sequence[Attachment] | None = None) -> Assistant:
        """Change its setup (and its files, if given). Conversations it started keep
        what they copied."""
        self.database.need_writer()
        setup = setup.checked()
        self.get(assistant_id)
        with self.database.guard(), self.db.atomic("IMMEDIATE"):
            self._refuse_taken(setup.name, assistant_id)
            folder = self._folder_id(setup.folder, make=False)
            AssistantRow.update(updated_at=rows.now_iso(), folder=folder,
                                **_columns(setup)).where(
                AssistantRow.id == assistant_id).execute(self.db)
            if files is not None:
                attachments.save_assistant_files(self.db, assistant_id, files)
                gone = attachments.sweep(self.db)
        if files is not None and gone:
            self._erase()
        return self.get(assistant_id)

    def duplicate(self, assistant_id: int) -> Assistant:
        """A copy named “<name> (copy)” (or copy 2, 3 …), with the same files."""
        source = self.get(assistant_id)
        taken = {a.name for a in self.list()}
        name, n = f"{source.name} (copy)", 2
        while name in taken:
            name, n = f"{source.name} (copy {n})", n + 1
        return self.add(replace(source.setup, name=name[:80]), self.files(assistant_id))

    def move(self, assistant_id: int, to_index: int) -> list[Assistant]:
        """Put it at `to_index` (0 first) in the list; the others keep their order."""
        self.database.need_writer()
        order = [a.id for a in self.list()]
        if assistant_id not in order:
            raise NotFound(f"There is no assistant {assistant_id}.")
        order.remove(assistant_id)
        order.insert(max(0, min(to_index, len(order))), assistant_id)
        with self.database.guard(), self.db.atomic("IMMEDIATE"):
            for position, aid in enumerate(order, 1):
                AssistantRow.update(position=position).where(AssistantRow.id == aid
                                                             ).execute(self.db)
        return self.list()

    def delete(self, assistant_id: int) -> None:
        """Remove it and its files (a file a turn still has stays with that turn)."""
        self.database.need_writer()
        with self.database.guard(), self.db.atomic("IMMEDIATE"):
            gone = AssistantRow.delete().where(AssistantRow.id == assistant_id).execute(self.db)
            if not gone:
                raise NotFound(f"There is no assistant {assistant_id}.")
            attachments.sweep(self.db)
        self._erase()

    def delete_all(self) -> int:
        """Remove every assistant (offered with delete-all); returns how many went."""
        self.database.need_writer()
        with self.database.guard(), self.db.atomic("IMMEDIATE"):
            count = int(AssistantRow.delete().execute(self.db))
            attachments.sweep(self.db)
        if count:
            self._erase()
        return count

    def _refuse_taken(self, name: str, own_id: int | None) -> None:
        row = AssistantRow.select().where(AssistantRow.name == name).first(self.db)
        if row is not None and row.id != own_id:
            raise AssistantRefused("name_taken", f"There is already an assistant “{name}”.")

    def _erase(self) -> None:
        """Removed files leave no copy in `-wal` (`secure_delete` cleared the pages)."""
        with self.database.guard():
            self.database.checkpoint()

    # --------------------------------------------------------------- conversations
    def start(self, assistant: Assistant, *, system_prompt: str, model: str,
              settings: ConversationSettings) -> Conversation:
        """A new conversation with a copy of the setup (`system_prompt` filled), its pins
        and notes, and the assistant it came from, in one transaction, in the assistant's
        folder (if it still has one). Made for a first question: one never answered is
        swept as any first send's is."""
        self.database.need_writer()
        with self.database.guard(), self.db.atomic("IMMEDIATE"):
            conversation = self.conversations.create(
                "", system_prompt=system_prompt, model=model, settings=settings,
                first_send=True, title_source=QUESTION)
            folder = AssistantRow.select(AssistantRow.folder).where(
                AssistantRow.id == assistant.id).scalar(self.db)
            if folder is not None:
                ConversationRow.update(folder=folder).where(
                    ConversationRow.id == conversation.id).execute(self.db)
                conversation = replace(conversation, folder_id=int(folder))
            for pin in assistant.setup.pins:
                self.memory.add_pin(conversation.id, pin)
            for note in assistant.setup.notes:
                self.memory.add_note(conversation.id, note.text, priority=note.priority)
            insert(self.db, ConversationAssistantRow, conversation=conversation.id,
                   assistant=assistant.id, name=assistant.name)
        return conversation

    def origin(self, conversation_id: int) -> Origin | None:
        """The assistant the conversation started from, if it did."""
        with self.database.guard():
            row = ConversationAssistantRow.select().where(
                ConversationAssistantRow.conversation == conversation_id).first(self.db)
        if row is None:
            return None
        return Origin(row.assistant_id, row.name)

    def started_from(self, assistant_id: int) -> list[int]:
        """The conversations that started from this assistant."""
        with self.database.guard():
            found = ConversationAssistantRow.select(ConversationAssistantRow.conversation).where(
                ConversationAssistantRow.assistant == assistant_id)
            return [int(r.conversation_id) for r in found.execute(self.db)]
