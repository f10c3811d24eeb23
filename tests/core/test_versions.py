"""Versions on the append-only log: the active line, supersede records, forks, deletes.

Real SQLite; the property test drives random commits, regenerations (some failing),
version switches and deletes against a plain reference model of positions and versions.
"""

from __future__ import annotations

import sqlite3
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from places import DATA
from turnlog.core.budget import Budget
from turnlog.core.failures import StoreError
from turnlog.core.projection import project
from turnlog.core.versions import Supersede, Versions, restore_order
from turnlog.store import NotFound, TurnlogStore
from version_turns import pending


def turn_rows(path: Path) -> dict[str, tuple]:
    con = sqlite3.connect(path)
    try:
        return {r[0]: r for r in con.execute("SELECT * FROM turns")}
    finally:
        con.close()


def test_versions_follow_the_newest_record_naming_a_turn():
    ordinals = {"a": 1, "b": 2, "c": 3}
    v = Versions([Supersede("a", "b"), Supersede("b", "c")], ordinals)
    assert v.superseded == {"a", "b"} and v.group("b") == ("a", "b", "c")
    assert v.active_of("a") == "c"
    back = Versions([Supersede("a", "b"), Supersede("b", "c"), Supersede("c", "a")], ordinals)
    assert back.superseded == {"b", "c"} and back.active_of("c") == "a"
    # An export says "superseded by"; replaying those pairs gives the same state back.
    replay = Versions([Supersede(o, n) for o, n in restore_order(back.replaced_by)], ordinals)
    assert replay.superseded == back.superseded
    assert Versions([], {}).group("x") == ("x",) and not Versions([], {})


def test_regenerate_supersedes_only_with_the_new_turn(turnlog_home):
    with TurnlogStore.open(turnlog_home) as store:
        cid = store.conversations.create("v").id
        store.turns.commit(cid, pending("t1", "Code is ORCHID-17.", "Noted."))
        store.turns.commit(cid, pending("t2", "What is 2+2?", "5"))
        before = turn_rows(store.path)
        new = store.turns.commit(cid, pending("t3", "What is 2+2?", "4", replaces="t2"))
        assert new.ordinal == 3
        assert [t.id for t in store.turns(cid)] == ["t1", "t3"]
        assert [t.id for t in store.turns.all(cid)] == ["t1", "t2", "t3"]
        assert [t.id for t in store.turns.log(cid)] == ["t1", "t3"]
        assert len(store.turns.log(cid)) == 2
        assert {k: v for k, v in turn_rows(store.path).items() if k in before} == before
        # The old version cannot be replaced again: it is not the last turn of the line.
        with pytest.raises(StoreError):
            store.turns.commit(cid, pending("t4", "again", "x", replaces="t2"))
        assert not store.turns.exists("t4")
        assert store.turns.use_version("t2") == cid
        assert [t.id for t in store.turns(cid)] == ["t1", "t2"]
        assert store.turns.versions(cid).group("t3") == ("t2", "t3")
        assert turn_rows(store.path)["t2"] == before["t2"]


def test_use_version_only_on_the_last_position(turnlog_home):
    with TurnlogStore.open(turnlog_home) as store:
        cid = store.conversations.create("v").id
        store.turns.commit(cid, pending("a", "q", "1"))
        store.turns.commit(cid, pending("b", "q", "2", replaces="a"))
        store.turns.commit(cid, pending("c", "next", "3"))
        with pytest.raises(StoreError, match="Fork from this turn"):
            store.turns.use_version("a")
        assert [t.id for t in store.turns(cid)] == ["b", "c"]
        with pytest.raises(NotFound):
            store.turns.use_version("nope")


