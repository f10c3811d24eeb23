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

Progress = Callable[[int, int], None]
"""(done, total) of a step that moves data, for a start-up that shows it."""


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

# Append new steps; never edit a released one.
MIGRATIONS: list[Step] = [V1, V2, V_VERSIONS, V_REASONING, V_SEARCH, V_MEMORY, V_SIDE,
                          V_SIDE_ATTEMPTS, V_SEARCH_PARTS, V_INCOMPLETE_TITLES,
                          V_SOURCE_MODEL, V_ATTACHMENTS, V_TOOLS, V_RECORD_PROOFS,
                          V_ASSISTANTS, V_FOLDERS, V_SUMMARY_EDITS, V_USAGE,
                          V_ASSISTANT_FOLDER, V_ATTACHMENTS_ADDED]
SCHEMA_VERSION = len(MIGRATIONS)


def current_version(db: peewee.SqliteDatabase) -> int:
    return int(db.execute_sql("PRAGMA user_version").fetchone()[0])


def table_names(db: peewee.SqliteDatabase) -> list[str]:
    rows = db.execute_sql(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
        "ORDER BY name"
    ).fetchall()
    return [str(name) for (name,) in rows]


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
