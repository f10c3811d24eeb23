"""Schema steps frozen in time: databases made by released versions open with today's code.

The fixtures in tests/data were written by the code of each released schema version
(see tests/data/make_fixtures.py); every turn, summary and request record in them must
come through an upgrade unchanged, with a private copy made before and removed after.
"""

from __future__ import annotations

import importlib.util
import json
import logging
import shutil
import sqlite3
from datetime import datetime
from pathlib import Path

import peewee
import pytest

from schema_fixtures import DATA, FIXTURES
from turnlog.core.model import Usage
from turnlog.store import TurnlogStore, upgrade
from turnlog.store.errors import DatabaseCorrupt, UpgradeFailed
from turnlog.store.log import PRAGMAS
from turnlog.store.migrations import MIGRATIONS, SCHEMA_VERSION, V_MEMORY
from turnlog.store.models import (
    AssistantFileRow,
    AssistantRow,
    BlobRow,
    ConversationAssistantRow,
    ConversationRow,
    DraftAttachmentRow,
    FolderRow,
    ForkRow,
    KeptTextRow,
    NoteRow,
    PinRow,
    PreferenceRow,
    RequestRow,
    SearchDirtyRow,
    SearchFillRow,
    SearchKeyRow,
    SideAttemptRow,
    SideQuestionRow,
    SummaryRow,
    SupersedeRow,
    SyncCopyRow,
    SyncHereDeletedRow,
    SyncJournalRow,
    SyncMachineRow,
    SyncStateRow,
    SyncTombstoneRow,
    TextSetMemberRow,
    TextSetRow,
    ToolResultRow,
    ToolSetRow,
    TurnAttachmentRow,
    TurnRow,
    UsageConversationRow,
    UsageDayRow,
)

ALL_MODELS = [ConversationRow, TurnRow, RequestRow, SummaryRow, SupersedeRow, ForkRow,
              PinRow, NoteRow, PreferenceRow, SideQuestionRow, SideAttemptRow, SearchKeyRow,
              SearchFillRow, SearchDirtyRow, BlobRow, TurnAttachmentRow, DraftAttachmentRow,
              ToolResultRow, ToolSetRow, KeptTextRow, TextSetRow, TextSetMemberRow,
              AssistantRow, AssistantFileRow, ConversationAssistantRow, FolderRow,
              UsageDayRow, UsageConversationRow, SyncStateRow, SyncJournalRow,
              SyncTombstoneRow, SyncHereDeletedRow, SyncCopyRow, SyncMachineRow]


