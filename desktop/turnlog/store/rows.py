"""Stored rows into core's values: the one place that knows how each column is encoded."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from functools import lru_cache

from ..core.model import Conversation, ConversationSettings, Turn, Usage

TYPE_CHECKING = False  # typing's constant, without loading typing: turnlog-cli starts sooner
if TYPE_CHECKING:  # loaded by the parts that read them: records, summaries, proofs, prices,
    # tool exchanges; the tables' classes (peewee's models) by the parts that query them
    from typing import Any, overload

    from ..core.cost import Prices, Pricing
    from ..core.request_record import RequestRecord
    from ..core.summaries import StoredSummary
    from ..core.tools import ToolRound
    from .models import ConversationRow, RequestRow, SummaryRow


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


def parse_time(text: str) -> datetime:
    return datetime.fromisoformat(text)


def usage_of(text: str | None) -> Usage:
    return Usage.from_json(json.loads(text)) if text else Usage()


def usage_json(usage: Usage, seed: int | None = None) -> str | None:
    """A request's usage column: its usage, and the sampling seed its body carried (kept
    beside the counts, which readers of usage pass over, so records keep their columns)."""
    out = usage.to_json() if usage.known else None
    if seed is not None:
        out = {**(out or {}), "seed": seed}
    return json.dumps(out) if out is not None else None


def seed_of(text: str | None) -> int | None:
    """The seed `usage_json` kept, or None."""
    found = json.loads(text).get("seed") if text else None
    return found if isinstance(found, int) and not isinstance(found, bool) else None


def expand_runs(text: str) -> tuple[int, ...]:
    """`[[first, last], ...]` JSON runs back into ordinals."""
    return tuple(o for first, last in json.loads(text) for o in range(first, last + 1))


TURN_COLUMNS = ("id", "ordinal", "question", "answer", "model", "finish_reason", "created_at",
                "usage", "reasoning", "incomplete", "tool_exchange")
"""The columns `turn_of` takes, in order (for reading turns straight from a cursor)."""


def _rounds(tool_exchange: str | None) -> tuple[ToolRound, ...]:
    """A turn's tool exchange (its module loads with the first turn that has one)."""
    if not tool_exchange:
        return ()
    from ..core.tools import rounds_from_json

    return rounds_from_json(tool_exchange)


def turn_of(turn_id: str, ordinal: int, question: str, answer: str, model: str,
            finish_reason: str, created_at: str, usage: str | None,
            reasoning: str = "", incomplete: str | None = None,
            tool_exchange: str | None = None) -> Turn:
    return Turn(
        id=turn_id,
        ordinal=ordinal,
        question=question,
        answer=answer,
        model=model,
        finish_reason=finish_reason,
        created_at=parse_time(created_at),
        usage=usage_of(usage),
        reasoning=reasoning,
        incomplete=incomplete or None,
        tools=_rounds(tool_exchange),
    )


def turn(row: Any) -> Turn:
    """A `TurnRow` (or anything with its columns as attributes) as a `Turn`."""
    return turn_of(*(getattr(row, name) for name in TURN_COLUMNS))


@lru_cache(maxsize=256)
def settings_of(text: str) -> ConversationSettings:
    """A conversation's settings column (most conversations share a few: each read once;
    the settings are frozen, so sharing one is safe)."""
    return ConversationSettings.from_json(json.loads(text or "{}"))


CONVERSATION_COLUMNS = ("id", "title", "system_prompt", "model", "settings", "created_at",
                        "updated_at", "title_source", "source", "source_model", "folder_id",
                        "starred")
"""The columns `conversation_of` takes, in order (for reading a long list from a cursor)."""


def conversation_of(cid: int, title: str, system_prompt: str, model: str, settings: str,
                    created_at: str, updated_at: str, title_source: str, source: str,
                    source_model: str, folder_id: int | None, starred: int) -> Conversation:
    return Conversation(
        id=cid,
        title=title,
        system_prompt=system_prompt,
        model=model,
        settings=settings_of(settings),
        created_at=parse_time(created_at),
        updated_at=parse_time(updated_at),
        title_source=title_source,
        source=source,
        source_model=source_model,
        folder_id=folder_id,
        starred=bool(starred),
    )


class ConversationRows(Sequence[Conversation]):
    """Conversations as read from a cursor (`CONVERSATION_COLUMNS`), each made into a
    `Conversation` when first asked for: a list of thousands (an import's) is shown
    without making every one of them."""

    def __init__(self, raw: list[tuple[Any, ...]]) -> None:
        self._raw = raw
        self._made: dict[int, Conversation] = {}

    def __len__(self) -> int:
        return len(self._raw)

    if TYPE_CHECKING:  # indexed as a list is

        @overload
        def __getitem__(self, index: int) -> Conversation: ...

        @overload
        def __getitem__(self, index: slice) -> list[Conversation]: ...

    def __getitem__(self, index: int | slice) -> Conversation | list[Conversation]:
        if isinstance(index, slice):
            return [self[i] for i in range(len(self._raw))[index]]
        at = range(len(self._raw))[index]  # IndexError past either end, as a list's
        made = self._made.get(at)
        if made is None:
            made = self._made[at] = conversation_of(*self._raw[at])
        return made

    @property
    def ids(self) -> list[int]:
        """Their ids, in order, without making them."""
        return [int(raw[0]) for raw in self._raw]


def conversation(row: ConversationRow) -> Conversation:
    return conversation_of(*(getattr(row, name) for name in CONVERSATION_COLUMNS))


