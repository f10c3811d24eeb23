"""peewee tables, bound to no database: every query runs against the database of the
store that makes it (`query.execute(db)`, `query.first(db)`, `insert(db, ...)`), so two
data directories can be open in one process, in any threads."""

from __future__ import annotations

from typing import Any, TypeVar

import peewee

M = TypeVar("M", bound="BaseModel")


class BaseModel(peewee.Model):
    class Meta:
        database = None
        legacy_table_names = False


def insert(db: peewee.Database, table: type[M], /, **values: Any) -> M:
    """Write one row through `db`; returns it as `model.create` would (defaults filled,
    an automatic key set), without the process-global binding `create` needs."""
    row = table(**values)
    key = table.insert(row.__data__).execute(db)
    if table._meta.auto_increment:
        row._pk = key
    row._dirty.clear()
    return row


class FolderRow(BaseModel):
    """A user-named group of conversations in the sidebar (V_FOLDERS)."""

    id = peewee.AutoField()
    name = peewee.TextField(unique=True)
    created_at = peewee.TextField()

    gid = peewee.TextField(null=True, unique=True)  # global id, for sync (V_SYNC)

    class Meta:
        table_name = "folders"


class ConversationRow(BaseModel):
    id = peewee.AutoField()
    title = peewee.TextField()
    system_prompt = peewee.TextField(default="")
    model = peewee.TextField(default="")
    settings = peewee.TextField(default="{}")  # ConversationSettings as JSON
    created_at = peewee.TextField()
    updated_at = peewee.TextField()
    # Ordinals are never reused, even after the newest turn is deleted, so records
    # and summaries can never point at the wrong turn.
    next_ordinal = peewee.IntegerField(default=1)
    # Bumped by every delete; a write prepared under an older generation is refused.
    generation = peewee.IntegerField(default=0)
    # "user", "question" or "model" (V_INCOMPLETE_TITLES)
    title_source = peewee.TextField(default="user")
    # An imported conversation's origin and the model it had there (V_SOURCE_MODEL)
    source = peewee.TextField(default="")
    source_model = peewee.TextField(default="")
    # The folder it is in (NULL: none), and whether it is starred to the top (V_FOLDERS)
    folder = peewee.ForeignKeyField(FolderRow, null=True, on_delete="SET NULL",
                                    column_name="folder_id")
    starred = peewee.BooleanField(default=False)

    gid = peewee.TextField(null=True, unique=True)  # global id, for sync (V_SYNC)

    class Meta:
        table_name = "conversations"


class TurnRow(BaseModel):
    id = peewee.TextField(primary_key=True)  # client-generated, makes commits idempotent
    conversation = peewee.ForeignKeyField(
        ConversationRow, backref="turns", on_delete="CASCADE", column_name="conversation_id"
    )
    ordinal = peewee.IntegerField()
    question = peewee.TextField()
    answer = peewee.TextField()
    model = peewee.TextField()
    finish_reason = peewee.TextField()
    created_at = peewee.TextField()
    usage = peewee.TextField(null=True)
    reasoning = peewee.TextField(default="")  # V_REASONING
    # Why a turn the user chose to keep is incomplete; NULL when complete (V_INCOMPLETE_TITLES)
    incomplete = peewee.TextField(null=True)
    # Its tool exchange as JSON (`core.tools.rounds_to_json`); NULL: no tools (V_TOOLS)
    tool_exchange = peewee.TextField(null=True)

    # Its place for sync (V_SYNC): the first turn of the version group before it, and of
    # its own group when it is a later version
    after_id = peewee.TextField(null=True, index=True)
    version_of = peewee.TextField(null=True, index=True)

    class Meta:
        table_name = "turns"
        indexes = ((("conversation", "ordinal"), True),)


