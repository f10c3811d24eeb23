"""Schema versions, frozen: each step is the SQL its release ran, written out as text.

`PRAGMA user_version` holds the version. A step never derives its DDL from today's
model classes (they describe the newest schema, so an older step built from them would
already contain a later step's columns, and that later step would fail). A new database
runs every step in turn, so it is created at the current version by exactly the same
SQL an upgraded one ran. All the steps a database needs run in one transaction: it is
at its old version or at the new one, never in between.

To change the schema: append a step (`ALTER TABLE ... ADD COLUMN ... DEFAULT ...`,
`CREATE TABLE ...`, or a callable for data that must move in Python), change the
model classes to match, and add a fixture made by the released code of the version
before (tests/data/make_fixtures.py). Never edit a released step.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import peewee

from . import search
from .schema_version import SCHEMA_VERSION, Progress, current_version

# As created by 8d40368 (peewee's DDL for ConversationRow, TurnRow, RequestRow then).
V1 = (
    'CREATE TABLE "conversations" ("id" INTEGER NOT NULL PRIMARY KEY, "title" TEXT NOT NULL, '
    '"system_prompt" TEXT NOT NULL, "model" TEXT NOT NULL, "settings" TEXT NOT NULL, '
    '"created_at" TEXT NOT NULL, "updated_at" TEXT NOT NULL, "next_ordinal" INTEGER NOT NULL, '
    '"generation" INTEGER NOT NULL)',
    'CREATE TABLE "requests" ("id" INTEGER NOT NULL PRIMARY KEY, '
    '"conversation_id" INTEGER NOT NULL, "started_at" TEXT NOT NULL, "model" TEXT NOT NULL, '
    '"outcome" TEXT NOT NULL, "status" INTEGER, "body_bytes" INTEGER NOT NULL, '
    '"max_bytes" INTEGER NOT NULL, "input_tokens" INTEGER NOT NULL, '
    '"token_budget" INTEGER NOT NULL, "tokens_exact" INTEGER NOT NULL, "sent" TEXT NOT NULL, '
    '"summarized" TEXT NOT NULL, "left_out" TEXT NOT NULL, "usage" TEXT, '
    '"extra_usage" TEXT NOT NULL, "duration_s" REAL NOT NULL, "first_token_s" REAL, '
    '"turn_id" TEXT, "summary_id" INTEGER, "attempt" INTEGER NOT NULL, '
    'FOREIGN KEY ("conversation_id") REFERENCES "conversations" ("id") ON DELETE CASCADE)',
    'CREATE INDEX "requests_conversation_id" ON "requests" ("conversation_id")',
    'CREATE INDEX "requests_conversation_id_id" ON "requests" ("conversation_id", "id")',
    'CREATE TABLE "turns" ("id" TEXT NOT NULL PRIMARY KEY, "conversation_id" INTEGER NOT NULL, '
    '"ordinal" INTEGER NOT NULL, "question" TEXT NOT NULL, "answer" TEXT NOT NULL, '
    '"model" TEXT NOT NULL, "finish_reason" TEXT NOT NULL, "created_at" TEXT NOT NULL, '
    '"usage" TEXT, '
    'FOREIGN KEY ("conversation_id") REFERENCES "conversations" ("id") ON DELETE CASCADE)',
    'CREATE INDEX "turns_conversation_id" ON "turns" ("conversation_id")',
    'CREATE UNIQUE INDEX "turns_conversation_id_ordinal" ON "turns" ("conversation_id", '
    '"ordinal")',
)

# As created by e137364 (rolling summaries).
V2 = (
    'CREATE TABLE "summaries" ("id" INTEGER NOT NULL PRIMARY KEY, '
    '"conversation_id" INTEGER NOT NULL, "first_ordinal" INTEGER NOT NULL, '
    '"last_ordinal" INTEGER NOT NULL, "covered_count" INTEGER NOT NULL, '
    '"covered_digest" TEXT NOT NULL, "covered_ids" TEXT NOT NULL, "content" TEXT NOT NULL, '
    '"model" TEXT NOT NULL, "settings_key" TEXT NOT NULL, "created_at" TEXT NOT NULL, '
    '"content_bytes" INTEGER NOT NULL, "content_tokens" INTEGER NOT NULL, '
    '"usages" TEXT NOT NULL, "warnings" TEXT NOT NULL, '
    'FOREIGN KEY ("conversation_id") REFERENCES "conversations" ("id") ON DELETE CASCADE)',
    'CREATE INDEX "summaries_conversation_id" ON "summaries" ("conversation_id")',
    'CREATE INDEX "summaries_conversation_id_id" ON "summaries" ("conversation_id", "id")',
)

# Versions and forks: a supersede is an appended record (which turn replaced which, when);
# "use this version" appends another. A fork names its source conversation and the ordinal
# it was made at (no text: the source's title is read when shown; the source id is cleared
# when the source is deleted).
V_VERSIONS = (
    'CREATE TABLE "supersedes" ("id" INTEGER NOT NULL PRIMARY KEY, '
    '"conversation_id" INTEGER NOT NULL, "turn_id" TEXT NOT NULL, "by_turn_id" TEXT NOT NULL, '
    '"created_at" TEXT NOT NULL, '
    'FOREIGN KEY ("conversation_id") REFERENCES "conversations" ("id") ON DELETE CASCADE)',
    'CREATE INDEX "supersedes_conversation_id" ON "supersedes" ("conversation_id")',
    'CREATE TABLE "forks" ("conversation_id" INTEGER NOT NULL PRIMARY KEY, '
    '"source_id" INTEGER, "at_ordinal" INTEGER NOT NULL, '
    'FOREIGN KEY ("conversation_id") REFERENCES "conversations" ("id") ON DELETE CASCADE)',
)

# A reasoning model's reasoning, kept with its turn (and deleted with it).
V_REASONING = (
    """ALTER TABLE "turns" ADD COLUMN "reasoning" TEXT NOT NULL DEFAULT ''""",
)

@dataclass(frozen=True, slots=True)
class FillStep:
    """SQL statements, then a fill of derived data that reports its progress."""

    statements: Sequence[str]
    fill: Callable[[peewee.SqliteDatabase, Progress | None], None]

    def __call__(self, db: peewee.SqliteDatabase, progress: Progress | None = None) -> None:
        for statement in self.statements:
            db.execute_sql(statement)
        self.fill(db, progress)


# The search index: its tables and triggers (written out in store/search.py, `SCHEMA`),
# then every turn and title already stored indexed.
V_SEARCH = FillStep(search.SCHEMA, search.fill)

Step = Sequence[str] | Callable[[peewee.SqliteDatabase], None] | FillStep
"""SQL statements run in order, or a callable given the database (for moving data)."""

# Memory: pinned facts with their sources, notes (per conversation), preferences (global).
V_MEMORY = (
    'CREATE TABLE "pins" ("id" INTEGER NOT NULL PRIMARY KEY, '
    '"conversation_id" INTEGER NOT NULL, "text" TEXT NOT NULL, "kind" TEXT NOT NULL, '
    '"sources" TEXT NOT NULL, "created_at" TEXT NOT NULL, '
    'FOREIGN KEY ("conversation_id") REFERENCES "conversations" ("id") ON DELETE CASCADE)',
    'CREATE INDEX "pins_conversation_id" ON "pins" ("conversation_id")',
    'CREATE TABLE "notes" ("id" INTEGER NOT NULL PRIMARY KEY, '
    '"conversation_id" INTEGER NOT NULL, "text" TEXT NOT NULL, "priority" INTEGER NOT NULL, '
    '"created_at" TEXT NOT NULL, '
    'FOREIGN KEY ("conversation_id") REFERENCES "conversations" ("id") ON DELETE CASCADE)',
    'CREATE INDEX "notes_conversation_id" ON "notes" ("conversation_id")',
    'CREATE TABLE "preferences" ("id" INTEGER NOT NULL PRIMARY KEY, "text" TEXT NOT NULL, '
    '"priority" INTEGER NOT NULL, "created_at" TEXT NOT NULL)',
)

# Side questions: asked about a conversation, answered and kept apart from its turns.
V_SIDE = (
    'CREATE TABLE "side_questions" ("id" TEXT NOT NULL PRIMARY KEY, '
    '"conversation_id" INTEGER NOT NULL, "question" TEXT NOT NULL, "answer" TEXT NOT NULL, '
    '"model" TEXT NOT NULL, "created_at" TEXT NOT NULL, "usage" TEXT, '
    '"body_bytes" INTEGER NOT NULL, "input_tokens" INTEGER NOT NULL, '
    '"tokens_exact" INTEGER NOT NULL, "sent" TEXT NOT NULL, "summarized" TEXT NOT NULL, '
    '"left_out" TEXT NOT NULL, "side_ids" TEXT NOT NULL, '
    'FOREIGN KEY ("conversation_id") REFERENCES "conversations" ("id") ON DELETE CASCADE)',
    'CREATE INDEX "side_questions_conversation_id" ON "side_questions" ("conversation_id")',
)

# Side request attempts that ended without a kept answer: their usage, apart from the
# conversation's request records. `carried`: the turns' ordinal runs the request carried.
V_SIDE_ATTEMPTS = (
    'CREATE TABLE "side_attempts" ("id" INTEGER NOT NULL PRIMARY KEY, '
    '"conversation_id" INTEGER NOT NULL, "created_at" TEXT NOT NULL, '
    '"outcome" TEXT NOT NULL, "usage" TEXT, "model" TEXT NOT NULL, '
    '"carried" TEXT NOT NULL, '
    'FOREIGN KEY ("conversation_id") REFERENCES "conversations" ("id") ON DELETE CASCADE)',
    'CREATE INDEX "side_attempts_conversation_id" ON "side_attempts" ("conversation_id")',
)

# The turns' search index in parts, so a delete merges only the part that held the turn
# (store/search.py, `PARTS_SCHEMA`): the first index is dropped and every turn indexed
# again.
V_SEARCH_PARTS = FillStep(search.PARTS_SCHEMA, search.fill_parts)

# A turn kept incomplete because the user asked (its answer cut by Stop, a dropped
# stream, the length limit or a missing finish reason): `incomplete` names why; NULL is a
# complete turn. A conversation's title says where it came from: "user" (typed, renamed
# or imported), "question" (its first question's first line, made again when that turn
# goes) or "model" (a short title the model made after the first answer).
V_INCOMPLETE_TITLES = (
    'ALTER TABLE "turns" ADD COLUMN "incomplete" TEXT',
    'ALTER TABLE "conversations" ADD COLUMN "title_source" TEXT NOT NULL DEFAULT \'user\'',
)

# Where an imported conversation came from ("chatgpt"; '' for one made in Turnlog)
# and the model it was held with there: provenance, never sent unless the user picks it.
# A conversation imported from ChatGPT before this step is told by its turns' ids (the
# importer derives them as UUID version 5, a send makes version 4 ones), and a fork of one
# by its fork record: the model the import set moves to `source_model`, so the profile's
# model is sent from now on.
V_SOURCE_MODEL = (
    'ALTER TABLE "conversations" ADD COLUMN "source" TEXT NOT NULL DEFAULT \'\'',
    'ALTER TABLE "conversations" ADD COLUMN "source_model" TEXT NOT NULL DEFAULT \'\'',
    'UPDATE "conversations" SET "source" = \'chatgpt\', "source_model" = "model", '
    '"model" = \'\' WHERE EXISTS (SELECT 1 FROM "turns" WHERE "turns"."conversation_id" = '
    '"conversations"."id" AND length("turns"."id") = 32 AND substr("turns"."id", 13, 1) = '
    '\'5\')',
    # Forks of those (their turns are copies with fresh ids) and forks of forks.
    'UPDATE "conversations" SET "source" = \'chatgpt\', "source_model" = "model", '
    '"model" = \'\' WHERE "source" = \'\' AND "id" IN (WITH RECURSIVE "made"("id") AS '
    '(SELECT "id" FROM "conversations" WHERE "source" = \'chatgpt\' UNION SELECT '
    '"forks"."conversation_id" FROM "forks" JOIN "made" ON "forks"."source_id" = "made"."id") '
    'SELECT "id" FROM "made")',
)

# Attachments: file bytes stored once by their SHA-256 (`blobs`), a turn's files in order
# with what each was and how it went (`turn_attachments`, deleted with the turn), and a
# draft's files (`draft_attachments`, per conversation; 0 is the draft typed with none
# open). A blob no turn or draft names any more is deleted with the last of them.
V_ATTACHMENTS = (
    'CREATE TABLE "blobs" ("digest" TEXT NOT NULL PRIMARY KEY, "data" BLOB NOT NULL)',
    'CREATE TABLE "turn_attachments" ("id" INTEGER NOT NULL PRIMARY KEY, '
    '"turn_id" TEXT NOT NULL, "position" INTEGER NOT NULL, "name" TEXT NOT NULL, '
    '"kind" TEXT NOT NULL, "mime" TEXT NOT NULL, "size" INTEGER NOT NULL, '
    '"original" TEXT NOT NULL, "sent" TEXT NOT NULL, "sent_mime" TEXT NOT NULL, '
    '"width" INTEGER NOT NULL, "height" INTEGER NOT NULL, "encoding" TEXT NOT NULL, '
    '"notes" TEXT NOT NULL, '
    'FOREIGN KEY ("turn_id") REFERENCES "turns" ("id") ON DELETE CASCADE)',
    'CREATE INDEX "turn_attachments_turn_id" ON "turn_attachments" ("turn_id")',
    'CREATE UNIQUE INDEX "turn_attachments_turn_id_position" ON "turn_attachments" '
    '("turn_id", "position")',
    'CREATE INDEX "turn_attachments_original" ON "turn_attachments" ("original")',
    'CREATE INDEX "turn_attachments_sent" ON "turn_attachments" ("sent")',
    'CREATE TABLE "draft_attachments" ("id" INTEGER NOT NULL PRIMARY KEY, '
    '"conversation_id" INTEGER NOT NULL, "position" INTEGER NOT NULL, "name" TEXT NOT NULL, '
    '"kind" TEXT NOT NULL, "mime" TEXT NOT NULL, "size" INTEGER NOT NULL, '
    '"original" TEXT NOT NULL, "sent" TEXT NOT NULL, "sent_mime" TEXT NOT NULL, '
    '"width" INTEGER NOT NULL, "height" INTEGER NOT NULL, "encoding" TEXT NOT NULL, '
    '"notes" TEXT NOT NULL)',
    'CREATE UNIQUE INDEX "draft_attachments_conversation_id_position" ON '
    '"draft_attachments" ("conversation_id", "position")',
    'CREATE INDEX "draft_attachments_original" ON "draft_attachments" ("original")',
    'CREATE INDEX "draft_attachments_sent" ON "draft_attachments" ("sent")',
)

# A turn's tool exchange (the assistant's tool calls and their results, as sent, in
# rounds): JSON in the turn's own row, so it is read, projected and deleted with it; NULL
# for a turn without tools (every turn before this step). The full result of a call whose
# result was cut for sending is kept apart, with its turn, deleted with it.
V_TOOLS = (
    'ALTER TABLE "turns" ADD COLUMN "tool_exchange" TEXT',
    'CREATE TABLE IF NOT EXISTS "tool_results" ("turn_id" TEXT NOT NULL, "call_id" TEXT '
    'NOT NULL, "content" TEXT NOT NULL, PRIMARY KEY ("turn_id", "call_id"), FOREIGN KEY '
    '("turn_id") REFERENCES "turns" ("id") ON DELETE CASCADE)',
)

# Every past answer's request rebuilt and proven: a committed request's record names the
# run of turns it sent verbatim (first and last turn, their ordinals, how many, and the
# newest supersede record it saw), its options, the tools it offered (each distinct set
# stored once by its SHA-256, `tool_sets`), the length of the partial answer a
# continuation went on from, the body-format version and the SHA-256 of every body it sent
# (`sha256`: one per tool round, the answer's last). The texts it carried besides its
# turns (system prompt, pinned facts, kept preferences and notes) are kept as versions
# (`kept_texts`, each distinct one once); the list of them a request carried, in wire
# order, is a `text_sets` row (each distinct list once, its members indexed for privacy
# deletes). A set, a version or a tool set no record names any more is deleted with the
# last record naming it (the triggers). A record made before this step has no format:
# not verifiable.
V_RECORD_PROOFS = (
    'ALTER TABLE "requests" ADD COLUMN "body_format" INTEGER',
    'ALTER TABLE "requests" ADD COLUMN "sha256" TEXT',
    'ALTER TABLE "requests" ADD COLUMN "run_first" TEXT',
    'ALTER TABLE "requests" ADD COLUMN "run_last" TEXT',
    'ALTER TABLE "requests" ADD COLUMN "run_first_ordinal" INTEGER',
    'ALTER TABLE "requests" ADD COLUMN "run_last_ordinal" INTEGER',
    'ALTER TABLE "requests" ADD COLUMN "run_count" INTEGER NOT NULL DEFAULT 0',
    'ALTER TABLE "requests" ADD COLUMN "version_mark" INTEGER NOT NULL DEFAULT 0',
    'ALTER TABLE "requests" ADD COLUMN "options" TEXT',
    'ALTER TABLE "requests" ADD COLUMN "tools_digest" TEXT',
    'ALTER TABLE "requests" ADD COLUMN "texts_id" INTEGER',
    'ALTER TABLE "requests" ADD COLUMN "continued" INTEGER',
    'ALTER TABLE "requests" ADD COLUMN "prefill" INTEGER NOT NULL DEFAULT 0',
    'CREATE INDEX "requests_tools_digest" ON "requests" ("tools_digest")',
    'CREATE INDEX "requests_texts_id" ON "requests" ("texts_id")',
    'CREATE TABLE "tool_sets" ("digest" TEXT NOT NULL PRIMARY KEY, "definitions" TEXT NOT NULL)',
    'CREATE TABLE "kept_texts" ("id" INTEGER NOT NULL PRIMARY KEY, '
    '"conversation_id" INTEGER, "kind" TEXT NOT NULL, "source" TEXT NOT NULL, '
    '"digest" TEXT NOT NULL, "text" TEXT NOT NULL, '
    'FOREIGN KEY ("conversation_id") REFERENCES "conversations" ("id") ON DELETE CASCADE)',
    'CREATE INDEX "kept_texts_conversation_id" ON "kept_texts" ("conversation_id")',
    'CREATE INDEX "kept_texts_kind_source_digest" ON "kept_texts" ("kind", "source", '
    '"digest")',
    'CREATE TABLE "text_sets" ("id" INTEGER NOT NULL PRIMARY KEY, "digest" TEXT NOT NULL, '
    '"members" TEXT NOT NULL)',
    'CREATE UNIQUE INDEX "text_sets_digest" ON "text_sets" ("digest")',
    'CREATE TABLE "text_set_members" ("set_id" INTEGER NOT NULL, "text_id" INTEGER NOT NULL, '
    'PRIMARY KEY ("set_id", "text_id"), '
    'FOREIGN KEY ("set_id") REFERENCES "text_sets" ("id") ON DELETE CASCADE) WITHOUT ROWID',
    'CREATE INDEX "text_set_members_text_id" ON "text_set_members" ("text_id")',
    'CREATE TRIGGER "tool_sets_unnamed" AFTER DELETE ON "requests" '
    'WHEN OLD."tools_digest" IS NOT NULL BEGIN DELETE FROM "tool_sets" WHERE "digest" = '
    'OLD."tools_digest" AND NOT EXISTS (SELECT 1 FROM "requests" WHERE "tools_digest" = '
    'OLD."tools_digest"); END',
    'CREATE TRIGGER "text_sets_unnamed" AFTER DELETE ON "requests" '
    'WHEN OLD."texts_id" IS NOT NULL BEGIN DELETE FROM "text_sets" WHERE "id" = '
    'OLD."texts_id" AND NOT EXISTS (SELECT 1 FROM "requests" WHERE "texts_id" = '
    'OLD."texts_id"); END',
    'CREATE TRIGGER "kept_texts_unnamed" AFTER DELETE ON "text_set_members" '
    'BEGIN DELETE FROM "kept_texts" WHERE "id" = OLD."text_id" AND NOT EXISTS (SELECT 1 '
    'FROM "text_set_members" WHERE "text_id" = OLD."text_id"); END',
)

# Assistants: saved setups a conversation starts from as a copy (`assistants`: name, icon,
# place in the list, system prompt, profile and model, sampling as JSON, pins and notes to
# start with and tool server names as JSON), the files each attaches to every first
# question (`assistant_files`, as a draft's: their blobs live while an assistant or a turn
# names them), and which assistant a conversation came from (`conversation_assistants`:
# the assistant's id, NULL once it is removed, and its name then).
V_ASSISTANTS = (
    'CREATE TABLE "assistants" ("id" INTEGER NOT NULL PRIMARY KEY, "name" TEXT NOT NULL, '
    '"icon" TEXT NOT NULL, "position" INTEGER NOT NULL, "system_prompt" TEXT NOT NULL, '
    '"profile" TEXT NOT NULL, "model" TEXT NOT NULL, "sampling" TEXT NOT NULL, '
    '"pins" TEXT NOT NULL, "notes" TEXT NOT NULL, "tools" TEXT NOT NULL, '
    '"created_at" TEXT NOT NULL, "updated_at" TEXT NOT NULL)',
    'CREATE UNIQUE INDEX "assistants_name" ON "assistants" ("name")',
    'CREATE TABLE "assistant_files" ("id" INTEGER NOT NULL PRIMARY KEY, '
    '"assistant_id" INTEGER NOT NULL, "position" INTEGER NOT NULL, "name" TEXT NOT NULL, '
    '"kind" TEXT NOT NULL, "mime" TEXT NOT NULL, "size" INTEGER NOT NULL, '
    '"original" TEXT NOT NULL, "sent" TEXT NOT NULL, "sent_mime" TEXT NOT NULL, '
    '"width" INTEGER NOT NULL, "height" INTEGER NOT NULL, "encoding" TEXT NOT NULL, '
    '"notes" TEXT NOT NULL, '
    'FOREIGN KEY ("assistant_id") REFERENCES "assistants" ("id") ON DELETE CASCADE)',
    'CREATE UNIQUE INDEX "assistant_files_assistant_id_position" ON "assistant_files" '
    '("assistant_id", "position")',
    'CREATE INDEX "assistant_files_original" ON "assistant_files" ("original")',
    'CREATE INDEX "assistant_files_sent" ON "assistant_files" ("sent")',
    'CREATE TABLE "conversation_assistants" ("conversation_id" INTEGER NOT NULL PRIMARY KEY, '
    '"assistant_id" INTEGER, "name" TEXT NOT NULL, '
    'FOREIGN KEY ("conversation_id") REFERENCES "conversations" ("id") ON DELETE CASCADE, '
    'FOREIGN KEY ("assistant_id") REFERENCES "assistants" ("id") ON DELETE SET NULL)',
    'CREATE INDEX "conversation_assistants_assistant_id" ON "conversation_assistants" '
    '("assistant_id")',
)

# Folders: user-named groups of conversations in the sidebar (flat, one level); a
# conversation is in one folder or none (NULL), and deleting a folder without its
# conversations moves them out (SET NULL). A starred conversation is listed first.
V_FOLDERS = (
    'CREATE TABLE "folders" ("id" INTEGER NOT NULL PRIMARY KEY, "name" TEXT NOT NULL, '
    '"created_at" TEXT NOT NULL)',
    'CREATE UNIQUE INDEX "folders_name" ON "folders" ("name")',
    'ALTER TABLE "conversations" ADD COLUMN "folder_id" INTEGER REFERENCES "folders" ("id") '
    'ON DELETE SET NULL',
    'ALTER TABLE "conversations" ADD COLUMN "starred" INTEGER NOT NULL DEFAULT 0',
    'CREATE INDEX "conversations_folder_id" ON "conversations" ("folder_id")',
)

# A conversation's compaction history: which summary a new one replaced (`replaced_id`,
# NULL: none stood), a version the user rewrote (`edited_from`: the version whose text
# was rewritten; NULL: a model made it), and an edit the user undid that a request
# record still names (`undone`: kept for that record, never sent again).
V_SUMMARY_EDITS = (
    'ALTER TABLE "summaries" ADD COLUMN "replaced_id" INTEGER',
    'ALTER TABLE "summaries" ADD COLUMN "edited_from" INTEGER',
    'ALTER TABLE "summaries" ADD COLUMN "undone" INTEGER NOT NULL DEFAULT 0',
)

# What requests cost: a request record keeps the profile it went through, the prices it
# was costed at (JSON; NULL: not priced), Turnlog's count of an answer the server reported
# no usage for, and the usage of the tool rounds before its answer. `usage_days`: the
# daily totals per profile, model and currency (numbers only: no text of a conversation,
# no ids), kept when conversations are deleted; `cost` is exact decimal text ('' where
# nothing of it was priced). `usage_conversations`: the same per conversation, deleted
# with it. Both filled from the records already kept (not priced).
V_USAGE = (
    'ALTER TABLE "requests" ADD COLUMN "profile" TEXT NOT NULL DEFAULT \'\'',
    'ALTER TABLE "requests" ADD COLUMN "prices" TEXT',
    'ALTER TABLE "requests" ADD COLUMN "output_estimate" INTEGER',
    'ALTER TABLE "requests" ADD COLUMN "round_usage" TEXT NOT NULL DEFAULT \'[]\'',
    'CREATE TABLE "usage_days" ("day" TEXT NOT NULL, "profile" TEXT NOT NULL, '
    '"model" TEXT NOT NULL, "currency" TEXT NOT NULL, "requests" INTEGER NOT NULL, '
    '"input_tokens" INTEGER NOT NULL, "cached_tokens" INTEGER NOT NULL, '
    '"output_tokens" INTEGER NOT NULL, "estimated" INTEGER NOT NULL, '
    '"unpriced" INTEGER NOT NULL, "cost" TEXT NOT NULL, '
    'PRIMARY KEY ("day", "profile", "model", "currency")) WITHOUT ROWID',
    'INSERT INTO "usage_days" SELECT substr("started_at", 1, 10), \'\', "model", \'\', '
    'count(*), coalesce(sum(json_extract("usage", \'$.prompt_tokens\')), 0), 0, '
    'coalesce(sum(json_extract("usage", \'$.completion_tokens\')), 0), 0, count(*), \'\' '
    'FROM "requests" WHERE json_extract("usage", \'$.prompt_tokens\') IS NOT NULL '
    'OR json_extract("usage", \'$.completion_tokens\') IS NOT NULL '
    'GROUP BY substr("started_at", 1, 10), "model"',
    # A conversation's totals, read when it opens (a few rows, however long its log):
    # derived from its records, deleted with it.
    'CREATE TABLE "usage_conversations" ("conversation_id" INTEGER NOT NULL, '
    '"profile" TEXT NOT NULL, "model" TEXT NOT NULL, "currency" TEXT NOT NULL, '
    '"requests" INTEGER NOT NULL, "input_tokens" INTEGER NOT NULL, '
    '"cached_tokens" INTEGER NOT NULL, "output_tokens" INTEGER NOT NULL, '
    '"estimated" INTEGER NOT NULL, "unpriced" INTEGER NOT NULL, "cost" TEXT NOT NULL, '
    'PRIMARY KEY ("conversation_id", "profile", "model", "currency"), '
    'FOREIGN KEY ("conversation_id") REFERENCES "conversations" ("id") ON DELETE CASCADE) '
    'WITHOUT ROWID',
    'INSERT INTO "usage_conversations" SELECT "conversation_id", \'\', "model", \'\', '
    'count(*), coalesce(sum(json_extract("usage", \'$.prompt_tokens\')), 0), 0, '
    'coalesce(sum(json_extract("usage", \'$.completion_tokens\')), 0), 0, count(*), \'\' '
    'FROM "requests" WHERE json_extract("usage", \'$.prompt_tokens\') IS NOT NULL '
    'OR json_extract("usage", \'$.completion_tokens\') IS NOT NULL '
    'GROUP BY "conversation_id", "model"',
)

# An assistant's default folder: the conversations it starts are put there (NULL: none;
# deleting the folder leaves the assistant with none).
V_ASSISTANT_FOLDER = (
    'ALTER TABLE "assistants" ADD COLUMN "folder_id" INTEGER REFERENCES "folders" ("id") '
    'ON DELETE SET NULL',
)

# Files a later import of a richer form of the same export (a ChatGPT `.zip` after its
# `conversations.json`) attached to turns imported before: appended rows of the turn's
# files with when they were added (`added_at`; NULL: asked with the question). The turn
# itself is never rewritten, and a request made before a file was added rebuilds without it.
V_ATTACHMENTS_ADDED = (
    'ALTER TABLE "turn_attachments" ADD COLUMN "added_at" TEXT',
)

# Sync: a global id (`gid`, UUID hex) for every synced record that had only a local key
# (conversations, folders, assistants, pins, notes, preferences, supersede records,
# summaries, request records, a turn's attachments; turns and side questions already have
# one), given to the rows already stored and to every new row by the table's insert
# trigger. A turn's place for merging: the version group before it (`after_id`: the first
# turn of that group; NULL: first) and the first turn of its own group when it is a later
# version (`version_of`). `sync_journal`: what changed on this machine (origin NULL, filled
# by the triggers below unless `sync_state.quiet` says the store is applying another
# machine's records, set and cleared inside that transaction), and every record applied
# from another machine (origin set), each with its hybrid logical clock (`sync_state`:
# this data directory's node id, the clock's last physical milliseconds and counter).
# A conversation's field changes keep their values in it (the history of changes;
# purged with the conversation; a derived title's with its turn). `sync_tombstones`: ids a
# delete everywhere removed (ids only, kept for good); `sync_here_deleted`: ids deleted on
# this machine only; `sync_copies`: turns copied into a fork made by a concurrent append
# (deleted with their original). A fork's `continued_on`: the machine whose concurrent turn
# it holds (NULL: a fork the user made). The rows already stored are journaled as this
# machine's, so a first sync publishes the whole log.
_UUID4_SQL = (  # a random UUID (version 4) as 32 hex digits, made again for every row
    "(lower(hex(randomblob(6))) || '4' || substr(lower(hex(randomblob(2))), 2) || "
    "substr('89ab', 1 + abs(random() % 4), 1) || substr(lower(hex(randomblob(8))), 2))")
_CLOCK_NOW = "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)"
_QUIET = '(SELECT "quiet" FROM "sync_state") = 0'
_CONV_GID = '(SELECT "gid" FROM "conversations" WHERE "id" = {row}."conversation_id")'
_CONV_FIELDS = (
    "json_object('title', {r}.\"title\", 'title_source', {r}.\"title_source\", "
    "'system_prompt', {r}.\"system_prompt\", 'model', {r}.\"model\", "
    "'settings', {r}.\"settings\", 'folder', (SELECT \"gid\" FROM \"folders\" WHERE "
    "\"id\" = {r}.\"folder_id\"), 'starred', {r}.\"starred\", 'source', {r}.\"source\", "
    "'source_model', {r}.\"source_model\", 'created_at', {r}.\"created_at\")")
_PRED_ROOT = (
    '(SELECT coalesce(p."version_of", p."id") FROM "turns" p WHERE p."conversation_id" = '
    '{r}."conversation_id" AND p."ordinal" < {r}."ordinal" AND coalesce((SELECT '
    's."turn_id" = p."id" FROM "supersedes" s WHERE s."turn_id" = p."id" OR s."by_turn_id" '
    '= p."id" ORDER BY s."id" DESC LIMIT 1), 0) = 0 ORDER BY p."ordinal" DESC LIMIT 1)')
_GID_TABLES = ("conversations", "folders", "assistants", "pins", "notes", "preferences",
               "supersedes", "summaries", "requests", "turn_attachments")
# (table, kind, the conversation's gid or NULL, the columns whose change is journaled)
_ROW_KINDS = (("folders", "folder", "NULL", '"name"'),
              ("pins", "pin", _CONV_GID, '"text", "kind", "sources"'),
              ("notes", "note", _CONV_GID, '"text", "priority"'),
              ("preferences", "preference", "NULL", '"text", "priority"'))
_CONV_FIELD_COLUMNS = (("title", '"title", "title_source"',
                        "json_object('title', NEW.\"title\", 'title_source', "
                        "NEW.\"title_source\")"),
                       ("system_prompt", '"system_prompt"',
                        "json_object('system_prompt', NEW.\"system_prompt\")"),
                       ("model", '"model"', "json_object('model', NEW.\"model\")"),
                       ("settings", '"settings"', "json_object('settings', NEW.\"settings\")"),
                       ("folder", '"folder_id"',
                        "json_object('folder', (SELECT \"gid\" FROM \"folders\" WHERE "
                        "\"id\" = NEW.\"folder_id\"))"),
                       ("starred", '"starred"', "json_object('starred', NEW.\"starred\")"))


def _journal(kind: str, gid: str, conv: str, subject: str, value: str) -> str:
    return ('INSERT INTO "sync_journal" ("kind", "gid", "conv", "subject", "value") '
            f"SELECT '{kind}', {gid}, {conv}, {subject}, {value} WHERE {_QUIET};")


def _sync_triggers() -> list[str]:
    out = []
    for table, kind, conv, columns in _ROW_KINDS:
        gid = f'(SELECT "gid" FROM "{table}" WHERE "id" = NEW."id")'
        out += [
            f'CREATE TRIGGER "sync_{table}_added" AFTER INSERT ON "{table}" BEGIN '
            f'UPDATE "{table}" SET "gid" = {_UUID4_SQL} WHERE "id" = NEW."id" AND "gid" IS NULL; '
            + _journal(kind, gid, conv.format(row="NEW"), gid, "NULL") + " END",
            f'CREATE TRIGGER "sync_{table}_changed" AFTER UPDATE OF {columns} ON "{table}" '
            "BEGIN " + _journal(kind, 'NEW."gid"', conv.format(row="NEW"), 'NEW."gid"', "NULL")
            + " END",
            # Removed by the user (a conversation's delete takes its pins and notes
            # without a record of their own: the conversation is gone first).
            f'CREATE TRIGGER "sync_{table}_removed" AFTER DELETE ON "{table}" '
            + ('WHEN EXISTS (SELECT 1 FROM "conversations" WHERE "id" = '
               'OLD."conversation_id") ' if conv != "NULL" else "")
            + "BEGIN " + _journal(kind, 'OLD."gid"', conv.format(row="OLD"), 'OLD."gid"',
                                  "'{\"removed\": true}'") + " END",
        ]
    for table in ("assistants", "summaries", "requests", "turn_attachments"):
        out.append(f'CREATE TRIGGER "sync_{table}_added" AFTER INSERT ON "{table}" BEGIN '
                   f'UPDATE "{table}" SET "gid" = {_UUID4_SQL} WHERE "id" = NEW."id" AND '
                   '"gid" IS NULL; END')
    conv_gid = '(SELECT "gid" FROM "conversations" WHERE "id" = NEW."id")'
    out.append(
        'CREATE TRIGGER "sync_conversations_added" AFTER INSERT ON "conversations" BEGIN '
        f'UPDATE "conversations" SET "gid" = {_UUID4_SQL} WHERE "id" = NEW."id" AND "gid" '
        "IS NULL; " + _journal("conversation", conv_gid, conv_gid, f"{conv_gid} || '/'",
                               _CONV_FIELDS.format(r="NEW")) + " END")
    for field, columns, value in _CONV_FIELD_COLUMNS:
        changed = " OR ".join(f"OLD.{c} IS NOT NEW.{c}" for c in columns.split(", "))
        out.append(
            f'CREATE TRIGGER "sync_conversation_{field}" AFTER UPDATE OF {columns} ON '
            f'"conversations" WHEN {changed} BEGIN '
            + _journal("conversation", 'NEW."gid"', 'NEW."gid"', f"NEW.\"gid\" || '/{field}'",
                       value) + " END")
    # A conversation deleted however (a privacy delete, all history, a folder's, an empty
    # one swept) takes what the journal kept of it (its titles and prompts) along.
    out.append(
        'CREATE TRIGGER "sync_conversations_removed" AFTER DELETE ON "conversations" BEGIN '
        'DELETE FROM "sync_journal" WHERE "conv" = OLD."gid" AND "kind" != \'delete\'; END')
    # A title made from a deleted turn (its first question, or by the model) is derived
    # from it: its history goes with the turn (a typed title stays).
    out.append(
        'CREATE TRIGGER "sync_turns_removed" AFTER DELETE ON "turns" BEGIN DELETE FROM '
        '"sync_journal" WHERE "subject" = (SELECT "gid" FROM "conversations" WHERE "id" = '
        'OLD."conversation_id") || \'/title\' AND json_extract("value", \'$.title_source\') '
        "!= 'user'; END")
    # A system prompt edited to take text out: every earlier value that held it goes (as
    # the request records' kept versions do); one only added to stays in the history.
    out.append(
        'CREATE TRIGGER "sync_system_prompt_taken_out" AFTER UPDATE OF "system_prompt" ON '
        '"conversations" BEGIN DELETE FROM "sync_journal" WHERE "subject" = NEW."gid" || '
        '\'/system_prompt\' AND instr(NEW."system_prompt", json_extract("value", '
        '\'$.system_prompt\')) = 0; UPDATE "sync_journal" SET "value" = json_set("value", '
        '\'$.system_prompt\', \'\') WHERE "subject" = NEW."gid" || \'/\' AND '
        'instr(NEW."system_prompt", json_extract("value", \'$.system_prompt\')) = 0; END')
    # An imported conversation's id is set after its row (derived from its source's id).
    out.append(
        'CREATE TRIGGER "sync_conversation_gid" AFTER UPDATE OF "gid" ON "conversations" '
        'WHEN OLD."gid" IS NOT NULL BEGIN UPDATE "sync_journal" SET "gid" = CASE WHEN "gid" = '
        'OLD."gid" THEN NEW."gid" ELSE "gid" END, "conv" = NEW."gid", "subject" = CASE WHEN '
        '"kind" = \'conversation\' THEN NEW."gid" || substr("subject", length(OLD."gid") + 1) '
        'ELSE "subject" END WHERE "conv" = OLD."gid"; END')
    return out


def _sync_turn_triggers() -> list[str]:
    """A turn's place, a version's group, and the clock reading of every journal row."""
    return [
        'CREATE TRIGGER "sync_turns_added" AFTER INSERT ON "turns" BEGIN '
        f'UPDATE "turns" SET "after_id" = {_PRED_ROOT.format(r="NEW")} WHERE "id" = NEW."id" '
        f"AND {_QUIET}; "
        + _journal("turn", 'NEW."id"', _CONV_GID.format(row="NEW"), 'NEW."id"', "NULL")
        + " END",
        # A newer version of a turn (not a switch back to an older one): it stands where
        # the turn it replaces stood.
        'CREATE TRIGGER "sync_supersedes_added" AFTER INSERT ON "supersedes" BEGIN '
        f'UPDATE "supersedes" SET "gid" = {_UUID4_SQL} WHERE "id" = NEW."id" AND "gid" IS '
        'NULL; UPDATE "turns" SET "version_of" = coalesce((SELECT "version_of" FROM "turns" '
        'WHERE "id" = NEW."turn_id"), NEW."turn_id"), "after_id" = (SELECT "after_id" FROM '
        '"turns" WHERE "id" = NEW."turn_id") WHERE "id" = NEW."by_turn_id" AND "version_of" '
        'IS NULL AND "ordinal" > (SELECT "ordinal" FROM "turns" WHERE "id" = NEW."turn_id") '
        f"AND {_QUIET}; "
        + _journal("version", '(SELECT "gid" FROM "supersedes" WHERE "id" = NEW."id")',
                   _CONV_GID.format(row="NEW"),
                   '(SELECT coalesce("version_of", "id") FROM "turns" WHERE "id" = '
                   'NEW."by_turn_id")',
                   "json_object('turn', NEW.\"turn_id\", 'by', NEW.\"by_turn_id\")")
        + " END",
        'CREATE TRIGGER "sync_journal_clock" AFTER INSERT ON "sync_journal" WHEN NEW."hlc" IS '
        'NULL BEGIN UPDATE "sync_state" SET "counter" = CASE WHEN '
        f'{_CLOCK_NOW} > "phys" THEN 0 ELSE "counter" + 1 END, "phys" = max("phys", '
        f'{_CLOCK_NOW}); UPDATE "sync_journal" SET "hlc" = (SELECT printf(\'%013d-%06d-%s\', '
        '"phys", "counter", "node") FROM "sync_state") WHERE "seq" = NEW."seq"; END',
    ]


def _fill_places(db: peewee.SqliteDatabase, progress: Progress | None = None) -> None:
    """The stored turns' places (`after_id`, `version_of`), a conversation at a time, in
    the order they were committed (as the triggers give each new turn its place)."""
    conversations = [c for (c,) in db.execute_sql('SELECT "id" FROM "conversations"')]
    for cid in conversations:  # quick beside the search index's fill: no progress of its own
        turns = db.execute_sql('SELECT "id", "ordinal" FROM "turns" WHERE "conversation_id" '
                               '= ? ORDER BY "ordinal"', (cid,)).fetchall()
        ordinal = dict(turns)
        root: dict[str, str] = {}
        for turn_id, by in db.execute_sql(
                'SELECT "turn_id", "by_turn_id" FROM "supersedes" WHERE "conversation_id" = ? '
                'ORDER BY "id"', (cid,)):
            if turn_id in ordinal and by in ordinal and ordinal[by] > ordinal[turn_id] \
                    and by not in root:
                root[by] = root.get(turn_id, turn_id)
        previous: str | None = None
        after: dict[str, str | None] = {}
        for turn_id, _ordinal in turns:
            if turn_id not in root:
                after[turn_id] = previous
                previous = turn_id
        for turn_id, _ordinal in turns:
            own = root.get(turn_id)
            db.execute_sql('UPDATE "turns" SET "after_id" = ?, "version_of" = ? WHERE "id" = ?',
                           (after.get(own or turn_id), own, turn_id))
    # Everything stored so far is this machine's to publish, oldest first.
    for statement in _JOURNAL_STORED:
        db.execute_sql(statement)


_JOURNAL_STORED = (
    'INSERT INTO "sync_journal" ("kind", "gid", "conv", "subject", "value") SELECT '
    "'folder', \"gid\", NULL, \"gid\", NULL FROM \"folders\" ORDER BY \"id\"",
    'INSERT INTO "sync_journal" ("kind", "gid", "conv", "subject", "value") SELECT '
    "'preference', \"gid\", NULL, \"gid\", NULL FROM \"preferences\" ORDER BY \"id\"",
    'INSERT INTO "sync_journal" ("kind", "gid", "conv", "subject", "value") SELECT '
    "'conversation', \"gid\", \"gid\", \"gid\" || '/', " + _CONV_FIELDS.format(r='"c"')
    + ' FROM "conversations" "c" ORDER BY "id"',
    'INSERT INTO "sync_journal" ("kind", "gid", "conv", "subject", "value") SELECT '
    "'turn', t.\"id\", c.\"gid\", t.\"id\", NULL FROM \"turns\" t JOIN \"conversations\" c "
    'ON c."id" = t."conversation_id" ORDER BY t."conversation_id", t."ordinal"',
    'INSERT INTO "sync_journal" ("kind", "gid", "conv", "subject", "value") SELECT '
    "'version', s.\"gid\", c.\"gid\", coalesce(t.\"version_of\", t.\"id\"), "
    "json_object('turn', s.\"turn_id\", 'by', s.\"by_turn_id\") FROM \"supersedes\" s JOIN "
    '"conversations" c ON c."id" = s."conversation_id" JOIN "turns" t ON t."id" = '
    's."by_turn_id" ORDER BY s."id"',
    *('INSERT INTO "sync_journal" ("kind", "gid", "conv", "subject", "value") SELECT '
      f"'{kind}', x.\"gid\", c.\"gid\", x.\"gid\", NULL FROM \"{table}\" x JOIN "
      '"conversations" c ON c."id" = x."conversation_id" ORDER BY x."id"'
      for table, kind in (("pins", "pin"), ("notes", "note"))),
)

V_SYNC = FillStep((
    *(f'ALTER TABLE "{table}" ADD COLUMN "gid" TEXT' for table in _GID_TABLES),
    *(f'UPDATE "{table}" SET "gid" = {_UUID4_SQL}' for table in _GID_TABLES),
    *(f'CREATE UNIQUE INDEX "{table}_gid" ON "{table}" ("gid")' for table in _GID_TABLES),
    'ALTER TABLE "turns" ADD COLUMN "after_id" TEXT',
    'ALTER TABLE "turns" ADD COLUMN "version_of" TEXT',
    'CREATE INDEX "turns_version_of" ON "turns" ("version_of")',
    'CREATE INDEX "turns_after_id" ON "turns" ("after_id")',
    'CREATE INDEX "supersedes_turn_id" ON "supersedes" ("turn_id")',
    'CREATE INDEX "supersedes_by_turn_id" ON "supersedes" ("by_turn_id")',
    'ALTER TABLE "forks" ADD COLUMN "continued_on" TEXT',
    'CREATE TABLE "sync_state" ("id" INTEGER NOT NULL PRIMARY KEY, "node" TEXT NOT NULL, '
    '"phys" INTEGER NOT NULL, "counter" INTEGER NOT NULL, "quiet" INTEGER NOT NULL)',
    f'INSERT INTO "sync_state" VALUES (1, {_UUID4_SQL}, 0, 0, 0)',
    'CREATE TABLE "sync_journal" ("seq" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, '
    '"kind" TEXT NOT NULL, "gid" TEXT, "conv" TEXT, "subject" TEXT, "value" TEXT, '
    '"hlc" TEXT, "origin" TEXT)',
    'CREATE INDEX "sync_journal_gid" ON "sync_journal" ("gid")',
    'CREATE INDEX "sync_journal_conv" ON "sync_journal" ("conv")',
    'CREATE INDEX "sync_journal_subject_hlc" ON "sync_journal" ("subject", "hlc")',
    'CREATE INDEX "sync_journal_seq" ON "sync_journal" ("seq") WHERE "origin" IS NULL',
    'CREATE TABLE "sync_tombstones" ("gid" TEXT NOT NULL PRIMARY KEY) WITHOUT ROWID',
    'CREATE TABLE "sync_here_deleted" ("gid" TEXT NOT NULL PRIMARY KEY) WITHOUT ROWID',
    'CREATE TABLE "sync_copies" ("id" TEXT NOT NULL PRIMARY KEY, "original" TEXT NOT NULL) '
    'WITHOUT ROWID',
    'CREATE INDEX "sync_copies_original" ON "sync_copies" ("original")',
    *_sync_triggers(),
    *_sync_turn_triggers(),
), _fill_places)

# Sync carries the derived records too: rolling summaries and their kept versions (added,
# an edit undone; removed: a delete everywhere of its id, unless a delete of its turns
# removed it, which every machine makes itself), request records (with the texts and tool
# sets their proofs keep, travelling inside them) and failed side requests (`side_attempts`
# get a global id).
# What is stored already is journaled as this machine's, so the next sync publishes it.
# `sync_machines`: each machine's name as the sync last heard it (a fork a concurrent
# append made names the machine it continued on by its id: shown by this name).
_SUMMARY_OF_DELETED = (
    'EXISTS (SELECT 1 FROM "turns" t WHERE t."conversation_id" = OLD."conversation_id" AND '
    't."ordinal" BETWEEN OLD."first_ordinal" AND OLD."last_ordinal" AND (t."id" IN (SELECT '
    '"gid" FROM "sync_tombstones") OR t."id" IN (SELECT "gid" FROM "sync_here_deleted")))')
V_SYNC_DERIVED = (
    'ALTER TABLE "side_attempts" ADD COLUMN "gid" TEXT',
    f'UPDATE "side_attempts" SET "gid" = {_UUID4_SQL}',
    'CREATE UNIQUE INDEX "side_attempts_gid" ON "side_attempts" ("gid")',
    'CREATE TABLE "sync_machines" ("id" TEXT NOT NULL PRIMARY KEY, "name" TEXT NOT NULL) '
    'WITHOUT ROWID',
    'DROP TRIGGER "sync_summaries_added"',
    'DROP TRIGGER "sync_requests_added"',
    *(f'CREATE TRIGGER "sync_{table}_added" AFTER INSERT ON "{table}" BEGIN '
      f'UPDATE "{table}" SET "gid" = {_UUID4_SQL} WHERE "id" = NEW."id" AND "gid" IS NULL; '
      + _journal(kind, f'(SELECT "gid" FROM "{table}" WHERE "id" = NEW."id")',
                 _CONV_GID.format(row="NEW"),
                 f'(SELECT "gid" FROM "{table}" WHERE "id" = NEW."id")', "NULL") + " END"
      for table, kind in (("summaries", "summary"), ("requests", "request"),
                          ("side_attempts", "side_attempt"))),
    'CREATE TRIGGER "sync_summaries_undone" AFTER UPDATE OF "undone" ON "summaries" WHEN '
    'OLD."undone" IS NOT NEW."undone" BEGIN '
    + _journal("summary", 'NEW."gid"', _CONV_GID.format(row="NEW"), 'NEW."gid"', "NULL")
    + " END",
    # Removed here (pruned, an edit undone, earlier versions forgotten): a delete everywhere
    # of its id, so no live object keeps its text either.
    'CREATE TRIGGER "sync_summaries_removed" AFTER DELETE ON "summaries" WHEN EXISTS (SELECT '
    f'1 FROM "conversations" WHERE "id" = OLD."conversation_id") AND {_QUIET} AND NOT '
    f'{_SUMMARY_OF_DELETED} BEGIN '
    'INSERT OR IGNORE INTO "sync_tombstones" VALUES (OLD."gid"); '
    'DELETE FROM "sync_journal" WHERE "gid" = OLD."gid" AND "kind" != \'delete\'; '
    + _journal("delete", _UUID4_SQL, _CONV_GID.format(row="OLD"), "NULL",
               "json_object('targets', json_array(OLD.\"gid\"), 'counts', "
               "json_object('conversation', 0, 'turn', 0))") + " END",
    *('INSERT INTO "sync_journal" ("kind", "gid", "conv", "subject", "value") SELECT '
      f"'{kind}', x.\"gid\", c.\"gid\", x.\"gid\", NULL FROM \"{table}\" x JOIN "
      '"conversations" c ON c."id" = x."conversation_id" ORDER BY x."id"'
      for table, kind in (("summaries", "summary"), ("requests", "request"),
                          ("side_attempts", "side_attempt"))),
)

# A journal row of this machine's turn carries the turn's row number (`turn_row`, its
# rowid), so a sync reading the journal finds the turn by its integer key, not through the
# index of its id text (a first sync of 100,000 turns looked each one up). VACUUM may
# renumber the turns: the reader checks the id as well and goes the slow way when they
# differ. The rows journaled already get theirs here; the turns' trigger gives each new one.
# Written out whole, not from the fragments the steps before it share: a later edit of
# those cannot change what this step does.
V_JOURNAL_TURN_ROW = (
    'ALTER TABLE "sync_journal" ADD COLUMN "turn_row" INTEGER',
    'UPDATE "sync_journal" SET "turn_row" = (SELECT t."rowid" FROM "turns" t WHERE t."id" = '
    '"sync_journal"."gid") WHERE "kind" = \'turn\' AND "origin" IS NULL',
    'DROP TRIGGER "sync_turns_added"',
    'CREATE TRIGGER "sync_turns_added" AFTER INSERT ON "turns" BEGIN '
    'UPDATE "turns" SET "after_id" = (SELECT coalesce(p."version_of", p."id") FROM "turns" p '
    'WHERE p."conversation_id" = NEW."conversation_id" AND p."ordinal" < NEW."ordinal" AND '
    'coalesce((SELECT s."turn_id" = p."id" FROM "supersedes" s WHERE s."turn_id" = p."id" OR '
    's."by_turn_id" = p."id" ORDER BY s."id" DESC LIMIT 1), 0) = 0 ORDER BY p."ordinal" DESC '
    'LIMIT 1) WHERE "id" = NEW."id" AND (SELECT "quiet" FROM "sync_state") = 0; '
    'INSERT INTO "sync_journal" ("kind", "gid", "conv", "subject", "value", "turn_row") '
    'SELECT \'turn\', NEW."id", (SELECT "gid" FROM "conversations" WHERE "id" = '
    'NEW."conversation_id"), NEW."id", NULL, NEW."rowid" WHERE (SELECT "quiet" FROM '
    '"sync_state") = 0; END',
)

# Append new steps; never edit a released one.
MIGRATIONS: list[Step] = [V1, V2, V_VERSIONS, V_REASONING, V_SEARCH, V_MEMORY, V_SIDE,
                          V_SIDE_ATTEMPTS, V_SEARCH_PARTS, V_INCOMPLETE_TITLES,
                          V_SOURCE_MODEL, V_ATTACHMENTS, V_TOOLS, V_RECORD_PROOFS,
                          V_ASSISTANTS, V_FOLDERS, V_SUMMARY_EDITS, V_USAGE,
                          V_ASSISTANT_FOLDER, V_ATTACHMENTS_ADDED, V_SYNC,
                          V_SYNC_DERIVED, V_JOURNAL_TURN_ROW]
if len(MIGRATIONS) != SCHEMA_VERSION:  # a step appended, the number opening reads not
    raise ImportError(f"store/schema_version.py says {SCHEMA_VERSION} while there are "
                      f"{len(MIGRATIONS)} steps: set SCHEMA_VERSION to the number of steps")


def migrate(db: peewee.SqliteDatabase, steps: Sequence[Step] | None = None,
            progress: Progress | None = None) -> int:
    """Bring the database to the newest version of `steps` (default `MIGRATIONS`) in one
    transaction; returns the version it started at. `progress` hears how a step that
    fills derived data gets on."""
    steps = MIGRATIONS if steps is None else steps
    start = current_version(db)
    if start >= len(steps):
        return start
    with db.atomic("IMMEDIATE"):
        for step in steps[start:]:
            if isinstance(step, FillStep):
                step(db, progress)
            elif callable(step):
                step(db)
            else:
                for statement in step:
                    db.execute_sql(statement)
        db.execute_sql(f"PRAGMA user_version = {len(steps)}")
    return start
