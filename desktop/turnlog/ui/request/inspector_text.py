"""The request inspector's words: part names, the context window's source, refusals, count
kinds, sampling, reasoning and the pretty-printed body."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from ...core.budget import (
    WINDOW_ASSUMED,
    WINDOW_FROM_SERVER,
    WINDOW_LEARNED,
    WINDOW_SET_BY_YOU,
    Budget,
)
from ...core.cost import Prices
from ...core.model import Usage
from ...core.numbers import TurnNumbers
from ...core.projection import (
    FIX_OUTPUT_RESERVE,
    PartKind,
    Projection,
    ProjectionRefused,
    RefusalReason,
)
from ...core.request_record import RequestRecord
from ...core.tokens import estimate_text_tokens
from ..infra.cost_text import input_cost_text, record_cost_text
from ..infra.languages import arg, number, plural
from ..transcript.marks import runs_text

NOTHING_YET = QT_TRANSLATE_NOOP(
    "Inspector", "No request yet. Type a question: the request it would make appears here "
    "before anything is sent — its exact body, its size in bytes and tokens against the "
    "limits, and which turns it carries.")

# The heading of a request in flight starts with these words (LivePreview's heading).
IN_FLIGHT = QT_TRANSLATE_NOOP("LivePreview", "Request in flight")

# Pretty-printing a very large body would stall the window; beyond this, the start is shown.
MAX_SHOWN_BODY_CHARS = 200_000

PART_NAMES = {
    PartKind.ENVELOPE: QT_TRANSLATE_NOOP("Inspector", "model, options, brackets"),
    PartKind.SYSTEM: QT_TRANSLATE_NOOP("Inspector", "system prompt"),
    PartKind.PREFERENCE: QT_TRANSLATE_NOOP("Inspector", "preference, kept"),
    PartKind.PINNED: QT_TRANSLATE_NOOP("Inspector", "pinned facts"),
    PartKind.NOTE: QT_TRANSLATE_NOOP("Inspector", "note, kept"),
    PartKind.SUMMARY: QT_TRANSLATE_NOOP("Inspector", "rolling summary"),
    PartKind.QUESTION: QT_TRANSLATE_NOOP("Inspector", "current question"),
    PartKind.CONTINUATION: QT_TRANSLATE_NOOP("Inspector", "answer so far, to continue"),
    PartKind.SIDE: QT_TRANSLATE_NOOP("Inspector", "earlier side question (question + answer)"),
    PartKind.TOOLS: QT_TRANSLATE_NOOP("Inspector", "tool definitions (tools)"),
    PartKind.TOOL_EXCHANGE: QT_TRANSLATE_NOOP("Inspector",
                                              "this question's tool calls and results"),
}


WINDOW_SOURCES = {
    WINDOW_FROM_SERVER: QT_TRANSLATE_NOOP("Inspector", "from the server"),
    WINDOW_SET_BY_YOU: QT_TRANSLATE_NOOP("Inspector", "set by you"),
    WINDOW_LEARNED: QT_TRANSLATE_NOOP("Inspector", "learned"),
    WINDOW_ASSUMED: QT_TRANSLATE_NOOP("Inspector", "assumed"),
}


NO_VERSIONS = TurnNumbers()  # a conversation without versions: numbers are the ordinals


def turns_text(runs: Sequence[tuple[int, int]], numbers: TurnNumbers) -> str:
    """"turns 3–7, 9": runs of stored ordinals named by the turns' numbers."""
    return runs_text(numbers.runs(runs))


def turn_number(ordinal: int, numbers: TurnNumbers) -> str:
    """The number of the turn stored at `ordinal` as its header writes it ("1,986")."""
    return number(numbers.number(ordinal))


def window_text(budget: Budget) -> str:
    """`Budget.window_label` in the interface language: "8,192 tokens, from the server"."""
    source = budget.window_source or (WINDOW_SET_BY_YOU if budget.window_known
                                      else WINDOW_ASSUMED)
    return arg(QCoreApplication.translate("Inspector", "%1 tokens, %2"), budget.context_window,
               QCoreApplication.translate("Inspector", WINDOW_SOURCES.get(source, source)))