def request_record(row: RequestRow) -> RequestRecord:
    from ..core.cost import Pricing
    from ..core.request_record import RequestRecord

    return RequestRecord(
        conversation_id=row.conversation_id,
        started_at=parse_time(row.started_at),
        model=row.model,
        outcome=row.outcome,
        body_bytes=row.body_bytes,
        max_bytes=row.max_bytes,
        input_tokens=row.input_tokens,
        token_budget=row.token_budget,
        tokens_exact=bool(row.tokens_exact),
        sent=expand_runs(row.sent),
        summarized=expand_runs(row.summarized),
        left_out=expand_runs(row.left_out),
        usage=usage_of(row.usage),
        extra_usage=tuple(Usage.from_json(u) for u in json.loads(row.extra_usage)),
        duration_s=row.duration_s,
        first_token_s=row.first_token_s,
        status=row.status,
        turn_id=row.turn_id,
        summary_id=row.summary_id,
        attempt=row.attempt,
        seed=seed_of(row.usage),
        pricing=Pricing(row.profile, prices_of(row.prices)),
        output_estimate=row.output_estimate,
        round_usage=tuple(Usage.from_json(u) for u in json.loads(row.round_usage)),
    )


def prices_of(text: str | None) -> Prices | None:
    """The prices a record kept (None: not priced, or unreadable: no cost made up)."""
    if not text:
        return None
    from ..core.cost import PriceInvalid, Prices

    try:
        return Prices.from_json(json.loads(text))
    except (ValueError, PriceInvalid):
        return None


# The summary in effect (see `summaries._current_id`) of the conversation `?`. The clock
# reading of a summary's making is the first its sync journal keeps (its insert's here;
# the record's as it arrived from another machine).
CURRENT_SUMMARY = (
    'SELECT s."id" FROM "summaries" s WHERE s."conversation_id" = ? AND s."undone" = 0 '
    'ORDER BY coalesce((SELECT min(j."hlc") FROM "sync_journal" j WHERE j."subject" = s."gid" '
    'AND j."kind" = \'summary\'), \'\') DESC, s."gid" DESC LIMIT 1')

SUMMARY_COLUMNS = ("id", "conversation_id", "first_ordinal", "last_ordinal", "covered_count",
                   "covered_digest", "content", "model", "settings_key", "created_at",
                   "content_bytes", "content_tokens", "usages", "warnings", "replaced_id",
                   "edited_from", "undone")
"""The columns of a summary `stored_summary_of` takes (read with plain SQL)."""


def stored_summary(row: SummaryRow) -> StoredSummary:
    return stored_summary_of({name: getattr(row, name) for name in SUMMARY_COLUMNS})


def stored_summary_of(values: dict[str, Any]) -> StoredSummary:
    """A summary from its `SUMMARY_COLUMNS`."""
    from ..core.summaries import StoredSummary

    return StoredSummary(
        id=values["id"],
        conversation_id=values["conversation_id"],
        first_ordinal=values["first_ordinal"],
        last_ordinal=values["last_ordinal"],
        covered_count=values["covered_count"],
        covered_digest=values["covered_digest"],
        content=values["content"],
        model=values["model"],
        settings_key=values["settings_key"],
        created_at=parse_time(values["created_at"]),
        content_bytes=values["content_bytes"],
        content_tokens=values["content_tokens"],
        usages=tuple(Usage.from_json(u) for u in json.loads(values["usages"])),
        warnings=tuple(json.loads(values["warnings"])),
        replaced_id=values["replaced_id"],
        edited_from=values["edited_from"],
        undone=bool(values["undone"]),
    )


# Kept beside the counts in a side row's usage column (readers of usage pass over them):
# what the request was costed with, and Turnlog's own counts where the server gave none.
# `counted`: the request was counted in the usage totals (asked here, not imported).
_PRICING, _OUTPUT_ESTIMATE, _INPUT_COUNT = "pricing", "output_estimate", "input_count"
_COUNTED = "counted"
COUNTED = _COUNTED  # a side question's usage mark: counted in this machine's totals


def side_usage_column(usage: Usage, pricing: Pricing, output_estimate: int | None,
                      input_count: int | None = None, *, counted: bool) -> str | None:
    from ..core.cost import NO_PRICING

    out: dict[str, Any] = usage.to_json() or {}
    if counted:
        out[_COUNTED] = True
    if pricing != NO_PRICING:
        prices = pricing.prices
        out[_PRICING] = {"profile": pricing.profile,
                         "prices": prices.to_json() if prices is not None else None}
    if output_estimate is not None:
        out[_OUTPUT_ESTIMATE] = output_estimate
    if input_count is not None:
        out[_INPUT_COUNT] = input_count
    return json.dumps(out) if out else None


def side_costing(text: str | None) -> tuple[Pricing, int | None, int, bool]:
    """What a side row's usage column says it was costed with (unreadable: not priced):
    the pricing, the output estimate, the input count and whether it was counted."""
    from ..core.cost import NO_PRICING, Pricing

    data = json.loads(text) if text else {}
    kept = data.get(_PRICING) if isinstance(data, dict) else None
    pricing = NO_PRICING
    if isinstance(kept, dict):
        prices = kept.get("prices")
        pricing = Pricing(str(kept.get("profile") or ""),
                          prices_of(json.dumps(prices)) if prices else None)
    numbers = [data.get(key) if isinstance(data, dict) else None
               for key in (_OUTPUT_ESTIMATE, _INPUT_COUNT)]
    estimate, sent = (n if isinstance(n, int) and n >= 0 else None for n in numbers)
    counted = isinstance(data, dict) and data.get(_COUNTED) is True
    return pricing, estimate, sent or 0, counted
