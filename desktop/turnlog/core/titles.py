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
import re
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Protocol

from .cost import NO_PRICING, Pricing
from .failures import Failure, FailureKind, ProviderFailure
from .model import Conversation, Turn, Usage
from .provider import CancelToken, ChatProvider
from .title_sources import MODEL as MODEL  # the title sources, named here as before
from .title_sources import QUESTION as QUESTION
from .title_sources import SOURCES as SOURCES
from .title_sources import TITLE_OUTCOME as TITLE_OUTCOME
from .title_sources import USER as USER

if TYPE_CHECKING:  # the body builder and request records: a title request's, loaded by it
    from .request_record import RequestLog

log = logging.getLogger(__name__)


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
_QUOTES = "\"'“”‘’「」『』《》«»`*#"


def model_title_body(turn: Turn, model: str) -> bytes:
    """The request body that asks `model` to name the conversation begun by `turn`."""
    from .body import SYSTEM, Message, RequestOptions, build_body
    from .body import USER as USER_ROLE

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


# ---------------------------------------------------------------- plausible titles
# A small model asked for a title often answers the question, greets, or writes about
# something else ("Hi Kaiji," for 你好，介绍一下你自己). A model's title is kept only when
# it plausibly names the question; otherwise the title taken from the question stays.
PLAUSIBLE_WORDS = 10  # a title, not a sentence
IMPLAUSIBLE = "implausible"  # the failure code of a title that was not kept
_WORD = re.compile(r"[^\W\d_]+")
_STOP_WORDS = frozenset([
    "the", "and", "for", "are", "but", "not", "you", "your", "yours", "with", "this", "that",
    "these", "those", "what", "which", "who", "whom", "whose", "when", "where", "why", "how",
    "can", "could", "would", "should", "will", "shall", "may", "might", "must", "does", "did",
    "done", "has", "have", "had", "was", "were", "been", "being", "from", "into", "onto",
    "about", "than", "then", "them", "they", "their", "there", "here", "its", "it's", "our",
    "ours", "out", "off", "over", "under", "just", "also", "very", "some", "any", "all",
    "more", "most", "such", "only", "own", "same", "too", "use", "using", "used", "tell",
    "give", "make", "please", "me", "my", "mine", "him", "her", "his", "she", "one", "two",
    "three", "four", "five"])
# Characters that carry grammar rather than a subject: sharing only these shares nothing.
_CJK_FUNCTION = frozenset("的了是我你他她它们在有和与及吗呢吧啊么个一这那不也就都而之其为以"
                          "請请問问麼嗎這個們於與為")
_GREETINGS = ("hi", "hello", "hey", "dear", "greetings", "good morning", "good afternoon",
              "good evening", "howdy", "hola", "bonjour", "salut", "ciao", "hallo",
              "你好", "您好", "嗨", "哈囉", "哈啰", "早上好", "大家好")
_ANSWER_OPENINGS = ("yes", "no", "sure", "certainly", "of course", "absolutely", "i ",
                    "i'm", "i am", "as an", "here is", "here's", "the answer", "answer",
                    "there is no", "there are no", "sorry", "unfortunately", "it is", "it's",
                    "是的", "当然", "當然", "我是", "我", "好的", "抱歉", "答案", "不是", "对",
                    "對", "沒有", "没有")
_STATEMENT_VERBS = frozenset({"is", "are", "was", "were"})
_QUESTION_WORDS = frozenset({"what", "why", "how", "who", "which", "when", "where", "is",
                             "are", "does", "do", "can", "should"})
_SENTENCE_BREAK = re.compile(r"[.!?。！？;；][\s\u3000]*\S")


def script(char: str) -> str:
    """The writing system of a letter, as titles need it: "cjk" for Chinese, Japanese
    and Korean, else the first word of its Unicode name ("latin", "cyrillic", …)."""
    if unicodedata.category(char) == "Lo" and _is_cjk(char):
        return "cjk"
    name = unicodedata.name(char, "")
    return name.split(" ", 1)[0].lower() if name else ""


def _is_cjk(char: str) -> bool:
    point = ord(char)
    return (0x3040 <= point <= 0x30FF or 0x3400 <= point <= 0x4DBF
            or 0x4E00 <= point <= 0x9FFF or 0xAC00 <= point <= 0xD7AF
            or 0xF900 <= point <= 0xFAFF or 0x20000 <= point <= 0x2FA1F)


def main_script(text: str) -> str:
    """The script most of `text`'s letters are written in ("" when it has none); CJK
    counts first wherever a question has any (a Chinese question names code in Latin)."""
    counts: dict[str, int] = {}
    for char in text:
        if char.isalpha():
            kind = script(char)
            counts[kind] = counts.get(kind, 0) + 1
    if not counts:
        return ""
    if counts.get("cjk", 0) > 0:
        return "cjk"
    return max(sorted(counts), key=lambda kind: counts[kind])


