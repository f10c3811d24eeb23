"""What a data directory's sync knows of itself, the other machines and the deletes they
have not read yet: what `turnlog-cli sync status --json` prints and the window's Settings →
Sync page shows. Read from the sync state alone (no storage, no keyring, no network), so
it is quick; pending deletes are counts and dates only, never a title or a text.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..sync.state import Peer, SyncState
    from ..sync.storage import StorageConfig


@dataclass(frozen=True, slots=True)
class MachineSeen:
    """Another machine as this one last read it: its name, when it last wrote an object
    (`last_object`, ISO 8601 UTC, "" when nothing yet), how far this machine read it and it
    this machine's objects; a forgotten machine is listed as such."""

    id: str
    name: str
    last_object: str
    read_up_to: int
    has_read_mine_up_to: int
    forgotten: bool


@dataclass(frozen=True, slots=True)
class PendingDelete:
    """A delete everywhere made here that some machines have not read yet: what it
    removed, in counts, when, and who has not synced since."""

    deleted: str
    conversations: int
    turns: int
    records: int
    not_synced_since: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SyncStatus:
    """This machine, its storage (in words without secrets), its last sync, the other
    machines, the pending deletes, and what the last sync waited for or refused."""

    machine_id: str
    machine_name: str
    storage: StorageConfig
    last_sync: str
    machines: tuple[MachineSeen, ...]
    pending_deletes: tuple[PendingDelete, ...]
    waiting: tuple[str, ...]
    problems: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        """As `turnlog-cli sync status --json` prints it (without its `set_up`)."""
        return {"machine": {"id": self.machine_id, "name": self.machine_name},
                "storage": self.storage.to_json(), "storage_words": self.storage.describe(),
                "last_sync": self.last_sync,
                "machines": [asdict(m) for m in self.machines],
                "pending_deletes": [{**asdict(p), "not_synced_since": list(p.not_synced_since)}
                                    for p in self.pending_deletes],
                "waiting": list(self.waiting), "problems": list(self.problems)}


def read_status(home: Path) -> SyncStatus | None:
    """The sync status of the data directory `home`; None when sync is not set up there."""
    from ..sync.state import SyncNotSetUp, SyncState, is_sync_set_up

    if not is_sync_set_up(home):
        return None
    try:
        with SyncState.open(home) as state:
            return status_of(state)
    except SyncNotSetUp:  # never set up, or stopped (the file is not made again)
        return None


def _label(peer: Peer) -> str:
    return peer.name or peer.machine[:8]


def status_of(state: SyncState) -> SyncStatus:
    """The status an open sync state holds."""
    peers = sorted(state.peers().values(), key=lambda p: p.name)
    live = [p for p in peers if not p.forgotten]
    pending = []
    for seq, at, conversations, turns, records in state.deletes():
        behind = tuple(sorted(_label(p) for p in live if p.read_of_mine < seq))
        if behind:
            pending.append(PendingDelete(at, conversations, turns, records, behind))
    report = state.last_report()
    return SyncStatus(
        state.machine_id, state.machine_name, state.storage, state.get("last_sync"),
        tuple(MachineSeen(p.machine, _label(p), p.last_at, p.frontier, p.read_of_mine,
                          p.forgotten) for p in peers),
        tuple(pending), tuple(report["waiting"]), tuple(report["problems"]))
