"""A privacy delete is erased on disk before it returns, and a run killed between its
commit and the erase leaves it pending, not forgotten: the next writer (the window or any
writing command) finishes it in the background without being held up by it, and reading
commands say it is pending (they never write).

Real parts: the real CLI (`delete --all`) in a child process that is SIGKILLed at the
moment its delete has committed, the real store, a reader holding a snapshot open, and a
byte scan of every file in the data directory.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from turnlog.store import TurnlogStore, erase_pending

SECRET = "ZEBRA-CANARY-4411 my bank password"

KILLED_AFTER_COMMIT = textwrap.dedent("""
    import os, signal, sys
    from turnlog.cli import main
    from turnlog.store.privacy import Privacy
    def die(self, *, vacuum=False):  # the commit is done; the erase never happens
        os.kill(os.getpid(), signal.SIGKILL)
    Privacy.scrub = die
    sys.exit(main(["delete", "--all", "--yes"]))
""")


def files_holding(home: Path, needle: bytes) -> list[str]:
    return sorted(path.name for path in home.rglob("*")
                  if path.is_file() and needle in path.read_bytes())


def seed(home: Path) -> None:
    with TurnlogStore.open(home) as store:
        conversation = store.conversations.create("Private")
        from datetime import UTC, datetime

        from turnlog.core.model import Usage
        from turnlog.core.send import PendingTurn
        for index in range(40):
            store.turns.commit(conversation.id, PendingTurn(
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
        store.privacy.delete_all()
        assert files_holding(home, SECRET.encode()) == []  # before close, not at it
        assert not erase_pending(home)


def test_a_kill_between_commit_and_erase_is_finished_by_the_next_writer_first(tmp_path):
    home = tmp_path / "home"
    seed(home)
    child = subprocess.run([sys.executable, "-c", KILLED_AFTER_COMMIT], capture_output=True,
                           text=True, timeout=120, env=dict(os.environ, TURNLOG_HOME=str(home)))
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

    # The next writer erases it, in the background: nothing left while it is still open.
    with TurnlogStore.open(home) as store:
        assert store.privacy.wait_for_erase(30)
        assert files_holding(home, SECRET.encode()) == []
        assert not erase_pending(home)
        assert store.conversations() == []
    assert "not yet erased" not in cli(home, "list").stderr


def test_the_next_writer_is_not_held_up_by_the_erase_and_finishes_it_when_it_can(tmp_path):
    """`kill -9` of `turnlog-cli delete --all` just after its commit; then a program keeps
    a read open (a snapshot from before the erase: the checkpoint cannot finish while it
    lasts). The next writer opens at once, works, and the bytes leave the file as soon as
    the reader lets go, while it is still open."""
    home = tmp_path / "home"
    seed(home)
    child = subprocess.run([sys.executable, "-c", KILLED_AFTER_COMMIT], capture_output=True,
                           text=True, timeout=120, env=dict(os.environ, TURNLOG_HOME=str(home)))
    assert child.returncode == -signal.SIGKILL, child.stderr
    assert files_holding(home, SECRET.encode()) and erase_pending(home)

    reader = sqlite3.connect(f"file:{home / 'turnlog.sqlite3'}?mode=ro", uri=True)
    reader.execute("BEGIN")
    assert reader.execute("SELECT count(*) FROM turns").fetchone() == (0,)  # a snapshot

    started = time.monotonic()
    store = TurnlogStore.open(home)
    try:
        opened = time.monotonic() - started
        conversation = store.conversations.create("After")  # usable while the erase waits
        assert [c.title for c in store.conversations()] == ["After"]
        assert opened < 1.0, f"the opener waited {opened:.2f} s"
        assert not store.privacy.wait_for_erase(0.5)  # still waiting for the reader
        assert erase_pending(home)
        reader.rollback()
        reader.close()
        assert store.privacy.wait_for_erase(30)
        assert not erase_pending(home)
        assert files_holding(home, SECRET.encode()) == []  # while the writer is open
        assert store.conversations.get(conversation.id).title == "After"
    finally:
        store.close()


def test_a_delete_a_reader_held_up_is_erased_as_soon_as_the_reader_lets_go(tmp_path):
    home = tmp_path / "home"
    seed(home)
    with TurnlogStore.open(home) as store:
        reader = sqlite3.connect(f"file:{home / 'turnlog.sqlite3'}?mode=ro", uri=True)
        reader.execute("BEGIN")
        assert reader.execute("SELECT count(*) FROM turns").fetchone() == (40,)
        store.privacy.delete_all()
        assert erase_pending(home)  # the reader's snapshot keeps the old pages
        assert files_holding(home, SECRET.encode())
        reader.rollback()
        reader.close()
        assert store.privacy.wait_for_erase(30)
        assert not erase_pending(home)
        assert files_holding(home, SECRET.encode()) == []  # not at the next start: now
