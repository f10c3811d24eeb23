"""What a request costs (`core.cost`): tokens × prices per million, exact to the last digit
(checked against plain fractions), exact or estimated as its counts are, and no cost at
all without prices."""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from turnlog.core.cost import (
    PriceInvalid,
    Prices,
    Pricing,
    Tokens,
    UsageLine,
    cost,
    grouped,
    parse_currency,
    parse_price,
    shown,
    tokens_of,
)
from turnlog.core.model import UNKNOWN_USAGE, Usage
from turnlog.core.request_record import RequestRecord

PRICES = Prices(Decimal("0.15"), Decimal("0.6"), Decimal("0.075"), "USD", "2026-12-01")


def record(usage: Usage = UNKNOWN_USAGE, *, output_estimate: int | None = None,
           extra: tuple[Usage, ...] = (), rounds: tuple[Usage, ...] = (),
           prices: Prices | None = PRICES) -> RequestRecord:
    return RequestRecord(1, datetime(2026, 12, 6, 23, 59, tzinfo=UTC), "m", "committed", 100,
                         1000, 400, 1000, False, (1,), (), (), usage=usage,
                         pricing=Pricing("Work", prices), output_estimate=output_estimate,
                         extra_usage=extra, round_usage=rounds)


def test_a_reported_usage_is_costed_exactly_with_its_cached_part_at_the_cached_price():
    usage = Usage.from_json({"prompt_tokens": 1000, "completion_tokens": 500,
                             "prompt_tokens_details": {"cached_tokens": 200}})
    assert usage.cached_tokens == 200
    got = record(usage)
    assert got.tokens == Tokens(1000, 200, 500, estimated=False)
    # 800 × 0.15 + 200 × 0.075 + 500 × 0.6 = 435 per million
    assert got.cost == Decimal("0.000435")


def test_without_usage_the_answer_is_costed_from_turnlog_s_count_and_marked_estimated():
    got = record(output_estimate=50)
    assert got.tokens == Tokens(400, 0, 50, estimated=True)
    assert got.cost == Decimal("0.00009")  # 400 × 0.15 + 50 × 0.6 = 90 per million


def test_summary_calls_and_tool_rounds_add_to_an_answer_s_cost():
    main = Usage(1000, 100)
    got = record(main, extra=(Usage(300, 40),), rounds=(Usage(900, 20), Usage(950, 10)))
    assert got.tokens == Tokens(3150, 0, 170)
    assert got.cost == (Decimal(3150) * Decimal("0.15") + 170 * Decimal("0.6")) / 1_000_000


def test_without_prices_there_are_tokens_and_no_cost():
    got = record(Usage(1000, 500), prices=None)
    assert got.tokens.input == 1000 and got.cost is None


def test_a_request_that_got_nothing_back_and_no_usage_counts_nothing():
    assert record().tokens == Tokens()


@given(st.integers(0, 10**9), st.integers(0, 10**9), st.integers(0, 10**9),
       st.decimals(0, 1000, places=6), st.decimals(0, 1000, places=6),
       st.decimals(0, 1000, places=6) | st.none())
def test_cost_is_the_exact_fraction(input_, cached, output, p_in, p_out, p_cached):
    cached = min(cached, input_)
    prices = Prices(p_in, p_out, p_cached)
    reference = (Fraction(input_ - cached) * Fraction(p_in)
                 + Fraction(cached) * Fraction(p_in if p_cached is None else p_cached)
                 + Fraction(output) * Fraction(p_out)) / 1_000_000
    got = cost(Tokens(input_, cached, output), prices)
    assert got is not None and Fraction(got) == reference


def test_counts_the_server_did_not_report_stay_turnlog_s_own():
    assert tokens_of(Usage(), input_count=10, output_count=None) == Tokens(10, 0, 0, True)
    assert tokens_of(Usage(5, 7), input_count=10, output_count=3) == Tokens(5, 0, 7)


@pytest.mark.parametrize(("text", "fine"), [("0.15", True), ("0", True), ("12", True),
                                            ("-1", False), ("abc", False), ("1e400", False),
                                            ("0.0000001", False), ("NaN", False)])
def test_prices_are_plain_numbers_with_at_most_six_places(text, fine):
    if fine:
        assert parse_price(text) == Decimal(text)
    else:
        with pytest.raises(PriceInvalid):
            parse_price(text)


def test_a_currency_is_a_three_letter_code():
    assert parse_currency(" usd ") == "USD"
    for bad in ("US", "dollar", "U$D", "ДОЛ"):
        with pytest.raises(PriceInvalid):
            parse_currency(bad)


def test_prices_come_back_from_their_json_unchanged():
    assert Prices.from_json(PRICES.to_json()) == PRICES
    with pytest.raises(PriceInvalid):
        Prices.from_json({"input": "x", "output": "1"})


def test_small_costs_are_shown_never_rounded_to_zero():
    assert shown(Decimal("0.000435"), "USD") == "0.000435 USD"
    assert shown(Decimal("0.0001234567"), "USD") == "0.000123 USD"
    assert shown(Decimal("1.234"), "CNY") == "1.23 CNY"
    assert shown(Decimal(0), "USD") == "0.00 USD"
    assert shown(Decimal("0.02884"), "USD") == "0.0288 USD"  # not 0.03


def test_lines_group_by_month_and_keep_currencies_apart():
    lines = [UsageLine("2026-11-30", "A", "m", "USD", 1, 10, 0, 5, 0, 0, Decimal("0.5")),
             UsageLine("2026-12-01", "A", "m", "USD", 2, 20, 5, 5, 1, 0, Decimal("0.25")),
             UsageLine("2026-12-02", "B", "n", "", 1, 7, 0, 1, 0, 1, None),
             UsageLine("2026-12-03", "C", "m", "CNY", 1, 1, 0, 1, 0, 0, Decimal("3"))]
    months = grouped(lines, period="month", by_model=False)
    assert [(m.day, m.currency, m.requests, m.input, m.cost) for m in months] == [
        ("2026-11", "USD", 1, 10, Decimal("0.5")), ("2026-12", "", 1, 7, None),
        ("2026-12", "CNY", 1, 1, Decimal("3")), ("2026-12", "USD", 2, 20, Decimal("0.25"))]
    (usd,) = [g for g in grouped(lines, period="all") if g.currency == "USD"]
    assert (usd.requests, usd.input, usd.cached, usd.estimated, usd.cost) == \
        (3, 30, 5, 1, Decimal("0.75"))
