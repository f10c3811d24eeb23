"""Usage kept by the store (`store.usage`): each request record counted into its day's
totals per profile and model at the prices it was costed at; the totals outlive a deleted
conversation and go only when the person clears them."""

from __future__ import annotations

import shutil
from datetime import UTC, date, datetime
from decimal import Decimal

import pytest

from schema_fixtures import FIXTURES
from turnlog.core.cost import Prices, Pricing, grouped
from turnlog.core.model import ConversationSettings, Usage
from turnlog.core.send import RequestRecord
from turnlog.store import TurnlogStore

DAY = datetime(2026, 12, 6, 10, 0, tzinfo=UTC)
CHEAP = Prices(Decimal("0.5"), Decimal("2"), Decimal("0.1"), "USD", "2026-12-01")
DEAR = Prices(Decimal("5"), Decimal("20"), None, "USD", "2026-12-06")


@pytest.fixture
def store(turnlog_home):
    s = TurnlogStore.open(turnlog_home)
    yield s
    s.close()


def add(store, cid: int, usage: Usage, prices: Prices | None = CHEAP, *,
        when: datetime = DAY, model: str = "gpt-x", estimate: int | None = None) -> None:
    store.records.add(RequestRecord(
        cid, when, model, "committed", 500, 24_000, 900, 10_000, False, (1,), (), (),
        usage=usage, pricing=Pricing("Work", prices), output_estimate=estimate))


def conversation(store) -> int:
    return store.conversations.create("t", system_prompt="", model="gpt-x",
                                      settings=ConversationSettings()).id


def test_a_day_s_totals_are_the_sum_of_what_was_reported_at_the_prices_set(store):
    cid = conversation(store)
    add(store, cid, Usage.from_json({"prompt_tokens": 1000, "completion_tokens": 100,
                                     "prompt_tokens_details": {"cached_tokens": 600}}))
    add(store, cid, Usage(2000, 300))
    (day,) = store.usage.days()
    assert (day.day, day.profile, day.model, day.currency) == ("2026-12-06", "Work", "gpt-x",
                                                               "USD")
    assert (day.requests, day.input, day.cached, day.output, day.estimated) == \
        (2, 3000, 600, 400, 0)
    # (400×0.5 + 600×0.1 + 100×2) + (2000×0.5 + 300×2) per million
    assert day.cost == Decimal("0.00206")
    assert [line.cost for line in store.usage.of_conversation(cid)] == \
        [Decimal("0.00046"), Decimal("0.0016")]
    assert sum(line.cost for line in store.usage.of_conversation(cid)) == day.cost


def test_a_price_change_costs_later_requests_only(store):
    cid = conversation(store)
    add(store, cid, Usage(1000, 100))
    add(store, cid, Usage(1000, 100), DEAR)
    first, second = store.records.of(cid)
    assert first.pricing.prices == CHEAP and second.pricing.prices == DEAR
    assert (first.cost, second.cost) == (Decimal("0.0007"), Decimal("0.007"))
    (day,) = store.usage.days()
    assert day.cost == Decimal("0.0077")


def test_a_request_without_usage_is_counted_from_turnlog_s_count_and_marked(store):
    cid = conversation(store)
    add(store, cid, Usage(), estimate=40)
    (day,) = store.usage.days()
    assert (day.input, day.output, day.estimated) == (900, 40, 1)
    assert day.cost == Decimal("0.00053")  # 900 × 0.5 + 40 × 2 per million
    (line,) = store.usage.of_conversation(cid)
    assert line.estimated == 1


def test_unpriced_requests_count_tokens_and_no_cost(store):
    cid = conversation(store)
    add(store, cid, Usage(100, 10), None)
    (day,) = store.usage.days()
    assert (day.input, day.output, day.unpriced, day.cost, day.currency) == \
        (100, 10, 1, None, "")


def test_a_deleted_conversation_s_spend_stays_in_the_daily_totals_until_cleared(store):
    gone, kept = conversation(store), conversation(store)
    add(store, gone, Usage(1000, 100))
    add(store, kept, Usage(1000, 100), when=datetime(2026, 12, 7, 1, tzinfo=UTC))
    store.privacy.delete_conversation(gone)
    assert store.records.of(gone) == []
    assert [(d.day, d.cost) for d in store.usage.days()] == [
        ("2026-12-06", Decimal("0.0007")), ("2026-12-07", Decimal("0.0007"))]
    assert [d.day for d in store.usage.days(since=date(2026, 12, 7))] == ["2026-12-07"]
    store.privacy.delete_all()
    assert len(store.usage.days()) == 2  # deleting history keeps the numbers
    store.privacy.delete_all(usage_totals=True)
    assert store.usage.days() == []


