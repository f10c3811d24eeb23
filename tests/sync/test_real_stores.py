"""Sync between real data directories (`TurnlogStore.open(home)` and its own feed) through one
storage folder: a fork made by appends on two machines at once is the same on both, and a
delete everywhere leaves no text of what it deleted on any machine, in what the forks hold
too, nor in any live object opened with the passphrase."""

from __future__ import annotations

import pytest

from sync_lists import StoreFeed
from sync_machines import live_plaintexts, make_machine

SECRET = "SECRET-the-gate-code-4417"


@pytest.fixture
def pair(tmp_path):
    storage = tmp_path / "Sync"
    machines = [make_machine(tmp_path, name, storage, StoreFeed) for name in ("laptop", "desk")]
    yield machines
    for machine in machines:
        machine.close()


def _sync_all(machines, rounds: int = 2) -> None:
    for _ in range(rounds):
        for machine in machines:
            report = machine.sync()
            assert report.problems == [], report.problems


def _forked(pair) -> str:
    """A conversation with a first turn holding SECRET, then a turn each machine appended
    after it before hearing of the other's: one of them goes to a fork."""
    a, b = pair
    conv = a.feed.new_conversation("Gate")
    a.feed.add_turn(conv, f"remember {SECRET}", "noted")
    _sync_all(pair)
    a.feed.add_turn(conv, "asked on the laptop", "yes")
    b.feed.add_turn(conv, "asked on the desk", "no")
    _sync_all(pair)
    return conv


def _held(machine) -> bytes:
    machine.feed.checkpoint()
    return machine.feed.file_bytes()


def test_a_fork_made_by_two_machines_appending_at_once_is_the_same_on_both(pair):
    _forked(pair)
    a, b = pair
    dumps = [a.feed.dump(), b.feed.dump()]
    forks = [c for c in dumps[0].values() if c["fork"]]
    assert len(forks) == 1
    assert dumps[0] == dumps[1]  # the fork says it continued on the same machine on both


def test_a_delete_everywhere_takes_the_fork_sync_made_along_on_every_machine(pair):
    conv = _forked(pair)
    a, b = pair
    a.feed.delete_everywhere(conv)
    _sync_all(pair)
    assert a.feed.dump() == b.feed.dump() == {}
    for machine in pair:
        assert SECRET.encode() not in _held(machine)
        assert b"asked on the desk" not in _held(machine)
    opened = b"".join(live_plaintexts(a.folder, a.keys))
    assert SECRET.encode() not in opened and b"asked on the" not in opened


def test_a_turn_deleted_everywhere_leaves_no_copy_in_a_fork(pair):
    conv = _forked(pair)
    a, b = pair
    first = next(t for t, (q, _a, _m) in a.feed.dump()[conv]["turns"].items() if SECRET in q)
    a.feed.store.sync_feed.delete_turn(first, everywhere=True)
    _sync_all(pair)
    assert a.feed.dump() == b.feed.dump()
    for machine in pair:
        assert SECRET.encode() not in _held(machine), machine.name
    assert SECRET.encode() not in b"".join(live_plaintexts(a.folder, a.keys))
