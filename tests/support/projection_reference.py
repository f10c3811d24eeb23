"""Turns to project, and the naive selection and request the projection is checked against."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from turnlog.core.body import ASSISTANT, SYSTEM, USER, Message, RequestOptions, build_body
from turnlog.core.budget import ESTIMATE, Budget
from turnlog.core.model import Turn
from turnlog.core.projection import (
    SummaryPart,
)

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def make_turns(pairs: Sequence[tuple[str, str]], first_ordinal: int = 1) -> tuple[Turn, ...]:
    return tuple(
        Turn(f"t{first_ordinal + i}", first_ordinal + i, q, a, "m", "stop", T0)
        for i, (q, a) in enumerate(pairs)
    )


def pinned_message(pinned: Sequence[str]) -> Message:
    # What the model reads for pinned facts; written out here so a change to it is deliberate.
    lines = "\n".join(f"- {fact}" for fact in pinned)
    return Message(SYSTEM, "Pinned facts (always true in this conversation):\n" + lines)


@dataclass(frozen=True)
class NaiveResult:
    sent: tuple[int, ...]
    body: bytes
    tokens: int


def naive_tokens(messages: Sequence[Message]) -> int:
    return ESTIMATE.reply_priming_tokens() + sum(
        ESTIMATE.message_tokens(m.role, m.content) for m in messages
    )


def naive_request(
    kept: Sequence[Turn],
    question: str,
    *,
    model: str,
    system_prompt: str = "",
    options: RequestOptions | None = None,
    pinned: Sequence[str] = (),
    summary: SummaryPart | None = None,
) -> tuple[bytes, int]:
    """The serialized body and its estimated input tokens carrying exactly `kept`."""
    messages: list[Message] = []
    if system_prompt:
        messages.append(Message(SYSTEM, system_prompt))
    if pinned:
        messages.append(pinned_message(pinned))
    if summary is not None:
        messages.append(Message(SYSTEM, summary.content))
    for turn in kept:
        messages += [Message(USER, turn.question), Message(ASSISTANT, turn.answer)]
    messages.append(Message(USER, question))
    return build_body(model, messages, options or RequestOptions()), naive_tokens(messages)


def naive_select(
    turns: Sequence[Turn],
    question: str,
    *,
    budget: Budget,
    summary: SummaryPart | None = None,
    max_verbatim: int | None = None,
    deadline: float | None = None,
    clock: Callable[[], float] = time.perf_counter,
    **request: Any,
) -> NaiveResult | None:
    """Serialize the whole body with every candidate turn (at most the newest
    `max_verbatim`); while it does not fit both budgets, drop the oldest turn and
    serialize again. `None` when even no turns fit.
    With `deadline`, gives up (raises TimeoutError) once `clock()` passes it."""
    kept = list(turns[summary.covered_count if summary else 0 :])
    if max_verbatim is not None:
        kept = kept[max(0, len(kept) - max_verbatim) :]
    while True:
        body, tokens = naive_request(kept, question, summary=summary, **request)
        if len(body) <= budget.max_bytes and tokens <= budget.input_tokens:
            return NaiveResult(tuple(t.ordinal for t in kept), body, tokens)
        if not kept:
            return None
        if deadline is not None and clock() > deadline:
            raise TimeoutError
        kept.pop(0)
