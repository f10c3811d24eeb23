"""`turnlog-cli delete … --everywhere | --this-machine`: a delete that reaches every machine
the data directory syncs with, or this one only (and says the text is still elsewhere)."""

from __future__ import annotations

from cli_runs import cli
from turnlog.core.model import Usage
from turnlog.core.pending import PendingTurn
from turnlog.store import TurnlogStore


def _conversation(home):
    from datetime import UTC, datetime

    with TurnlogStore.open(home) as store:
        conv = store.conversations.create("Plans")
        store.turns.commit(conv.id, PendingTurn(
            id="t-plans-1", question="q", answer="a", model="m", finish_reason="stop",
            usage=Usage(1, 1, 2), created_at=datetime.now(UTC)))
        gid = store.db.execute_sql('SELECT "gid" FROM "conversations"').fetchone()[0]
        return conv.id, gid


def _state(home):
    with TurnlogStore.open(home) as store:
        records, _ = store.sync_feed.outgoing(0)
        here = {g for (g,) in store.db.execute_sql('SELECT "gid" FROM "sync_here_deleted"')}
        return [r["kind"] for r in records], store.sync_feed.deleted(), here


def test_delete_everywhere_writes_a_delete_record_and_tombstones(turnlog_home):
    cid, gid = _conversation(turnlog_home)
    done = cli("delete", "--conversation", str(cid), "--everywhere", "--yes")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("deleted 1 conversation")
    kinds, tombstones, here = _state(turnlog_home)
    assert kinds == ["delete"]
    assert {gid, "t-plans-1"} <= tombstones and not here


def test_delete_on_this_machine_says_the_text_is_still_elsewhere(turnlog_home):
    cid, gid = _conversation(turnlog_home)
    done = cli("delete", "--turn", "t-plans-1", "--this-machine", "--yes")
    assert done.returncode == 0, done.stderr
    assert "still exists on your other machines and in the sync storage" in done.stdout
    kinds, tombstones, here = _state(turnlog_home)
    assert kinds == ["conversation"] and not tombstones and here == {"t-plans-1"}


def test_without_a_scope_a_delete_is_local_as_before_while_sync_is_not_set_up(turnlog_home):
    cid, _gid = _conversation(turnlog_home)
    done = cli("delete", "--conversation", str(cid), "--yes")
    assert done.returncode == 0, done.stderr
    assert "still exists" not in done.stdout
    assert _state(turnlog_home) == ([], set(), set())


def _syncing(home):
    from turnlog.sync.state import SyncState
    from turnlog.sync.storage import StorageConfig

    state = SyncState.create(home)
    state.set_up("a" * 32, "laptop", StorageConfig("folder", str(home / "Sync")), "k" * 32)
    state.close()


def _second(home):
    with TurnlogStore.open(home) as store:
        store.conversations.create("Second")
        return {g for (g,) in store.db.execute_sql('SELECT "gid" FROM "conversations"')}


def test_delete_all_everywhere_writes_one_delete_record_of_every_conversation(turnlog_home):
    _conversation(turnlog_home)
    gids = _second(turnlog_home)
    done = cli("delete", "--all", "--everywhere", "--yes")
    assert done.returncode == 0, done.stderr
    kinds, tombstones, here = _state(turnlog_home)
    assert kinds == ["delete"]
    assert gids | {"t-plans-1"} <= tombstones and not here
    with TurnlogStore.open(turnlog_home) as store:
        assert store.db.execute_sql('SELECT count(*) FROM "conversations"').fetchone() == (0,)


def test_delete_all_on_this_machine_keeps_markers_and_says_so(turnlog_home):
    _conversation(turnlog_home)
    gids = _second(turnlog_home)
    done = cli("delete", "--all", "--this-machine", "--yes")
    assert done.returncode == 0, done.stderr
    assert "still exists on your other machines" in done.stdout
    kinds, tombstones, here = _state(turnlog_home)
    assert not tombstones and gids | {"t-plans-1"} <= here


def test_with_sync_set_up_delete_all_asks_where_and_deletes_nothing_unanswered(turnlog_home):
    _conversation(turnlog_home)
    _syncing(turnlog_home)
    refused = cli("delete", "--all", "--yes")
    assert refused.returncode == 1
    assert "say --everywhere or --this-machine" in refused.stderr
    asked = cli("delete", "--all", input="y\n\n")
    assert asked.returncode == 1 and "on this machine only (t)?" in asked.stderr
    with TurnlogStore.open(turnlog_home) as store:
        assert store.db.execute_sql('SELECT count(*) FROM "conversations"').fetchone() == (1,)
    answered = cli("delete", "--all", input="y\ne\n")
    assert answered.returncode == 0, answered.stderr
    kinds, tombstones, _here = _state(turnlog_home)
    assert kinds == ["delete"] and "t-plans-1" in tombstones
