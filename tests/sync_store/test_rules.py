"""The sync's rules for changes made on two machines at once: appends after the same turn
fork, versions are all kept, the later rename or setting wins and the other stays in the
history, and malformed records apply nothing."""

from __future__ import annotations

import copy
import time

import pytest

from cli_runs import cli
from sync_stores import (
    conversation_by_gid,
    current_summary,
    dump,
    gid_of,
    machines_open,
    pending,
    published,
    pull,
    summarize,
)
from turnlog.core.numbers import TurnNumbers
from turnlog.core.summaries import VersionState
from turnlog.store.errors import SyncRecordInvalid
from turnlog.ui.infra.operation_results import HistoryState
from turnlog.ui.request.compaction_history import history_html


@pytest.fixture
def machines(tmp_path):
    with machines_open(tmp_path, "ABC") as opened:
        yield opened


def _shared(a, b, title="Shared"):
    conv = a.conversations.create(title)
    a.turns.commit(conv.id, pending("turn one"))
    pull(b, a)
    return conv.id, conversation_by_gid(b, gid_of(a, conv.id))


def test_two_machines_appending_after_the_same_turn_fork_the_later_one(machines):
    a, b = machines["A"], machines["B"]
    on_a, on_b = _shared(a, b)
    earlier = a.turns.commit(on_a, pending("asked on A first"))
    a.turns.commit(on_a, pending("A goes on"))
    later = b.turns.commit(on_b, pending("asked on B later"))
    pull(a, b)
    pull(b, a)
    for store, cid in ((a, on_a), (b, on_b)):
        line = [t.question for t in store.turns.active(cid)]
        assert line == ["turn one", "asked on A first", "A goes on"]
        forks = store.forks(cid)
        assert len(forks) == 1
        fork_line = [t.question for t in store.turns.active(forks[0].id)]
        assert fork_line == ["turn one", "asked on B later"]
        assert store.turns.active(forks[0].id)[-1].id == later.id  # the turn kept its id
        assert store.db.execute_sql('SELECT "continued_on" FROM "forks" WHERE '
                                    '"conversation_id" = ?', (forks[0].id,)).fetchone() == ("B",)
    assert dump(a) == dump(b)
    assert earlier.id in {t.id for t in b.turns.active(on_b)}


def test_the_fork_rule_does_not_depend_on_who_reads_first(machines):
    a, b, c = machines["A"], machines["B"], machines["C"]
    on_a, on_b = _shared(a, b)
    pull(c, a)
    a.turns.commit(on_a, pending("A's"))
    b.turns.commit(on_b, pending("B's"))
    c_conv = conversation_by_gid(c, gid_of(a, on_a))
    c.turns.commit(c_conv, pending("C's"))
    pull(a, b, c)
    pull(b, c, a)
    pull(c, b, a)
    assert dump(a) == dump(b) == dump(c)
    line = [t.question for t in a.turns.active(on_a)]
    assert line == ["turn one", "A's"]  # A's came first by clock
    assert len(a.forks(on_a)) == 2


def test_concurrent_versions_of_one_turn_are_both_kept(machines):
    a, b = machines["A"], machines["B"]
    conv = a.conversations.create("Regenerate")
    first = a.turns.commit(conv.id, pending("Q", "original"))
    pull(b, a)
    on_b = conversation_by_gid(b, gid_of(a, conv.id))
    a.turns.commit(conv.id, pending("Q", "regenerated on A", replaces=first.id))
    b.turns.commit(on_b, pending("Q", "edited on B", replaces=first.id))
    pull(a, b)
    pull(b, a)
    for store, cid in ((a, conv.id), (b, on_b)):
        answers = sorted(t.answer for t in store.turns.all(cid))
        assert answers == ["edited on B", "original", "regenerated on A"]
        assert [t.answer for t in store.turns.active(cid)] == ["edited on B"]  # the later
    assert dump(a) == dump(b)


def test_concurrent_renames_the_later_wins_and_the_other_is_in_the_history(machines):
    a, b = machines["A"], machines["B"]
    on_a, on_b = _shared(a, b, "Original")
    a.conversations.update(on_a, title="Named on A", model="model-a")
    time.sleep(0.005)  # a later millisecond: in the same one, the machine id decides
    b.conversations.update(on_b, title="Named on B")
    pull(a, b)
    pull(b, a)
    assert a.conversations.get(on_a).title == b.conversations.get(on_b).title == "Named on B"
    assert a.conversations.get(on_a).model == b.conversations.get(on_b).model == "model-a"
    for store, cid in ((a, on_a), (b, on_b)):
        titles = [(c.value, c.current) for c in store.sync_feed.history(cid) if c.field == "title"]
        assert titles == [("Original", False), ("Named on A", False), ("Named on B", True)]


def test_a_clock_running_ahead_wins_only_until_the_others_have_read_it(machines):
    a, b = machines["A"], machines["B"]
    on_a, on_b = _shared(a, b, "Original")
    # A's clock reads an hour ahead: its rename wins over B's made before B read it ...
    a.db.execute_sql('UPDATE "sync_state" SET "phys" = "phys" + 3600000')
    a.conversations.update(on_a, title="From the fast clock")
    b.conversations.update(on_b, title="Concurrent on B")
    pull(b, a)
    assert b.conversations.get(on_b).title == "From the fast clock"
    # ... but a rename B makes after reading it wins, on both machines.
    b.conversations.update(on_b, title="Later on B")
    pull(a, b)
    assert a.conversations.get(on_a).title == "Later on B"
    assert b.conversations.get(on_b).title == "Later on B"


