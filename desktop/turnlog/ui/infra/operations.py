"""The storage work the window starts, one named operation each, and the announcing of
what it changed.

Each function here builds a `StorageOp`: one storage change (or one read) that runs on the
storage lane of `TaskRunner`, never on the GUI thread (the settings' keyring work is in
`settings_operations`, what the reads answer with in `operation_results`). A change answers
with `Changes`, which names what it changed — a conversation made, renamed or set up,
conversations or turns deleted, the summary that is newest afterwards — and is announced on
the window's `ChangeHub` from here only (`StorageOp.announce`, `announce`), with its origin,
so the window refreshes the views that show it and nothing else.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar

from PySide6.QtCore import QCoreApplication

from ...config.secrets import KeyringUnavailable, KeyStore
from ...core.attachments import Attachment, AttachmentRefused
from ...core.model import Conversation, ConversationSettings
from ...core.numbers import TurnNumbers
from ...store import TurnlogStore, drafts
from ...store.salvage import Salvaged, salvage_all
from .changes import ChangeHub, Changes
from .export_file import ExportTarget, write_export
from .languages import arg
from .operation_results import Exported, Found, Kept, Loaded, MemoryState
from .tasks import TaskContext, TaskHandle, TaskRunner

if TYPE_CHECKING:  # the send path, importers, exporters, proofs and searches: on first use
    from ...core.imports import ImportOutcome
    from ...core.proof import Rebuilt
    from ...core.send import PartialAnswer
    from ...core.side_records import SideAttempt, SideQuestion
    from ...service.transfer import ExportedAll
    from ...store.deletion import DeletionCounts
    from ...store.search import MatchCount, SearchHit

log = logging.getLogger(__name__)
translate = QCoreApplication.translate  # translate("Context", …): lupdate reads it

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

    def announce(self: StorageOp[Changes], runner: TaskRunner, hub: ChangeHub,
                 origin: object, *, on_failure: Callable[[BaseException], None]
                 ) -> TaskHandle[Changes]:
        """Run, then announce on `hub` what the work changed, as `origin`'s."""
        return self.run(runner, on_success=lambda done: announce(hub, done, origin),
                        on_failure=on_failure)


@dataclass(frozen=True, slots=True)
class LongStorageOp(Generic[T]):
    """Storage work long enough to show its progress and to be cancelled: `work` is given
    the task's context (its cancel handle, and where it reports how far it got)."""

    name: str
    work: Callable[[TaskContext], T]

    def run(self, runner: TaskRunner, *, on_success: Callable[[T], None],
            on_failure: Callable[[BaseException], None],
            on_progress: Callable[[object], None]) -> TaskHandle[T]:
        return runner.run(TaskRunner.STORAGE, self.name, self.work, on_success=on_success,
                          on_failure=on_failure, on_progress=on_progress)


# ------------------------------------------------------------------- announcing
def announce(hub: ChangeHub, changes: Changes, origin: object) -> None:
    """Announce what an operation started by `origin` changed (once `origin` has shown
    its own part of it), so every other view refreshes from it."""
    hub.publish(changes, origin)


def announce_provider_changed(hub: ChangeHub, origin: object) -> None:
    """The provider profiles, or the one in use, changed: saved by `origin` (another
    program's save: the profile watcher)."""
    hub.publish(Changes(provider=True), origin)


# ------------------------------------------------------------------------- reads
def load_conversation(store: TurnlogStore, conversation_id: int) -> StorageOp[Loaded]:
    def work() -> Loaded:
        # The newest page, and the ids a rolling summary is checked by: older turns are
        # read as the view or a preview needs them.
        summary = store.records.latest_summary(conversation_id)
        covered = summary.covered_count if summary is not None else 0
        return Loaded(conversation_id,
                      store.turns.log(conversation_id).warm(TRANSCRIPT_PAGE, ids=covered), summary)

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
        from ...formats.export import export_text  # the exporters: an export's only
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
        from ...core.titles import QUESTION
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
    from ...core.send import keep_partial

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
                       profile_ids: Sequence[str], *, preferences: bool = False,
                       usage_totals: bool = False) -> StorageOp[Changes]:
    """Delete every conversation; with `keys`, remove the profiles' API keys too, with
    `preferences` the preferences, with `usage_totals` the daily usage totals."""
    def work() -> Changes:
        report = store.privacy.delete_all(preferences=preferences, usage_totals=usage_totals)
        removed = None if keys is None else sum(1 for pid in profile_ids if keys.delete(pid))
        return Changes(everything=True, counts=report.counts, keys_removed=removed)

    return StorageOp("delete all history", work)