class RequestRow(BaseModel):
    """Numbers and references only: never message text."""

    id = peewee.AutoField()
    conversation = peewee.ForeignKeyField(
        ConversationRow, backref="requests", on_delete="CASCADE", column_name="conversation_id"
    )
    started_at = peewee.TextField()
    model = peewee.TextField()
    outcome = peewee.TextField()
    status = peewee.IntegerField(null=True)
    body_bytes = peewee.IntegerField()
    max_bytes = peewee.IntegerField()
    input_tokens = peewee.IntegerField()
    token_budget = peewee.IntegerField()
    tokens_exact = peewee.BooleanField()
    sent = peewee.TextField()  # JSON ordinal runs [[first, last], ...]
    summarized = peewee.TextField()
    left_out = peewee.TextField()
    usage = peewee.TextField(null=True)
    extra_usage = peewee.TextField(default="[]")
    duration_s = peewee.FloatField()
    first_token_s = peewee.FloatField(null=True)
    turn_id = peewee.TextField(null=True)
    summary_id = peewee.IntegerField(null=True)
    attempt = peewee.IntegerField(default=1)
    # What rebuilds a committed request's body, and its hashes (V_RECORD_PROOFS); NULL
    # format: made before request hashes, or failed (no body kept).
    body_format = peewee.IntegerField(null=True)
    sha256 = peewee.TextField(null=True)  # JSON list, one per tool round; NULL: forgotten
    run_first = peewee.TextField(null=True)
    run_last = peewee.TextField(null=True)
    run_first_ordinal = peewee.IntegerField(null=True)
    run_last_ordinal = peewee.IntegerField(null=True)
    run_count = peewee.IntegerField(default=0)
    version_mark = peewee.IntegerField(default=0)  # the newest supersede record it saw
    options = peewee.TextField(null=True)
    tools_digest = peewee.TextField(null=True, index=True)
    texts_id = peewee.IntegerField(null=True, index=True)  # its `text_sets` row
    continued = peewee.IntegerField(null=True)
    prefill = peewee.BooleanField(default=False)
    # What it was costed at (V_USAGE): the profile, its prices then (JSON; NULL: not
    # priced), Turnlog's count of an answer without usage, the tool rounds' usage.
    profile = peewee.TextField(default="")
    prices = peewee.TextField(null=True)
    output_estimate = peewee.IntegerField(null=True)
    round_usage = peewee.TextField(default="[]")

    gid = peewee.TextField(null=True, unique=True)  # global id, for sync (V_SYNC)

    class Meta:
        table_name = "requests"
        indexes = ((("conversation", "id"), False),)


TABLES_V1 = [ConversationRow, TurnRow, RequestRow]


class UsageDayRow(BaseModel):
    """One day's totals of one profile and model in one currency: numbers only, kept
    when the conversations they were spent on are deleted."""

    day = peewee.TextField()
    profile = peewee.TextField()
    model = peewee.TextField()
    currency = peewee.TextField()
    requests = peewee.IntegerField()
    input_tokens = peewee.IntegerField()
    cached_tokens = peewee.IntegerField()
    output_tokens = peewee.IntegerField()
    estimated = peewee.IntegerField()  # requests costed from Turnlog's own count
    unpriced = peewee.IntegerField()  # requests without prices
    cost = peewee.TextField()  # exact decimal text; '' when none was priced

    class Meta:
        table_name = "usage_days"
        primary_key = peewee.CompositeKey("day", "profile", "model", "currency")
        without_rowid = True


class UsageConversationRow(BaseModel):
    """A conversation's totals per profile and model, as `UsageDayRow` counts a day's
    (derived from its records: deleted with it)."""

    conversation = peewee.ForeignKeyField(
        ConversationRow, on_delete="CASCADE", column_name="conversation_id", index=False)
    profile = peewee.TextField()
    model = peewee.TextField()
    currency = peewee.TextField()
    requests = peewee.IntegerField()
    input_tokens = peewee.IntegerField()
    cached_tokens = peewee.IntegerField()
    output_tokens = peewee.IntegerField()
    estimated = peewee.IntegerField()
    unpriced = peewee.IntegerField()
    cost = peewee.TextField()

    class Meta:
        table_name = "usage_conversations"
        primary_key = peewee.CompositeKey("conversation", "profile", "model", "currency")
        without_rowid = True


