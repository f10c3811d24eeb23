"""Deletes with a scope, for a data directory that syncs: one named operation each, on the
storage lane (`operations.StorageOp`). *Everywhere* writes a delete record every machine
applies at its next sync; *on this machine only* keeps a marker so the next sync does not
bring the history back (it still exists on the other machines and in the storage). And what
Settings → Sync reads of the sync state."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...store import TurnlogStore
from .changes import Changes
from .operations import StorageOp

if TYPE_CHECKING:
    from ...service.sync_status import SyncStatus


def sync_set_up(store: TurnlogStore) -> StorageOp[bool]:
    """Whether the data directory syncs (a delete then asks: everywhere, or here only)."""
    def work() -> bool:
        from ...sync.state import is_sync_set_up

        return is_sync_set_up(store.home)

    return StorageOp("is sync set up", work)


def sync_status(store: TurnlogStore) -> StorageOp[SyncStatus | None]:
    """What Settings → Sync shows (`turnlog-cli sync status`): this machine, the others and
    their last syncs, the pending deletes in counts; None when sync is not set up."""
    def work() -> SyncStatus | None:
        from ...service.sync_status import read_status

        return read_status(store.home)

    return StorageOp("read the sync status", work)


def delete_conversations(store: TurnlogStore, conversation_ids: Sequence[int], *,
                         everywhere: bool) -> StorageOp[Changes]:
    """Delete conversations (one and the forks of it named with it, or several chosen in
    the sidebar) everywhere or here only."""
    def work() -> Changes:
        report = store.sync_feed.delete_conversations(list(conversation_ids),
                                                      everywhere=everywhere)
        return Changes(deleted=frozenset(report.conversation_ids), counts=report.counts,
                       folders=True)

    return StorageOp("delete conversation", work)


def delete_folder(store: TurnlogStore, folder_id: int, conversation_ids: Sequence[int], *,
                  everywhere: bool) -> StorageOp[Changes]:
    """A folder deleted with its conversations (`conversation_ids`, as counted when asked),
    everywhere or here only: they go through the scoped delete, then the folder; one put
    in it since it was counted moves out of it, as the folder's own delete does."""
    def work() -> Changes:
        report = store.sync_feed.delete_conversations(list(conversation_ids),
                                                      everywhere=everywhere) \
            if conversation_ids else None
        store.folders.delete(folder_id, with_conversations=False)
        if report is None:
            return Changes(folders=True)
        return Changes(deleted=frozenset(report.conversation_ids), counts=report.counts,
                       folders=True)

    return StorageOp("delete a folder", work)


def delete_turn(store: TurnlogStore, turn_id: str, *, everywhere: bool,
                with_versions: bool = True, keep_pins: bool = False) -> StorageOp[Changes]:
    """`operations.delete_turn` with a scope."""
    def work() -> Changes:
        report = store.sync_feed.delete_turn(turn_id, everywhere=everywhere,
                                             with_versions=with_versions, keep_pins=keep_pins)
        return Changes(report.conversation if report.renamed else None,
                       renamed=report.renamed, turns_deleted=report.turn_ids,
                       turns_of=report.conversation_id, summary=report.summary,
                       counts=report.counts)

    return StorageOp("delete turn", work)
