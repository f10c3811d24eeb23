"""A world of two or three machines acting at random on their logs and syncing (the
convergence property tests): through folders a lagging sync program copies between, or
through one server."""

from __future__ import annotations

import random
from collections.abc import Callable

from hypothesis import strategies as st

from lagging_folder import LaggingSync
from sync_machines import live_plaintexts, make_machine
from turnlog.core.failures import StoreError
from turnlog.sync.folder import SyncFolder
from turnlog.sync.storage import Storage

ACTS = st.lists(st.tuples(st.sampled_from(["append", "append", "new", "rename", "delete",
                                           "here", "version", "sync", "sync", "copy", "copy",
                                           "copy"]),
                          st.integers(0, 2), st.integers(0, 2**20)),
                min_size=5, max_size=40)


class World:
    """Machines acting at random. Each has a storage folder of its own that a lagging sync
    program copies between; or, given `storage` (a function that opens one server's
    storage), they share that server and the program's steps do nothing."""

    def __init__(self, tmp, count: int, feed_factory, seed: int,
                 storage: Callable[[], Storage] | None = None) -> None:
        self.rng = random.Random(seed)
        roots = [] if storage else [tmp / f"storage-{i}" for i in range(count)]
        self.program = LaggingSync(roots)
        self.storage = storage
        self.machines = []
        for index in range(count):
            self.program.flush()  # the key header has reached this machine's folder
            self.machines.append(make_machine(tmp, f"m{index}", storage or roots[index],
                                              feed_factory))
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
        elif self.program.folders:
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

    def check_converged(self) -> None:
        """The same log everywhere (but what one deleted on itself only), and no text
        deleted everywhere in any log, live object or data directory's files."""
        dumps = [m.feed.dump() for m in self.machines]
        for index, dump in enumerate(dumps):
            assert not set(dump) & self.here_by.get(index, set())
        shared = [self.without_here(d) for d in dumps]
        assert all(d == shared[0] for d in shared), shared
        gone = self.deleted_texts()
        for dump in dumps:
            assert not [t for t in gone if t in str(dump)]
        storages = [SyncFolder(root) for root in self.program.folders] or [
            self.machines[0].folder]
        for storage in storages:
            opened = b"".join(live_plaintexts(storage, self.machines[0].keys))
            for text in gone:
                assert text.encode() not in opened, text
        for machine in self.machines:
            if hasattr(machine.feed, "checkpoint"):  # a real data directory's files
                machine.feed.checkpoint()
                held = machine.feed.file_bytes()
                assert not [t for t in gone if t.encode() in held]
