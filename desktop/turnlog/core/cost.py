"""What a request cost: tokens × a profile's prices, in exact decimals (never floats).

A cost is *exact* when every count in it is one the server reported, *estimated* when
Turnlog's own count stood in for a count the server did not report (a server without
usage). Without prices (the built-in model, a server no one priced) there is no cost at
all, only tokens: a cost is never made up.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal, InvalidOperation

from .model import Usage

TYPE_CHECKING = False  # typing's constant, without loading typing: turnlog-cli starts sooner
if TYPE_CHECKING:
    from typing import Any

PER_TOKENS = 1_000_000  # prices are per million tokens
MAX_PRICE = Decimal(100_000)  # per million tokens; more is a typing slip
PRICE_PLACES = 6  # a millionth of a currency unit per million tokens is the finest step
PRICED_BY_YOU = "you"
PRICED_BY_SERVER = "server"


class PriceInvalid(ValueError):
    """A price that is not a plain non-negative number, or a currency that is not a code."""


def parse_price(text: str | Decimal | int, what: str = "price") -> Decimal:
    """A price per million tokens from its text ("0.15"); `PriceInvalid` in plain words."""
    try:
        value = Decimal(str(text).strip())
    except InvalidOperation:
        raise PriceInvalid(f"the {what} “{text}” is not a number (per million tokens, "
                           "for example 0.15)") from None
    if not value.is_finite() or value < 0 or value > MAX_PRICE:
        raise PriceInvalid(f"the {what} must be between 0 and {MAX_PRICE} per million tokens")
    exponent = value.normalize().as_tuple().exponent
    if isinstance(exponent, int) and -exponent > PRICE_PLACES:
        raise PriceInvalid(f"the {what} has more than {PRICE_PLACES} decimal places")
    return value.normalize() if value else Decimal(0)


def parse_currency(text: str) -> str:
    """A currency code ("USD", "CNY"): 3 letters, upper case."""
    code = text.strip().upper()
    if len(code) != 3 or not code.isascii() or not code.isalpha():
        raise PriceInvalid(f"the currency “{text}” is not a three-letter code such as USD")
    return code


@dataclass(frozen=True, slots=True)
class Prices:
    """A model's prices per million tokens: input, cached input (None: as input) and
    output, in `currency`; `set_on` the day they were set, `source` who set them
    (`PRICED_BY_YOU`, or `PRICED_BY_SERVER` when read from the server's model list)."""

    input: Decimal
    output: Decimal
    cached: Decimal | None = None
    currency: str = "USD"
    set_on: str = ""
    source: str = PRICED_BY_YOU

    @property
    def cached_input(self) -> Decimal:
        return self.input if self.cached is None else self.cached

    def to_json(self) -> dict[str, str | None]:
        return {"input": str(self.input), "cached": None if self.cached is None
                else str(self.cached), "output": str(self.output), "currency": self.currency,
                "set_on": self.set_on, "source": self.source}

    @classmethod
    def from_json(cls, data: Any) -> Prices:
        """Prices from `to_json`'s object; `PriceInvalid` for anything else."""
        if not isinstance(data, Mapping):
            raise PriceInvalid("prices are not a JSON object")
        cached = data.get("cached")
        set_on = data.get("set_on") or ""
        source = data.get("source") or PRICED_BY_YOU
        if not isinstance(set_on, str) or source not in (PRICED_BY_YOU, PRICED_BY_SERVER):
            raise PriceInvalid("prices have an invalid date or source")
        return cls(parse_price(data.get("input", ""), "input price"),
                   parse_price(data.get("output", ""), "output price"),
                   None if cached is None else parse_price(cached, "cached input price"),
                   parse_currency(str(data.get("currency", "USD"))), set_on, source)

    def set_today(self, today: date | None = None) -> Prices:
        return Prices(self.input, self.output, self.cached, self.currency,
                      (today or date.today()).isoformat(), self.source)


@dataclass(frozen=True, slots=True)
class Pricing:
    """What a request is costed with: the profile it went through and that profile's
    prices at the time (None: not priced)."""

    profile: str = ""
    prices: Prices | None = None


NO_PRICING = Pricing()


@dataclass(frozen=True, slots=True)
class Tokens:
    """Counts of one or more requests: input (of which `cached` were cached), output.
    `estimated`: some count is Turnlog's own, not the server's."""

    input: int = 0
    cached: int = 0
    output: int = 0
    estimated: bool = False

    def __add__(self, other: Tokens) -> Tokens:
        return Tokens(self.input + other.input, self.cached + other.cached,
                      self.output + other.output, self.estimated or other.estimated)


NO_TOKENS = Tokens()


def reported(usage: Usage) -> Tokens | None:
    """The counts a server reported (None: it reported none)."""
    if usage.prompt_tokens is None and usage.completion_tokens is None:
        return None
    prompt = usage.prompt_tokens or 0
    return Tokens(prompt, min(usage.cached_tokens or 0, prompt), usage.completion_tokens or 0)


def tokens_of(usage: Usage, *, input_count: int, output_count: int | None) -> Tokens:
    """A request's counts: the server's, else Turnlog's own (`input_count` of the body,
    `output_count` of the answer; None: nothing came back), marked estimated."""
    known = reported(usage)
    if known is not None:
        return known
    return Tokens(input_count, 0, output_count or 0, estimated=True)


def total(parts: Iterable[Tokens]) -> Tokens:
    out = NO_TOKENS
    for part in parts:
        out = out + part
    return out


def cost(tokens: Tokens, prices: Prices | None) -> Decimal | None:
    """What `tokens` cost at `prices`, exactly (None: not priced)."""
    if prices is None:
        return None
    uncached = tokens.input - tokens.cached
    per_million = (uncached * prices.input + tokens.cached * prices.cached_input
                   + tokens.output * prices.output)
    return per_million / PER_TOKENS


def plain(amount: Decimal) -> str:
    """`amount` as exact decimal text without an exponent ("0.00015", "12")."""
    text = format(amount.normalize(), "f")
    return text if text != "-0" else "0"


def shown(amount: Decimal, currency: str) -> str:
    """`amount` for people: cents from 1 on, three significant digits below (0.000152
    USD, 0.0288 USD, 1.23 USD), never rounded to zero."""
    if abs(amount) >= 1 or amount == 0:
        return f"{amount.quantize(Decimal('0.01')):f} {currency}"
    return f"{plain(amount.quantize(Decimal(1).scaleb(amount.adjusted() - 2)))} {currency}"


@dataclass(frozen=True, slots=True)
class UsageLine:
    """Totals of requests on one `day` (ISO date) through one profile and model, priced
    in `currency` ('' unpriced): how many, their tokens, how many were costed from
    Turnlog's own count (`estimated`) or not priced (`unpriced`), and their cost (None:
    none of them was priced)."""

    day: str
    profile: str
    model: str
    currency: str
    requests: int = 0
    input: int = 0
    cached: int = 0
    output: int = 0
    estimated: int = 0
    unpriced: int = 0
    cost: Decimal | None = None

    def __add__(self, other: UsageLine) -> UsageLine:
        amount = self.cost if other.cost is None else \
            (self.cost or Decimal(0)) + other.cost
        return replace(self, requests=self.requests + other.requests,
                       input=self.input + other.input, cached=self.cached + other.cached,
                       output=self.output + other.output,
                       estimated=self.estimated + other.estimated,
                       unpriced=self.unpriced + other.unpriced, cost=amount)

    def keyed(self, day: str, profile: str, model: str) -> UsageLine:
        return replace(self, day=day, profile=profile, model=model)

    def to_json(self) -> dict[str, str | int | None]:
        return {"day": self.day, "profile": self.profile, "model": self.model,
                "currency": self.currency or None, "requests": self.requests,
                "input_tokens": self.input, "cached_tokens": self.cached,
                "output_tokens": self.output, "estimated": self.estimated,
                "unpriced": self.unpriced,
                "cost": None if self.cost is None else plain(self.cost)}


def grouped(lines: Iterable[UsageLine], *, period: str = "day", by_model: bool = True
            ) -> list[UsageLine]:
    """`lines` summed per `period` ("day", "month" or "all") and, with `by_model`, per
    profile and model; always per currency. Sorted by period, profile, model, currency."""
    out: dict[tuple[str, str, str, str], UsageLine] = {}
    for line in lines:
        when = {"day": line.day, "month": line.day[:7], "all": ""}[period]
        profile, model = (line.profile, line.model) if by_model else ("", "")
        key = (when, profile, model, line.currency)
        got = out.get(key)
        out[key] = line.keyed(when, profile, model) if got is None else got + line
    return [out[key] for key in sorted(out)]
