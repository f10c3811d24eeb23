"""The storage work the window starts, one named operation each.

Each function here builds a `StorageOp`: one storage change (or one read) that runs on
the storage lane of `TaskRunner`, never on the GUI thread. A change answers with
`Changes`, which names what it changed — a conversation made, renamed or set up,
conversations or turns deleted, the summary that is newest afterwards — so the window
refreshes the views that show it and nothing else.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Generic, TypeVar

from ...core.compaction import StoredSummary
from ...core.model import Conversation, ConversationSettings, Turn
from ...core.numbers import TurnNumbers
from ...core.send import PartialAnswer, keep_partial
from ...core.titles import QUESTION
from ...export import export_text
from ...secrets import KeyringUnavailable, KeyStore
from ...store import TurnlogStore
from ...store.deletion import DeletionCounts
from .changes import Changes
from .export_file import ExportTarget, write_export
from .tasks import TaskContext, TaskHandle, TaskRunner

T = TypeVar("T")

# Turns the transcript shows of a conversation it opens, and adds each time it is scrolled
# to the top; loading reads this many ahead.
TRANSCRIPT_PAGE = 20


@dataclass(frozen=True, slots=True)
class StorageOp(Generic[T]):
    """One named piece of storage work; `run` puts it on the storage lane."""

    name: str
    work: Callable[[], T]

    def run(self, runner: TaskRunner, *, on_success: Callable[[T], None],
            on_failure: Callable[[BaseException], None]) -> TaskHandle[T]:
        def work(context: TaskContext) -> T:
            return self.work()

        return runner.run(TaskRunner.STORAGE, self.name, work, on_success=on_success,
                          on_failure=on_failure)


@dataclass(frozen=True, slots=True)
class Loaded:
    """A conversation's turns and newest summary, as opening it shows them."""

    conversation_id: int
    turns: Sequence[Turn]
    summary: StoredSummary | None


@dataclass(frozen=True, slots=True)
class Exported:
    turns: int
    bytes: int
    target: ExportTarget


# ------------------------------------------------------------------------- reads
def load_conversation(store: TurnlogStore, conversation_id: int) -> StorageOp[Loaded]:
    def work() -> Loaded:
        # The newest page, and the ids a rolling summary is checked by: older turns are
        # read as the view or a preview needs them.
        summary = store.records.latest_summary(conversation_id)
        covered = summary.covered_count if summary is not None else 0
        return Loaded(conversation_id,
                      store.turns.log(conversation_id).warm(TRANSCRIPT_PAGE, ids=covered),
                      summary)

    return StorageOp("load turns", work)


def count_conversation_deletion(store: TurnlogStore, conversation_id: int
                                ) -> StorageOp[tuple[DeletionCounts, list[Conversation]]]:
    """What deleting the conversation removes, and the forks holding copies of its turns."""
    def work() -> tuple[DeletionCounts, list[Conversation]]:
        return store.privacy.preview_conversation(conversation_id), store.forks(conversation_id)

    return StorageOp("count a conversation's deletion", work)


def count_turn_deletion(store: TurnlogStore,
                        turn_id: str) -> StorageOp[tuple[int, DeletionCounts, int]]:
    """The turn's number, what deleting it (with its other versions) removes, and how
    many versions it has."""
    def work() -> tuple[int, DeletionCounts, int]:
        cid, turn = store.turns.get(turn_id)
        found = store.turns.versions(cid)
        number = TurnNumbers.of(found).number(turn.ordinal)
        return number, store.privacy.preview_turn(turn_id), len(found.group(turn_id))

    return StorageOp("count a turn's deletion", work)


def count_all_history(store: TurnlogStore, keys: KeyStore | None,
                      profiles: Sequence[tuple[str, str]]
                      ) -> StorageOp[tuple[DeletionCounts, list[str]]]:
    """Everything a delete of all history removes, and which of `profiles` ((id, name)
    pairs) have an API key kept (their names): only those are offered to forget. A
    keyring that cannot be read counts as holding the key (better offered than left)."""
    def work() -> tuple[DeletionCounts, list[str]]:
        with_keys = []
        for profile_id, name in profiles:
            try:
                kept = keys is not None and keys.get(profile_id) is not None
            except KeyringUnavailable:
                kept = True
            if kept:
                with_keys.append(name)
        return store.privacy.preview_all(), with_keys

    return StorageOp("count all history", work)


def export_conversation(store: TurnlogStore, conversation_id: int,
                        target: ExportTarget) -> StorageOp[Exported]:
    """Write the conversation as the log holds it to `target` (a file, not the store)."""
    def work() -> Exported:
        turns = store.turns.all(conversation_id)  # superseded versions too, marked
        text = export_text(store.conversations.get(conversation_id), turns, target.fmt,
                           store.turns.versions(conversation_id),
                           store.memory.export_memory(conversation_id),
                           store.side.of(conversation_id))
        return Exported(len(turns), write_export(target.path, text), target)

    return StorageOp("export conversation", work)


