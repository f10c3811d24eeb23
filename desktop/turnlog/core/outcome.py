"""What a send ends with (`Committed` or `Failed`), the stages it goes through, and which
reply may be committed: named apart from the sender (`turnlog.core.send`), so the
window's first screen, which shows outcomes and stages, loads no sender, tool loop or
retries."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .budget import ESTIMATE
from .failures import Failure, FailureKind
from .model import Turn, Usage
from .projection import Projection, ProjectionRefused
from .provider import Reply
from .request_record import RequestRecord
from .send_request import PartialAnswer


class Stage(enum.Enum):
    STARTING_LOCAL_MODEL = "starting local model"
    PREPARING = "preparing"
    ORGANIZING = "organizing turns"
    COMPACTING = "compacting"
    ANSWERING = "answering"
    RETRYING = "retrying"


@dataclass(frozen=True, slots=True)
class Committed:
    turn: Turn
    projection: Projection
    reply: Reply
    record: RequestRecord


@dataclass(frozen=True, slots=True)
class Failed:
    failure: Failure
    draft: str
    partial: str = ""
    projection: Projection | None = None
    record: RequestRecord | None = None
    refusal: ProjectionRefused | None = None
    answer: PartialAnswer | None = None  # an incomplete answer the person may keep or continue


Outcome = Committed | Failed


def answer_estimate(answer: str | None, usage: Usage) -> int | None:
    """Turnlog's own count of an answer the server reported no usage for (None: it did,
    or nothing came): the plain estimate, which errs high, never a round trip to a
    tokenizer server."""
    if not answer or usage.known:
        return None
    return ESTIMATE.message_tokens("assistant", answer)


def validate_reply(reply: Reply) -> Failure | None:
    """Only a non-empty answer that finished with `stop` may be committed."""
    if reply.tool_calls:
        return Failure(
            FailureKind.OTHER_FINISH_REASON,
            detail="the model asked to call a tool, which Turnlog does not offer",
        )
    if reply.finish_reason is None:
        return Failure(FailureKind.NO_FINISH_REASON, hint="Send again")
    if reply.finish_reason == "length":
        return Failure(
            FailureKind.LENGTH, hint="Raise the output limit (output reserve) and send again"
        )
    if reply.finish_reason != "stop":
        return Failure(
            FailureKind.OTHER_FINISH_REASON, detail=f"finish reason “{reply.finish_reason}”"
        )
    if not reply.content.strip():
        return Failure(FailureKind.EMPTY, hint="Send again or try another model")
    return None
