"""`kill -9` at random points of stream and commit leaves the log intact (50 kills)."""

from __future__ import annotations

from crashing import run_kills

KILLS = 50


def test_kill_9_during_stream_and_commit_leaves_the_log_intact(loopback, turnlog_home):
    tally = run_kills(loopback, turnlog_home, KILLS, seed=11)
    assert tally.problems == []
    assert (tally.kills, tally.intact, tally.partial) == (KILLS, KILLS, 0)
    # The kills landed on both sides of the commit.
    assert tally.committed > 0 and tally.not_committed > 0, tally.line()