def test_delete_a_version_relinks_the_others(turnlog_home):
    with TurnlogStore.open(turnlog_home) as store:
        cid = store.conversations.create("v").id
        store.turns.commit(cid, pending("a", "q", "1"))
        store.turns.commit(cid, pending("b", "q", "2", replaces="a"))
        store.turns.commit(cid, pending("c", "q", "3", replaces="b"))
        assert store.privacy.preview_turn("b").turns == 3
        assert store.privacy.preview_turn("b", with_versions=False).turns == 1
        store.privacy.delete_turn("b", with_versions=False)
        assert [t.id for t in store.turns(cid)] == ["c"]
        assert store.turns.versions(cid).group("a") == ("a", "c")
        store.privacy.delete_turn("c", with_versions=False)  # the active one: the other takes over
        assert [t.id for t in store.turns(cid)] == ["a"]
        assert not store.turns.versions(cid)
        store.turns.commit(cid, pending("d", "q", "4", replaces="a"))
        counts = store.privacy.delete_turn("d").counts  # with its other versions (the default)
        assert counts.turns == 2 and store.turns.all(cid) == ()
        rows = store.db.execute_sql("SELECT count(*) FROM supersedes").fetchone()[0]
        assert rows == 0


def test_fork_copies_the_active_line_before_a_turn(turnlog_home):
    with TurnlogStore.open(turnlog_home) as store:
        source = store.conversations.create("计划 🌄", system_prompt="Be brief.")
        cid = source.id
        store.turns.commit(cid, pending("a", "Code ORCHID-17", "ok"))
        store.turns.commit(cid, pending("b", "draft?", "bad"))
        store.turns.commit(cid, pending("c", "draft?", "good", replaces="b"))
        store.turns.commit(cid, pending("d", "third question", "x"))
        fork, draft = store.forks.at(cid, 4)
        assert draft == "third question"
        copied = store.turns(fork.id)
        assert [(t.question, t.answer, t.ordinal) for t in copied] == [
            ("Code ORCHID-17", "ok", 1), ("draft?", "good", 2)]
        assert not {t.id for t in copied} & {"a", "b", "c", "d"}
        assert fork.system_prompt == "Be brief." and fork.title == source.title
        # Turn 3 as the source numbers it (a version of turn 2 took ordinal 3).
        assert store.forks.origin(fork.id).describe() == "forked from “计划 🌄”, turn 3"
        assert store.records.latest_summary(fork.id) is None
        from turnlog.store.drafts import load_draft
        assert load_draft(turnlog_home, fork.id) == "third question"
        assert [f.id for f in store.forks(cid)] == [fork.id]
        store.privacy.delete_conversation(cid)
        # With the source gone its numbering is too: the stored ordinal is all there is.
        assert store.forks.origin(fork.id).describe() == \
            "forked from a deleted conversation, turn 4"
        assert len(store.turns(fork.id)) == 2
        with pytest.raises(NotFound):
            store.forks.at(fork.id, 9)


def test_delete_with_forks_deletes_forks_of_forks(turnlog_home):
    with TurnlogStore.open(turnlog_home) as store:
        cid = store.conversations.create("src").id
        store.turns.commit(cid, pending("a", "q1", "a1"))
        store.turns.commit(cid, pending("b", "q2", "a2"))
        fork, _ = store.forks.at(cid, 2)
        fork2, _ = store.forks.at(fork.id, 1)
        other = store.conversations.create("other").id
        assert store.privacy.preview_conversation(cid, with_forks=True).conversations == 3
        store.privacy.delete_conversation(cid, with_forks=True)
        assert [c.id for c in store.conversations()] == [other]
        assert fork2.id not in [c.id for c in store.conversations()]


OPS = st.lists(st.one_of(
    st.tuples(st.just("commit"), st.integers(0, 3)),
    st.tuples(st.just("regenerate"), st.booleans()),
    st.tuples(st.just("use"), st.integers(0, 5)),
    st.tuples(st.just("delete"), st.integers(0, 20), st.booleans()),
), min_size=1, max_size=14)