def check_database(store: TurnlogStore) -> StorageOp[list[int]]:
    """Check the database before the first write (its file once: read off this lane first);
    the conversations swept (made for a question never answered, by a run that ended before)."""
    def work() -> list[int]:
        store.database.check_sound()
        return store.conversations.sweep_unanswered()

    return StorageOp("check the database", work)


def export_readable(path: Path, target: ExportTarget,
                    write: Callable[[Salvaged, ExportTarget], str]) -> StorageOp[str]:
    """Everything that can be read of the database at `path`, row by row, written to
    `target` by `write`, which says in words what happened."""
    return StorageOp("export what can be read",
                     lambda: write(salvage_all(path, target.fmt), target))


def drop_unused_conversation(store: TurnlogStore, conversation_id: int) -> StorageOp[None]:
    """Delete the conversation if nothing is in it (no turn, pin or note)."""
    def work() -> None:
        if not (store.turns.count(conversation_id) or store.memory.pins(conversation_id)
                or store.memory.notes(conversation_id)):
            store.privacy.delete_conversation(conversation_id)

    return StorageOp("drop an unused new conversation", work)


def remove_unanswered_conversation(store: TurnlogStore, conversation_id: int,
                                   question: str) -> StorageOp[Changes]:
    """A conversation started for a question that failed, still without a turn: the
    question is kept as the draft of no conversation, and the conversation goes."""
    def work() -> Changes:
        if not store.conversations.unanswered_first_send(conversation_id):
            return Changes()
        try:
            drafts.save_draft(store.home, drafts.NO_CONVERSATION, question)
        except OSError as err:  # then the conversation keeps the draft, as it is
            log.warning("Could not keep the unsent question: %s", err)
            return Changes()
        if not store.conversations.discard_if_empty(conversation_id):
            return Changes()
        return Changes(deleted=frozenset({conversation_id}))

    return StorageOp("remove the unanswered conversation", work)


# -------------------------------------------------------------- search and filter
def search_first_page(store: TurnlogStore, query: str, limit: int
                      ) -> StorageOp[list[SearchHit]]:
    """The first `limit` hits of `query` (how many there are: `count_matches`)."""
    return StorageOp("search", lambda: store.search(query, limit=limit))


def count_matches(store: TurnlogStore, query: str) -> StorageOp[MatchCount]:
    """How many titles and turns match `query`, turns up to `store.search.COUNT_CAP`."""
    return StorageOp("count matches", lambda: store.search.count(query))


def search_more_turns(store: TurnlogStore, query: str, limit: int,
                      after: int) -> StorageOp[list[SearchHit]]:
    """The next `limit` turns matching `query`, after the first `after`."""
    return StorageOp("search", lambda: store.search(query, limit=limit, offset=after,
                                                    titles=False))


def filter_conversations(store: TurnlogStore, text: str,
                         folder: int | None = None) -> StorageOp[Sequence[Conversation]]:
    """The conversations whose title or turns hold `text` (in `folder`, when given), as
    rows each made into a conversation when the list shows it: making thousands on the
    worker would hold the interpreter while the list is painted."""
    return StorageOp("filter conversations",
                     lambda: store.conversations.listing(text, folder=folder))


# ------------------------------------------------------------- versions and forks
def read_versions(store: TurnlogStore, conversation_id: int) -> StorageOp[Found]:
    def work() -> Found:
        versions, members = store.turns.version_members(conversation_id)
        return versions, members, store.forks.origin(conversation_id)

    return StorageOp("read versions", work)


def rebuild_request(store: TurnlogStore, conversation_id: int, turn_id: str,
                    round_: int | None = None) -> StorageOp[Rebuilt]:
    """The request that made turn `turn_id`'s answer, rebuilt from its record, checked."""
    from ...service.request_body import request_of_turn  # the request builder: first use

    return StorageOp("rebuild a past request",
                     lambda: request_of_turn(store, conversation_id, turn_id, round_))


def use_version(store: TurnlogStore, turn_id: str) -> StorageOp[int]:
    return StorageOp("use a version", lambda: store.turns.use_version(turn_id))


