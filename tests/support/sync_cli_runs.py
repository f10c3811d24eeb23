"""`turnlog-cli sync …` in child processes (tests/support/sync_child.py) against data
directories whose feed is one of `sync_lists.FEEDS`; random acts on a log; kill -9 runs of
`sync now` at chosen points, and the check that everything converged afterwards."""

from __future__ import annotations

import os
import random
import sqlite3
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from places import TESTS
from sync_lists import FEEDS
from sync_machines import live_plaintexts, storage_bytes
from sync_servers import BUCKET, PASSWORD, S3_KEY, S3_SECRET, USER, Served
from turnlog.sync.crypto import ENV_LIGHT_KDF, is_incomplete
from turnlog.sync.engine import Keys
from turnlog.sync.folder import SyncFolder
from turnlog.sync.keystore import load_keys
from turnlog.sync.storage import Storage, StorageConfig, open_storage

CHILD = TESTS / "support" / "sync_child.py"
KILL_POINTS = ["write", "remove", "finish", "applied", "incoming", "outgoing"]


def run(home: Path, *args: str, feed: str = "lists", input: bytes | None = None,
        kill_at: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "TURNLOG_HOME": str(home), ENV_LIGHT_KDF: "1",
           "TURNLOG_TEST_FEED": feed, "TURNLOG_TEST_KILL_AT": kill_at,
           "PYTHONPATH": os.pathsep.join(filter(None, [str(TESTS / "support"),
                                                       os.environ.get("PYTHONPATH")]))}
    result = subprocess.run([sys.executable, str(CHILD), *args], capture_output=True,
                            input=input, timeout=120, env=env)
    return subprocess.CompletedProcess(result.args, result.returncode,
                                       result.stdout.decode(), result.stderr.decode())


def setup(home: Path, storage: Path | list[str], name: str,
          passphrase: bytes = b"tulips in autumn\n",
          feed: str = "lists") -> subprocess.CompletedProcess[str]:
    """`sync setup` of `home` on a folder, or with `storage` as the options that name a
    server (`server_options`)."""
    home.mkdir(parents=True, exist_ok=True)
    where = storage if isinstance(storage, list) else ["--folder", str(storage)]
    return run(home, "sync", "setup", *where, "--passphrase-file", "-",
               "--machine", name, input=passphrase, feed=feed)


def server_options(served: Served, tmp: Path, prefix: str = "cli") -> list[str]:
    """`sync setup`'s options for a test server, its secret in a file under `tmp`."""
    secret = tmp / f"secret-{served.kind}"
    if served.kind == "webdav":
        secret.write_text(PASSWORD + "\n")
        return ["--webdav", served.url, "--user", USER, "--password-file", str(secret)]
    secret.write_text(S3_SECRET + "\n")
    return ["--s3", served.url, "--bucket", BUCKET, "--prefix", prefix, "--access-key",
            S3_KEY, "--secret-file", str(secret)]


def server_storage(served: Served, prefix: str = "cli") -> Storage:
    """The storage `server_options` names, opened here (to look at what it holds)."""
    if served.kind == "webdav":
        return open_storage(StorageConfig("webdav", served.url, user=USER), PASSWORD)
    return open_storage(StorageConfig("s3", served.url, bucket=BUCKET, prefix=prefix,
                                      user=S3_KEY), S3_SECRET)


def stored_objects(storage: Storage) -> list[tuple[str, bytes]]:
    """Every object and file object a storage holds, by name."""
    storage.refresh()
    found = [(f"{m}/{s}", storage.read(m, s) or b"") for m in storage.machines()
             for s in storage.listing(m).objects]
    found += [(f"blobs/{m}/{n}", storage.read_blob(m, n) or b"")
              for m in storage.blob_machines() for n in storage.blob_names(m)]
    found += [(f"keys/{k}", storage.read_header(k) or b"") for _, k in storage.headers()]
    return found


def feed_of(home: Path, feed: str):
    return FEEDS[feed](home)


def texts_by_conversation(dump: dict) -> dict[str, list[str]]:
    """Each conversation's questions, a fork's (a concurrent append "continued on" another
    machine, with copies of the turns before it) counted with the conversation it continues."""
    out: dict[str, set[str]] = {}
    for conv, data in dump.items():
        fork = data.get("fork")
        home = fork[0] if fork and fork[0] in dump else conv
        out.setdefault(home, set()).update(t[0] for t in data["turns"].values())
    return {c: sorted(t) for c, t in out.items()}


def differences(one: dict, other: dict) -> list[str]:
    """Where two machines' logs differ, shortly (ids and what differs, not whole texts)."""
    out = [f"only on one machine: {c} {one.get(c, other.get(c))}"[:300]
           for c in sorted(set(one) ^ set(other))]
    for conv in sorted(set(one) & set(other)):
        a, b = one[conv], other[conv]
        if a != b:
            here, there = set(a["turns"]), set(b["turns"])
            out.append(f"{conv}: title {a['title']!r}/{b['title']!r} fork {a.get('fork')}/"
                       f"{b.get('fork')} turns only here {sorted(here - there)} only there "
                       f"{sorted(there - here)}")
    return out


