"""The sync status the window's Settings → Sync shows is what `turnlog-cli sync status
--json` prints, field for field: this machine, its storage, the other machines and their
last syncs, and a delete everywhere that another machine has not read yet, in counts and a
date, with no title in it."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from turnlog.service.sync_runner import sync_data_directory
from turnlog.service.sync_setup import set_up
from turnlog.service.sync_status import read_status
from turnlog.store import TurnlogStore
from turnlog.sync.crypto import ENV_LIGHT_KDF
from turnlog.sync.storage import StorageConfig
from uihelpers import seed

pytestmark = pytest.mark.keyring
TITLE = "Planted: a letter to the landlord"


def status_json(home) -> dict:
    done = subprocess.run([sys.executable, "-m", "turnlog.cli", "sync", "status", "--json"],
                          capture_output=True, timeout=120, text=True,
                          env={**os.environ, "TURNLOG_HOME": str(home)})
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_status_is_the_command_lines_and_names_no_title(tmp_path, secret_service,
                                                            monkeypatch):
    monkeypatch.setenv(ENV_LIGHT_KDF, "1")
    folder, a, b = tmp_path / "Sync", tmp_path / "a", tmp_path / "b"
    for made in (folder, a, b):
        made.mkdir()
    assert read_status(a) is None  # not set up
    with TurnlogStore.open(a) as store:
        planted = seed(store, TITLE, [("Dear Sir,", "Regarding the heating."), ("PS", "Thanks")])
    config = StorageConfig("folder", str(folder))
    set_up(a, config, None, b"passphrase", "laptop")
    set_up(b, config, None, b"passphrase", "office-pc")
    with TurnlogStore.open(a) as store:
        sync_data_directory(store)
    with TurnlogStore.open(b) as store:
        sync_data_directory(store)
    with TurnlogStore.open(a) as store:
        sync_data_directory(store)
        store.sync_feed.delete_conversations([planted.id], everywhere=True)
        sync_data_directory(store)
    status = read_status(a)
    assert status is not None
    assert status.to_json() == {k: v for k, v in status_json(a).items() if k != "set_up"}
    assert [m.name for m in status.machines] == ["office-pc"]
    [pending] = status.pending_deletes
    assert (pending.conversations, pending.turns) == (1, 2)
    assert pending.not_synced_since == ("office-pc",)
    assert TITLE not in json.dumps(status.to_json())