class SummaryRow(BaseModel):
    """A rolling summary (derived data) and its provenance."""

    id = peewee.AutoField()
    conversation = peewee.ForeignKeyField(
        ConversationRow, backref="summaries", on_delete="CASCADE", column_name="conversation_id"
    )
    first_ordinal = peewee.IntegerField()
    last_ordinal = peewee.IntegerField()
    covered_count = peewee.IntegerField()
    covered_digest = peewee.TextField()
    covered_ids = peewee.TextField()  # JSON list of turn ids, oldest first
    content = peewee.TextField()
    model = peewee.TextField()
    settings_key = peewee.TextField()
    created_at = peewee.TextField()
    content_bytes = peewee.IntegerField()
    content_tokens = peewee.IntegerField()
    usages = peewee.TextField(default="[]")
    warnings = peewee.TextField(default="[]")
    replaced_id = peewee.IntegerField(null=True)  # the summary in effect before (V_SUMMARY_EDITS)
    edited_from = peewee.IntegerField(null=True)  # edited by the user: the version rewritten
    undone = peewee.BooleanField(default=False)  # an undone edit a request record still names

    gid = peewee.TextField(null=True, unique=True)  # global id, for sync (V_SYNC)

    class Meta:
        table_name = "summaries"
        indexes = ((("conversation", "id"), False),)


TABLES_V2 = [SummaryRow]


class SupersedeRow(BaseModel):
    """An appended record: turn `turn_id` was replaced by `by_turn_id` (a newer version, or
    an older one made active again). A turn's state is the newest record naming it."""

    id = peewee.AutoField()
    conversation = peewee.ForeignKeyField(
        ConversationRow, backref="supersedes", on_delete="CASCADE",
        column_name="conversation_id"
    )
    turn_id = peewee.TextField(index=True)
    by_turn_id = peewee.TextField(index=True)
    created_at = peewee.TextField()

    gid = peewee.TextField(null=True, unique=True)  # global id, for sync (V_SYNC)

    class Meta:
        table_name = "supersedes"


class ForkRow(BaseModel):
    """A fork's provenance: the conversation its first turns were copied from (None once
    that one is deleted) and the ordinal it was forked at. No text: the source's title
    is read when shown."""

    conversation = peewee.ForeignKeyField(
        ConversationRow, primary_key=True, backref="fork", on_delete="CASCADE",
        column_name="conversation_id"
    )
    source_id = peewee.IntegerField(null=True)
    at_ordinal = peewee.IntegerField()

    continued_on = peewee.TextField(null=True)  # made by sync: the other machine (V_SYNC)

    class Meta:
        table_name = "forks"


TABLES_V3 = [SupersedeRow, ForkRow]


class PinRow(BaseModel):
    """A pinned fact of one conversation, with the turns it was taken from."""

    id = peewee.AutoField()
    conversation = peewee.ForeignKeyField(
        ConversationRow, backref="pins", on_delete="CASCADE", column_name="conversation_id"
    )
    text = peewee.TextField()
    kind = peewee.TextField(default="")  # constraint, decision, identifier, pending step
    sources = peewee.TextField(default="[]")  # JSON list of turn ids; [] = typed
    created_at = peewee.TextField()

    gid = peewee.TextField(null=True, unique=True)  # global id, for sync (V_SYNC)

    class Meta:
        table_name = "pins"


class NoteRow(BaseModel):
    """Background for one conversation, sent when the memory share has room."""

    id = peewee.AutoField()
    conversation = peewee.ForeignKeyField(
        ConversationRow, backref="notes", on_delete="CASCADE", column_name="conversation_id"
    )
    text = peewee.TextField()
    priority = peewee.IntegerField(default=3)
    created_at = peewee.TextField()

    gid = peewee.TextField(null=True, unique=True)  # global id, for sync (V_SYNC)

    class Meta:
        table_name = "notes"


class PreferenceRow(BaseModel):
    """A statement the user confirmed for every conversation."""

    id = peewee.AutoField()
    text = peewee.TextField()
    priority = peewee.IntegerField(default=3)
    created_at = peewee.TextField()

    gid = peewee.TextField(null=True, unique=True)  # global id, for sync (V_SYNC)

    class Meta:
        table_name = "preferences"