def fork_with_version(store: TurnlogStore, conversation_id: int, turn_id: str
                      ) -> StorageOp[Changes]:
    def work() -> Changes:
        made, _draft = store.forks.with_version(turn_id, conversation_id=conversation_id)
        return Changes(made, created=True)

    return StorageOp("fork with a version", work)


def fork(store: TurnlogStore, conversation_id: int, ordinal: int) -> StorageOp[Changes]:
    def work() -> Changes:
        made, _draft = store.forks.at(conversation_id, ordinal)  # the draft is saved with it
        return Changes(made, created=True)

    return StorageOp("fork a conversation", work)


# ------------------------------------------------------------------ side questions
def read_side_questions(store: TurnlogStore, conversation_id: int
                        ) -> StorageOp[tuple[list[SideQuestion], list[SideAttempt]]]:
    """The conversation's side questions, and its side attempts that failed."""
    return StorageOp("load side questions", lambda: (store.side.of(conversation_id),
                                                     store.side.attempts(conversation_id)))


def keep_side_answer(store: TurnlogStore, conversation_id: int,
                     side: SideQuestion) -> StorageOp[Kept]:
    """Append a side question and its answer to the conversation as a normal turn (the
    user asked for it); the side question stays listed."""
    from ...core.send import PendingTurn

    def work() -> Kept:
        generation = store.conversations.generation(conversation_id)
        pending = PendingTurn(uuid.uuid4().hex, side.question, side.answer, side.model,
                              "stop", side.usage, datetime.now(UTC), generation)
        return Kept(conversation_id, store.turns.commit(conversation_id, pending))

    return StorageOp("keep a side answer as a turn", work)


# -------------------------------------------------------------------------- memory
def read_memory(store: TurnlogStore, conversation_id: int) -> StorageOp[MemoryState]:
    def work() -> MemoryState:
        pins = store.memory.pins(conversation_id)
        ordinals = {}
        for pin in pins:
            for turn_id in pin.sources:
                ordinals[turn_id] = store.turns.get(turn_id)[1].ordinal
        numbers = TurnNumbers.of(store.turns.versions(conversation_id)) if ordinals \
            else TurnNumbers()
        return MemoryState(store.conversations.get(conversation_id), pins,
                           store.memory.notes(conversation_id), store.memory.preferences(),
                           ordinals, {t: numbers.number(o) for t, o in ordinals.items()})

    return StorageOp("read memory", work)


def add_pin(store: TurnlogStore, conversation_id: int, text: str,
            sources: tuple[str, ...]) -> StorageOp[object]:
    return StorageOp("pin", lambda: store.memory.add_pin(conversation_id, text,
                                                         sources=sources))


def edit_pin(store: TurnlogStore, pin_id: int, text: str) -> StorageOp[object]:
    return StorageOp("edit pin", lambda: store.memory.edit_pin(pin_id, text))


def offer_as_preference(store: TurnlogStore, text: str) -> StorageOp[object]:
    """A pinned fact offered as a preference of every conversation."""
    return StorageOp("offer pin", lambda: store.memory.add_preference(text))


def add_note(store: TurnlogStore, conversation_id: int, text: str,
             priority: int) -> StorageOp[object]:
    return StorageOp("note", lambda: store.memory.add_note(conversation_id, text,
                                                           priority=priority))


def add_preference(store: TurnlogStore, text: str, priority: int) -> StorageOp[object]:
    return StorageOp("preference", lambda: store.memory.add_preference(text,
                                                                       priority=priority))


def edit_memory_item(edit: Callable[[int, str, int], object], item_id: int, text: str,
                     priority: int) -> StorageOp[object]:
    """Change a note or preference (`edit`: the store's edit of its kind)."""
    return StorageOp("edit", lambda: edit(item_id, text, priority))


def remove_memory_item(remove: Callable[[int], object], item_id: int) -> StorageOp[object]:
    """Remove a pin, note or preference (`remove`: the store's remove of its kind)."""
    return StorageOp("remove", lambda: remove(item_id))


def save_memory_settings(store: TurnlogStore, conversation_id: int,
                         settings: ConversationSettings) -> StorageOp[Conversation]:
    return StorageOp("memory settings", lambda: store.conversations.update(
        conversation_id, settings=settings))


