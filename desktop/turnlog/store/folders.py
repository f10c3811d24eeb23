"""`store.folders`: the sidebar's folders (flat, one level) and which conversation is in
which, and the star that lists a conversation first.

A folder is a small record (its name, when made); a conversation names its folder or
none. Removing a folder moves its conversations out, or deletes them as any privacy
delete does (`store.privacy`), erased from the disk with it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import peewee

from ..core.folders import name_problem
from ..core.model import Folder
from . import rows
from .database import Database
from .errors import FolderNameRefused, FolderNotFound
from .models import ConversationRow, FolderRow, insert

if TYPE_CHECKING:
    from .privacy import ConversationsDeleted, Privacy

_BATCH = 500  # ids per statement (SQLite's variables limit)


def clean_name(name: str) -> str:
    """The name as stored (spaces around it dropped), or `FolderNameRefused` saying why
    it cannot be one."""
    cleaned = name.strip()
    problem = name_problem(cleaned)
    if problem is not None:
        raise FolderNameRefused(problem)
    return cleaned


def folder_named(db: peewee.Database, name: str) -> int | None:
    """The folder named `name` (case-insensitively), or None."""
    wanted = name.strip().casefold()
    for folder_id, stored in FolderRow.select(FolderRow.id, FolderRow.name
                                              ).tuples().execute(db):
        if stored.casefold() == wanted:
            return int(folder_id)
    return None


def folder_for(db: peewee.Database, name: str) -> int:
    """The folder named `name`, made if there is none (an import's; in its transaction)."""
    found = folder_named(db, name)
    if found is not None:
        return found
    return int(insert(db, FolderRow, name=clean_name(name), created_at=rows.now_iso()).id)


class Folders:
    """The folders of one store."""

    def __init__(self, database: Database, privacy: Callable[[], Privacy]) -> None:
        """`privacy`: the store's deletes, made when a folder's conversations are first
        deleted with it (listing folders loads none of them)."""
        self.database = database
        self.db = database.db
        self._privacy = privacy

    def __call__(self) -> list[Folder]:
        return self.list()

    def list(self) -> list[Folder]:
        """Every folder, by name (case-insensitively), with how many conversations each
        holds."""
        with self.database.guard():
            counts = dict(ConversationRow.select(ConversationRow.folder,
                                                 peewee.fn.COUNT(ConversationRow.id))
                          .where(ConversationRow.folder.is_null(False))
                          .group_by(ConversationRow.folder).tuples().execute(self.db))
            found = [Folder(row.id, row.name, int(counts.get(row.id, 0)))
                     for row in FolderRow.select().execute(self.db)]
        return sorted(found, key=lambda f: (f.name.casefold(), f.id))

    def get(self, folder_id: int) -> Folder:
        for folder in self.list():
            if folder.id == folder_id:
                return folder
        raise FolderNotFound(f"There is no folder {folder_id}.")

    def folder_id_by_name(self, name: str) -> int | None:
        """The folder named `name` (case-insensitively, spaces around it ignored), or
        None: what an assistant's default folder is looked up by."""
        with self.database.guard():
            return folder_named(self.db, name)

    def named(self, name: str) -> Folder:
        """The folder named `name`, or `NotFound` saying so."""
        folder_id = self.folder_id_by_name(name)
        if folder_id is None:
            raise FolderNotFound(f"There is no folder named {name.strip()!r}.")
        return self.get(folder_id)

    def add(self, name: str) -> Folder:
        """A new, empty folder; a name another folder has (in any case) is refused."""
        self.database.need_writer()
        cleaned = clean_name(name)
        with self.database.guard(), self.db.atomic("IMMEDIATE"):
            self._refuse_taken(cleaned, None)
            row = insert(self.db, FolderRow, name=cleaned, created_at=rows.now_iso())
        return Folder(row.id, cleaned, 0)

    def rename(self, folder_id: int, name: str) -> Folder:
        self.database.need_writer()
        cleaned = clean_name(name)
        with self.database.guard(), self.db.atomic("IMMEDIATE"):
            if not FolderRow.select().where(FolderRow.id == folder_id).exists(self.db):
                raise FolderNotFound(f"There is no folder {folder_id}.")
            self._refuse_taken(cleaned, folder_id)
            FolderRow.update(name=cleaned).where(FolderRow.id == folder_id).execute(self.db)
        with self.database.guard():
            self.database.checkpoint()  # the old name leaves no copy in -wal
        return self.get(folder_id)

    def _refuse_taken(self, name: str, folder_id: int | None) -> None:
        for other_id, other in FolderRow.select(FolderRow.id, FolderRow.name
                                                ).tuples().execute(self.db):
            if other_id != folder_id and other.casefold() == name.casefold():
                raise FolderNameRefused(f"There is a folder named {other!r} already.")

    def conversation_ids(self, folder_id: int) -> list[int]:
        with self.database.guard():
            return [int(c) for (c,) in ConversationRow.select(ConversationRow.id)
                    .where(ConversationRow.folder == folder_id).tuples().execute(self.db)]

    def delete(self, folder_id: int, *, with_conversations: bool = False
               ) -> ConversationsDeleted | None:
        """Remove a folder. Its conversations move out of it, or (`with_conversations`)
        are deleted as any privacy delete deletes them (the report of that delete)."""
        self.database.need_writer()
        self.get(folder_id)
        deleted = None
        if with_conversations:
            deleted = self._privacy().delete_conversations(self.conversation_ids(folder_id))
        with self.database.guard(), self.db.atomic("IMMEDIATE"):
            # The conversations still in it (all, or any moved in meanwhile) move out.
            FolderRow.delete().where(FolderRow.id == folder_id).execute(self.db)
        with self.database.guard():
            self.database.checkpoint()  # its name leaves no copy in -wal
        return deleted

    def move(self, conversation_ids: Sequence[int], folder_id: int | None) -> int:
        """Put these conversations in folder `folder_id` (None: out of any folder);
        returns how many were moved."""
        self.database.need_writer()
        moved = 0
        with self.database.guard(), self.db.atomic("IMMEDIATE"):
            if folder_id is not None and not FolderRow.select().where(
                    FolderRow.id == folder_id).exists(self.db):
                raise FolderNotFound(f"There is no folder {folder_id}.")
            for ids in _batches(conversation_ids):
                moved += ConversationRow.update(folder=folder_id).where(
                    ConversationRow.id.in_(ids)).execute(self.db)
        return moved

    def star(self, conversation_ids: Sequence[int], starred: bool = True) -> int:
        """Star these conversations (listed first) or take their star away; returns how
        many were changed."""
        self.database.need_writer()
        changed = 0
        with self.database.guard(), self.db.atomic("IMMEDIATE"):
            for ids in _batches(conversation_ids):
                changed += ConversationRow.update(starred=starred).where(
                    ConversationRow.id.in_(ids)).execute(self.db)
        return changed


def _batches(ids: Sequence[int]) -> list[list[int]]:
    unique = list(dict.fromkeys(ids))
    return [unique[at:at + _BATCH] for at in range(0, len(unique), _BATCH)]