@settings(max_examples=40, deadline=None)
@given(OPS)
def test_the_active_line_is_the_chosen_version_of_each_position(ops):
    """Reference: a list of positions, each its versions and which one is in use."""
    with tempfile.TemporaryDirectory() as tmp, TurnlogStore.open(Path(tmp)) as store:
        cid = store.conversations.create("p").id
        positions: list[tuple[list[str], int]] = []  # (version ids oldest first, active)
        for count, op in enumerate(ops, start=1):
            before = turn_rows(store.path)
            new_id = f"t{count}"
            if op[0] == "commit":
                store.turns.commit(cid, pending(new_id, f"q{count} 中文", f"a{count}"))
                positions.append(([new_id], 0))
            elif op[0] == "regenerate" and positions:
                versions, active = positions[-1]
                if op[1]:
                    store.turns.commit(cid, pending(new_id, "again", "new",
                                                    replaces=versions[active]))
                    positions[-1] = ([*versions, new_id], len(versions))
                else:  # a failure: nothing is committed, nothing changes
                    stale = versions[active - 1] if active else "missing"
                    with pytest.raises((StoreError, NotFound)):
                        if stale == "missing":
                            raise NotFound("no older version")
                        store.turns.commit(cid, pending(new_id, "x", "y", replaces=stale))
            elif op[0] == "use" and positions:
                versions, _ = positions[-1]
                chosen = op[1] % len(versions)
                store.turns.use_version(versions[chosen])
                positions[-1] = (versions, chosen)
            elif op[0] == "delete" and positions:
                at = op[1] % len(positions)
                versions, active = positions[at]
                store.privacy.delete_turn(versions[active], with_versions=op[2])
                kept = [] if op[2] else [v for i, v in enumerate(versions) if i != active]
                if kept:
                    positions[at] = (kept, len(kept) - 1)
                else:
                    del positions[at]
            expected = [versions[active] for versions, active in positions]
            assert [t.id for t in store.turns(cid)] == expected
            line = store.turns.log(cid)
            assert len(line) == len(expected) and [t.id for t in line] == expected
            after = turn_rows(store.path)
            assert {k: v for k, v in after.items() if k in before} == \
                {k: v for k, v in before.items() if k in after}
            all_ids = {t.id for t in store.turns.all(cid)}
            superseded = all_ids - set(expected)
            assert store.turns.versions(cid).superseded == superseded
            projection = project(line, "next?", model="m", budget=Budget(100_000, 200_000, 1024))
            assert not set(projection.sent_turn_ids) & superseded


def test_deleted_versions_and_forks_leave_no_copy_on_disk(turnlog_home):
    """The byte scan of tests/journeys/privacy/test_privacy_delete.py over versions, fork copies and
    drafts."""
    from privacy_scan import scan, secrets_for

    q1, a1 = secrets_for("V", 1)
    q2, a2 = secrets_for("V", 2)
    _, a3 = secrets_for("V", 3)
    with TurnlogStore.open(turnlog_home) as store:
        cid = store.conversations.create("versions").id
        store.turns.commit(cid, pending("v1", q1, a1))
        store.turns.commit(cid, pending("v2", q2, a2))
        store.turns.commit(cid, pending("v3", q2, a3, replaces="v2"))
        fork, _ = store.forks.at(cid, 2)  # copies turn 1; turn 2's question is its draft
        keep = store.conversations.create("kept").id
        store.turns.commit(keep, pending("k1", "kept question 保留", "kept answer"))
        store.privacy.delete_turn("v3")  # both versions of turn 2
    assert scan(turnlog_home, [a2, a3]) == []
    with TurnlogStore.open(turnlog_home) as store:
        assert [t.id for t in store.turns.all(cid)] == ["v1"]
        store.privacy.delete_conversation(cid, with_forks=True)
        assert store.conversations()[0].id == keep
    assert scan(turnlog_home, [q1, a1, q2]) == []  # the fork's copies and draft too
    assert scan(turnlog_home, ["kept question 保留"])


