"""Side questions travel: kept on another machine with the turns they carried (by id,
as that machine numbers them), counted in the usage of the machine that spent them only,
applied once, checked within bounds, and deleted with their conversation everywhere."""

from __future__ import annotations

import copy
import json
import uuid
from datetime import UTC, datetime

import pytest

from sync_stores import conversation_by_gid, gid_of, machines_open, pending, published, pull
from turnlog.core.model import Usage
from turnlog.core.side_records import SideQuestion
from turnlog.store.errors import SyncRecordInvalid


@pytest.fixture
def machines(tmp_path):
    with machines_open(tmp_path) as opened:
        yield opened


def _aside(a):
    conv = a.conversations.create("Garden")
    a.turns.commit(conv.id, pending("When to plant tulips?"))
    a.turns.commit(conv.id, pending("How deep?"))
    ordinals = [t.ordinal for t in a.turns.active(conv.id)]
    side = SideQuestion(uuid.uuid4().hex, "Aside: are tulips toxic to cats MARIGOLD?",
                        "Yes, the bulbs most.", "m-side", datetime.now(UTC), Usage(500, 40),
                        body_bytes=1234, input_tokens=480, sent=(ordinals[1],),
                        left_out=(ordinals[0],))
    a.side.add(conv.id, side)
    return conv, side


def test_a_side_question_comes_through_with_the_turns_it_carried(machines):
    a, b = machines["A"], machines["B"]
    conv, side = _aside(a)
    applied = pull(b, a)
    assert applied.counts == {"conversation": 1, "turn": 2, "side": 1}
    there = conversation_by_gid(b, gid_of(a, conv.id))
    [shown] = b.side.of(there)
    assert (shown.id, shown.question, shown.answer, shown.model, shown.body_bytes,
            shown.input_tokens, shown.usage) == \
        (side.id, side.question, side.answer, "m-side", 1234, 480, side.usage)
    by_ordinal = {t.ordinal: t.question for t in b.turns.active(there)}
    assert [by_ordinal[o] for o in shown.sent] == ["How deep?"]
    assert [by_ordinal[o] for o in shown.left_out] == ["When to plant tulips?"]
    # spent on A: counted in A's totals, not in B's
    assert sum(d.requests for d in a.usage.days()) == 1
    assert sum(d.requests for d in b.usage.days()) == 0
    # B does not publish it back as its own
    assert [r for r in published(b) if r["kind"] == "side"] == []


def test_applying_twice_changes_nothing(machines):
    a, b = machines["A"], machines["B"]
    conv, _side = _aside(a)
    pull(b, a)
    again = pull(b, a)
    assert again.counts == {}
    there = conversation_by_gid(b, gid_of(a, conv.id))
    assert len(b.side.of(there)) == 1


def test_malformed_side_records_are_refused_whole(machines):
    a, b = machines["A"], machines["B"]
    _aside(a)
    records = [json.loads(json.dumps(r)) for r in published(a)]
    for spoil in (lambda r: r.update(sent="1-3"), lambda r: r.update(sent=["bad id!"]),
                  lambda r: r.update(input_tokens="many"), lambda r: r.pop("answer"),
                  lambda r: r.update(side_ids=["x"] * 10_001)):
        bad = copy.deepcopy(records)
        spoil(next(r for r in bad if r["kind"] == "side"))
        with pytest.raises(SyncRecordInvalid):
            b.sync_feed.incoming(bad, "A")
        assert b.db.execute_sql('SELECT count(*) FROM "conversations"').fetchone()[0] == 0


def test_a_delete_everywhere_takes_it_from_every_machine(machines, tmp_path):
    a, b = machines["A"], machines["B"]
    conv, _side = _aside(a)
    pull(b, a)
    there = conversation_by_gid(b, gid_of(a, conv.id))
    b.sync_feed.delete_conversations([there], everywhere=True)
    pull(a, b)
    for store in (a, b):
        assert store.db.execute_sql('SELECT count(*) FROM "side_questions"').fetchone()[0] == 0
        assert [r for r in published(store) if r["kind"] == "side"] == []
    for store in (a, b):
        store.close()
    for path in tmp_path.rglob("*"):
        if path.is_file():
            assert b"MARIGOLD" not in path.read_bytes(), path
