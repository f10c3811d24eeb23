"""What rebuilds a past request's body byte for byte, and proves it: the record's
references (`RequestProof`), the parts a body is rebuilt from (`SentParts`) and how a
rebuilt request is shown (`Rebuilt`).

A committed request's record keeps, beside its numbers, the SHA-256 of the body as sent
and the body-format version that made it. `projection.sent_body` is the frozen builder
of `BODY_FORMAT`: any later change to what a body carries (a new field, another order,
another label) bumps `BODY_FORMAT` and keeps the older builder, so an old hash stays
checkable (a committed fixture of format-1 records must keep verifying).
"""

from __future__ import annotations

import enum
import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from .attachments import Question
from .body import RequestOptions
from .model import Turn
from .partial import Continuation
from .tools import ToolRound

BODY_FORMAT = 1
FORMATS = (1,)  # the formats this code rebuilds

# Kinds of the texts a request carried besides its turns (`Remembered.kind`).
SYSTEM_TEXT = "system"
PIN_TEXT = "pin"
PREFERENCE_TEXT = "preference"
NOTE_TEXT = "note"


def sha256_hex(body: bytes) -> str:
    return hashlib.sha256(body).hexdigest()


@dataclass(frozen=True, slots=True)
class Remembered:
    """A text a request carried besides its turns, as it was then: the system prompt, a
    pinned fact, a kept preference or note. `source`: the item's id ("" for the system
    prompt or a fact given without one)."""

    kind: str
    source: str
    text: str


@dataclass(frozen=True, slots=True)
class RequestProof:
    """What a committed request's record keeps to rebuild its body: the run of turns sent
    verbatim (its first and last turn, their ordinals, how many), the texts it carried in
    wire order, its options and tools, the length of the partial answer a continuation
    went on from, and the SHA-256 of every body it sent (one per tool round; the last is
    the answer's)."""

    sha256: tuple[str, ...]
    run_first: str | None = None
    run_last: str | None = None
    run_first_ordinal: int | None = None
    run_last_ordinal: int | None = None
    run_count: int = 0
    texts: tuple[Remembered, ...] = ()
    options: RequestOptions = RequestOptions()
    tools: tuple[Mapping[str, Any], ...] = ()
    continued: int | None = None
    prefill: bool = False
    format: int = BODY_FORMAT

    @property
    def final(self) -> str:
        return self.sha256[-1]


def options_to_json(options: RequestOptions) -> dict[str, Any]:
    """The options a body was made with (fields left out of the body: omitted)."""
    out = {"stream": options.stream, "include_usage": options.include_usage,
           "max_tokens": options.max_tokens, "temperature": options.temperature,
           "top_p": options.top_p, "seed": options.seed, "images": options.images}
    return {k: v for k, v in out.items() if v is not None}


def options_from_json(value: Mapping[str, Any]) -> RequestOptions:
    return RequestOptions(
        stream=bool(value["stream"]), include_usage=bool(value["include_usage"]),
        max_tokens=value.get("max_tokens"), temperature=value.get("temperature"),
        top_p=value.get("top_p"), seed=value.get("seed"), images=bool(value["images"]))


@dataclass(frozen=True, slots=True)
class SentParts:
    """Everything one body is rebuilt from, read back through a record's references."""

    model: str
    options: RequestOptions
    system_prompt: str
    pins: tuple[str, ...]
    kept: tuple[tuple[str, str], ...]  # (kind, text) of the optional items kept, in order
    summary: str | None
    turns: tuple[Turn, ...]
    question: Question
    continuation: Continuation | None = None
    rounds: tuple[ToolRound, ...] = ()
    tools: tuple[Mapping[str, Any], ...] = ()


class PartState(enum.Enum):
    """How a part of a past request can be shown."""

    SHOWN = "shown"
    DELETED = "deleted"  # its source was deleted: no text, never guessed


@dataclass(frozen=True, slots=True)
class ShownPart:
    """One part of a rebuilt request, in wire order: what it is, its text (None when
    deleted) and, for a turn, its ordinal and the number the window shows it by."""

    kind: str
    state: PartState
    text: str | None = None
    ordinal: int | None = None
    number: int | None = None


# Why a past request shows no verified body.
NOT_VERIFIABLE = "not verifiable (made before request hashes)"
FAILED = "failed requests keep no body"
PART_DELETED = "a part it carried was deleted (its hash went with it)"
CHANGED = "the rebuilt body differs from the one sent"
UNKNOWN_FORMAT = "made by a newer Turnlog (body format {format})"


@dataclass(frozen=True, slots=True)
class Rebuilt:
    """A past request as it can be shown: its parts, the turns' marks (runs of sent
    verbatim / in summary / not sent: of ordinals, of the window's turn numbers once
    `numbered`), the body when every part could be read, and
    whether that body hashes to the stored hash (`verified`); otherwise `why`."""

    record_id: int
    turn_id: str | None
    outcome: str
    parts: tuple[ShownPart, ...]
    marks: Mapping[str, Sequence[tuple[int, int]]]
    body: bytes | None
    stored_sha256: str | None
    verified: bool
    why: str = ""
    round: int = 1
    rounds: int = 1

    @property
    def sha256(self) -> str | None:
        return sha256_hex(self.body) if self.body is not None else None


def numbered(rebuilt: Rebuilt, number: Callable[[int], int]) -> Rebuilt:
    """`rebuilt` with its turns named as the window names them: each turn part's `number`
    and the marks as runs of numbers (`number` maps an ordinal to its turn number: the
    versions of a turn share one)."""
    parts = tuple(replace(p, number=number(p.ordinal)) if p.ordinal is not None else p
                  for p in rebuilt.parts)
    marks = {name: number_runs(runs, number) for name, runs in rebuilt.marks.items()}
    return replace(rebuilt, parts=parts, marks=marks)


def number_runs(runs: Sequence[tuple[int, int]], number: Callable[[int], int]
                ) -> list[tuple[int, int]]:
    """Ordinal runs as runs of turn numbers (consecutive numbers joined, each once)."""
    numbers = sorted({number(o) for first, last in runs for o in range(first, last + 1)})
    out: list[tuple[int, int]] = []
    for n in numbers:
        if out and out[-1][1] + 1 == n:
            out[-1] = (out[-1][0], n)
        else:
            out.append((n, n))
    return out


@dataclass(frozen=True, slots=True)
class Sources:
    """What a record's references lead to now, read back by the store: each text (None
    where its version was deleted), the summary, the turns of the run found (fewer than
    `run_count` when one was deleted), the turn it answered, the tool set (None where it
    is missing). `format` None: a record made before request hashes; `sha256` None: the
    hashes were deleted with text the request carried."""

    record_id: int
    conversation_id: int
    outcome: str
    model: str
    turn_id: str | None
    format: int | None
    sha256: tuple[str, ...] | None
    marks: Mapping[str, Sequence[tuple[int, int]]]
    options: RequestOptions | None = None
    texts: tuple[tuple[str, str | None], ...] = ()
    summary_id: int | None = None
    summary: str | None = None
    turns: tuple[Turn, ...] = ()
    run_count: int = 0
    answered: Turn | None = None
    tools: tuple[Mapping[str, Any], ...] | None = ()
    continued: int | None = None
    prefill: bool = False
