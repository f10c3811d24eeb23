"""The erase window: from a privacy delete's commit until its text is off the disk (the
erase-pending marker cleared), for `delete --all` of a long log; and, after a run killed
in that window, how long the next writer's open takes and when the erase is done.

    .venv/bin/python tests/bench/erase_window.py [--turns 100000]

Runs against whichever Turnlog `import turnlog` finds (set PYTHONPATH to an older
checkout's `desktop` to measure it the same way).
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from datetime import UTC, datetime
from pathlib import Path

from turnlog.core.model import Usage
from turnlog.core.send import PendingTurn
from turnlog.store import TurnlogStore, erase_pending

SECRET = "ZEBRA-CANARY-4411"

KILLED_AFTER_COMMIT = textwrap.dedent("""
    import os, signal, sys
    from turnlog.cli import main
    try:
        from turnlog.store.privacy import Privacy as Owner
    except ImportError:
        from turnlog.store.log import TurnlogStore as Owner
    def die(self, *, vacuum=False):
        os.kill(os.getpid(), signal.SIGKILL)
    Owner.scrub = die
    sys.exit(main(["delete", "--all", "--yes"]))
""")


def seed(home: Path, turns: int) -> None:
    with TurnlogStore.open(home) as store:
        pending = [PendingTurn(f"t{i}", f"{SECRET} question {i}", f"{SECRET} answer {i}",
                               "m", "stop", Usage(), datetime.now(UTC)) for i in range(turns)]
        if hasattr(store, "privacy"):  # a store with named parts
            cid = store.conversations.create("bench").id
            store.turns.commit_many(cid, pending)
        else:  # an older checkout: the store did everything itself
            cid = store.create_conversation("bench").id
            store.import_turns(cid, pending)


def window(home: Path) -> tuple[float, float]:
    """Seconds from the delete's commit to the marker's removal (the store's own steps
    timed: polling the marker from outside would be coarser), and the whole delete's."""
    marks: dict[str, float] = {}
    with TurnlogStore.open(home) as store:
        if hasattr(store, "privacy"):
            started = time.monotonic()
            store.privacy.delete_all()
            total = time.monotonic() - started
            return store.privacy.erase_seconds, total
        real_after, real_done = store._after_delete, store._erase_done

        def after(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
            marks["committed"] = time.monotonic()
            return real_after(*args, **kwargs)

        def done():  # noqa: ANN202
            real_done()
            marks["erased"] = time.monotonic()

        store._after_delete, store._erase_done = after, done
        started = time.monotonic()
        store.delete_all()
        total = time.monotonic() - started
        return marks["erased"] - marks["committed"], total


def after_a_kill(home: Path) -> tuple[float, float]:
    child = subprocess.run([sys.executable, "-c", KILLED_AFTER_COMMIT], capture_output=True,
                           env=dict(os.environ, TURNLOG_HOME=str(home)))
    assert child.returncode == -signal.SIGKILL and erase_pending(home), child.stderr
    started = time.monotonic()
    store = TurnlogStore.open(home)
    opened = time.monotonic() - started
    while erase_pending(home):
        time.sleep(0.005)
    erased = time.monotonic() - started
    store.close()
    return opened, erased


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--turns", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=1, help="deletes measured (each seeded)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for run in range(args.runs):
            home = Path(folder) / f"a{run}"
            seed(home, args.turns)
            erase, total = window(home)
            print(f"{args.turns:,} turns, delete --all: commit → erased {erase:.3f} s "
                  f"(the whole delete {total:.3f} s)")
        home = Path(folder) / "b"
        seed(home, args.turns)
        opened, erased = after_a_kill(home)
        print(f"killed after its commit; the next writer: open {opened:.3f} s, "
              f"erase done {erased:.3f} s after the open began")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