def _records(a):
    conv = a.conversations.create("Bad input")
    a.turns.commit(conv.id, pending("fine question"))
    return published(a)


@pytest.mark.parametrize("spoil", [
    lambda r: r[1].update(question=7),
    lambda r: r[1].update(answer="x" * (4 * 1024 * 1024 + 1)),
    lambda r: r[1].update(kind="teleport"),
    lambda r: r[1].update(hlc="tomorrow"),
    lambda r: r[1].update(id="../../etc/passwd"),
    lambda r: r[0]["fields"].update(title=None),
    lambda r: r[0]["fields"].update(settings="[1, 2]"),
    lambda r: r.__setitem__(1, "not an object"),
    lambda r: r.pop(0),  # a turn for a conversation never seen
], ids=["wrong type", "huge string", "unknown kind", "bad clock", "bad id", "null title",
        "settings not an object", "not an object", "conversation never seen"])
def test_a_malformed_record_applies_nothing_of_its_batch(machines, spoil):
    a, b = machines["A"], machines["B"]
    records = copy.deepcopy(_records(a))
    spoil(records)
    before = dump(b)
    with pytest.raises(SyncRecordInvalid):
        b.sync_feed.incoming(records, "A")
    assert dump(b) == before
    assert b.db.execute_sql('SELECT count(*) FROM "sync_journal"').fetchone() == (0,)


def test_two_machines_naming_a_folder_alike_end_with_the_same_names_everywhere(machines):
    a, b, c = machines["A"], machines["B"], machines["C"]
    first = a.folders.add("Work")
    time.sleep(0.002)  # made a moment later by clock
    b.folders.add("Work")
    pull(c, b)  # C hears of the later one first
    pull(a, b)
    pull(b, a)
    pull(c, a)
    names = [sorted(store.db.execute_sql('SELECT "gid", "name" FROM "folders"').fetchall())
             for store in (a, b, c)]
    assert names[0] == names[1] == names[2]
    earlier = a.db.execute_sql('SELECT "gid" FROM "folders" WHERE "id" = ?',
                               (first.id,)).fetchone()[0]
    assert dict(names[0])[earlier] == "Work"  # the first made keeps its name
    assert sorted(dict(names[0]).values())[1].startswith("Work (")


def test_two_machines_summarizing_offline_use_the_same_summary_and_keep_the_other(
        machines, monkeypatch):
    a, b = machines["A"], machines["B"]
    on_a, on_b = _shared(a, b)
    for n in (2, 3):
        a.turns.commit(on_a, pending(f"turn {n}"))
    pull(b, a)
    # Each summarizes offline (A first): each holds its own under a lower row id than the
    # other's once they meet, so row order would pick a different one on each.
    mine = summarize(a, on_a, "Summary made on A")
    time.sleep(0.002)
    summarize(b, on_b, "Summary made on B")
    pull(a, b)
    pull(b, a)
    for store, cid in ((a, on_a), (b, on_b)):
        assert store.records.latest_summary(cid).content == "Summary made on B"
        history = {v.summary.content: v for v in store.records.summary_history(cid)}
        in_use = history["Summary made on B"]
        assert in_use.state is VersionState.CURRENT
        set_aside = history["Summary made on A"]  # kept, and said why it is not used
        assert set_aside.state is VersionState.EARLIER
        assert set_aside.set_aside_for == in_use.summary.id
        assert in_use.set_aside_for is None
    assert current_summary(a, on_a) == current_summary(b, on_b)
    # The window's compaction history says why it is not in use, and which one is.
    state = HistoryState(on_b, tuple(b.records.summary_history(on_b)),
                         TurnNumbers.of(b.turns.versions(on_b)))
    in_use = b.records.latest_summary(on_b).id
    assert (f"Set aside: it and summary #{in_use} were made at the same time on two "
            f"machines; #{in_use}, the later by the sync's clock, is in use.") \
        in history_html(state)
    monkeypatch.setenv("TURNLOG_HOME", str(a.home))  # `turnlog-cli summaries` says so too
    shown = cli("summaries", "--conversation", str(on_a))
    assert shown.returncode == 0, shown.stderr
    in_use = a.records.latest_summary(on_a).id
    assert f"set aside: it and #{in_use} were made at the same time on two machines" \
        in shown.stdout
    # What A does after it read B's summary is later by the clock, whatever A's clock
    # says: an edit of the summary in use is used everywhere.
    a.records.edit_summary(on_a, "A's rewrite", 4)
    assert mine.id != a.records.latest_summary(on_a).id
    pull(b, a)
    for store, cid in ((a, on_a), (b, on_b)):
        assert store.records.latest_summary(cid).content == "A's rewrite"


def test_a_conversation_arrives_last_active_when_its_turns_were_made_not_when_synced(machines):
    """Lists sort by when a conversation was last active: on every machine the same time,
    the one its turns were made at, not the moment they arrived."""
    from datetime import datetime

    a, b = machines["A"], machines["B"]
    older = a.conversations.create("Older")
    a.turns.commit(older.id, pending("first"))
    time.sleep(0.02)
    newer = a.conversations.create("Newer")
    a.turns.commit(newer.id, pending("second"))
    time.sleep(0.05)
    before_sync = datetime.now().astimezone()
    pull(b, a)
    on_a = {c.title: c.updated_at for c in a.conversations()}
    on_b = {c.title: c.updated_at for c in b.conversations()}
    assert [c.title for c in b.conversations()] == [c.title for c in a.conversations()]
    for title in ("Older", "Newer"):
        assert on_b[title] < before_sync
        assert abs((on_b[title] - on_a[title]).total_seconds()) < 0.01
