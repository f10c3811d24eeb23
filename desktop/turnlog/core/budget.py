"""The two independent limits of a request: body bytes and input tokens.

Neither stands in for the other: a body can be small in bytes and large in
tokens (CJK, emoji) or the reverse (JSON escaping of control characters).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .model import (
    DEFAULT_OUTPUT_RESERVE,
    MAX_OUTPUT_RESERVE,
    MIN_OUTPUT_RESERVE,
    UNKNOWN_CONTEXT_WINDOW,
    ConversationSettings,
)
from .tokens import estimate_text_tokens

TYPE_CHECKING = False  # typing's constant, without loading typing: turnlog-cli starts sooner
if TYPE_CHECKING:
    from typing import Protocol

MIN_SAFETY_MARGIN = 128
MAX_SAFETY_MARGIN = 8_192

# Chat templates wrap every message in role markers and separators; across the
# ChatML, Llama and OpenAI formats that costs 3-7 tokens. Estimates take the high end.
MESSAGE_OVERHEAD_TOKENS = 8
# Tokens the server adds to prime the reply ("<|im_start|>assistant\n" and kin), plus the
# default system prompt some chat templates insert when a request has none (SmolLM2's and
# Qwen 2.5's cost 21-26 tokens): counted once per request, so the estimate covers them.
REPLY_PRIMING_TOKENS = 4 + 28


# Where a budget's context window came from, as the header and inspector say it.
WINDOW_FROM_SERVER = "from the server"
WINDOW_SET_BY_YOU = "set by you"
WINDOW_LEARNED = "learned"
WINDOW_ASSUMED = "assumed"


class InvalidBudget(ValueError):
    """A budget setting outside what Turnlog accepts, with the allowed range in the message."""


def default_output_reserve(context_window: int) -> int:
    """The output reserve a window gets unless the user set one: min(8,192, window ÷ 4),
    so the answer never takes more than a quarter of the window (below the 256 tokens a
    reserve set by you may be, for windows under 1,024)."""
    return max(1, min(DEFAULT_OUTPUT_RESERVE, context_window // 4))


def reserve_in(window: int, reserve: int, *, set_by_you: bool = False) -> int:
    """`reserve` as a setting says it, in `window`: the default one (8,192, never set by
    the user) sized to the window, a user's own (`set_by_you`, or any other value) as it is."""
    if reserve == DEFAULT_OUTPUT_RESERVE and not set_by_you:
        return default_output_reserve(window)
    return reserve


def safety_margin(context_window: int) -> int:
    """5 % of the window, at least 128 and at most 8,192 tokens."""
    return max(MIN_SAFETY_MARGIN, min(MAX_SAFETY_MARGIN, (context_window * 5 + 99) // 100))


@dataclass(frozen=True, slots=True)
class Budget:
    """What one request may carry: `max_bytes` of body, `input_tokens` of input."""

    max_bytes: int
    context_window: int
    output_reserve: int
    window_known: bool = True
    window_source: str = ""  # one of the WINDOW_* phrases; "" for a budget made by hand
    # The output reserve is the default one, sized to the window (never set by the user):
    # a larger window would bring a larger reserve.
    reserve_sized: bool = False

    def __post_init__(self) -> None:
        if self.max_bytes <= 0:
            raise InvalidBudget(f"The byte limit must be positive, not {self.max_bytes:,}.")
        low = 1 if self.reserve_sized else MIN_OUTPUT_RESERVE  # a sized one may be less
        if not low <= self.output_reserve <= MAX_OUTPUT_RESERVE:
            raise InvalidBudget(
                f"The output reserve must be between {MIN_OUTPUT_RESERVE:,} and "
                f"{MAX_OUTPUT_RESERVE:,} tokens, not {self.output_reserve:,}."
            )
        if self.context_window <= 0:
            raise InvalidBudget(
                f"The context window must be positive, not {self.context_window:,}."
            )

    @property
    def safety_margin(self) -> int:
        return safety_margin(self.context_window)

    @property
    def input_tokens(self) -> int:
        """Context window − output reserve − safety margin (may be ≤ 0 for tiny windows)."""
        return self.context_window - self.output_reserve - self.safety_margin

    def within(self, context_window: int, source: str) -> Budget:
        """This budget in a smaller window someone stated, with the output reserve cut to a
        quarter of it (never below the minimum) where it was larger."""
        reserve = min(self.output_reserve, default_output_reserve(context_window))
        return replace(self, context_window=context_window, output_reserve=reserve,
                       window_known=True, window_source=source,
                       reserve_sized=self.reserve_sized or reserve < self.output_reserve)

    @property
    def window_label(self) -> str:
        """"8,192 tokens, from the server", "200,000 tokens, assumed", …"""
        source = self.window_source or (WINDOW_SET_BY_YOU if self.window_known
                                        else WINDOW_ASSUMED)
        return f"{self.context_window:,} tokens, {source}"

    @classmethod
    def from_settings(
        cls, settings: ConversationSettings, *, context_window: int | None = None,
        window_source: str = "",
    ) -> Budget:
        """The budget for a conversation; `context_window` (e.g. from a server) overrides,
        and `window_source` says where it came from. The default output reserve is sized
        to the window (`default_output_reserve`); one the user set is kept as set."""
        window = context_window if context_window is not None else settings.context_window
        if window is None:
            window_source = WINDOW_ASSUMED
        in_effect = window if window is not None else UNKNOWN_CONTEXT_WINDOW
        return cls(
            max_bytes=settings.max_bytes,
            context_window=in_effect,
            output_reserve=reserve_in(in_effect, settings.output_reserve,
                                      set_by_you=settings.reserve_set),
            reserve_sized=settings.reserve_is_default,
            window_known=window is not None,
            window_source=window_source or WINDOW_SET_BY_YOU,
        )


if TYPE_CHECKING:  # a type only: any object with these methods counts

    class TokenCounter(Protocol):
        """Counts the input tokens of one chat message. `exact` says whether counts come
        from the model's own tokenizer (or the server) rather than an estimate."""

        @property
        def exact(self) -> bool: ...

        def message_tokens(self, role: str, content: str) -> int: ...

        def reply_priming_tokens(self) -> int: ...


def reply_priming(counter: TokenCounter, first_role: str) -> int:
    """The reply priming of a request whose first message has `first_role`. A counter
    that knows its chat template (`reply_priming_tokens_for`) says it exactly: templates
    that add a default system prompt leave it out when the request brings its own."""
    by_role = getattr(counter, "reply_priming_tokens_for", None)
    if callable(by_role):
        return int(by_role(first_role))
    return counter.reply_priming_tokens()


class EstimatingCounter:
    """The default `TokenCounter`: `estimate_text_tokens` plus per-message overhead."""

    exact = False

    def message_tokens(self, role: str, content: str) -> int:
        return estimate_text_tokens(content) + MESSAGE_OVERHEAD_TOKENS

    def reply_priming_tokens(self) -> int:
        return REPLY_PRIMING_TOKENS


ESTIMATE = EstimatingCounter()