def test_a_conversation_s_totals_are_read_in_a_few_rows_and_go_with_it(store):
    cid, other = conversation(store), conversation(store)
    for _ in range(50):
        add(store, cid, Usage(1000, 100))
    add(store, cid, Usage(10, 1), None, model="local")
    add(store, other, Usage(5, 5))
    totals = store.usage.conversation_totals(cid)
    assert [(t.model, t.requests, t.input, t.cost) for t in totals] == [
        ("gpt-x", 50, 50_000, Decimal("0.035")), ("local", 1, 10, None)]
    assert len(store.usage.turn_costs(cid)) == 0  # no turn ids: records of no answer
    store.privacy.delete_conversation(cid)
    assert store.usage.conversation_totals(cid) == []
    assert store.db.execute_sql("SELECT count(*) FROM usage_conversations").fetchone() == (1,)


def test_turn_costs_are_read_from_the_newest_records_only(store):
    from dataclasses import replace

    from turnlog.store.usage import RECENT_RECORDS

    cid = conversation(store)
    for n in range(RECENT_RECORDS + 8):
        store.records.add(replace(store_record(cid, Usage(100 + n, 10)), turn_id=f"t{n}"))
    costs = store.usage.turn_costs(cid)
    assert sorted(costs, key=lambda t: int(t[1:])) == \
        [f"t{n}" for n in range(8, RECENT_RECORDS + 8)]
    assert costs["t9"].input == 109 and costs["t9"].cost == Decimal("0.0000745")


def store_record(cid: int, usage: Usage) -> RequestRecord:
    return RequestRecord(cid, DAY, "gpt-x", "committed", 500, 24_000, 900, 10_000, False,
                         (1,), (), (), usage=usage, pricing=Pricing("Work", CHEAP))


def test_clearing_the_totals_keeps_the_conversations(store):
    cid = conversation(store)
    add(store, cid, Usage(1000, 100))
    assert store.usage.forget_all() == 1
    assert store.usage.days() == [] and len(store.records.of(cid)) == 1


def test_the_daily_totals_hold_numbers_only(store, turnlog_home):
    cid = conversation(store)
    add(store, cid, Usage(1000, 100))
    row = store.db.execute_sql("SELECT * FROM usage_days").fetchone()
    assert row == ("2026-12-06", "Work", "gpt-x", "USD", 1, 1000, 0, 100, 0, 0, "0.0007")


def test_an_upgrade_counts_the_usage_of_the_records_already_kept(tmp_path):
    """Records kept before prices were: their reported tokens counted, no cost."""
    home = tmp_path / "home"
    home.mkdir()
    shutil.copyfile(FIXTURES[14], home / "turnlog.sqlite3")
    with TurnlogStore.open(home) as store:
        days = store.usage.days()
    (total,) = grouped(days, period="all", by_model=False)
    # The fixture's three records: (40, 18) and two of (70, 9).
    assert (total.requests, total.input, total.output, total.unpriced, total.cost) == \
        (3, 180, 36, 3, None)


def test_one_turn_s_cost_is_read_however_old_the_turn(store):
    from dataclasses import replace

    from turnlog.store.usage import RECENT_RECORDS

    cid = conversation(store)
    store.records.add(replace(store_record(cid, Usage(7, 3)), turn_id="t0"))  # a failed try
    for n in range(RECENT_RECORDS + 8):
        store.records.add(replace(store_record(cid, Usage(100 + n, 10)), turn_id=f"t{n}"))
    assert "t0" not in store.usage.turn_costs(cid)
    line = store.usage.turn_cost(cid, "t0")
    assert (line.requests, line.input, line.output) == (2, 107, 13)
    assert line.cost == Decimal("0.0000795")  # 107 × 0.5 + 13 × 2 per million
    assert store.usage.turn_cost(cid, "t9") == store.usage.turn_costs(cid)["t9"]
    assert store.usage.turn_cost(cid, "never") is None


def test_a_side_question_counts_once_where_it_was_asked_and_never_when_imported(store):
    from dataclasses import replace

    from turnlog.core.side_records import SideAttempt, SideQuestion

    cid = conversation(store)
    side = SideQuestion("s1", "Aside?", "Yes.", "gpt-x", DAY, Usage(1000, 100),
                        input_tokens=990, pricing=Pricing("Work", CHEAP))
    store.side.add(cid, side)
    store.side.add(cid, side)  # kept again (a retried write): counted once
    store.side.add_attempt(cid, SideAttempt(DAY, "length", "gpt-x", Usage(), (1,),
                                            Pricing("Work", CHEAP), 400, 50))
    (day,) = store.usage.days()
    assert (day.requests, day.input, day.output, day.estimated) == (2, 1400, 150, 1)
    assert day.cost == Decimal("0.0010")  # (1000 + 400) × 0.5 + (100 + 50) × 2 per million
    assert store.usage.conversation_totals(cid)[0].cost == day.cost
    assert sum(line.cost for line in store.usage.of_conversation(cid)) == day.cost
    assert store.side.of(cid)[0].cost == Decimal("0.0007")  # read back at its prices
    imported = store.imports.write_one("copy", system_prompt="", model="gpt-x", turns=[],
                                       side=[replace(side, id="s2")])
    assert len(store.side.of(imported.id)) == 1
    assert store.usage.days() == [day] and store.usage.of_conversation(imported.id) == []
