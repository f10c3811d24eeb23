"""A privacy delete is erased on disk before it returns, and a run killed between its
commit and the erase leaves it pending, not forgotten: the next writer (the window or any
writing command) erases it before anything else, and reading commands say it is pending
(they never write).

Real parts: the real store in a child process that is SIGKILLed at the moment the delete
has committed, the real CLI, and a byte scan of every file in the data directory.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

from turnlog.store import TurnlogStore, erase_pending

SECRET = "ZEBRA-CANARY-4411 my bank password"

KILLED_AFTER_COMMIT = textwrap.dedent("""
    import os, signal, sys
    from pathlib import Path
    from turnlog.store import TurnlogStore
    from turnlog.store import log as store_log
    home = Path(sys.argv[1])
    def die(self, *, vacuum=False):  # the commit is done; the erase never happens
        os.kill(os.getpid(), signal.SIGKILL)
    store_log.TurnlogStore.scrub = die
    store = TurnlogStore.open(home)
    store.delete_all()
""")


def files_holding(home: Path, needle: bytes) -> list[str]:
    return sorted(path.name for path in home.rglob("*")
                  if path.is_file() and needle in path.read_bytes())


def seed(home: Path) -> None:
    with TurnlogStore.open(home) as store:
        conversation = store.create_conversation("Private")
        from datetime import UTC, datetime

        from turnlog.core.model import Usage
        from turnlog.core.send import PendingTurn
        for index in range(40):
            store.commit_turn(conversation.id, PendingTurn(
                f"t{index}", f"{SECRET} question {index}", f"{SECRET} answer {index}", "m",
                "stop", Usage(), datetime.now(UTC)))


def cli(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "turnlog.cli", *args], capture_output=True,
                          text=True, timeout=120, env=dict(os.environ, TURNLOG_HOME=str(home)))


def test_a_delete_leaves_nothing_on_disk_when_it_returns(tmp_path):
    home = tmp_path / "home"
    seed(home)
    assert files_holding(home, SECRET.encode())
    with TurnlogStore.open(home) as store:
        store.delete_all()
        assert files_holding(home, SECRET.encode()) == []  # before close, not at it
        assert not erase_pending(home)


def test_a_kill_between_commit_and_erase_is_finished_by_the_next_writer_first(tmp_path):
    home = tmp_path / "home"
    seed(home)
    child = subprocess.run([sys.executable, "-c", KILLED_AFTER_COMMIT, str(home)],
                           capture_output=True, text=True, timeout=120)
    assert child.returncode == -signal.SIGKILL, child.stderr
    # The crash window: committed as deleted, the text still in the files.
    assert files_holding(home, SECRET.encode())
    assert erase_pending(home)

    # A reading command shows the history deleted, says the erase is pending, writes nothing.
    def stored() -> dict[str, bytes]:  # the -shm index is SQLite's reader scratch, not data
        return {path.name: path.read_bytes() for path in home.iterdir()
                if path.is_file() and not path.name.endswith("-shm")}

    before = stored()
    listed = cli(home, "list")
    assert listed.returncode == 0, listed.stderr
    assert "Private" not in listed.stdout
    assert "not yet erased from the disk" in listed.stderr
    assert stored() == before

    # The next writer erases it before anything else: nothing left while it is still open.
    with TurnlogStore.open(home) as store:
        assert files_holding(home, SECRET.encode()) == []
        assert not erase_pending(home)
        assert store.conversations() == []
    assert "not yet erased" not in cli(home, "list").stderr