# ----------------------------------------------------------------------- changes
def create_conversation(store: TurnlogStore, model: str, *,
                        first_send: bool = False) -> StorageOp[Changes]:
    """A new conversation, titled after its first question once that is answered (until
    then the neutral title); `first_send`: for a question about to be sent, so it is swept
    on the next start if that question is never answered."""
    def work() -> Changes:
        return Changes(store.conversations.create("", model=model, first_send=first_send,
                                                 title_source=QUESTION), created=True)

    return StorageOp("create conversation", work)


def rename_conversation(store: TurnlogStore, conversation_id: int,
                        title: str) -> StorageOp[Changes]:
    def work() -> Changes:
        return Changes(store.conversations.update(conversation_id, title=title), renamed=True)

    return StorageOp("rename conversation", work)


def reread_conversation(store: TurnlogStore, conversation: Conversation
                        ) -> StorageOp[Changes]:
    """The conversation as stored now, named renamed if its title changed (a title taken
    from the first question, after an answer was saved)."""
    def work() -> Changes:
        now = store.conversations.get(conversation.id)
        if now.title == conversation.title and now.title_source == conversation.title_source:
            return Changes()
        return Changes(now, renamed=True)

    return StorageOp("read the conversation's title", work)


def keep_incomplete_answer(store: TurnlogStore, answer: PartialAnswer) -> StorageOp[Changes]:
    """Keep as an incomplete turn: the question and the answer so far, appended to the
    conversation, which answers as it is now (titled after its first question, if that is
    the one kept)."""
    def work() -> Changes:
        before = store.conversations.get(answer.conversation_id)
        turn = keep_partial(store, answer)
        now = store.conversations.get(answer.conversation_id)
        return Changes(now, renamed=now.title != before.title, appended=turn)

    return StorageOp("keep an incomplete answer", work)


def save_conversation_settings(store: TurnlogStore, conversation_id: int,
                               settings: ConversationSettings, system_prompt: str | None,
                               model: str | None) -> StorageOp[Changes]:
    def work() -> Changes:
        conversation = store.conversations.update(conversation_id, settings=settings,
                                                 system_prompt=system_prompt, model=model)
        return Changes(conversation, settings=True)

    return StorageOp("save settings", work)


def allow_tool_always(store: TurnlogStore, conversation_id: int,
                      tool: str) -> StorageOp[Changes]:
    """The person always allows `tool` in the conversation from now on."""
    def work() -> Changes:
        settings = store.conversations.get(conversation_id).settings
        allowed = tuple(sorted({*settings.always_allowed, tool}))
        conversation = store.conversations.update(
            conversation_id, settings=replace(settings, always_allowed=allowed))
        return Changes(conversation, settings=True)

    return StorageOp("always allow a tool", work)


def delete_conversation(store: TurnlogStore, conversation_id: int, *,
                        with_forks: bool = False) -> StorageOp[Changes]:
    def work() -> Changes:
        report = store.privacy.delete_conversation(conversation_id, with_forks=with_forks)
        return Changes(deleted=frozenset(report.conversation_ids), counts=report.counts)

    return StorageOp("delete conversation", work)


def delete_turn(store: TurnlogStore, turn_id: str, *, with_versions: bool = True,
                keep_pins: bool = False) -> StorageOp[Changes]:
    """Delete one turn (with its other versions unless `with_versions` is false); the
    change carries the summary left newest (one covering the turn goes with it). The
    pins taken from it go too, unless `keep_pins` (then they stay, as typed). What the
    window refreshes comes from the store's report: nothing is read again."""
    def work() -> Changes:
        report = store.privacy.delete_turn(turn_id, with_versions=with_versions,
                                           keep_pins=keep_pins)
        # A title from the first turn follows it.
        return Changes(report.conversation if report.renamed else None,
                       renamed=report.renamed, turns_deleted=report.turn_ids,
                       turns_of=report.conversation_id, summary=report.summary,
                       counts=report.counts)

    return StorageOp("delete turn", work)


def delete_all_history(store: TurnlogStore, keys: KeyStore | None,
                       profile_ids: Sequence[str], *, preferences: bool = False
                       ) -> StorageOp[Changes]:
    """Delete every conversation; with `keys`, remove the profiles' API keys too, and
    with `preferences` the preferences."""
    def work() -> Changes:
        report = store.privacy.delete_all(preferences=preferences)
        removed = None if keys is None else sum(1 for pid in profile_ids if keys.delete(pid))
        return Changes(everything=True, counts=report.counts, keys_removed=removed)

    return StorageOp("delete all history", work)
