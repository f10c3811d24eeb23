"""A conversation's title and where it came from.

A title is typed by the user (or renamed, or imported: `USER`), taken from the first
question of the active line (`QUESTION`), or made by the model after the first answer
(`MODEL`). A title taken from the first question is derived data (rule 5): it follows
the first turn when that turn is deleted; a title made by the model from a turn that is
gone goes back to the first question. Only the user's own title is never replaced.

`ModelTitle` asks the model for a short title: one small request of its own, off the
chat's path, that never touches the log.
"""

from __future__ import annotations

import logging
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Protocol

from .body import SYSTEM, Message, RequestOptions, build_body
from .body import USER as USER_ROLE
from .failures import Failure, FailureKind, ProviderFailure
from .model import Conversation, Turn, Usage
from .provider import CancelToken, ChatProvider
from .send import RequestRecord

log = logging.getLogger(__name__)

USER = "user"
QUESTION = "question"
MODEL = "model"
SOURCES = (USER, QUESTION, MODEL)

TITLE_LENGTH = 40  # characters of a title taken from a question
CUT_WINDOW = 10  # a cut at a space only within this many characters before the limit
ELLIPSIS = "…"

# Joiners and marks that belong to the character before them: a cut never leaves one
# hanging, nor splits an emoji sequence at its joiner.
_ZWJ = "\u200d"


def _binds(char: str) -> bool:
    return char == _ZWJ or unicodedata.combining(char) > 0 \
        or "\ufe00" <= char <= "\ufe0f" or unicodedata.category(char) == "Mn"


def first_line(text: str) -> str:
    """The first line of `text` that is not blank, its runs of white space as one space."""
    for line in text.splitlines():
        if line.strip():
            return " ".join(line.split())
    return ""


def short_title(text: str, limit: int = TITLE_LENGTH) -> str:
    """`text` (one line) as a title of at most `limit` characters and an ellipsis: cut at
    the last space within the `CUT_WINDOW` characters before the limit, else at the limit
    (Chinese and Japanese have no spaces); uncut when it fits."""
    if len(text) <= limit:
        return text
    if text[limit].isspace():
        cut = limit  # the limit falls between two words
    else:
        space = text.rfind(" ", limit - CUT_WINDOW, limit)
        cut = space if space > 0 else limit
        while 0 < cut < len(text) and _binds(text[cut]):
            cut -= 1  # back over a mark or a joiner that belongs to the character before
        while cut > 0 and text[cut - 1] == _ZWJ:
            cut -= 1
    return text[:cut].rstrip() + ELLIPSIS


def title_from_question(question: str) -> str:
    """The title a conversation takes from its first question ("" for a blank one)."""
    return short_title(first_line(question))


# ---------------------------------------------------------------- made by the model
TITLE_INSTRUCTION = (
    "Write a short title (at most six words) for a conversation that starts with the "
    "exchange below. Use the language of the question. Reply with the title only: no "
    "quotes, no full stop, no explanation.")
TITLE_MAX_TOKENS = 32  # the reply's bound: a title, not an essay
EXCHANGE_CHARS = 2_000  # of the question and of the answer, each: enough to name it
MODEL_TITLE_LENGTH = 60
TITLE_OUTCOME = "title"  # a request record's outcome for a title made
_QUOTES = "\"'“”‘’「」『』《》«»`*#"


def model_title_body(turn: Turn, model: str) -> bytes:
    """The request body that asks `model` to name the conversation begun by `turn`."""
    exchange = (f"Question:\n{turn.question[:EXCHANGE_CHARS]}\n\n"
                f"Answer:\n{turn.answer[:EXCHANGE_CHARS]}")
    return build_body(model, [Message(SYSTEM, TITLE_INSTRUCTION), Message(USER_ROLE, exchange)],
                      RequestOptions(stream=False, max_tokens=TITLE_MAX_TOKENS))


