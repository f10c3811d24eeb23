"""`turnlog-cli sync setup | now | status | forget | passphrase` in child processes, two data
directories syncing through one folder, the key in a real Secret Service keyring; and kill -9
of `sync now` at random points of writing, reading and compaction.

Each child's sync feed comes from `sync_lists.FEEDS` (tests/support/sync_child.py)."""

from __future__ import annotations

import json
import os
import random

import pytest

from sync_cli_runs import KillRuns, feed_of, keys_of, run, setup
from sync_lists import FEEDS

pytestmark = pytest.mark.keyring
KILL_RUNS = int(os.environ.get("TURNLOG_SYNC_KILL_RUNS", "50"))


@pytest.fixture(params=sorted(FEEDS))
def feed_name(request):
    return request.param


def test_setup_now_status_through_the_cli(tmp_path, secret_service, feed_name):
    storage = tmp_path / "Sync"
    storage.mkdir()
    a, b = tmp_path / "a", tmp_path / "b"
    made = setup(a, storage, "laptop", feed=feed_name)
    assert made.returncode == 0, made.stderr
    assert "cannot be recovered" in made.stdout
    # The passphrase is nowhere on disk; the key is in the keyring.
    for path in [*a.rglob("*"), *storage.rglob("*")]:
        if path.is_file():
            assert b"tulips in autumn" not in path.read_bytes(), path
    assert keys_of(a).by_id
    refused = setup(b, storage, "office-pc", b"not it", feed=feed_name)
    assert refused.returncode == 1 and "wrong_passphrase" in refused.stderr
    assert not (b / "sync.sqlite3").exists()
    assert setup(b, storage, "office-pc", feed=feed_name).returncode == 0
    log = feed_of(a, feed_name)
    conv = log.new_conversation("Garden")
    log.add_turn(conv, "When?", "Autumn.")
    log.close()
    up = run(a, "sync", "now", "--json", feed=feed_name)
    assert up.returncode == 0, up.stderr
    assert json.loads(up.stdout)["published_records"] == 2
    down = run(b, "sync", "now", feed=feed_name)
    assert down.returncode == 0, down.stderr
    assert "down: 2 from laptop" in down.stdout
    log = feed_of(b, feed_name)
    log.delete_everywhere(conv)
    log.close()
    assert run(b, "sync", "now", feed=feed_name).returncode == 0
    shown = run(b, "sync", "status", feed=feed_name)
    assert shown.returncode == 0, shown.stderr
    assert "pending delete: 1 conversation, 1 turn, deleted" in shown.stdout
    assert "laptop has not synced since" in shown.stdout
    assert "Garden" not in shown.stdout and "Autumn" not in shown.stdout
    assert run(a, "sync", "now", feed=feed_name).returncode == 0
    assert run(b, "sync", "now", feed=feed_name).returncode == 0
    status = json.loads(run(b, "sync", "status", "--json", feed=feed_name).stdout)
    assert status["pending_deletes"] == []
    assert [m["name"] for m in status["machines"]] == ["laptop"]


def test_forget_and_passphrase_through_the_cli(tmp_path, secret_service):
    storage = tmp_path / "Sync"
    storage.mkdir()
    a, b = tmp_path / "a", tmp_path / "b"
    assert setup(a, storage, "laptop").returncode == 0
    assert setup(b, storage, "old-pc").returncode == 0
    log = feed_of(b, "lists")
    log.add_turn(log.new_conversation("t"), "q", "OLD-PC-TEXT")
    log.close()
    assert run(b, "sync", "now").returncode == 0
    assert run(a, "sync", "now").returncode == 0
    forgot = run(a, "sync", "forget", "old-pc")
    assert forgot.returncode == 0, forgot.stderr
    assert "2 change(s)" in forgot.stdout
    new = tmp_path / "new-pass"
    new.write_text("a longer passphrase now\n")
    changed = run(a, "sync", "passphrase", "--passphrase-file", str(new))
    assert changed.returncode == 0, changed.stderr
    assert run(a, "sync", "now").returncode == 0
    c = tmp_path / "c"
    assert setup(c, storage, "new-pc", b"tulips in autumn").returncode == 1
    assert setup(c, storage, "new-pc", b"a longer passphrase now").returncode == 0
    assert run(c, "sync", "now").returncode == 0
    log = feed_of(c, "lists")
    assert "OLD-PC-TEXT" in json.dumps(log.dump())
    log.close()


def test_kill_9_at_random_points_of_a_sync_loses_nothing_and_doubles_nothing(
        tmp_path, secret_service, feed_name):
    runs = KillRuns(tmp_path, feed_name, random.Random(44))
    for _ in range(KILL_RUNS):
        runs.one()
    assert runs.killed >= KILL_RUNS // 3  # most points are reached; a kill lands in a third
    runs.settle_and_check()


def test_status_names_a_gap_until_it_is_filled(tmp_path, secret_service):
    storage = tmp_path / "Sync"
    storage.mkdir()
    a, b = tmp_path / "a", tmp_path / "b"
    assert setup(a, storage, "laptop").returncode == 0
    assert setup(b, storage, "office-pc").returncode == 0
    for text in ("first", "second"):
        log = feed_of(a, "lists")
        log.new_conversation(text)
        log.close()
        assert run(a, "sync", "now").returncode == 0
    (first, second) = sorted((storage / "turnlog-sync").glob("*/*.tlo"))
    held = first.read_bytes()
    first.unlink()
    assert run(b, "sync", "now").returncode == 0
    shown = run(b, "sync", "status").stdout
    assert "waiting for its object 1" in shown, shown
    first.write_bytes(held)
    assert run(b, "sync", "now").returncode == 0
    status = json.loads(run(b, "sync", "status", "--json").stdout)
    assert status["waiting"] == [] and status["problems"] == []
    log = feed_of(b, "lists")
    assert sorted(c["title"] for c in log.dump().values()) == ["first", "second"]
    log.close()