def content_words(text: str) -> set[str]:
    """The words of `text` that say what it is about: letters only, lower case, at least
    three long, not a stop word; CJK runs are left to `subject_characters`."""
    return {word for word in (w.lower() for w in _WORD.findall(text))
            if len(word) >= 3 and word not in _STOP_WORDS
            and not any(_is_cjk(char) for char in word)}


def subject_characters(text: str) -> set[str]:
    """The CJK characters of `text` that are not grammar."""
    return {char for char in text if _is_cjk(char) and char not in _CJK_FUNCTION}


def _same_word(one: str, other: str) -> bool:
    """Equal, or the same stem ("colors", "colour" and "color" share "colo")."""
    if one == other:
        return True
    stem = min(len(one), len(other), 5)
    return stem >= 4 and one[:stem] == other[:stem]


def _starts_with(text: str, openings: tuple[str, ...]) -> bool:
    lowered = text.lower()
    for opening in openings:
        if lowered.startswith(opening):
            rest = lowered[len(opening):]
            if not rest or opening[-1] == " " or _is_cjk(opening[0]) \
                    or not rest[0].isalnum():
                return True
    return False


def _reads_as_answer(title: str) -> bool:
    """Whether `title` answers rather than names: opens as a reply does, runs on into a
    second sentence, or states "X is Y" without asking."""
    if _starts_with(title, _ANSWER_OPENINGS) or _SENTENCE_BREAK.search(title):
        return True
    words = [w.lower() for w in _WORD.findall(title)]
    return bool(words) and words[0] not in _QUESTION_WORDS \
        and any(word in _STATEMENT_VERBS for word in words[1:])


def plausible_title(question: str, title: str) -> bool:
    """Whether a model's `title` plausibly names a conversation begun by `question`:
    not empty, short (uncut, at most `PLAUSIBLE_WORDS` words), in the question's script,
    sharing a content word or a CJK character with it, and neither a greeting nor an
    answer."""
    title = title.strip()
    if not title or ELLIPSIS in title or len(title) > MODEL_TITLE_LENGTH:
        return False
    asked = main_script(question)
    if asked != main_script(title):
        return False
    if asked == "cjk":
        shared = bool(subject_characters(question) & subject_characters(title))
    else:
        shared = False
    if not shared:
        theirs = content_words(title)
        shared = any(_same_word(mine, word) for mine in content_words(question)
                     for word in theirs)
    if not shared:
        return False
    if asked != "cjk" and len(_WORD.findall(title)) > PLAUSIBLE_WORDS:
        return False
    return not _starts_with(title, _GREETINGS) and not _reads_as_answer(title)


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
    elif not plausible_title(turn.question, title):
        log.info("a title from the model that does not name the question was not kept")
        problem = Failure(FailureKind.MALFORMED, code=IMPLAUSIBLE)
    if problem is not None:
        return TitleFailed(problem, reply.usage, len(body))
    return TitleMade(title, reply.usage, len(body), reply.model or model)


class ModelTitles(Protocol):
    """The conversations part of a store (`store.conversations`), as a model's title
    writes it."""

    def set_model_title(self, conversation_id: int, title: str,
                        from_turn: str) -> Conversation | None:
        """Write the title unless the user typed one or `from_turn` is no longer first."""
        ...


class TitleStore(Protocol):
    """What naming a conversation by the model writes, part by part (`TurnlogStore` is
    one): a request record and the title."""

    @property
    def records(self) -> RequestLog: ...

    @property
    def conversations(self) -> ModelTitles: ...


def name_by_model(store: TitleStore, provider: ChatProvider, conversation: Conversation,
                  turn: Turn, model: str, *, cancel: CancelToken | None = None,
                  clock: Callable[[], float] = time.monotonic,
                  pricing: Pricing = NO_PRICING) -> Conversation | None:
    """Ask for a title for the conversation begun by `turn`, keep a request record of it
    (references and counts, as any request's), and give the conversation that title if
    it still should have it. Returns the conversation renamed, or None (failed, or no
    longer wanted). A store fault raises `StoreError`; the chat never hears of it."""
    from .request_record import RequestRecord

    started_wall, started = datetime.now(UTC), clock()
    outcome = make_model_title(provider, turn, model, cancel=cancel)
    said = TITLE_OUTCOME if isinstance(outcome, TitleMade) \
        else f"{TITLE_OUTCOME} {outcome.failure.code or outcome.failure.kind.value}"
    record = RequestRecord(
        conversation_id=conversation.id, started_at=started_wall,
        model=outcome.model if isinstance(outcome, TitleMade) else model, outcome=said,
        body_bytes=outcome.body_bytes, max_bytes=conversation.settings.max_bytes,
        input_tokens=outcome.usage.prompt_tokens or 0, token_budget=0, tokens_exact=False,
        sent=(turn.ordinal,), summarized=(), left_out=(), sent_turn_ids=(turn.id,),
        usage=outcome.usage, duration_s=clock() - started, pricing=pricing)
    store.records.add(record)
    if not isinstance(outcome, TitleMade):
        log.info("no title from the model for conversation %s: %s", conversation.id,
                 outcome.failure.kind.value)
        return None
    return store.conversations.set_model_title(conversation.id, outcome.title, turn.id)
