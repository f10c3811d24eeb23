"""The compaction history's storage work, one named operation each, on the storage lane
(`operations.StorageOp`): reading a conversation's summaries, and the user's edit, undo
and *Forget earlier versions* of the summary in use."""

from __future__ import annotations

from ...core.numbers import TurnNumbers
from ...core.summaries import StoredSummary
from ...store import TurnlogStore
from .operation_results import HistoryState
from .operations import StorageOp


def read_summary_history(store: TurnlogStore, conversation_id: int
                         ) -> StorageOp[HistoryState]:
    """The compaction history, with the numbers the window shows its turns by."""
    def work() -> HistoryState:
        numbers = TurnNumbers.of(store.turns.versions(conversation_id))
        return HistoryState(conversation_id,
                            tuple(store.records.summary_history(conversation_id)), numbers)

    return StorageOp("read the compaction history", work)


def edit_summary(store: TurnlogStore, conversation_id: int, text: str,
                 tokens: int) -> StorageOp[StoredSummary]:
    return StorageOp("edit the summary",
                     lambda: store.records.edit_summary(conversation_id, text, tokens))


def undo_summary_edit(store: TurnlogStore, conversation_id: int) -> StorageOp[StoredSummary]:
    return StorageOp("undo a summary edit",
                     lambda: store.records.undo_summary_edit(conversation_id))


def forget_earlier_summaries(store: TurnlogStore, conversation_id: int) -> StorageOp[int]:
    return StorageOp("forget earlier summaries",
                     lambda: store.records.forget_earlier_summaries(conversation_id))
