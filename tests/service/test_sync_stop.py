"""Stop syncing against work that was asked for before it: a sync blocked mid-upload on a
real WebDAV server on 127.0.0.1 is waited for, not refused, and a sync, a status read, a
forget or a passphrase change that found sync set up just before the stop finds it gone
afterwards and never makes the sync state again (a real store, a real keyring)."""

from __future__ import annotations

import os
import threading

import pytest

from sync_servers import PASSWORD, USER, webdav_server
from turnlog.service import sync_runner
from turnlog.service.sync_machines import change_passphrase, forget_machine
from turnlog.service.sync_runner import NOT_SET_UP, SyncFailure, sync_data_directory
from turnlog.service.sync_setup import forget_setup, set_up
from turnlog.service.sync_status import read_status
from turnlog.store import TurnlogStore
from turnlog.sync import state as sync_state
from turnlog.sync.crypto import ENV_LIGHT_KDF
from turnlog.sync.state import STATE_NAME, SyncNotSetUp, SyncState
from turnlog.sync.storage import StorageConfig
from uihelpers import seed

pytestmark = pytest.mark.keyring
os.environ.setdefault(ENV_LIGHT_KDF, "1")
PASSPHRASE = b"correct horse battery staple"


@pytest.fixture
def synced(tmp_path, secret_service):
    """A data directory with a few turns, sync set up on a real WebDAV server."""
    home = tmp_path / "home"
    home.mkdir()
    with webdav_server(tmp_path / "dav") as served:
        set_up(home, StorageConfig("webdav", served.url, user=USER), PASSWORD, PASSPHRASE,
               "laptop")
        store = TurnlogStore.open(home)
        seed(store, "Tulips", [(f"question {index}", f"answer {index}") for index in range(3)])
        try:
            yield home, store, served
        finally:
            store.close()


def _state_files(home) -> list[str]:
    return sorted(p.name for p in home.iterdir() if p.name.startswith(STATE_NAME))


def test_stop_syncing_waits_for_a_sync_blocked_mid_upload_then_removes_the_state(synced):
    home, store, served = synced
    held = served.faults.hold_uploads()
    outcome: dict[str, object] = {}

    def sync() -> None:
        outcome["sync"] = sync_data_directory(store)

    def stop() -> None:
        outcome["stop"] = forget_setup(home)

    syncing = threading.Thread(target=sync)
    syncing.start()
    try:
        assert served.faults.upload_waits.wait(20), "the sync never reached its upload"
        stopping = threading.Thread(target=stop)
        stopping.start()
        stopping.join(0.5)
        assert stopping.is_alive()  # waiting for the sync, not refused as busy
        assert _state_files(home) and read_status(home) is not None
    finally:
        held.set()
        syncing.join(30)
    stopping.join(30)
    assert outcome["sync"].published > 0  # the sync ended whole before the stop
    assert outcome["stop"] is True
    assert _state_files(home) == []
    assert read_status(home) is None
    with pytest.raises(SyncFailure) as failed:
        sync_data_directory(store)  # the window's next sync: nothing to do
    assert failed.value.kind == NOT_SET_UP
    assert _state_files(home) == []


@pytest.mark.parametrize("work", ["sync", "status", "forget", "passphrase"])
def test_work_that_found_sync_set_up_just_before_stop_never_brings_the_state_back(
        synced, monkeypatch, work):
    home, store, _ = synced
    checked, stopped = sync_state.is_sync_set_up, []

    def stop_lands_right_after_the_check(where):
        found = checked(where)
        if found and not stopped:
            stopped.append(where)
            forget_setup(where)  # Stop syncing, between the check and the work
        return found

    monkeypatch.setattr(sync_state, "is_sync_set_up", stop_lands_right_after_the_check)
    if work == "status":
        assert read_status(home) is None
    else:
        run = {"sync": lambda: sync_data_directory(store),
               "forget": lambda: forget_machine(store, "b" * 32),
               "passphrase": lambda: change_passphrase(home, b"roses in May")}[work]
        with pytest.raises(SyncFailure) as failed:
            run()
        assert failed.value.kind == NOT_SET_UP
    monkeypatch.setattr(sync_state, "is_sync_set_up", checked)
    assert stopped == [home]
    assert _state_files(home) == []
    assert not sync_state.is_sync_set_up(home)
    assert sync_runner.storage_of(home) is None


def test_the_sync_state_is_opened_only_where_sync_is_set_up(tmp_path):
    with pytest.raises(SyncNotSetUp):
        SyncState.open(tmp_path)
    assert _state_files(tmp_path) == []
    SyncState.create(tmp_path).close()  # a setup that never finished
    with pytest.raises(SyncNotSetUp):
        SyncState.open(tmp_path)
    assert forget_setup(tmp_path) is False
    assert _state_files(tmp_path) == []