def _bytes_refusal(*, several: bool) -> str:
    """The bytes refusal's words; its verb agrees with the question alone or with the
    question and more."""
    if several:
        return QCoreApplication.translate(
            "Inspector", "%1 take %2 bytes, but the request limit is %3 bytes: shorten the "
            "question by at least %4 bytes or raise the byte limit. Nothing was sent.")
    return QCoreApplication.translate(
        "Inspector", "%1 takes %2 bytes, but the request limit is %3 bytes: shorten the "
        "question by at least %4 bytes or raise the byte limit. Nothing was sent.")


def _tokens_refusal(*, several: bool, exact: bool) -> str:
    """The tokens refusal's words, exact or estimated, its verb agreeing as above."""
    if several and exact:
        return QCoreApplication.translate(
            "Inspector", "%1 take exactly %2 tokens, but the input budget is %3 tokens: "
            "shorten the question by at least %4 tokens or %5. Nothing was sent.")
    if several:
        return QCoreApplication.translate(
            "Inspector", "%1 take an estimated %2 tokens, but the input budget is %3 tokens: "
            "shorten the question by at least %4 tokens or %5. Nothing was sent.")
    if exact:
        return QCoreApplication.translate(
            "Inspector", "%1 takes exactly %2 tokens, but the input budget is %3 tokens: "
            "shorten the question by at least %4 tokens or %5. Nothing was sent.")
    return QCoreApplication.translate(
        "Inspector", "%1 takes an estimated %2 tokens, but the input budget is %3 tokens: "
        "shorten the question by at least %4 tokens or %5. Nothing was sent.")


def refusal_text(refusal: ProjectionRefused) -> str:
    """`ProjectionRefused.describe` in the interface language."""
    names = [QCoreApplication.translate("Inspector", name) for name, present in (
        (QT_TRANSLATE_NOOP("Inspector", "system prompt"), refusal.includes_system),
        (QT_TRANSLATE_NOOP("Inspector", "pinned facts"), refusal.includes_pinned),
        (QT_TRANSLATE_NOOP("Inspector", "summary"), refusal.includes_summary),
        (QT_TRANSLATE_NOOP("Inspector", "answer so far"), refusal.includes_partial))
        if present]
    what = arg(QCoreApplication.translate("Inspector", "The %1 and question"),
               QCoreApplication.translate("Inspector", ", ").join(names)) if names \
        else QCoreApplication.translate("Inspector", "The question")
    if refusal.reason is RefusalReason.BYTES:
        return arg(_bytes_refusal(several=bool(names)), what, refusal.mandatory_bytes,
                   refusal.max_bytes, refusal.excess_bytes)
    if refusal.fix is not None and refusal.fix[0] == FIX_OUTPUT_RESERVE:
        instead = arg(QCoreApplication.translate(
            "Inspector", "set the output reserve to %1 tokens (Settings ▸ This conversation)"),
            refusal.fix[1])
    elif refusal.fix is not None:
        instead = arg(QCoreApplication.translate(
            "Inspector", "set the context window to at least %1 tokens (Settings ▸ This "
            "conversation)"), refusal.fix[1])
    else:
        instead = QCoreApplication.translate("Inspector", "use a larger context window")
    template = _tokens_refusal(several=bool(names), exact=refusal.tokens_exact)
    return arg(template, what, refusal.mandatory_tokens, refusal.token_budget,
               refusal.excess_tokens, instead)


def count_kind(exact: bool, count_label: str = "") -> str:
    """"exact", or how the estimate was made ("estimated, calibrated from 3 replies")."""
    if exact:
        return QCoreApplication.translate("Inspector", "exact")
    calibrated = re.fullmatch(r"estimated, calibrated from ([\d,]+) repl(?:y|ies)", count_label)
    if calibrated:
        replies = int(calibrated.group(1).replace(",", ""))
        return plural(QCoreApplication.translate(
            "Inspector", "estimated, calibrated from %n reply(s)", None, replies), replies)
    return QCoreApplication.translate("Inspector", "estimated")


