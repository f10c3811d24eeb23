"""A page of a long log costs the same wherever it lies: dragging the history's bar to the
first turns of 20,000 reads them from their place in the index, not by stepping past every
newer turn; and the pages read are the turns a plain list of the log holds, gaps (a
deleted turn, a superseded version) included.

Real parts: a real store; the work SQLite does is counted in virtual machine steps (its
progress handler), which do not depend on the machine's load.
"""

from __future__ import annotations

import sys
import time
from datetime import UTC, datetime

from turnlog.core.model import Usage
from turnlog.core.send import PendingTurn
from turnlog.store import TurnlogStore
from turnlog.store.pages import LogPages, PageReader

TURNS = 20_000


def pending(turn_id: str, *, replaces: str | None = None) -> PendingTurn:
    return PendingTurn(turn_id, f"q {turn_id}", f"a {turn_id}", "m", "stop", Usage(),
                       datetime.now(UTC), replaces=replaces)


def steps_to_read(store: TurnlogStore, log: LogPages, index: int) -> int:
    """SQLite's steps (in thousands) for reading the page holding `index` afresh."""
    steps = [0]

    def counted() -> int:
        steps[0] += 1
        return 0

    connection = store.db.connection()
    connection.set_progress_handler(counted, 1000)
    try:
        assert log[index].ordinal >= 1
    finally:
        connection.set_progress_handler(None, 0)
    return steps[0]


def test_the_oldest_page_costs_about_what_the_newest_does(tmp_path):
    with TurnlogStore.open(tmp_path / "home") as store:
        cid = store.conversations.create("long").id
        store.turns.commit_many(cid, [pending(f"t{i}") for i in range(TURNS)])
        newest = steps_to_read(store, store.turns.log(cid), TURNS - 1)
        far = store.turns.log(cid)
        oldest = steps_to_read(store, far, 0)
        assert far[0].id == "t0" and far[TURNS - 1].id == f"t{TURNS - 1}"
        # Counting past 20,000 newer turns took about a hundred times the newest's steps.
        assert oldest <= 3 * max(newest, 1), (oldest, newest)


def test_pages_hold_the_turns_a_plain_list_holds_gaps_included(tmp_path):
    with TurnlogStore.open(tmp_path / "home") as store:
        cid = store.conversations.create("gaps").id
        store.turns.commit_many(cid, [pending(f"t{i}") for i in range(400)])
        for index in range(0, 400, 7 * LogPages.PAGE // 5):  # pages read by ordinal
            log = store.turns.log(cid)
            assert log[index].id == f"t{index}"
        store.privacy.delete_turn("t150")  # a gap in the middle
        store.turns.commit(cid, pending("t399b", replaces="t399"))  # a superseded version
        plain = [t.id for t in store.turns.log(cid)]
        assert "t150" not in plain and "t399" not in plain and plain[-1] == "t399b"
        assert len(plain) == 399
        for index in (0, 149, 150, 200, 333, 398):
            assert store.turns.log(cid)[index].id == plain[index]
        log = store.turns.log(cid)
        assert [log[i].id for i in range(len(log) - 1, -1, -1)] == plain[::-1]


def test_pages_read_ahead_on_the_readers_thread_are_in_memory_when_looked_at(tmp_path):
    """A `PageReader` reads the pages asked for on its own thread and connection (the
    store's connection on this thread does no work for them), then its thread ends and
    closes that connection."""
    with TurnlogStore.open(tmp_path / "home") as store:
        cid = store.conversations.create("long").id
        store.turns.commit_many(cid, [pending(f"t{i}") for i in range(2_000)])
        log = store.turns.log(cid)
        reader = PageReader()
        reader.IDLE = 0.2
        steps = [0]

        def counted() -> int:
            steps[0] += 1
            return 0

        store.db.connection().set_progress_handler(counted, 1)
        reader.want(log, 500, 520)
        deadline = time.monotonic() + 5
        while not reader.idle and time.monotonic() < deadline:
            time.sleep(0.01)
        assert all(log.loaded(i) is not None for i in range(500, 520))
        assert [log[i].ordinal for i in (500, 519)] == [501, 520]
        assert log.pages_read == 0 and log.pages_read_ahead >= 1
        assert steps[0] == 0  # none of it on this thread's connection
        store.db.connection().set_progress_handler(None, 0)
        deadline = time.monotonic() + 5
        while reader.running and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not reader.running


def python_calls_to_read(log: LogPages, index: int) -> int:
    """How many Python functions reading the page holding `index` afresh runs (the work a
    page read does holding the interpreter lock, counted as calls, which do not depend on
    the machine's load)."""
    calls = [0]

    def count(frame: object, event: str, arg: object) -> None:
        if event == "call":
            calls[0] += 1

    sys.setprofile(count)
    try:
        assert log[index].ordinal >= 1
    finally:
        sys.setprofile(None)
    return calls[0]


def test_a_page_read_builds_no_query_in_python(tmp_path):
    # A page read ahead on the history bar's reader shares the interpreter with the
    # window: building a peewee query for each page (~1,100 calls) held it up twice as
    # long as making the page's 64 turns and reading their files does.
    with TurnlogStore.open(tmp_path / "home") as store:
        cid = store.conversations.create("long").id
        store.turns.commit_many(cid, [pending(f"t{i}") for i in range(300)])
        store.turns.commit(cid, pending("t299b", replaces="t299"))
        log = store.turns.log(cid)
        assert log.hidden  # the superseded version is left out by the statement too
        for index in (len(log) - 1, 0):  # counted from the newest, then past a gap
            assert python_calls_to_read(log, index) <= 20 * LogPages.PAGE
        assert [t.id for t in log][-2:] == ["t298", "t299b"]
