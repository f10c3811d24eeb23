"""Two and three machines, each with a storage folder of its own that a lagging sync program
copies between (late, out of order, first as partial temporary files, removals late too):
over random interleavings of appends, versions, renames, deletes (everywhere and on this
machine only), syncs and the program's steps, every machine ends with the same log once the
program has caught up (but for what one deleted on itself only), and no text deleted
everywhere stays in any machine's files (scanned after the store's checkpoint) nor in any
live object opened with the passphrase. Run over real data directories (`store`) and over
the list-shaped second implementation of the seam (`lists`, which has no versions)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lagging_folder import LaggingSync
from sync_lists import FEEDS
from sync_machines import live_plaintexts, make_machine
from turnlog.core.failures import StoreError

ACTS = st.lists(st.tuples(st.sampled_from(["append", "append", "new", "rename", "delete",
                                           "here", "version", "sync", "sync", "copy", "copy",
                                           "copy"]),
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
        self.here: set[str] = set()  # conversations some machine deleted on itself only
        self.here_by: dict[int, set[str]] = {}
        self.gone: set[str] = set()  # conversations deleted everywhere

    def act(self, what: str, who: int, salt: int) -> None:
        machine = self.machines[who % len(self.machines)]
        convs = sorted(machine.feed.dump())
        if what == "version" and not hasattr(machine.feed, "add_version"):
            what = "append"
        if what == "version" and any(machine.feed.dump()[c]["turns"] for c in convs):
            conv = next(c for c in convs[salt % len(convs):] + convs
                        if machine.feed.dump()[c]["turns"])
            turns = sorted(machine.feed.dump()[conv]["turns"])
            text = f"VERSION-{salt:x}-{len(self.texts.get(conv, []))}."
            try:
                machine.feed.add_version(conv, turns[salt % len(turns)], text,
                                         f"ANSWER-{salt:x}")
            except StoreError:
                return  # refused, as the window's is: only the newest turn gets a version
            self.texts.setdefault(conv, []).append(text)
            return
        if what == "version":
            what = "append"
        if what == "new" or (what in ("append", "rename", "delete", "here") and not convs):
            conv = machine.feed.new_conversation(f"TITLE-{salt:x}.")
            self.texts[conv] = [f"TITLE-{salt:x}."]
        elif what == "append":
            conv = convs[salt % len(convs)]
            text = f"TURN-{salt:x}-{len(self.texts.get(conv, []))}."
            machine.feed.add_turn(conv, text, f"ANSWER-{salt:x}")
            self.texts.setdefault(conv, []).append(text)
        elif what == "rename":
            conv = convs[salt % len(convs)]
            machine.feed.rename(conv, f"RENAMED-{salt:x}.")
            self.texts.setdefault(conv, []).append(f"RENAMED-{salt:x}.")
        elif what == "delete":
            conv = convs[salt % len(convs)]
            machine.feed.delete_everywhere(conv)
            self.gone.add(conv)
        elif what == "here":
            conv = convs[salt % len(convs)]
            machine.feed.delete_here(conv)
            self.here.add(conv)
            self.here_by.setdefault(who % len(self.machines), set()).add(conv)
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

    def deleted_texts(self) -> set[str]:
        """Every text of what was deleted everywhere that no conversation still holds (two
        acts may plant the same text)."""
        kept = {t for conv, texts in self.texts.items() if conv not in self.gone
                for t in texts}
        return {t for conv in self.gone for t in self.texts.get(conv, [])} - kept

    def without_here(self, dump: dict) -> dict:
        """The log but for what a machine deleted on itself only (and the forks sync made
        of it: the others keep them), which stays on the other machines."""
        if not self.here:
            return dump
        return {c: v for c, v in dump.items() if c not in self.here
                and not (v.get("fork") and v["fork"][0] in (None, *self.here))}

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
        for index, dump in enumerate(dumps):
            assert not set(dump) & world.here_by.get(index, set())
        shared = [world.without_here(d) for d in dumps]
        assert all(d == shared[0] for d in shared), shared
        gone = world.deleted_texts()
        for dump in dumps:
            assert not [t for t in gone if t in str(dump)]
        for root in world.program.folders:
            opened = b"".join(live_plaintexts(world.machines[0].folder.__class__(root),
                                              world.machines[0].keys))
            for text in gone:
                assert text.encode() not in opened, text
        for machine in world.machines:
            if hasattr(machine.feed, "checkpoint"):  # a real data directory's files
                machine.feed.checkpoint()
                held = machine.feed.file_bytes()
                assert not [t for t in gone if t.encode() in held]
    finally:
        world.close()
