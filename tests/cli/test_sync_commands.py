"""`turnlog-cli sync setup | now | status | forget | passphrase` in child processes, two data
directories syncing through one folder, the key in a real Secret Service keyring; and kill -9
of `sync now` at random points of writing, reading and compaction.

Each child's sync feed comes from `sync_lists.FEEDS` (tests/support/sync_child.py)."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from places import TESTS
from sync_lists import FEEDS
from sync_machines import live_plaintexts, storage_bytes
from turnlog.sync.crypto import ENV_LIGHT_KDF
from turnlog.sync.engine import Keys
from turnlog.sync.folder import SyncFolder
from turnlog.sync.keystore import load_keys

pytestmark = pytest.mark.keyring
CHILD = TESTS / "support" / "sync_child.py"
KILL_RUNS = int(os.environ.get("TURNLOG_SYNC_KILL_RUNS", "50"))


@pytest.fixture(params=sorted(FEEDS))
def feed_name(request):
    return request.param


def run(home: Path, *args: str, feed: str = "lists", input: bytes | None = None,
        kill_at: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "TURNLOG_HOME": str(home), ENV_LIGHT_KDF: "1",
           "TURNLOG_TEST_FEED": feed, "TURNLOG_TEST_KILL_AT": kill_at,
           "PYTHONPATH": str(TESTS / "support")}
    result = subprocess.run([sys.executable, str(CHILD), *args], capture_output=True,
                            input=input, timeout=120, env=env)
    return subprocess.CompletedProcess(result.args, result.returncode,
                                       result.stdout.decode(), result.stderr.decode())


def setup(home: Path, storage: Path, name: str, passphrase: bytes = b"tulips in autumn\n",
          feed: str = "lists") -> subprocess.CompletedProcess[str]:
    home.mkdir(parents=True, exist_ok=True)
    return run(home, "sync", "setup", "--folder", str(storage), "--passphrase-file", "-",
               "--machine", name, input=passphrase, feed=feed)


def feed_of(home: Path, feed: str):
    return FEEDS[feed](home)


def keys_of(home: Path) -> Keys:
    import sqlite3

    con = sqlite3.connect(home / "sync.sqlite3")
    user = con.execute("SELECT value FROM settings WHERE key = 'keyring_user'").fetchone()[0]
    con.close()
    return load_keys(user)


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


def _random_acts(home: Path, rng: random.Random, expected: dict, feed: str) -> None:
    log = feed_of(home, feed)
    try:
        for _ in range(rng.randint(1, 3)):
            act = rng.random()
            if act < 0.15 and expected:
                conv = rng.choice(sorted(expected))
                log.delete_everywhere(conv)
                del expected[conv]
            elif act < 0.5 or not expected:
                conv = log.new_conversation(f"title {rng.random()}")
                expected[conv] = []
            else:
                conv = rng.choice(sorted(expected))
                text = f"TEXT-{rng.getrandbits(40):x} " * rng.randint(1, 400)
                log.add_turn(conv, text, "answer")
                expected[conv].append(text)
    finally:
        log.close()


KILL_POINTS = ["write", "remove", "finish", "applied", "incoming", "outgoing"]


def test_kill_9_at_random_points_of_a_sync_loses_nothing_and_doubles_nothing(
        tmp_path, secret_service, feed_name):
    rng = random.Random(44)
    storage = tmp_path / "Sync"
    storage.mkdir()
    homes = [tmp_path / "a", tmp_path / "b"]
    for index, home in enumerate(homes):
        assert setup(home, storage, f"m{index}", feed=feed_name).returncode == 0
    expected: dict[str, list[str]] = {}
    deleted_texts: list[str] = []
    killed = 0
    for _ in range(KILL_RUNS):
        home = rng.choice(homes)
        before = {c: list(t) for c, t in expected.items()}
        _random_acts(home, rng, expected, feed_name)
        deleted_texts += [t for c in before if c not in expected for t in before[c]]
        point = f"{rng.choice(KILL_POINTS)}:{rng.randint(1, 3)}:{rng.choice(['before', 'after'])}"
        result = run(home, "sync", "now", feed=feed_name, kill_at=point)
        killed += result.returncode == -9
        assert result.returncode in (0, -9), result.stderr
        assert "Traceback" not in result.stderr
    assert killed >= KILL_RUNS // 3
    for home in [*homes, *homes]:
        clean = run(home, "sync", "now", feed=feed_name)
        assert clean.returncode == 0, (clean.stdout, clean.stderr)
    dumps = []
    for home in homes:
        log = feed_of(home, feed_name)
        dumps.append(log.dump())
        log.close()
    assert dumps[0] == dumps[1]
    assert {c: sorted(t[0] for t in d["turns"].values()) for c, d in dumps[0].items()} == {
        c: sorted(t) for c, t in expected.items()}
    texts = b"".join(live_plaintexts(SyncFolder(storage), keys_of(homes[0])))
    for text in deleted_texts:
        assert text.split()[0].encode() not in texts
    assert not any(p.name.startswith(".turnlog-") for p, _ in storage_bytes(storage))