TABLES_V_MEMORY = [PinRow, NoteRow, PreferenceRow]
class SideQuestionRow(BaseModel):
    """A side question and its answer: about the conversation, never one of its turns.
    Numbers of its request as a request record keeps them (ordinal runs, sizes)."""

    id = peewee.TextField(primary_key=True)
    conversation = peewee.ForeignKeyField(
        ConversationRow, backref="side_questions", on_delete="CASCADE",
        column_name="conversation_id"
    )
    question = peewee.TextField()
    answer = peewee.TextField()
    model = peewee.TextField()
    created_at = peewee.TextField()
    usage = peewee.TextField(null=True)
    body_bytes = peewee.IntegerField()
    input_tokens = peewee.IntegerField()
    tokens_exact = peewee.BooleanField()
    sent = peewee.TextField()  # JSON ordinal runs [[first, last], ...]
    summarized = peewee.TextField()
    left_out = peewee.TextField()
    side_ids = peewee.TextField()  # JSON list of the earlier side questions it carried

    class Meta:
        table_name = "side_questions"


class SideAttemptRow(BaseModel):
    """A side request that was sent and ended without a kept answer: its usage
    (no text of the conversation), kept apart from the conversation's request records."""

    conversation = peewee.ForeignKeyField(
        ConversationRow, backref="side_attempts", on_delete="CASCADE",
        column_name="conversation_id"
    )
    created_at = peewee.TextField()
    outcome = peewee.TextField()  # the failure's kind, e.g. "length"
    usage = peewee.TextField(null=True)
    model = peewee.TextField()
    carried = peewee.TextField()  # JSON ordinal runs of the turns it carried
    gid = peewee.TextField(null=True, unique=True)  # global id, for sync (V_SYNC_DERIVED)

    class Meta:
        table_name = "side_attempts"


# The search index's bookkeeping (store/search.py writes it in SQL; the classes say its
# shape): which part holds each indexed turn, how many turns were indexed, which parts a
# delete left to merge.
class SearchKeyRow(BaseModel):
    key = peewee.IntegerField(primary_key=True)  # conversation id << 32 | ordinal
    part = peewee.IntegerField()

    class Meta:
        table_name = "search_keys"


class SearchFillRow(BaseModel):
    added = peewee.IntegerField()

    class Meta:
        table_name = "search_fill"


class SearchDirtyRow(BaseModel):
    part = peewee.IntegerField(primary_key=True)

    class Meta:
        table_name = "search_dirty"


class ToolResultRow(BaseModel):
    """The full result of a tool call whose result was cut for sending (V_TOOLS): kept
    with its turn for the person to see, deleted with it."""

    # The primary key starts with turn_id: no index of its own.
    turn = peewee.ForeignKeyField(TurnRow, on_delete="CASCADE", column_name="turn_id",
                                  index=False)
    call_id = peewee.TextField()
    content = peewee.TextField()

    class Meta:
        table_name = "tool_results"
        primary_key = peewee.CompositeKey("turn", "call_id")


TABLES_V_SIDE = [SideQuestionRow]
TABLES_V_SIDE_ATTEMPTS = [SideAttemptRow]


# Attachments (V_ATTACHMENTS): file bytes by their SHA-256, each stored once however many
# questions carry it (the original, and the bytes sent where they differ: a text file's
# text as UTF-8, a downscaled image); kept in the database, not as loose files, so a
# delete (with `secure_delete`) leaves no copy.
class BlobRow(BaseModel):
    digest = peewee.TextField(primary_key=True)  # SHA-256, hex
    data = peewee.BlobField()

    class Meta:
        table_name = "blobs"


class TurnAttachmentRow(BaseModel):
    """One file of a turn's question, in order: what it was and how it was sent."""

    id = peewee.AutoField()
    turn = peewee.ForeignKeyField(TurnRow, on_delete="CASCADE", column_name="turn_id")
    position = peewee.IntegerField()
    name = peewee.TextField()
    kind = peewee.TextField()  # "text", "pdf" or "image"
    mime = peewee.TextField()
    size = peewee.IntegerField()  # bytes of the original
    original = peewee.TextField()  # the blobs' digests
    sent = peewee.TextField()
    sent_mime = peewee.TextField()
    width = peewee.IntegerField()
    height = peewee.IntegerField()
    encoding = peewee.TextField()
    notes = peewee.TextField()  # JSON list of strings
    # When a later import added it to a turn imported before (V_ATTACHMENTS_ADDED; NULL:
    # asked with the question).
    added_at = peewee.TextField(null=True)

    gid = peewee.TextField(null=True, unique=True)  # global id, for sync (V_SYNC)

    class Meta:
        table_name = "turn_attachments"
        indexes = ((("turn", "position"), True), (("original",), False), (("sent",), False))