def sampling_text(data: Any) -> str:
    """The sampling options a body carries, each "server default" when left out."""
    data = data if isinstance(data, dict) else {}

    def shown(key: str, name: str) -> str:
        value = data.get(key)
        if value is None:
            return arg(QCoreApplication.translate("Inspector", "%1 server default"), name)
        return f"{name} {number(value)}"

    return " · ".join(shown(key, name) for key, name in (
        ("temperature", "temperature"), ("top_p", "top_p"),
        ("max_tokens", QCoreApplication.translate("Inspector", "max output tokens"))))


def reasoning_text(reasoning: str, usage: Usage | None) -> str:
    """The reasoning's size, apart from the answer's: bytes, and tokens as the server
    reported them or as estimated."""
    size = len(reasoning.encode("utf-8"))
    reported = usage.reasoning_tokens if usage is not None else None
    tokens = (arg(QCoreApplication.translate(
        "Inspector", "%1 tokens (reported by the server)"), reported)
              if reported is not None else
              arg(QCoreApplication.translate(
                  "Inspector", "~%1 tokens (estimated)"), estimate_text_tokens(reasoning)))
    return arg(QCoreApplication.translate(
        "Inspector", "%1 bytes · %2 — shown above the answer, kept with the "
                                          "turn, never sent in later requests"), size, tokens)


ELIDE_DATA_OVER = 64  # characters of base64 shown whole below this


def elided(value: Any) -> Any:
    """`value` with every base64 data URL cut to its head and its size
    (`data:image/png;base64,…(182,114 bytes)…`): a view of the body, never what is sent
    or copied."""
    if isinstance(value, str):
        head, comma, data = value.partition(",")
        if value.startswith("data:") and head.endswith(";base64") and comma \
                and len(data) > ELIDE_DATA_OVER:
            return arg(QCoreApplication.translate("Inspector", "%1,…(%2 bytes)…"), head,
                       len(data))
        return value
    if isinstance(value, dict):
        return {key: elided(item) for key, item in value.items()}
    if isinstance(value, list):
        return [elided(item) for item in value]
    return value


def pretty_body(body: bytes, data: Any = None) -> str:
    """The body pretty-printed for reading, base64 data elided (`elided`)."""
    text = json.dumps(elided(json.loads(body) if data is None else data), ensure_ascii=False,
                      indent=2)
    if len(text) > MAX_SHOWN_BODY_CHARS:
        return text[:MAX_SHOWN_BODY_CHARS] + "\n" + QCoreApplication.translate(
            "Inspector", "… (the rest is not shown)")
    return text


def usage_words(usage: Usage | None) -> str:
    """The usage the server reported, or that it reported none."""
    if usage is None or not usage.known:
        return QCoreApplication.translate("Inspector", "not reported")
    bits = []
    if usage.prompt_tokens is not None:
        bits.append(arg(QCoreApplication.translate(
            "Inspector", "%1 prompt"), usage.prompt_tokens))
    if usage.cached_tokens:
        bits.append(arg(QCoreApplication.translate(
            "Inspector", "%1 of them cached"), usage.cached_tokens))
    if usage.completion_tokens is not None:
        bits.append(arg(QCoreApplication.translate(
            "Inspector", "%1 completion"), usage.completion_tokens))
    if usage.total_tokens is not None:
        bits.append(arg(QCoreApplication.translate(
            "Inspector", "%1 total"), usage.total_tokens))
    if usage.reasoning_tokens is not None:
        bits.append(arg(QCoreApplication.translate("Inspector", "%1 of them reasoning"),
                        usage.reasoning_tokens))
    return " · ".join(bits) + QCoreApplication.translate(
        "Inspector", " tokens (reported by the server)")


def cost_words(record: RequestRecord | None, projection: Projection | None,
               prices: Prices | None, *, in_flight: bool) -> str:
    """A request's cost (exact or estimated, at the prices it kept), or before sending
    what the next request's input will cost."""
    if record is not None:
        return record_cost_text(record)
    if projection is not None and not in_flight:
        return input_cost_text(projection.input_tokens, projection.tokens_exact, prices)
    return "—"
