"""The active line's length and newest ordinal are kept by the writer, brought up to date
by each commit and delete, not counted again on every `store.turns.log()` (which a send calls).

Real parts: a real store; every SQL statement it runs is seen through its own connection.
"""

from __future__ import annotations

from datetime import UTC, datetime

from turnlog.core.model import Usage
from turnlog.core.send import PendingTurn
from turnlog.store import TurnlogStore


def pending(turn_id: str, *, replaces: str | None = None) -> PendingTurn:
    return PendingTurn(turn_id, f"q {turn_id}", f"a {turn_id}", "m", "stop", Usage(),
                       datetime.now(UTC), replaces=replaces)


def counting(store: TurnlogStore, monkeypatch) -> list[str]:  # noqa: ANN001
    seen: list[str] = []
    execute_sql = store.db.execute_sql

    def spy(sql, params=None, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
        seen.append(sql)
        return execute_sql(sql, params, *args, **kwargs)

    monkeypatch.setattr(store.db, "execute_sql", spy)
    return seen


def counts_in(statements: list[str]) -> int:
    return sum(1 for sql in statements if "COUNT(" in sql.upper())


def test_a_send_does_not_count_the_log_again(tmp_path, monkeypatch):
    with TurnlogStore.open(tmp_path / "home") as store:
        cid = store.conversations.create("c").id
        store.turns.commit_many(cid, [pending(f"t{i}") for i in range(300)])
        assert (len(store.turns.log(cid)), store.turns.log(cid).newest_ordinal) == (300, 300)
        statements = counting(store, monkeypatch)
        for index in range(300, 310):
            store.turns.commit(cid, pending(f"t{index}"))
            log = store.turns.log(cid)
            assert (len(log), log.newest_ordinal) == (index + 1, index + 1)
        assert counts_in(statements) == 0  # kept, not counted: ten sends, no COUNT


def test_the_kept_count_follows_versions_deletes_and_imports(tmp_path):
    with TurnlogStore.open(tmp_path / "home") as store:
        cid = store.conversations.create("c").id
        for index in range(5):
            store.turns.commit(cid, pending(f"t{index}"))
        assert len(store.turns.log(cid)) == 5
        store.turns.commit(cid, pending("t4b", replaces="t4"))  # a version: still five
        log = store.turns.log(cid)
        assert (len(log), log.newest_ordinal, [t.id for t in log][-1]) == (5, 6, "t4b")
        store.turns.use_version("t4")
        log = store.turns.log(cid)
        assert (len(log), log.newest_ordinal, [t.id for t in log][-1]) == (5, 5, "t4")
        store.privacy.delete_turn("t0")
        assert len(store.turns.log(cid)) == 4
        store.turns.commit_many(cid, [pending("i0"), pending("i1")])
        log = store.turns.log(cid)
        assert (len(log), log.newest_ordinal) == (6, 8)
        store.privacy.delete_conversation(cid)
        other = store.conversations.create("d").id
        store.turns.commit(other, pending("d0"))
        assert len(store.turns.log(other)) == 1


def test_a_reader_sees_what_the_writer_committed_since(tmp_path):
    home = tmp_path / "home"
    with TurnlogStore.open(home) as writer:
        cid = writer.conversations.create("c").id
        writer.turns.commit(cid, pending("t0"))
        with TurnlogStore.open(home, readonly=True) as reader:
            assert len(reader.turns.log(cid)) == 1
            writer.turns.commit(cid, pending("t1"))
            assert len(reader.turns.log(cid)) == 2  # a reader keeps no count: it is not the writer