def keys_of(home: Path) -> Keys:
    con = sqlite3.connect(home / "sync.sqlite3")
    user = con.execute("SELECT value FROM settings WHERE key = 'keyring_user'").fetchone()[0]
    con.close()
    return load_keys(user)


@dataclass
class KillRuns:
    """Two machines sharing a folder, acting at random and syncing under kill -9."""

    tmp: Path
    feed: str
    rng: random.Random
    expected: dict[str, list[str]] = field(default_factory=dict)
    deleted: list[str] = field(default_factory=list)
    planted: list[str] = field(default_factory=list)  # every title, text and model name
    killed: int = 0
    runs: int = 0
    landed: dict[str, list[int]] = field(default_factory=dict)  # point → [killed, runs]

    served: Served | None = None  # a server to sync through, else a folder

    def __post_init__(self) -> None:
        self.storage = self.tmp / "Sync"
        self.storage.mkdir()
        self.homes = [self.tmp / "a", self.tmp / "b"]
        where = server_options(self.served, self.tmp) if self.served else self.storage
        for index, home in enumerate(self.homes):
            made = setup(home, where, f"m{index}", feed=self.feed)
            assert made.returncode == 0, made.stderr

    def act(self, home: Path) -> None:
        log = feed_of(home, self.feed)
        try:
            for _ in range(self.rng.randint(1, 3)):
                roll = self.rng.random()
                known = sorted(set(self.expected) & set(log.dump()))  # what this one holds
                if roll < 0.15 and known:
                    conv = self.rng.choice(known)
                    log.delete_everywhere(conv)
                    self.deleted += self.expected.pop(conv)
                elif roll < 0.5 or not known:
                    title = f"TITLE-{self.rng.getrandbits(40):x}"
                    self.expected[log.new_conversation(title)] = []
                    self.planted.append(title)
                else:
                    conv = self.rng.choice(known)
                    text = f"TEXT-{self.rng.getrandbits(40):x} " * self.rng.randint(1, 400)
                    model = f"MODEL-{self.rng.getrandbits(40):x}"
                    log.add_turn(conv, text, "answer", model=model)
                    self.expected[conv].append(text)
                    self.planted += [text.split()[0], model]
        finally:
            log.close()

    def one(self) -> subprocess.CompletedProcess[str]:
        home = self.rng.choice(self.homes)
        self.act(home)
        point = (f"{self.rng.choice(KILL_POINTS)}:{self.rng.randint(1, 2)}:"
                 f"{self.rng.choice(['before', 'after'])}")
        result = run(home, "sync", "now", feed=self.feed, kill_at=point)
        self.runs += 1
        self.killed += result.returncode == -9
        tally = self.landed.setdefault(point.split(":")[0], [0, 0])
        tally[0] += result.returncode == -9
        tally[1] += 1
        assert result.returncode in (0, -9), result.stderr
        assert "Traceback" not in result.stderr, result.stderr
        return result

    def settle_and_check(self) -> None:
        """Clean syncs until both have read each other; then the same log on both, every
        turn once, no deleted text in a live object, no temporary file left."""
        for home in [*self.homes, *self.homes]:
            clean = run(home, "sync", "now", feed=self.feed)
            assert clean.returncode == 0, (clean.stdout, clean.stderr)
        dumps = []
        for home in self.homes:
            log = feed_of(home, self.feed)
            dumps.append(log.dump())
            log.close()
        assert dumps[0] == dumps[1], differences(*dumps)
        for conversation in dumps[0].values():  # nothing doubled
            questions = [t[0] for t in conversation["turns"].values()]
            assert len(questions) == len(set(questions))
        held = texts_by_conversation(dumps[0])
        wanted = {c: sorted(t) for c, t in self.expected.items()}
        assert held == wanted, [
            (c, [t[:16] for t in held.get(c, ["(none)"])], [t[:16] for t in wanted.get(c, [])],
             dumps[0].get(c, {}).get("fork")) for c in sorted(set(held) | set(wanted))
            if held.get(c) != wanted.get(c)]
        storage = server_storage(self.served) if self.served else SyncFolder(self.storage)
        texts = b"".join(live_plaintexts(storage, keys_of(self.homes[0])))
        for text in self.deleted:
            assert text.split()[0].encode() not in texts, text.split()[0]
        if self.served:
            stored = stored_objects(storage)
            for name, data in stored:  # an upload cut by the kill was written again
                assert name.startswith("keys/") or not is_incomplete(data), name
        else:
            stored = storage_bytes(self.storage)
            assert not any(p.name.startswith(".turnlog-") for p, _ in stored)
        storage.close()
        everything = b"".join(data for _p, data in stored)
        assert self.planted and not [t for t in self.planted if t.encode() in everything]
        for home in self.homes:  # closed: the store checkpointed its log into its file
            held = b"".join(p.read_bytes() for p in home.rglob("*") if p.is_file())
            assert not [t for t in self.deleted if t.split()[0].encode() in held]
