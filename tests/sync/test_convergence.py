"""Two and three machines, each with a storage folder of its own that a lagging sync program
copies between (late, out of order, first as partial temporary files, removals late too):
over random interleavings of appends, renames, deletes everywhere, syncs and the program's
steps, every machine ends with the same log once the program has caught up, and no live
object opened with the passphrase holds deleted text."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lagging_folder import LaggingSync
from sync_lists import FEEDS
from sync_machines import live_plaintexts, make_machine

ACTS = st.lists(st.tuples(st.sampled_from(["append", "append", "new", "rename", "delete",
                                           "sync", "sync", "copy", "copy", "copy"]),
                          st.integers(0, 2), st.integers(0, 2**20)),
                min_size=5, max_size=40)


class World:
    def __init__(self, tmp, count: int, feed_factory, seed: int) -> None:
        self.rng = random.Random(seed)
        roots = [tmp / f"storage-{i}" for i in range(count)]
        self.program = LaggingSync(roots)
        self.machines = []
        for index, root in enumerate(roots):
            self.program.flush()  # the key header has reached this machine's folder
            self.machines.append(make_machine(tmp, f"m{index}", root, feed_factory))
        self.texts: dict[str, list[str]] = {}
        self.deleted: list[str] = []

    def act(self, what: str, who: int, salt: int) -> None:
        machine = self.machines[who % len(self.machines)]
        convs = sorted(machine.feed.dump())
        if what == "new" or (what in ("append", "rename", "delete") and not convs):
            conv = machine.feed.new_conversation(f"TITLE-{salt:x}")
            self.texts[conv] = [f"TITLE-{salt:x}"]
        elif what == "append":
            conv = convs[salt % len(convs)]
            text = f"TURN-{salt:x}-{len(self.texts.get(conv, []))}"
            machine.feed.add_turn(conv, text, f"ANSWER-{salt:x}")
            self.texts.setdefault(conv, []).append(text)
        elif what == "rename":
            conv = convs[salt % len(convs)]
            machine.feed.rename(conv, f"RENAMED-{salt:x}")
            self.texts.setdefault(conv, []).append(f"RENAMED-{salt:x}")
        elif what == "delete":
            conv = convs[salt % len(convs)]
            machine.feed.delete_everywhere(conv)
            self.deleted.extend(self.texts.get(conv, []))
        elif what == "sync":
            machine.sync()
        else:
            for _ in range(salt % 6 + 1):
                self.program.step(self.rng)

    def settle(self) -> None:
        for _ in range(len(self.machines) + 2):
            for machine in self.machines:
                self.program.flush()
                report = machine.sync()
                assert report.problems == [], report.problems
        self.program.flush()

    def close(self) -> None:
        for machine in self.machines:
            machine.close()


@pytest.mark.parametrize("feed", sorted(FEEDS))
@pytest.mark.parametrize("count", [2, 3])
@settings(max_examples=12, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture,
                                 HealthCheck.too_slow])
@given(acts=ACTS, seed=st.integers(0, 2**16))
def test_machines_converge_through_a_lagging_sync_program(tmp_path_factory, feed, count,
                                                          acts, seed):
    world = World(tmp_path_factory.mktemp("world"), count, FEEDS[feed], seed)
    try:
        for act in acts:
            world.act(*act)
        world.settle()
        dumps = [m.feed.dump() for m in world.machines]
        assert all(d == dumps[0] for d in dumps), dumps
        gone = set(world.deleted) - {t for d in dumps for conv in d.values()
                                     for t in [conv.get("title", "")]}
        for root in world.program.folders:
            opened = b"".join(live_plaintexts(world.machines[0].folder.__class__(root),
                                              world.machines[0].keys))
            for text in gone:
                assert text.encode() not in opened, text
        for dump in dumps:
            assert not any(t in str(dump) for t in gone)
    finally:
        world.close()
