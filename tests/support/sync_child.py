"""`turnlog-cli ARGS` run in a child process of its own, its data directory's sync feed made
by `sync_lists.FEEDS[$TURNLOG_TEST_FEED]` (the store's own feed once it is there).

`$TURNLOG_TEST_KILL_AT=NAME:N:WHEN` makes the child SIGKILL itself at the N-th call of one
step of a sync (`before` or `after` it): a kill -9 at a chosen point of writing, reading or
compaction, as a power cut would land there."""

from __future__ import annotations

import os
import signal
import sys
from contextlib import contextmanager
from pathlib import Path

import sync_lists
from turnlog.cli import main, sync_commands
from turnlog.sync.folder import SyncFolder
from turnlog.sync.state import SyncState

STEPS = {
    "write": (SyncFolder, "write"),
    "remove": (SyncFolder, "remove"),
    "finish": (SyncState, "finish_pending"),
    "applied": (SyncState, "mark_applied"),
    "incoming": (sync_lists.ListFeed, "incoming"),
    "outgoing": (sync_lists.ListFeed, "outgoing"),
}


def _kill_at(spec: str) -> None:
    name, count, when = spec.split(":")
    owner, attribute = STEPS[name]
    original = getattr(owner, attribute)
    calls = [0]

    def step(*args, **kwargs):
        calls[0] += 1
        if calls[0] == int(count) and when == "before":
            os.kill(os.getpid(), signal.SIGKILL)
        result = original(*args, **kwargs)
        if calls[0] == int(count) and when == "after":
            os.kill(os.getpid(), signal.SIGKILL)
        return result

    setattr(owner, attribute, step)


@contextmanager
def open_feed(home: Path):
    feed = sync_lists.FEEDS[os.environ.get("TURNLOG_TEST_FEED", "lists")](home)
    try:
        yield feed
    finally:
        feed.close()


if __name__ == "__main__":
    sync_commands.open_feed = open_feed
    if os.environ.get("TURNLOG_TEST_KILL_AT"):
        _kill_at(os.environ["TURNLOG_TEST_KILL_AT"])
    sys.exit(main(sys.argv[1:]))