class DraftAttachmentRow(BaseModel):
    """One file attached to a conversation's draft (conversation 0: the draft typed with
    no conversation open), kept so it survives a restart with the draft."""

    id = peewee.AutoField()
    conversation_id = peewee.IntegerField()
    position = peewee.IntegerField()
    name = peewee.TextField()
    kind = peewee.TextField()
    mime = peewee.TextField()
    size = peewee.IntegerField()
    original = peewee.TextField()
    sent = peewee.TextField()
    sent_mime = peewee.TextField()
    width = peewee.IntegerField()
    height = peewee.IntegerField()
    encoding = peewee.TextField()
    notes = peewee.TextField()

    class Meta:
        table_name = "draft_attachments"
        indexes = ((("conversation_id", "position"), True), (("original",), False),
                   (("sent",), False))


# A request's proof (V_RECORD_PROOFS): the tool definitions it offered, each distinct set
# once, and the texts it carried besides its turns as versions, each distinct one once,
# named by the records in wire order (as sets); deleted with the last record naming them.
class ToolSetRow(BaseModel):
    digest = peewee.TextField(primary_key=True)  # SHA-256 of `definitions`
    definitions = peewee.TextField()

    class Meta:
        table_name = "tool_sets"


class KeptTextRow(BaseModel):
    """A version of a system prompt, pinned fact, note or preference that a request
    carried (`conversation` NULL for a preference: it belongs to every conversation)."""

    id = peewee.AutoField()
    conversation = peewee.ForeignKeyField(ConversationRow, null=True, on_delete="CASCADE",
                                          column_name="conversation_id")
    kind = peewee.TextField()
    source = peewee.TextField()  # the item's id; "" for the system prompt
    digest = peewee.TextField()
    text = peewee.TextField()

    class Meta:
        table_name = "kept_texts"
        indexes = ((("kind", "source", "digest"), False),)


class TextSetRow(BaseModel):
    """The texts one or more requests carried, in wire order: `members` is JSON
    [[kind, kept text id or null once deleted], ...]; each distinct list once."""

    id = peewee.AutoField()
    digest = peewee.TextField(unique=True)
    members = peewee.TextField()

    class Meta:
        table_name = "text_sets"


class TextSetMemberRow(BaseModel):
    """Which kept versions a set names (to find the requests that carried a text)."""

    set = peewee.ForeignKeyField(TextSetRow, on_delete="CASCADE", column_name="set_id",
                                 index=False)
    text_id = peewee.IntegerField(index=True)

    class Meta:
        table_name = "text_set_members"
        primary_key = peewee.CompositeKey("set", "text_id")
        without_rowid = True


class AssistantRow(BaseModel):
    """A saved setup a new conversation starts from as a copy (V_ASSISTANTS)."""

    id = peewee.AutoField()
    name = peewee.TextField(unique=True)
    icon = peewee.TextField()
    position = peewee.IntegerField()
    system_prompt = peewee.TextField()
    profile = peewee.TextField()  # "" for the default profile
    model = peewee.TextField()  # "" for the profile's
    sampling = peewee.TextField()  # JSON {"temperature": .., "top_p": ..}
    pins = peewee.TextField()  # JSON list of texts
    notes = peewee.TextField()  # JSON list of [text, priority]
    tools = peewee.TextField()  # JSON list of tool server names
    created_at = peewee.TextField()
    updated_at = peewee.TextField()
    # The folder its conversations start in (NULL: none) (V_ASSISTANT_FOLDER); a handful
    # of rows, so no index
    folder = peewee.ForeignKeyField(FolderRow, null=True, on_delete="SET NULL",
                                    column_name="folder_id", index=False)

    gid = peewee.TextField(null=True, unique=True)  # global id, for sync (V_SYNC)

    class Meta:
        table_name = "assistants"


