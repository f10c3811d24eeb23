"""Two and three machines, each with a storage folder of its own that a lagging sync program
copies between (late, out of order, first as partial temporary files, removals late too):
over random interleavings of appends, versions, renames, deletes (everywhere and on this
machine only), syncs and the program's steps, every machine ends with the same log once the
program has caught up (but for what one deleted on itself only), and no text deleted
everywhere stays in any machine's files (scanned after the store's checkpoint) nor in any
live object opened with the passphrase. Run over real data directories (`store`) and over
the list-shaped second implementation of the seam (`lists`, which has no versions)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sync_lists import FEEDS
from sync_world import ACTS, World


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
        world.check_converged()
    finally:
        world.close()