def test_orchid_17_holds_on_the_active_line_with_compaction(turnlog_home, loopback):
    """Regenerations of a long conversation's last turn: from each regenerate on, neither
    the summarizer (a second server) nor the model receives an older version; the fact
    from turn 3 reaches the model through the summary."""
    from compaction_http_setup import long_seed
    from loopback import Behaviour, LoopbackServer
    from turnlog.core.compaction import Compactor
    from turnlog.core.projection import CostIndex
    from turnlog.core.send import Committed, Sender
    from turnlog.providers import ChatCompletionsProvider
    from turnlog.service.chat import Route, request_for
    from turnlog.store.pages import paged

    with TurnlogStore.open(turnlog_home) as store, LoopbackServer() as summarizer:
        summarizer.default = Behaviour.answer("Summary: ticket ORCHID-17, build 4.2.17.")
        conv = long_seed(store, 40)
        costs = CostIndex()
        sender = Sender(paged(store), ChatCompletionsProvider(loopback.base_url), costs=costs,
                        compactor=Compactor(store.records, ChatCompletionsProvider(
                            summarizer.base_url), costs=costs))
        replaced: list[str] = []
        for n in range(4):
            loopback.script(Behaviour.answer(f"Version {n} REPLACED-{n} " + "x" * 300))
            last = store.turns.log(conv.id)[-1]
            start = (len(loopback.requests), len(summarizer.requests))
            outcome = sender.send(request_for(conv, "Plan the next bed?", Route("m"),
                                              replaces=last.id if n else None))
            assert isinstance(outcome, Committed), outcome
            # From the regenerate on, no request carries an older version.
            sent = loopback.requests[start[0]:] + summarizer.requests[start[1]:]
            assert not any(old in r.body.decode() for r in sent for old in replaced)
            replaced.append(f"REPLACED-{n}")
        assert len(store.turns(conv.id)) == 41 and len(store.turns.all(conv.id)) == 44
        loopback.script(Behaviour.answer("ORCHID-17"))
        outcome = sender.send(request_for(conv, "Which ticket?", Route("m")))
        assert isinstance(outcome, Committed)
        assert summarizer.requests, "the conversation outgrew the budget"
        body = loopback.requests[-1].body.decode()
        assert "ORCHID-17" in body and replaced[-1] in body
        assert not any(old in body for old in replaced[:-1])


@pytest.mark.parametrize("version", [1, 2])
def test_an_old_database_upgrades_with_every_turn_active(tmp_path, version):
    import shutil

    from turnlog.store.migrations import SCHEMA_VERSION

    home = tmp_path / "home"
    home.mkdir()
    data = DATA
    shutil.copyfile(data / f"turnlog-v{version}.sqlite3", home / "turnlog.sqlite3")
    with TurnlogStore.open(home) as store:
        assert store.db.execute_sql("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        for conversation in store.conversations():
            assert not store.turns.versions(conversation.id)
            assert store.turns(conversation.id) == store.turns.all(conversation.id)
            assert len(store.turns.log(conversation.id)) == len(store.turns.all(conversation.id))
            assert store.forks.origin(conversation.id) is None
        # And versions work on it from now on.
        cid = store.conversations()[0].id
        last = store.turns(cid)[-1]
        store.turns.commit(cid, pending("after-upgrade", last.question, "new", replaces=last.id))
        assert store.turns(cid)[-1].id == "after-upgrade"


def test_search_hits_name_a_version_by_its_turn_s_number(turnlog_home):
    with TurnlogStore.open(turnlog_home) as store:
        cid = store.conversations.create("v").id
        store.turns.commit(cid, pending("a", "first", "1"))
        store.turns.commit(cid, pending("b", "second", "zebra"))
        store.turns.commit(cid, pending("c", "second", "zebra again", replaces="b"))
        store.turns.commit(cid, pending("d", "third", "zebra at last"))
        hits = {hit.turn_id: hit for hit in store.search("zebra", titles=False)}
        assert {t: (h.ordinal, h.to_json()["turn"], h.superseded)
                for t, h in hits.items()} == {
            "b": (2, 2, True), "c": (3, 2, False), "d": (4, 3, False)}
