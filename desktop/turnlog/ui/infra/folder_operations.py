"""The sidebar's folders as storage work, one named operation each, on the storage lane
(`operations.StorageOp`): folders made, renamed and deleted, conversations moved, starred
or deleted several at once; each announces what changed (`Changes.folders`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...store import TurnlogStore
from .changes import Changes
from .operations import StorageOp

if TYPE_CHECKING:  # the deletes themselves load with the first of them
    from ...store.deletion import DeletionCounts


def add_folder(store: TurnlogStore, name: str) -> StorageOp[Changes]:
    def work() -> Changes:
        store.folders.add(name)
        return Changes(folders=True)

    return StorageOp("add a folder", work)


def rename_folder(store: TurnlogStore, folder_id: int, name: str) -> StorageOp[Changes]:
    def work() -> Changes:
        store.folders.rename(folder_id, name)
        return Changes(folders=True)

    return StorageOp("rename a folder", work)


def move_conversations(store: TurnlogStore, ids: Sequence[int],
                       folder_id: int | None) -> StorageOp[Changes]:
    def work() -> Changes:
        store.folders.move(ids, folder_id)
        return Changes(folders=True)

    return StorageOp("move conversations", work)


def star_conversations(store: TurnlogStore, ids: Sequence[int],
                       starred: bool) -> StorageOp[Changes]:
    def work() -> Changes:
        store.folders.star(ids, starred)
        return Changes(folders=True)

    return StorageOp("star conversations", work)


def count_deletion(store: TurnlogStore, ids: Sequence[int]) -> StorageOp[DeletionCounts]:
    return StorageOp("count a deletion", lambda: store.privacy.preview_conversations(ids))


def count_folder(store: TurnlogStore,
                 folder_id: int) -> StorageOp[tuple[list[int], DeletionCounts]]:
    """The conversations in the folder, and what deleting them removes."""
    def work() -> tuple[list[int], DeletionCounts]:
        ids = store.folders.conversation_ids(folder_id)
        return ids, store.privacy.preview_conversations(ids)

    return StorageOp("count a folder's deletion", work)


def delete_conversations(store: TurnlogStore, ids: Sequence[int]) -> StorageOp[Changes]:
    def work() -> Changes:
        report = store.privacy.delete_conversations(ids)
        return Changes(deleted=frozenset(report.conversation_ids), counts=report.counts,
                       folders=True)

    return StorageOp("delete conversations", work)


def delete_folder(store: TurnlogStore, folder_id: int,
                  with_conversations: bool) -> StorageOp[Changes]:
    def work() -> Changes:
        report = store.folders.delete(folder_id, with_conversations=with_conversations)
        if report is None:
            return Changes(folders=True)
        return Changes(deleted=frozenset(report.conversation_ids), counts=report.counts,
                       folders=True)

    return StorageOp("delete a folder", work)
