"""Which storage a machine syncs through: its config as the sync state keeps it (never a
secret), its label for a person, and a state written when a storage was a folder path alone."""

from __future__ import annotations

import sqlite3

import pytest

from turnlog.sync.state import SyncState, is_sync_set_up
from turnlog.sync.storage import StorageConfig, open_storage


def test_a_config_round_trips_through_json_and_its_label_holds_no_secret():
    dav = StorageConfig("webdav", "https://dav.example.com/remote.php/dav/files/me/Turnlog",
                        user="me", ca_file="/etc/ca.pem")
    assert StorageConfig.loads(dav.dumps()) == dav
    assert dav.describe() == "WebDAV · dav.example.com/remote.php/dav/files…"
    s3 = StorageConfig("s3", "https://s3.eu-west-1.amazonaws.com", bucket="notes",
                       prefix="turnlog", user="AKIAEXAMPLE")
    assert StorageConfig.from_json(s3.to_json()) == s3
    assert s3.describe() == "S3 · notes/turnlog on s3.eu-west-1.amazonaws.com"
    assert "AKIAEXAMPLE" not in s3.describe() and "me" not in dav.describe().split("·")[0]
    assert StorageConfig("folder", "/home/me/Sync").describe() == "Folder · /home/me/Sync"
    with pytest.raises(ValueError, match="folder, webdav, s3"):
        StorageConfig("ftp", "ftp://example.com")


def test_a_folder_config_opens_the_folder(tmp_path):
    storage = open_storage(StorageConfig("folder", str(tmp_path)))
    assert not storage.exists()
    storage.create()
    assert storage.exists() and storage.machines() == [] and storage.headers() == []
    assert storage.config == StorageConfig("folder", str(tmp_path))


def test_a_state_that_named_only_a_folder_is_read_as_a_folder_storage(tmp_path):
    con = sqlite3.connect(tmp_path / "sync.sqlite3")
    con.execute("CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    con.executemany("INSERT INTO settings VALUES (?, ?)", [
        ("machine_id", "a" * 32), ("machine_name", "laptop"), ("folder", "/media/Sync"),
        ("key_id", "k"), ("cursor", "7")])
    con.commit()
    con.close()
    assert is_sync_set_up(tmp_path)
    with SyncState.open(tmp_path) as state:
        assert state.storage == StorageConfig("folder", "/media/Sync")
        assert (state.machine_name, state.cursor) == ("laptop", 7)
    with SyncState.open(tmp_path) as state:  # upgraded once, read the same afterwards
        assert state.get("folder") == "" and state.storage.address == "/media/Sync"
    assert is_sync_set_up(tmp_path)


def test_a_state_that_kept_a_row_per_id_finds_the_same_objects_for_a_delete(tmp_path):
    con = sqlite3.connect(tmp_path / "sync.sqlite3")
    con.executescript("""
        CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE own_objects (seq INTEGER PRIMARY KEY, digest TEXT NOT NULL,
            live INTEGER NOT NULL, at TEXT NOT NULL);
        CREATE TABLE own_ids (seq INTEGER NOT NULL, gid TEXT NOT NULL);
        CREATE INDEX own_ids_gid ON own_ids (gid);
        CREATE INDEX own_ids_seq ON own_ids (seq);""")
    con.execute("INSERT INTO settings VALUES ('storage', ?)",
                (StorageConfig("folder", "/media/Sync").dumps(),))
    con.executemany("INSERT INTO own_objects VALUES (?, ?, ?, '')",
                    [(1, "d1", 1), (2, "d2", 0), (3, "d3", 1), (4, "d4", 1)])
    con.executemany("INSERT INTO own_ids VALUES (?, ?)", [
        (1, "conv-a"), (1, "turn-1"), (2, "conv-b"), (3, "conv-b"), (3, "turn-7"),
        (4, "conv-c")])
    con.commit()
    con.close()
    with SyncState.open(tmp_path) as state:
        assert state.objects_holding({"conv-b", "turn-1"}) == [1, 3]  # 2 is not live
        assert state.objects_holding({"turn-7"}) == [3]
        assert state.objects_holding(set()) == [] == state.objects_holding({"conv-z"})
    with SyncState.open(tmp_path) as state:  # upgraded once, read the same afterwards
        assert state.objects_holding({"conv-c", "conv-a"}) == [1, 4]
    con = sqlite3.connect(tmp_path / "sync.sqlite3")
    tables = {row[0] for row in con.execute("SELECT name FROM sqlite_master")}
    con.close()
    assert "own_ids" not in tables and "own_ids_gid" not in tables
