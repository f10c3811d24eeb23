"""Machines of a sync test: each a data directory with a feed (any of `sync_lists.FEEDS`), its
sync state and keys, and a storage folder of its own (a `LaggingSync` copies between them) or
one folder shared by all."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from turnlog.sync.crypto import ENV_LIGHT_KDF, open_sealed
from turnlog.sync.engine import Keys, Report, forget, set_up, sync_now
from turnlog.sync.folder import SyncFolder
from turnlog.sync.payload import parse_payload
from turnlog.sync.state import SyncState
from turnlog.sync.storage import Storage

os.environ.setdefault(ENV_LIGHT_KDF, "1")  # keys derived in milliseconds, not seconds
PASSPHRASE = b"correct horse battery staple"


@dataclass
class Machine:
    name: str
    home: Path
    feed: Any
    folder: Storage
    state: SyncState
    keys: Keys

    def sync(self) -> Report:
        return sync_now(self.feed, self.folder, self.state, self.keys)

    def forget(self, other: Machine) -> int:
        return forget(self.feed, self.folder, self.state, self.keys, other.state.machine_id)

    def close(self) -> None:
        self.state.close()
        self.feed.close()
        self.folder.close()


def make_machine(tmp: Path, name: str, storage: Path | Callable[[], Storage],
                 feed_factory: Callable[[Path], Any],
                 passphrase: bytes = PASSPHRASE) -> Machine:
    """A machine set up on `storage`: a folder, or a function that opens a storage (a
    server's, each machine a connection of its own)."""
    home = tmp / f"home-{name}"
    home.mkdir(parents=True, exist_ok=True)
    feed = feed_factory(home)
    folder = SyncFolder(storage) if isinstance(storage, Path) else storage()
    state = SyncState.create(home)
    keys = set_up(folder, state, passphrase, name, lambda user, keys: None)
    return Machine(name, home, feed, folder, state, keys)


def real_feed(home: Path) -> Any:
    """A real data directory's sync feed (`store.sync_feed`), its store at `feed.store`;
    closing the feed closes the store."""
    from turnlog.store import TurnlogStore

    store = TurnlogStore.open(home / "data")
    feed = store.sync_feed
    feed.store, feed.close = store, store.close
    return feed


def live_plaintexts(folder: Storage, keys: Keys) -> list[bytes]:
    """Every live object of the storage, opened with the passphrase's keys."""
    found = []
    folder.refresh()
    for machine in folder.machines():
        for seq in sorted(folder.listing(machine).objects):
            data = folder.read(machine, seq)
            for key in keys.by_id.values():
                try:
                    found.append(open_sealed(key, machine, seq, data))
                    parse_payload(found[-1], machine, seq)
                    break
                except Exception:  # noqa: BLE001 - another key's object
                    continue
    return found


def storage_bytes(root: Path) -> list[tuple[Path, bytes]]:
    return [(p, p.read_bytes()) for p in sorted(root.rglob("*")) if p.is_file()]
