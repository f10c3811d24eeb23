"""Random interleavings of appends, versions, renames, pins, summaries and deletes
(everywhere and on one machine) on three stores, exchanged in random order, duplicated, at
random times: at the end every store holds the same log with the same summary in use, and
no store's file holds the text of a turn it no longer has."""

from __future__ import annotations

import json
import random
import tempfile
import uuid
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from sync_stores import dump, file_bytes, open_machines, pending, summarize

NAMES = "ABC"
OPS = ("create", "append", "append", "append", "version", "use_version", "rename", "pin",
       "summarize", "delete_everywhere", "delete_turn_everywhere", "delete_here", "sync", "sync")

steps = st.lists(st.tuples(st.sampled_from(OPS), st.sampled_from(NAMES),
                           st.integers(0, 2**16)), min_size=4, max_size=28)


class Storage:
    """What the wire side keeps in the storage: each machine's records in the order it
    published them, never taken back except by compaction, which drops records about
    what a delete everywhere removed (`deleted()`)."""

    def __init__(self) -> None:
        self.objects: dict[str, list[dict]] = {}
        self.cursors: dict[str, int] = {}

    def publish(self, store) -> None:
        name = store.sync_feed.machine
        while True:
            records, cursor = store.sync_feed.outgoing(self.cursors.get(name, 0), limit=7)
            if cursor == self.cursors.get(name, 0):
                break
            self.cursors[name] = cursor
            self.objects.setdefault(name, []).extend(json.loads(json.dumps(records)))
        gone = store.sync_feed.deleted()
        self.objects[name] = [r for r in self.objects.get(name, [])
                              if r["kind"] == "delete" or not ({r["id"], r["conv"]} & gone)]

    def sync(self, store, others, rng) -> None:
        """`store` publishes, then reads what `others` published (in random order, some
        records twice), as a sync does."""
        self.publish(store)
        batches = {}
        for other in others:
            records = list(self.objects.get(other.sync_feed.machine, []))
            records += rng.sample(records, k=len(records) // 2)
            rng.shuffle(records)
            batches[other.sync_feed.machine] = records
        store.sync_feed.incoming_from(batches)


def _pick(rng, items):
    return rng.choice(items) if items else None


def _act(op, store, machines, seed, tokens, storage):
    rng = random.Random(seed)
    convs = [c.id for c in store.conversations.list()]
    cid = _pick(rng, convs)
    token = f"tok{uuid.uuid4().hex[:12]}"
    if op == "create" or (cid is None and op in ("append", "rename", "pin", "version")):
        conv = store.conversations.create(f"conversation {token}")
        store.turns.commit(conv.id, pending(f"first {token}"))
        tokens.add(f"first {token}")
    elif cid is None:
        return
    elif op == "append":
        store.turns.commit(cid, pending(f"question {token}"))
        tokens.add(f"question {token}")
    elif op in ("version", "use_version"):
        line = store.turns.active(cid)
        if not line:
            return
        if op == "version":
            store.turns.commit(cid, pending(line[-1].question, f"answer {token}",
                                            replaces=line[-1].id))
        else:
            known, members = store.turns.version_members(cid)
            group = [t for t in known.group(line[-1].id) if t != line[-1].id]
            if group:
                store.turns.use_version(rng.choice(group))
    elif op == "rename":
        store.conversations.update(cid, title=f"renamed {token}")
    elif op == "pin":
        store.memory.add_pin(cid, f"pin {token}")
    elif op == "summarize":
        if store.turns.active(cid):
            summarize(store, cid, f"summary {token}")
    elif op == "delete_everywhere":
        store.sync_feed.delete_conversations([cid], everywhere=True)
    elif op == "delete_turn_everywhere":
        turns = store.turns.all(cid)
        if turns:
            store.sync_feed.delete_turn(rng.choice(turns).id, everywhere=True)
    elif op == "delete_here":
        store.sync_feed.delete_conversations([cid], everywhere=False)
    else:
        others = [m for m in machines.values() if m is not store]
        storage.sync(store, rng.sample(others, k=rng.randint(1, len(others))), rng)


def _comparable(store, here_deleted):
    """The dump less what a delete on one machine only keeps out of that machine (and the
    forks of it), which the others legitimately still hold."""
    out = dump(store)
    sources = dict(store.db.execute_sql(
        'SELECT c."gid", s."gid" FROM "forks" f JOIN "conversations" c ON c."id" = '
        'f."conversation_id" LEFT JOIN "conversations" s ON s."id" = f."source_id"').fetchall())
    for gid in list(out):
        chain, seen = gid, set()
        while chain is not None and chain not in seen:
            if chain in here_deleted:
                del out[gid]
                break
            seen.add(chain)
            chain = sources.get(chain)
    return out


# Two machines that each summarize one conversation offline after reading it.
SUMMARIZED_AT_ONCE = [("create", "A", 0), ("sync", "A", 0), ("create", "B", 0),
                      ("sync", "B", 0), ("summarize", "A", 0), ("summarize", "B", 100)]


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=steps)
@example(steps=SUMMARIZED_AT_ONCE)
def test_every_store_converges_and_keeps_no_deleted_text(steps):
    with tempfile.TemporaryDirectory() as root:
        machines = open_machines(Path(root), NAMES)
        tokens: set[str] = set()
        storage = Storage()
        try:
            for op, name, seed in steps:
                _act(op, machines[name], machines, seed, tokens, storage)
            rng = random.Random(len(steps))
            for _round in range(3):
                for store in machines.values():
                    storage.sync(store, [m for m in machines.values() if m is not store], rng)
            here = set()
            for store in machines.values():
                here |= {g for (g,) in store.db.execute_sql(
                    'SELECT "gid" FROM "sync_here_deleted"')}
            dumps = [_comparable(store, here) for store in machines.values()]
            assert dumps[0] == dumps[1] == dumps[2]
            for store in machines.values():
                store.database.checkpoint()
                held = {t.question for c in store.conversations.list()
                        for t in store.turns.all(c.id)}
                data = file_bytes(store)
                for token in tokens - held:
                    assert token.encode() not in data, (store.sync_feed.machine, token)
        finally:
            for store in machines.values():
                store.close()