def _content():
    spec = importlib.util.spec_from_file_location("make_fixtures", DATA / "make_fixtures.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CONTENT = _content()


def dump(path: Path, tables: list[str] | None = None,
         columns: dict[str, list[str]] | None = None) -> dict[str, list[tuple]]:
    """Every row of `tables` (default: all); with `columns`, only those columns of each
    table (a later step may add columns: the old ones must come through unchanged)."""
    con = sqlite3.connect(path)
    try:
        if tables is None:
            tables = [r[0] for r in con.execute(
                "SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")]
        out = {}
        for t in tables:
            names = ", ".join(f'"{c}"' for c in columns[t]) if columns else "*"
            out[t] = con.execute(f'SELECT {names} FROM "{t}" ORDER BY 1').fetchall()
        return out
    finally:
        con.close()


def column_names(path: Path) -> dict[str, list[str]]:
    con = sqlite3.connect(f"file:{path}?immutable=1", uri=True)
    try:
        tables = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        return {t: [r[1] for r in con.execute(f'PRAGMA table_info("{t}")')] for t in tables}
    finally:
        con.close()


def schema_of(con: sqlite3.Connection) -> dict[str, dict]:
    """Columns, indexes and foreign keys per table, as SQLite reports them (FTS5 virtual
    tables and their shadow tables are SQLite's own, not model classes)."""
    out = {}
    virtual = [r[0] for r in con.execute(
        "SELECT name FROM sqlite_master WHERE sql LIKE 'CREATE VIRTUAL TABLE%'")]
    tables = [r[0] for r in con.execute(
        "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%'")
        if not any(r[0] == v or r[0].startswith(v + "_") for v in virtual)]
    for table in tables:
        columns = [(name, kind, notnull, pk) for _, name, kind, notnull, _, pk
                   in con.execute(f'PRAGMA table_info("{table}")')]
        indexes = sorted(
            (name, unique, tuple(c[2] for c in con.execute(f'PRAGMA index_info("{name}")')))
            for _, name, unique, origin, _ in con.execute(f'PRAGMA index_list("{table}")')
            if origin == "c"
        )
        keys = sorted(tuple(r[2:]) for r in con.execute(f'PRAGMA foreign_key_list("{table}")'))
        out[table] = {"columns": columns, "indexes": indexes, "foreign_keys": keys}
    return out


def schema_from_models() -> dict[str, dict]:
    scratch = peewee.SqliteDatabase(":memory:")
    with scratch.bind_ctx(ALL_MODELS):
        scratch.create_tables(ALL_MODELS)
        return schema_of(scratch.connection())


def derived_apart(tables: dict[str, list[tuple]]) -> dict[str, list[tuple]]:
    """The tables, less the first search index's (derived from the turns: a later step
    replaced it with one in parts, indexed again)."""
    return {name: rows for name, rows in tables.items()
            if not name.startswith("search_turns")}


def journal_grown(after: dict[str, list[tuple]], before: dict[str, list[tuple]]
                  ) -> dict[str, list[tuple]]:
    """`after` with the sync journal's rows appended by the upgrade left out: a step may
    journal what was stored before it for the sync to publish (the clock moving on with
    it), never drop or change a row."""
    if "sync_journal" not in before:
        return after
    out = dict(after)
    if [r[:2] for r in after["sync_state"]] == [r[:2] for r in before["sync_state"]] and all(
            a[2:4] >= b[2:4] for a, b in zip(after["sync_state"], before["sync_state"],
                                             strict=True)):
        out["sync_state"] = before["sync_state"]
    out["sync_journal"] = after["sync_journal"][:len(before["sync_journal"])]
    out["sqlite_sequence"] = [next((b for b in before["sqlite_sequence"] if b[0] == r[0]), r)
                              for r in after["sqlite_sequence"]]
    return out


def fixture_home(tmp_path: Path, version: int) -> Path:
    home = tmp_path / f"home-v{version}"
    home.mkdir()
    shutil.copyfile(FIXTURES[version], home / "turnlog.sqlite3")
    return home


def test_fixtures_are_what_their_version_wrote():
    assert sorted(FIXTURES) == list(range(1, SCHEMA_VERSION + 1)), (
        "every released schema version keeps a fixture made by its code (make_fixtures.py)")
    for version, path in FIXTURES.items():
        con = sqlite3.connect(f"file:{path}?immutable=1", uri=True)
        assert con.execute("PRAGMA user_version").fetchone()[0] == version
        con.close()
    # Opened in place only as immutable: no -wal or -shm may appear beside a fixture.
    assert not [p.name for p in DATA.iterdir() if p.name.endswith(("-wal", "-shm", "-journal"))]


def test_a_new_database_is_the_schema_the_releases_made(turnlog_home):
    TurnlogStore.open(turnlog_home).close()
    new = sqlite3.connect(turnlog_home / "turnlog.sqlite3")
    made_by_newest = sqlite3.connect(f"file:{FIXTURES[SCHEMA_VERSION]}?immutable=1", uri=True)
    query = "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name"
    assert new.execute(query).fetchall() == made_by_newest.execute(query).fetchall()
    assert new.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert not upgrade.copies(turnlog_home / "turnlog.sqlite3")


@pytest.mark.parametrize("version", [None, *FIXTURES])
def test_model_classes_match_the_migrated_schema(turnlog_home, version):
    if version is not None:
        shutil.copyfile(FIXTURES[version], turnlog_home / "turnlog.sqlite3")
    TurnlogStore.open(turnlog_home).close()
    con = sqlite3.connect(turnlog_home / "turnlog.sqlite3")
    assert schema_of(con) == schema_from_models()


def _check_memory(store: TurnlogStore, conversations, version: int) -> None:
    """Pins, notes and preferences come through an upgrade (none before their step)."""
    cid = conversations[CONTENT.MEMORY["conversation"]].id
    if version < MIGRATIONS.index(V_MEMORY) + 1:
        memory = store.memory
        assert (memory.pins(cid), memory.notes(cid), memory.preferences()) == ([], [], [])
        return
    (pin,) = store.memory.pins(cid)
    assert (pin.sources[0], pin.text) == CONTENT.MEMORY["pin"]
    assert [(n.text, n.priority) for n in store.memory.notes(cid)] == [CONTENT.MEMORY["note"]]
    assert [(p.text, p.priority) for p in store.memory.preferences()] == \
        [CONTENT.MEMORY["preference"]]


def _check_content(store: TurnlogStore, version: int) -> None:
    conversations = sorted(store.conversations(), key=lambda c: c.id)
    assert [(c.title, c.system_prompt, c.model) for c in conversations] == [
        (title, system, model) for title, system, model, _ in CONTENT.CONVERSATIONS
    ]
    with_files = _made_with(version, "blobs")
    for index, (conv, (_, _, model, turns)) in enumerate(
            zip(conversations, CONTENT.CONVERSATIONS, strict=True)):
        assert conv.settings.max_bytes == 24000 and conv.settings.temperature == 0.5
        got = store.turns(conv.id)
        if with_files and index == CONTENT.ATTACHMENT["conversation"]:
            *got, with_file = got
            _check_attachment(store, with_file, conversations)
        assert [(t.id, t.ordinal, t.question, t.answer, t.model, t.finish_reason, t.created_at,
                 t.usage) for t in got] == [
            (turn_id, i, q, a, model, "stop", CONTENT.STAMP, Usage(*usage))
            for i, (turn_id, q, a, usage) in enumerate(turns, start=1)
        ]
    # From the record proofs version on, a committed request of format 1 follows it.
    record, *proven = store.records.of(conversations[CONTENT.RECORD["conversation"]].id)
    assert len(proven) == (1 if _made_with(version, "kept_texts") else 0)
    expected = dict(CONTENT.RECORD)
    del expected["conversation"]
    expected["usage"] = Usage(*expected["usage"])
    assert {name: getattr(record, name) for name in expected} == expected
    assert record.started_at == CONTENT.STAMP
    _check_memory(store, conversations, version)
    _check_folders(store, conversations, version)
    summary = store.records.latest_summary(conversations[CONTENT.SUMMARY["conversation"]].id)
    if version < 2:
        assert summary is None
        return
    assert summary is not None
    assert (summary.first_ordinal, summary.last_ordinal, summary.covered_count) == (1, 2, 2)
    if _made_with_column(version, "summaries", "edited_from"):
        # The user's edit stands; the model's summary it was made from is kept for Undo.
        assert summary.content == CONTENT.SUMMARY_EDIT["content"] and summary.edited
        assert summary.settings_key == CONTENT.SUMMARY["settings_key"]
        summary = store.records.summary(summary.edited_from)
    else:
        assert not summary.edited and summary.replaced_id is None
    assert summary.content == CONTENT.SUMMARY["content"]
    assert summary.covered_digest == CONTENT.SUMMARY["covered_digest"]
    assert summary.usages == tuple(Usage(*u) for u in CONTENT.SUMMARY["usages"])
    assert summary.warnings == CONTENT.SUMMARY["warnings"]
    assert isinstance(summary.created_at, datetime)
    _check_side(store, conversations, version)
    _check_assistants(store, version)


def _check_assistants(store: TurnlogStore, version: int) -> None:
    """Assistants: none before their step, else the fixture's one with its own file."""
    found = store.assistants.list()
    if not _made_with(version, "assistants"):
        assert found == []
        return
    expected = CONTENT.ASSISTANT
    (assistant,) = found
    setup = assistant.setup
    assert (setup.name, setup.icon, setup.system_prompt, setup.model, setup.temperature,
            setup.pins, [(n.text, n.priority) for n in setup.notes], setup.tools) == (
        expected["name"], expected["icon"], expected["system_prompt"], expected["model"],
        expected["temperature"], expected["pins"], list(expected["notes"]), expected["tools"])
    (file,) = store.assistants.files(assistant.id)
    assert (file.name, file.original) == expected["file"]
    # V_ASSISTANT_FOLDER: an assistant made before it has no folder; from it on, the
    # fixture's is in the first folder.
    in_folder = _made_with_column(version, "assistants", "folder_id")
    assert setup.folder == (CONTENT.ASSISTANT_FOLDER if in_folder else "")


def _check_folders(store: TurnlogStore, conversations, version: int) -> None:
    """Folders and stars: none before their step (every conversation out of any folder,
    none starred), else the fixture's, the starred conversation listed first."""
    if not _made_with(version, "folders"):
        assert store.folders() == []
        assert [(c.folder_id, c.starred) for c in conversations] == \
            [(None, False)] * len(conversations)
        return
    expected = CONTENT.FOLDERS
    folders = store.folders()
    assert sorted(f.name for f in folders) == sorted(expected["folders"])
    by_name = {f.name: f for f in folders}
    for index, conversation in enumerate(conversations):
        folder = expected["in"].get(index)
        assert conversation.folder_id == (
            None if folder is None else by_name[expected["folders"][folder]].id)
        assert conversation.starred == (index in expected["starred"])
    assert store.conversations()[0].id == conversations[expected["starred"][0]].id


def _check_attachment(store: TurnlogStore, turn, conversations) -> None:
    """The fixture's GBK file: with its turn, its text as sent and its original as it was;
    the same file on a draft of another conversation, one blob for both."""
    expected = CONTENT.ATTACHMENT
    assert (turn.id, turn.question, turn.answer) == expected["turn"][:3]
    (file,) = turn.attachments
    assert (file.name, file.text, file.encoding) == (
        expected["name"], expected["text"], expected["encoding"])
    assert store.attachments.original(file.digest) == expected["original"]
    (drafted,) = store.attachments.of_draft(conversations[expected["draft"]].id)
    assert (drafted.digest, drafted.original) == (file.digest, expected["original"])


def _made_with(version: int, table: str) -> bool:
    return _made_with_side_questions(version, table)


def _made_with_column(version: int, table: str, column: str) -> bool:
    con = sqlite3.connect(f"file:{FIXTURES[version]}?immutable=1", uri=True)
    try:
        return any(row[1] == column for row in con.execute(f'PRAGMA table_info("{table}")'))
    finally:
        con.close()


def _made_with_side_questions(version: int, table: str = "side_questions") -> bool:
    con = sqlite3.connect(f"file:{FIXTURES[version]}?immutable=1", uri=True)
    try:
        return bool(con.execute("SELECT 1 FROM sqlite_master WHERE name = ?", (table,))
                    .fetchone())
    finally:
        con.close()


def _check_side(store: TurnlogStore, conversations, version: int) -> None:
    """Side questions: none in a database made before they existed (the step adds an empty
    table), else the fixture's one, intact."""
    sides = store.side.of(conversations[CONTENT.SIDE["conversation"]].id)
    if not _made_with_side_questions(version):
        assert sides == []
        return
    (side,) = sides
    assert (side.id, side.question, side.answer, side.model, side.usage, side.sent) == (
        CONTENT.SIDE["id"], CONTENT.SIDE["question"], CONTENT.SIDE["answer"],
        CONTENT.SIDE["model"], Usage(*CONTENT.SIDE["usage"]), CONTENT.SIDE["sent"])
    assert side.created_at == CONTENT.STAMP
    _check_side_attempts(store, conversations, version)


def _check_side_attempts(store: TurnlogStore, conversations, version: int) -> None:
    """Failed side requests' usage: none before the step that keeps it, else the fixture's."""
    attempts = store.side.attempts(conversations[CONTENT.SIDE["conversation"]].id)
    if not _made_with_side_questions(version, "side_attempts"):
        assert attempts == []
        return
    (attempt,) = attempts
    expected = CONTENT.SIDE_ATTEMPT
    assert (attempt.outcome, attempt.model, attempt.usage, attempt.carried) == (
        expected["outcome"], expected["model"], Usage(*expected["usage"]), expected["carried"])
    assert attempt.created_at == CONTENT.STAMP


@pytest.mark.parametrize("version", sorted(FIXTURES))
def test_released_database_upgrades_with_everything_intact(tmp_path, version, caplog,
                                                           monkeypatch):
    home = fixture_home(tmp_path, version)
    db_path = home / "turnlog.sqlite3"
    before = dump(db_path)
    old_columns = column_names(FIXTURES[version])
    seen = []
    real_migrate = upgrade.migrate

    def watched(db, steps, progress=None):
        copy = upgrade.copy_path(db_path, version)
        seen.append((copy.exists(), copy.stat().st_mode & 0o777 if copy.exists() else None,
                     dump(copy, list(before))))
        return real_migrate(db, steps, progress)

    monkeypatch.setattr(upgrade, "migrate", watched)
    caplog.set_level(logging.INFO, logger="turnlog.store.upgrade")
    with TurnlogStore.open(home) as store:
        assert store.db.execute_sql("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        _check_content(store, version)
    if version < SCHEMA_VERSION:
        # The copy existed while the upgrade ran: private, with every row of the old file.
        assert seen == [(True, 0o600, before)]
        assert f"Copied turnlog.sqlite3 to turnlog.sqlite3.before-v{version}" in caplog.text
    else:
        assert seen == [] and "Copied" not in caplog.text
    assert not upgrade.copies(db_path)
    kept = derived_apart(before)
    assert journal_grown(dump(db_path, list(kept), old_columns), kept) == kept
    with TurnlogStore.open(home) as store:  # the search index, rebuilt, finds every turn
        assert {h.turn_id for h in store.search("香山")} == {"fx-zh-1"}
        assert {h.turn_id for h in store.search("directions")} == {"fx-rtl-3"}
    upgraded = len(seen)

    caplog.clear()
    with TurnlogStore.open(home) as store:  # already current: no upgrade, no copy
        _check_content(store, version)
    assert len(seen) == upgraded
    assert "Copied" not in caplog.text
    assert not upgrade.copies(db_path)


def _open_raw(path: Path) -> peewee.SqliteDatabase:
    db = peewee.SqliteDatabase(str(path), pragmas=PRAGMAS)
    db.connect()
    return db


ADD_PINNED = ('ALTER TABLE "turns" ADD COLUMN "pinned" INTEGER NOT NULL DEFAULT 0',)


@pytest.mark.parametrize("version", [None, *FIXTURES])
def test_a_step_that_adds_a_column_works_on_new_and_old_databases(tmp_path, version):
    """The first step that adds a column (before: "duplicate column name" on every new
    install, because v1 was made from model classes that already had it)."""
    home = fixture_home(tmp_path, version) if version else tmp_path
    db_path = home / "turnlog.sqlite3"
    before = dump(db_path) if version else {}
    db = _open_raw(db_path)
    try:
        assert upgrade.bring_up_to_date(db, db_path, [*MIGRATIONS, ADD_PINNED]) == (version or 0)
        columns = [r[1] for r in db.execute_sql('PRAGMA table_info("turns")')]
        assert columns[-1] == "pinned"
        assert db.execute_sql("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS) + 1
    finally:
        db.close()
    before = derived_apart(before)
    if version:  # every old column of every table comes through unchanged
        assert journal_grown(dump(db_path, list(before), column_names(FIXTURES[version])),
                             before) == before
    assert not upgrade.copies(db_path)


@pytest.mark.parametrize("version", sorted(v for v in FIXTURES if v < 10))
def test_turns_before_incomplete_ones_existed_are_complete_and_titles_were_the_user_s(
        tmp_path, version):
    """V_INCOMPLETE_TITLES: an older database's turns are all complete (no reason) and its
    titles stay as they were, never remade from a first question."""
    home = fixture_home(tmp_path, version)
    with TurnlogStore.open(home) as store:
        incomplete = store.db.execute_sql('SELECT DISTINCT "incomplete" FROM "turns"').fetchall()
        sources = store.db.execute_sql(
            'SELECT DISTINCT "title_source" FROM "conversations"').fetchall()
    assert incomplete == [(None,)]
    assert sources == [("user",)]


def test_upgrade_that_loses_rows_keeps_the_copy_and_says_where(tmp_path):
    home = fixture_home(tmp_path, 2)
    db_path = home / "turnlog.sqlite3"
    before = dump(db_path)
    db = _open_raw(db_path)
    try:
        with pytest.raises(UpgradeFailed) as info:
            upgrade.bring_up_to_date(db, db_path, [*MIGRATIONS, ("DELETE FROM requests",)])
    finally:
        db.close()
    copy = home / "turnlog.sqlite3.before-v2"
    assert info.value.backup == str(copy)
    assert str(copy) in str(info.value) and "requests had 1 rows, now 0" in str(info.value)
    assert copy.stat().st_mode & 0o777 == 0o600
    assert dump(copy) == before
    assert not Path(f"{copy}-wal").exists() and not Path(f"{copy}-journal").exists()


def test_a_broken_step_is_a_bug_and_leaves_the_old_file_and_its_copy(tmp_path):
    home = fixture_home(tmp_path, 1)
    db_path = home / "turnlog.sqlite3"
    before = dump(db_path)
    db = _open_raw(db_path)
    try:
        with pytest.raises(peewee.OperationalError) as info:
            upgrade.bring_up_to_date(db, db_path, [*MIGRATIONS, ("SELECT nope FROM turns",)])
        assert db.execute_sql("PRAGMA user_version").fetchone()[0] == 1
    finally:
        db.close()
    copy = home / "turnlog.sqlite3.before-v1"
    assert any(str(copy) in note for note in info.value.__notes__)
    assert dump(copy) == before
    assert dump(db_path) == before


def test_tables_without_a_schema_version_are_not_taken_for_turnlog(turnlog_home):
    con = sqlite3.connect(turnlog_home / "turnlog.sqlite3")
    con.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
    con.execute("INSERT INTO notes (text) VALUES ('someone else''s data')")
    con.commit()
    con.close()
    with pytest.raises(DatabaseCorrupt, match="not a Turnlog database"):
        TurnlogStore.open(turnlog_home)
    con = sqlite3.connect(turnlog_home / "turnlog.sqlite3")
    assert con.execute("SELECT text FROM notes").fetchall() == [("someone else's data",)]
    con.close()


def test_the_copy_includes_what_was_still_in_the_wal(tmp_path, monkeypatch):
    """An older Turnlog that stopped without a checkpoint leaves committed turns only in
    `-wal`: the copy made before the upgrade must hold them too."""
    source = fixture_home(tmp_path, 1) / "turnlog.sqlite3"
    writer = sqlite3.connect(source, isolation_level=None)
    writer.execute("PRAGMA wal_autocheckpoint = 0")
    writer.execute("INSERT INTO turns VALUES ('fx-wal', 1, 3, 'WAL-ONLY 🦉 سؤال', 'answer', "
                   "'qwen2.5', 'stop', '2026-11-02T09:30:15.123456+00:00', NULL)")
    home = tmp_path / "crashed"
    home.mkdir()
    for suffix in ("", "-wal"):  # as a crash leaves them: the turn is only in -wal
        shutil.copyfile(f"{source}{suffix}", home / f"turnlog.sqlite3{suffix}")
    writer.close()
    assert b"WAL-ONLY" not in (home / "turnlog.sqlite3").read_bytes()
    copies_seen = []
    real_migrate = upgrade.migrate

    def watched(db, steps, progress=None):
        copy = upgrade.copy_path(home / "turnlog.sqlite3", 1)
        copies_seen.append(dump(copy, ["turns"])["turns"])
        assert not Path(f"{copy}-wal").exists()
        return real_migrate(db, steps, progress)

    monkeypatch.setattr(upgrade, "migrate", watched)
    with TurnlogStore.open(home) as store:
        assert store.turns.get("fx-wal")[1].question == "WAL-ONLY 🦉 سؤال"
    assert [row[0] for row in copies_seen[0]] == ["fx-rtl-1", "fx-rtl-2", "fx-rtl-3", "fx-wal",
                                                  "fx-zh-1", "fx-zh-2"]


def test_conversations_imported_from_chatgpt_before_v11_send_with_the_profile_s_model(
        tmp_path):
    """V_SOURCE_MODEL: a conversation a ChatGPT import made (its turns' ids are UUID
    version 5) keeps the model it had there as provenance and names none of its own; one
    made here keeps its model."""
    import uuid

    from turnlog.core.search import index_text as search_text

    home = fixture_home(tmp_path, 10)
    con = sqlite3.connect(home / "turnlog.sqlite3")
    con.create_function("turnlog_search_text_v1", 1, search_text, deterministic=True)
    con.execute("INSERT INTO conversations (title, system_prompt, model, settings, "
                "created_at, updated_at, next_ordinal, generation) VALUES "
                "('Trip', '', 'gpt-4o', '{}', '2026-01-01T00:00:00+00:00', "
                "'2026-01-01T00:00:00+00:00', 2, 0)")
    (imported,) = con.execute("SELECT max(id) FROM conversations").fetchone()
    con.execute("INSERT INTO turns (conversation_id, id, ordinal, question, answer, model, "
                "finish_reason, created_at) VALUES (?, ?, 1, 'q', 'a', 'gpt-4o', 'stop', "
                "'2026-01-01T00:00:00+00:00')",
                (imported, uuid.uuid5(uuid.NAMESPACE_URL, "chatgpt/x").hex))
    con.execute("INSERT INTO conversations (title, system_prompt, model, settings, "
                "created_at, updated_at, next_ordinal, generation) VALUES "
                "('Trip fork', '', 'gpt-4o', '{}', '2026-01-01T00:00:00+00:00', "
                "'2026-01-01T00:00:00+00:00', 1, 0)")
    (fork,) = con.execute("SELECT max(id) FROM conversations").fetchone()
    con.execute("INSERT INTO forks (conversation_id, source_id, at_ordinal) VALUES (?, ?, 1)",
                (fork, imported))
    con.commit()
    con.close()
    with TurnlogStore.open(home) as store:
        trip = store.conversations.get(imported)
        forked = store.conversations.get(fork)
        made_here = [c for c in store.conversations() if c.id not in (imported, fork)]
    assert (trip.model, trip.source, trip.source_model) == ("", "chatgpt", "gpt-4o")
    assert (forked.model, forked.source, forked.source_model) == ("", "chatgpt", "gpt-4o")
    assert {c.model for c in made_here} == {"qwen2.5", "llama3"}
    assert {c.source for c in made_here} == {""}


@pytest.mark.parametrize("version", sorted(FIXTURES))
def test_a_turn_s_tool_exchange_comes_through_upgrades_and_turns_before_had_none(
        tmp_path, version):
    """V_TOOLS: turns of databases made before it have no tool exchange; from it on, a
    turn's rounds (calls and results in order, who allowed them) and the full result of a
    call cut for sending are read back as they were committed."""
    from turnlog.store.migrations import V_TOOLS

    home = fixture_home(tmp_path, version)
    store = TurnlogStore.open(home)
    try:
        turns = {t.id: t for c in store.conversations() for t in store.turns(c.id)}
        with_tools = {turn_id for turn_id, turn in turns.items() if turn.tools}
        if version < MIGRATIONS.index(V_TOOLS) + 1:
            assert with_tools == set()
            return
        spec = CONTENT.TOOLS
        assert with_tools == {spec["turn"]}
        (tool_round,) = turns[spec["turn"]].tools
        assert tool_round.content == spec["content"]
        assert [(c.id, c.name, c.arguments, r.content, r.is_error, r.duration_s,
                 r.approval.value, r.cut_bytes) for c, r in tool_round.pairs()] == [
            tuple(call) for call in spec["calls"]]
        assert store.turns.tool_result(spec["turn"], "call_2") == spec["full"]["call_2"]
        assert store.turns.tool_result(spec["turn"], "call_1") is None
    finally:
        store.close()


@pytest.mark.parametrize("version", sorted(FIXTURES))
def test_records_of_body_format_1_keep_verifying_and_older_ones_are_not_verifiable(
        tmp_path, version):
    """V_RECORD_PROOFS: a record made before it shows what can be rebuilt, labelled not
    verifiable; the fixture's format-1 records, rebuilt by today's code, hash to the
    SHA-256 kept when they were made (a builder change that breaks this bumps the format)."""
    from turnlog.core.proof import NOT_VERIFIABLE
    from turnlog.service.request_body import rebuild

    home = fixture_home(tmp_path, version)
    with TurnlogStore.open(home) as store:
        # (The priced records of the usage version on carry no proof: left out here.)
        ids = [i for (i,) in store.db.execute_sql(
            "SELECT id FROM requests WHERE profile = '' ORDER BY id")]
        shown = [rebuild(store.records.sources(i)) for i in ids]
    first, *proven = shown
    assert first.why == NOT_VERIFIABLE and first.body is None and not first.verified
    assert first.marks["sent verbatim"] == [(1, 2)]
    if not _made_with(version, "kept_texts"):
        assert proven == []
        return
    assert len(proven) == 2
    for rebuilt in proven:
        assert rebuilt.why == "" and rebuilt.verified, rebuilt.why
        assert rebuilt.sha256 == rebuilt.stored_sha256
    with_tools, with_summary = (json.loads(r.body) for r in proven)
    assert with_tools["seed"] == CONTENT.PROVEN["seed"]
    assert [t["function"]["name"] for t in with_tools["tools"]] == ["echo"]
    assert any("清单.txt" in str(m["content"]) for m in with_tools["messages"])
    assert any(m.get("tool_calls") for m in with_tools["messages"])
    assert CONTENT.SUMMARY["content"] in with_summary["messages"][2]["content"]


@pytest.mark.parametrize("version", [v for v in sorted(FIXTURES) if 21 <= v < 23])
def test_a_sync_after_the_upgrade_finds_each_turn_by_its_row_number(tmp_path, version):
    """Schema step 23: the turns journaled before it carry their row number after it, and
    the first sync's records of them are the ones the store builds for each turn."""
    home = fixture_home(tmp_path, version)
    with TurnlogStore.open(home) as store:
        rows = store.db.execute_sql(
            'SELECT j."gid", j."turn_row", t."rowid" FROM "sync_journal" j LEFT JOIN "turns" t '
            'ON t."id" = j."gid" WHERE j."kind" = \'turn\' AND j."origin" IS NULL').fetchall()
        assert rows and all(row == found for _g, row, found in rows)
        feed = store.sync_feed
        found, _after = feed.outgoing_json(0, 10_000)
        turns = [o for o in found if o.kind == "turn"]
        assert {o.id for o in turns} == {gid for gid, _r, _f in rows}
        for outgoing in turns:
            record = json.loads(outgoing.json)
            built = feed._turn_record(outgoing.id)
            assert {k: record[k] for k in built} == built
