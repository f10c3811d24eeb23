"""Every way a send can end without a commit, by name.

A failure never changes the log. It carries what a person needs to act:
plain words, the useful next step, and the draft to give back.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .model import UNKNOWN_USAGE, Usage


class FailureKind(enum.Enum):
    BLANK_QUESTION = "blank_question"
    INVALID_TEXT = "invalid_text"
    REFUSED = "refused_by_budget"
    TIMEOUT = "timeout"
    RATE_LIMITED = "rate_limited"
    AUTH = "auth"
    MODEL_NOT_FOUND = "model_not_found"
    REQUEST_TOO_LARGE = "request_too_large"
    HTTP_STATUS = "http_status"
    NETWORK = "network"
    MALFORMED = "malformed"
    EMPTY = "empty"
    TRUNCATED = "truncated"
    LENGTH = "length"
    NO_FINISH_REASON = "no_finish_reason"
    OTHER_FINISH_REASON = "other_finish_reason"
    CANCELLED = "cancelled"
    CONTEXT_OVERFLOW = "context_overflow"
    RESPONSE_TOO_LARGE = "response_too_large"
    DEADLINE = "deadline"
    NO_KEY = "no_key"
    STORAGE = "storage"
    SUMMARY_FAILED = "summary_failed"
    COMPACTION_LIMIT = "compaction_limit"
    LOCAL_MODEL = "local_model"
    LOCAL_MODEL_CRASHED = "local_model_crashed"
    CONVERSATION_GONE = "conversation_gone"
    INSECURE_KEY = "insecure_key"
    NO_IMAGES = "images_not_accepted"
    TOOLS = "tools"  # a bound of the tool loop; `code` names which

    @property
    def offers_retry(self) -> bool:
        """Whether sending the same draft again can help. It cannot when the draft itself
        is the problem (blank, broken text, too large) or a setting must change first (no
        key, a refused key, a model the server does not have)."""
        return self not in _NO_RETRY


_NO_RETRY = frozenset({
    FailureKind.BLANK_QUESTION,
    FailureKind.INVALID_TEXT,
    FailureKind.REFUSED,
    FailureKind.NO_KEY,
    FailureKind.AUTH,
    FailureKind.MODEL_NOT_FOUND,
    FailureKind.INSECURE_KEY,
    FailureKind.NO_IMAGES,
})


_TITLES = {
    FailureKind.BLANK_QUESTION: "Nothing to send",
    FailureKind.INVALID_TEXT: "The question contains text that cannot be sent",
    FailureKind.REFUSED: "Too large to send",
    FailureKind.TIMEOUT: "The server took too long",
    FailureKind.RATE_LIMITED: "Rate limited",
    FailureKind.AUTH: "The key was refused",
    FailureKind.MODEL_NOT_FOUND: "Model not found",
    FailureKind.REQUEST_TOO_LARGE: "The server says the request is too large",
    FailureKind.HTTP_STATUS: "The server returned an error",
    FailureKind.NETWORK: "Could not reach the server",
    FailureKind.MALFORMED: "The server sent something that is not a chat reply",
    FailureKind.EMPTY: "The reply was empty",
    FailureKind.TRUNCATED: "The reply stopped before it was complete",
    FailureKind.LENGTH: "The reply was cut off at the output limit",
    FailureKind.NO_FINISH_REASON: "The reply did not say it was finished",
    FailureKind.OTHER_FINISH_REASON: "The reply ended for an unexpected reason",
    FailureKind.CANCELLED: "Stopped",
    FailureKind.CONTEXT_OVERFLOW: "The conversation is larger than the model's context window",
    FailureKind.RESPONSE_TOO_LARGE: "The reply was larger than the response limit",
    FailureKind.DEADLINE: "The request ran past its time limit",
    FailureKind.NO_KEY: "No API key",
    FailureKind.STORAGE: "The answer could not be saved",
    FailureKind.SUMMARY_FAILED: "The summary of older turns failed",
    FailureKind.COMPACTION_LIMIT: "Compaction hit its limit",
    FailureKind.LOCAL_MODEL: "The built-in model could not start",
    FailureKind.LOCAL_MODEL_CRASHED: "The built-in model stopped unexpectedly",
    FailureKind.CONVERSATION_GONE: "The conversation was deleted",
    FailureKind.INSECURE_KEY: "The key would travel unencrypted",
    FailureKind.NO_IMAGES: "This model does not take images",
    FailureKind.TOOLS: "The tool calls could not finish",
}

RAN_HEADER = "These tool calls ran; anything they changed stays changed:"


@dataclass(frozen=True, slots=True)
class Failure:
    """A named failure with plain words. `detail` is what the server or system said
    (already redacted of secrets); `hint` is the useful next step. `context_window`: the
    window a context overflow error stated (llama.cpp's `n_ctx`, OpenAI's "maximum context
    length is N tokens"), when it did. `transport`: how the connection failed before any
    response, where that matters for trying again ("refused", "reset"). `log_tail`: the
    last lines of a log that says more (the built-in model's server log)."""

    kind: FailureKind
    detail: str = ""
    hint: str = ""
    retry_after: float | None = None
    status: int | None = None
    stage: str = ""
    context_window: int | None = None
    code: str = ""  # a finer name than `kind` where there is one, e.g. "storage_full"
    transport: str = ""
    log_tail: tuple[str, ...] = ()
    # The tool calls that ran before the send failed (`core.tools.executed`): their side
    # effects happened although nothing was saved.
    ran: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        """What the CLI prints after `failure:`: the finer code, else the kind."""
        return self.code or self.kind.value

    @property
    def title(self) -> str:
        return _TITLES[self.kind]

    def message(self) -> str:
        text = self.title
        if self.stage:
            text = f"{self.stage}: {text}"
        if self.detail:
            text += f" — {self.detail}"
        if self.hint:
            text += f". {self.hint}"
        if self.log_tail:
            text += "\nThe log ends:\n" + "\n".join(f"  {line}" for line in self.log_tail)
        if self.ran:
            text += f"\n{RAN_HEADER}\n" + "\n".join(f"  - {line}" for line in self.ran)
        return text


class ProviderFailure(Exception):
    """Raised by a provider for an outcome that is not a reply. `partial` is any answer
    text that had streamed before it; `usage` whatever the server reported."""

    def __init__(self, failure: Failure, *, partial: str = "", usage: Usage = UNKNOWN_USAGE):
        super().__init__(failure.message())
        self.failure = failure
        self.partial = partial
        self.usage = usage


class StoreError(Exception):
    """A storage fault with plain words (disk full, locked, corrupt, deleted meanwhile).
    `code` names the fault more finely than `kind` (e.g. "storage_full") where known."""

    code = ""

    def __init__(self, message: str, *, kind: FailureKind = FailureKind.STORAGE) -> None:
        super().__init__(message)
        self.kind = kind

    def failure(self, stage: str = "") -> Failure:
        return Failure(self.kind, detail=str(self), stage=stage, code=self.code)


def rate_limit_hint(retry_after: float | None) -> str:
    if retry_after is None:
        return "Wait a moment and send again"
    return f"Retry after {max(1, round(retry_after))} s"


def check_question(question: str) -> Failure | None:
    """Refuse blank questions and text that cannot be encoded as UTF-8 (a lone surrogate)."""
    if not question.strip():
        return Failure(FailureKind.BLANK_QUESTION, hint="Type a question first")
    try:
        question.encode("utf-8")
    except UnicodeEncodeError as err:
        return Failure(
            FailureKind.INVALID_TEXT,
            detail=f"character {err.start + 1} is half of a broken character pair (a lone "
            f"surrogate, often left by a bad paste)",
            hint="Delete or retype that character and send again",
        )
    return None
