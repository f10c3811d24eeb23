"""`turnlog-cli sync setup` on a machine with no keyring that keeps secrets: refused by name
before anything is written — the sync key is never put in a file instead."""

from __future__ import annotations

import os

from sync_cli_runs import setup


def test_setup_without_a_keyring_is_refused_and_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.fail.Keyring")
    storage = tmp_path / "Sync"
    storage.mkdir()
    home = tmp_path / "home"
    refused = setup(home, storage, "laptop")
    assert refused.returncode == 1
    assert "error: keyring_unavailable:" in refused.stderr and "Traceback" not in refused.stderr
    assert list(storage.rglob("*")) == []
    assert sorted(os.listdir(home)) in ([], ["sync.lock"])
