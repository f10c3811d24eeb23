"""What requests used and cost, in words: on a turn (hover), in the inspector, in the
conversation header and the Usage view. A cost is exact or marked estimated; without
prices only tokens are shown, never a made-up cost."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from PySide6.QtCore import QCoreApplication

from ...core.cost import Prices, Tokens, UsageLine, cost, shown
from ...core.request_record import RequestRecord
from .languages import arg, number

translate = QCoreApplication.translate  # translate("Cost", …): lupdate reads the context


def money(amount: Decimal, currency: str, *, estimated: bool) -> str:
    """"0.000435 USD", or "≈0.000435 USD (estimated)"."""
    text = shown(amount, currency)
    return arg(translate("Cost", "≈%1 (estimated)"), text) if estimated else text


def tokens_text(input_: int, cached: int, output: int) -> str:
    """"1,200 in (1,000 cached) · 300 out"."""
    text = arg(translate("Cost", "%1 in"), number(input_))
    if cached:
        text += arg(translate("Cost", " (%1 cached)"), number(cached))
    return text + arg(translate("Cost", " · %1 out"), number(output))


def line_cost(line: UsageLine) -> str:
    """A line's cost: the amount (estimated where some count was Turnlog's own), or that
    there are no prices."""
    if line.cost is None:
        return translate("Cost", "no prices set")
    text = money(line.cost, line.currency, estimated=bool(line.estimated))
    if line.unpriced:
        text += arg(translate("Cost", " (+%1 unpriced requests)"), number(line.unpriced))
    return text


def line_text(line: UsageLine) -> str:
    """"1,200 in · 300 out · 0.0012 USD"."""
    return tokens_text(line.input, line.cached, line.output) + " · " + line_cost(line)


def totals_text(totals: Sequence[UsageLine]) -> str:
    """A conversation's spend, each currency apart ("" when nothing was used yet)."""
    used = [line for line in totals if line.input or line.output]
    if not used:
        return ""
    costs = [line_cost(line) for line in used if line.cost is not None]
    tokens = sum(line.input for line in used), sum(line.output for line in used)
    text = arg(translate("Cost", "Spent: %1 in · %2 out"), number(tokens[0]),
               number(tokens[1]))
    return text + (" · " + " + ".join(costs) if costs else "")


def turn_cost_text(line: UsageLine | None) -> str:
    """The hover line of a turn: what its answer used and cost."""
    if line is None or not (line.input or line.output):
        return ""
    return arg(translate("Cost", "This answer: %1"), line_text(line))


def record_cost_text(record: RequestRecord) -> str:
    """The inspector's cost of a request: exact or estimated, at the prices it kept."""
    tokens = record.tokens
    if not (tokens.input or tokens.output):
        return translate("Cost", "nothing used")
    prices = record.pricing.prices
    used = tokens_text(tokens.input, tokens.cached, tokens.output)
    amount = record.cost
    if prices is None or amount is None:
        return used + " · " + translate("Cost", "no prices set for this profile")
    return used + " · " + money(amount, prices.currency, estimated=tokens.estimated) + \
        " · " + prices_text(prices)


def prices_text(prices: Prices) -> str:
    """"at 0.15 / 0.6 USD per million tokens in / out (set 2026-12-01)"."""
    text = arg(translate("Cost", "at %1 / %2 %3 per million tokens in / out"),
               f"{prices.input:f}", f"{prices.output:f}", prices.currency)
    if prices.cached is not None:
        text += arg(translate("Cost", ", %1 cached"), f"{prices.cached:f}")
    if prices.set_on:
        text += arg(translate("Cost", " (set %1)"), prices.set_on)
    return text


def input_cost_text(input_tokens: int, exact: bool, prices: Prices | None) -> str:
    """Before sending: what the next request's input will cost."""
    if prices is None:
        return translate("Cost", "no prices set for this profile")
    amount = cost(Tokens(input_tokens), prices) or Decimal(0)
    return arg(translate("Cost", "input of the next request: %1"),
               money(amount, prices.currency, estimated=not exact))