def clean_model_title(reply: str) -> str:
    """The model's reply as a title: its first line, without the quotes, labels and full
    stop models add, cut like a question's title ("" when nothing is left)."""
    line = first_line(reply)
    for label in ("Title:", "title:", "标题：", "標題：", "标题:", "標題:"):
        line = line.removeprefix(label).strip()
    line = line.strip(_QUOTES + " ").rstrip(".。!！").strip(_QUOTES + " ")
    return short_title(line, MODEL_TITLE_LENGTH)


@dataclass(frozen=True, slots=True)
class TitleMade:
    title: str
    usage: Usage
    body_bytes: int
    model: str


@dataclass(frozen=True, slots=True)
class TitleFailed:
    failure: Failure
    usage: Usage
    body_bytes: int


TitleOutcome = TitleMade | TitleFailed


def make_model_title(provider: ChatProvider, turn: Turn, model: str, *,
                     cancel: CancelToken | None = None) -> TitleOutcome:
    """Ask the model for a title for the conversation begun by `turn`; never raises for
    what the server does (a failure is an outcome, as a chat's is)."""
    body = model_title_body(turn, model)
    try:
        reply = provider.complete(body, on_delta=lambda _text: None,
                                  cancel=cancel or CancelToken())
    except ProviderFailure as err:
        return TitleFailed(err.failure, err.usage, len(body))
    title = clean_model_title(reply.content)
    problem = None
    if cancel is not None and cancel.cancelled:
        problem = Failure(FailureKind.CANCELLED)
    elif reply.tool_calls or reply.finish_reason not in ("stop", "length"):
        # A title cut at its small output bound is still a title (its first line is
        # taken); a reply that ended otherwise is not trusted.
        problem = Failure(FailureKind.OTHER_FINISH_REASON if reply.finish_reason
                          else FailureKind.NO_FINISH_REASON)
    elif not title:
        problem = Failure(FailureKind.EMPTY)
    if problem is not None:
        return TitleFailed(problem, reply.usage, len(body))
    return TitleMade(title, reply.usage, len(body), reply.model or model)


class TitleStore(Protocol):
    """What naming a conversation by the model writes (`TurnlogStore` is one)."""

    def record_request(self, record: RequestRecord) -> None: ...

    def set_model_title(self, conversation_id: int, title: str,
                        from_turn: str) -> Conversation | None:
        """Write the title unless the user typed one or `from_turn` is no longer first."""
        ...


def name_by_model(store: TitleStore, provider: ChatProvider, conversation: Conversation,
                  turn: Turn, model: str, *, cancel: CancelToken | None = None,
                  clock: Callable[[], float] = time.monotonic) -> Conversation | None:
    """Ask for a title for the conversation begun by `turn`, keep a request record of it
    (references and counts, as any request's), and give the conversation that title if
    it still should have it. Returns the conversation renamed, or None (failed, or no
    longer wanted). A store fault raises `StoreError`; the chat never hears of it."""
    started_wall, started = datetime.now(UTC), clock()
    outcome = make_model_title(provider, turn, model, cancel=cancel)
    said = TITLE_OUTCOME if isinstance(outcome, TitleMade) \
        else f"{TITLE_OUTCOME} {outcome.failure.kind.value}"
    record = RequestRecord(
        conversation_id=conversation.id, started_at=started_wall,
        model=outcome.model if isinstance(outcome, TitleMade) else model, outcome=said,
        body_bytes=outcome.body_bytes, max_bytes=conversation.settings.max_bytes,
        input_tokens=outcome.usage.prompt_tokens or 0, token_budget=0, tokens_exact=False,
        sent=(turn.ordinal,), summarized=(), left_out=(), sent_turn_ids=(turn.id,),
        usage=outcome.usage, duration_s=clock() - started)
    store.record_request(record)
    if not isinstance(outcome, TitleMade):
        log.info("no title from the model for conversation %s: %s", conversation.id,
                 outcome.failure.kind.value)
        return None
    return store.set_model_title(conversation.id, outcome.title, turn.id)
