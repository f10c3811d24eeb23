"""Partial answers, kept on purpose.

An answer that stopped before it was complete (Stop, a cut stream, the output limit, no
finish reason) is never committed by a send. The person may *keep* it as an incomplete
turn, marked with why it is incomplete, or *continue* it: a request for the rest, whose
complete answer is committed as one turn, the partial answer plus the rest.

A continuation asks in one of two ways. Where the server continues a final assistant
message (`prefill`: llama.cpp's server does), the partial answer is the start of that
message and the server's text is exactly the rest. Elsewhere the partial answer is an
assistant message followed by `CONTINUE_PROMPT`; a model may then begin by repeating the
end of what it had said, which `join_answer` does not keep twice.
"""

from __future__ import annotations

from dataclasses import dataclass

from .body import ASSISTANT, USER, Message
from .failures import Failure, FailureKind

STOPPED = "stopped"  # the person pressed Stop
CUT = "cut"  # the stream ended or broke before the reply said it was finished
LENGTH = "length"  # the output limit (`finish_reason` "length")
NO_FINISH_REASON = "no_finish_reason"  # the reply ended without saying it was finished
REASONS = (STOPPED, CUT, LENGTH, NO_FINISH_REASON)
# In plain words, for the command line and exports (the window says them translated).
REASON_WORDS = {
    STOPPED: "stopped",
    CUT: "the stream was cut",
    LENGTH: "cut off at the output limit",
    NO_FINISH_REASON: "no finish reason",
}

_REASON_OF = {
    FailureKind.CANCELLED: STOPPED,
    FailureKind.TRUNCATED: CUT,
    FailureKind.NETWORK: CUT,
    FailureKind.TIMEOUT: CUT,
    FailureKind.DEADLINE: CUT,
    FailureKind.LENGTH: LENGTH,
    FailureKind.NO_FINISH_REASON: NO_FINISH_REASON,
}

# The protocol text of a continuation without prefill: sent to the model, never shown.
CONTINUE_PROMPT = (
    "Continue your previous answer exactly where it stopped, without repeating anything."
)

# A repeated tail shorter than this (non-blank characters) may be a coincidence, and one
# longer than `MAX_OVERLAP` is not looked for: either way the rest is kept as it came.
MIN_OVERLAP = 4
MAX_OVERLAP = 2_000


def incomplete_mark(reason: str) -> str:
    """"incomplete (stopped)": how the command line and exports mark a kept turn."""
    return f"incomplete ({REASON_WORDS.get(reason, reason)})"


def incomplete_reason(failure: Failure) -> str | None:
    """Why an answer that failed this way is incomplete, or None when a partial answer of
    such a failure is not offered (an error status, a refused request, a full disk)."""
    return _REASON_OF.get(failure.kind)


def join_answer(partial: str, rest: str, *, prefill: bool) -> str:
    """The whole answer: `partial` then `rest`. After a prefill the server's text is the
    exact continuation; otherwise a start of `rest` that repeats the end of `partial`
    (at least `MIN_OVERLAP` non-blank characters) is kept once."""
    if prefill:
        return partial + rest
    longest = min(len(partial), len(rest), MAX_OVERLAP)
    for size in range(longest, 0, -1):
        head = rest[:size]
        if len("".join(head.split())) < MIN_OVERLAP:
            break
        if partial.endswith(head):
            return partial + rest[size:]
    return partial + rest


@dataclass(frozen=True, slots=True)
class Continuation:
    """What a request for the rest of an answer carries after the question: the partial
    answer so far and why it stopped (`reason`), as the start of the final assistant
    message (`prefill`) or as an assistant message and `CONTINUE_PROMPT`."""

    partial: str
    reason: str
    prefill: bool = False

    def messages(self) -> tuple[Message, ...]:
        if self.prefill:
            return (Message(ASSISTANT, self.partial),)
        return Message(ASSISTANT, self.partial), Message(USER, CONTINUE_PROMPT)

    def join(self, rest: str) -> str:
        return join_answer(self.partial, rest, prefill=self.prefill)
