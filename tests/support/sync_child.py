"""`turnlog-cli ARGS` run in a child process of its own. With `$TURNLOG_TEST_FEED=store` it is
plain `turnlog-cli` on a real data directory (the store's own `store.sync_feed`); with
`lists` the data directory's feed is `sync_lists.ListFeed`, the seam's second implementation.

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
from turnlog.store.sync_feed import SyncFeed
from turnlog.sync.folder import SyncFolder
from turnlog.sync.remote import ObjectTree
from turnlog.sync.state import SyncState

# A step → where it is: a folder's or a server's storage (one of them is in use), the state.
STEPS = {
    "write": ((SyncFolder, ObjectTree), "write"),
    "remove": ((SyncFolder, ObjectTree), "remove"),
    "finish": ((SyncState,), "finish_pending"),
    "applied": ((SyncState,), "mark_applied"),
}
FEED_STEPS = {"store": SyncFeed, "lists": sync_lists.ListFeed}  # reading: what applies, what goes


def _kill_at(spec: str, feed: str) -> None:
    name, count, when = spec.split(":")
    owners, attribute = STEPS.get(name, ((FEED_STEPS[feed],), name))
    calls = [0]
    for owner in owners:
        _count_calls(owner, attribute, int(count), when, calls)


def _count_calls(owner: type, attribute: str, count: int, when: str, calls: list[int]
                 ) -> None:
    original = getattr(owner, attribute)

    def step(*args, **kwargs):
        calls[0] += 1
        if calls[0] == count and when == "before":
            os.kill(os.getpid(), signal.SIGKILL)
        result = original(*args, **kwargs)
        if calls[0] == count and when == "after":
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
    feed_name = os.environ.get("TURNLOG_TEST_FEED", "lists")
    if feed_name != "store":
        sync_commands.open_feed = open_feed
    if os.environ.get("TURNLOG_TEST_KILL_AT"):
        _kill_at(os.environ["TURNLOG_TEST_KILL_AT"], feed_name)
    sys.exit(main(sys.argv[1:]))