# -------------------------------------------------------------- drafts and files
class DraftFiles(Protocol):
    """Where a draft's attached files are kept (the store's `attachments` part, in its
    database)."""

    def save_draft(self, conversation_id: int, files: Sequence[Attachment]) -> None: ...

    def of_draft(self, conversation_id: int) -> tuple[Attachment, ...]: ...


def _quietly(name: str, work: Callable[[], T], fallback: T) -> T:
    """`work()`, or `fallback` when the disk or the store faults: a draft is a
    convenience, never a failure (storage faults are shown by the window's own checks)."""
    try:
        return work()
    except Exception as err:
        if not isinstance(err, OSError) and not hasattr(err, "kind"):  # a bug
            raise
        log.warning("Could not %s: %s", name, err)
        return fallback


def read_draft(home: Path, conversation_id: int) -> StorageOp[str]:
    return StorageOp("read the draft", lambda: drafts.load_draft(home, conversation_id))


def read_draft_files(files: DraftFiles, conversation_id: int
                     ) -> StorageOp[tuple[Attachment, ...]]:
    name = "read the draft's files"
    return StorageOp(name, lambda: _quietly(
        name, lambda: files.of_draft(conversation_id), ()))


def save_draft(home: Path, conversation_id: int, text: str) -> StorageOp[None]:
    name = "save the draft"
    return StorageOp(name, lambda: _quietly(
        name, lambda: drafts.save_draft(home, conversation_id, text), None))


def save_draft_files(files: DraftFiles, conversation_id: int,
                     attached: Sequence[Attachment]) -> StorageOp[None]:
    """Keep the draft's files (none: forget them)."""
    name = "save the draft's files" if attached else "remove the draft's files"
    return StorageOp(name, lambda: _quietly(
        name, lambda: files.save_draft(conversation_id, attached), None))


def remove_draft(home: Path, conversation_id: int) -> StorageOp[None]:
    name = "remove the draft"
    return StorageOp(name, lambda: _quietly(
        name, lambda: drafts.remove_draft(home, conversation_id), None))


def remove_all_drafts(home: Path) -> StorageOp[None]:
    name = "remove the drafts"
    return StorageOp(name, lambda: _quietly(name, lambda: drafts.remove_all_drafts(home), None))


def read_files_to_attach(items: Sequence[tuple[str, Path | None, bytes | None]],
                         attached: Sequence[Attachment]
                         ) -> StorageOp[tuple[list[Attachment], list[AttachmentRefused]]]:
    """Read each of `items` (name, a path or pasted bytes) as an attachment beside
    `attached`; what was read, and what was refused."""
    def work() -> tuple[list[Attachment], list[AttachmentRefused]]:
        from ...formats.file_reading import read_bytes, read_file  # the readers: first file
        read: list[Attachment] = []
        refused: list[AttachmentRefused] = []
        for name, path, data in items:
            try:
                made = read_file(path, attached=[*attached, *read]) if path is not None \
                    else read_bytes(name, data or b"", attached=[*attached, *read])
            except AttachmentRefused as err:
                refused.append(err)
                continue
            read.append(made)
        return read, refused

    return StorageOp("read files to attach", work)


def write_attached_file(original: Callable[[str], bytes], attachment: Attachment,
                        target: Path) -> StorageOp[Path | str]:
    """Write an attached file's original bytes to `target`: the path, or why not."""
    def work() -> Path | str:
        try:
            target.write_bytes(original(attachment.digest))
        except OSError as err:
            return arg(translate("Attaching", "%1 could not be written to %2: %3"),
                       attachment.name, str(target), err.strerror or str(err))
        except Exception as err:
            if not hasattr(err, "kind"):  # not a named storage fault: a bug
                raise
            return str(err)
        return target

    return StorageOp("open or save an attached file", work)


# --------------------------------------------------------- import and export
def import_from_file(store: TurnlogStore, path: Path, *, as_copies: bool = False
                     ) -> LongStorageOp[list[ImportOutcome]]:
    from ...service.transfer import import_file as import_turnlog_file  # the importers

    return LongStorageOp("import or export", lambda context: import_turnlog_file(
        store, path, cancelled=lambda: context.cancel.cancelled, progress=context.report,
        as_copies=as_copies))


def export_all(store: TurnlogStore, target: Path) -> LongStorageOp[ExportedAll]:
    from ...service.transfer import export_all as export_everything  # the exporters

    return LongStorageOp("import or export", lambda context: export_everything(
        store, target, cancelled=lambda: context.cancel.cancelled, progress=context.report))