class AssistantFileRow(BaseModel):
    """One file an assistant attaches to every first question, in order (as a draft's)."""

    id = peewee.AutoField()
    assistant = peewee.ForeignKeyField(AssistantRow, on_delete="CASCADE",
                                       column_name="assistant_id", index=False)
    position = peewee.IntegerField()
    name = peewee.TextField()
    kind = peewee.TextField()
    mime = peewee.TextField()
    size = peewee.IntegerField()
    original = peewee.TextField()
    sent = peewee.TextField()
    sent_mime = peewee.TextField()
    width = peewee.IntegerField()
    height = peewee.IntegerField()
    encoding = peewee.TextField()
    notes = peewee.TextField()

    class Meta:
        table_name = "assistant_files"
        indexes = ((("assistant", "position"), True), (("original",), False),
                   (("sent",), False))


class ConversationAssistantRow(BaseModel):
    """Which assistant a conversation started from (NULL once removed) and its name then."""

    conversation = peewee.ForeignKeyField(
        ConversationRow, primary_key=True, on_delete="CASCADE", column_name="conversation_id")
    assistant = peewee.ForeignKeyField(AssistantRow, null=True, on_delete="SET NULL",
                                       column_name="assistant_id")
    name = peewee.TextField()

    class Meta:
        table_name = "conversation_assistants"


# Sync's bookkeeping (V_SYNC; store/sync_feed.py writes it).
class SyncStateRow(BaseModel):
    """This data directory's node id (the tie-break inside its clock readings) and its
    hybrid logical clock's last reading: physical milliseconds and a counter."""

    id = peewee.AutoField()
    node = peewee.TextField()
    phys = peewee.IntegerField()
    counter = peewee.IntegerField()
    # Set while another machine's records are applied (inside that transaction only): the
    # writes made then are not journaled as this machine's changes.
    quiet = peewee.IntegerField()

    class Meta:
        table_name = "sync_state"


class SyncJournalRow(BaseModel):
    """A change: this machine's (origin NULL, filled by the triggers) or another machine's
    applied here. `subject` is what it competes for (a conversation's field, a version
    group, a pin); `value` holds a conversation field's new value (its history)."""

    seq = peewee.AutoField()
    kind = peewee.TextField()
    gid = peewee.TextField(null=True, index=True)
    conv = peewee.TextField(null=True, index=True)
    subject = peewee.TextField(null=True)
    value = peewee.TextField(null=True)
    hlc = peewee.TextField(null=True)
    origin = peewee.TextField(null=True)
    # A turn's row of this machine: the turn's rowid, a hint the reader checks by its id.
    turn_row = peewee.IntegerField(null=True)

    class Meta:
        table_name = "sync_journal"
        indexes = ((("subject", "hlc"), False),)


SyncJournalRow.add_index(SyncJournalRow.index(SyncJournalRow.seq,
                                              where=SyncJournalRow.origin.is_null()))


class SyncTombstoneRow(BaseModel):
    """An id a delete everywhere removed: ids only, kept for good."""

    gid = peewee.TextField(primary_key=True)

    class Meta:
        table_name = "sync_tombstones"
        without_rowid = True


class SyncHereDeletedRow(BaseModel):
    """An id deleted on this machine only: records naming it are not applied again."""

    gid = peewee.TextField(primary_key=True)

    class Meta:
        table_name = "sync_here_deleted"
        without_rowid = True


class SyncMachineRow(BaseModel):
    """A machine's name as the sync last heard it (V_SYNC_DERIVED): what a fork a
    concurrent append made says it continued on, shown by name rather than id."""

    id = peewee.TextField(primary_key=True)
    name = peewee.TextField()

    class Meta:
        table_name = "sync_machines"
        without_rowid = True


class SyncCopyRow(BaseModel):
    """A turn copied into a fork that a concurrent append made, and its original."""

    id = peewee.TextField(primary_key=True)
    original = peewee.TextField(index=True)

    class Meta:
        table_name = "sync_copies"
        without_rowid = True
