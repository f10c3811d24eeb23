"""Calibrating the token estimate from what servers report.

A reply's usage may state `prompt_tokens`: the server's own count of the request. The
estimate (`budget.ESTIMATE`) is proven never below two real tokenizers over a corpus of
text classes, but a model with another vocabulary, or a template with more around each
message, can cost more. So for each profile and model Turnlog keeps the largest ratio of
reported to estimated tokens seen so far, and scales the estimate by it: the ratio only
ever rises (a reply never lowers it), never below 1 (the proven estimate is the floor)
and never above `MAX_RATIO` (one odd report cannot make every budget useless).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .budget import ESTIMATE

TYPE_CHECKING = False  # typing's constant, without loading typing: turnlog-cli starts sooner
if TYPE_CHECKING:
    from .budget import TokenCounter

MAX_RATIO = 4.0


def raised_ratio(current: float, estimated: int, reported: int) -> float:
    """The calibration after a reply whose request was estimated at `estimated` tokens and
    counted by the server at `reported`: the larger ratio, within [1, MAX_RATIO]."""
    if estimated <= 0 or reported <= 0:
        return max(1.0, min(MAX_RATIO, current))
    return max(1.0, min(MAX_RATIO, max(current, reported / estimated)))


def estimated_request_tokens(messages: Iterable[tuple[str, str]]) -> int:
    """The uncalibrated estimate of a request with these (role, content) messages."""
    return ESTIMATE.reply_priming_tokens() + sum(
        ESTIMATE.message_tokens(role, content) for role, content in messages)


def _scaled(tokens: int, ratio: float) -> int:
    scaled = tokens * ratio
    whole = int(scaled)
    return whole if whole >= scaled else whole + 1


@dataclass(frozen=True, slots=True)
class CalibratedCounter:
    """The estimate scaled by `ratio` (≥ 1), learnt from `replies` replies' usage."""

    ratio: float = 1.0
    replies: int = 0

    @property
    def exact(self) -> bool:
        return False

    def message_tokens(self, role: str, content: str) -> int:
        return _scaled(ESTIMATE.message_tokens(role, content), self.ratio)

    def reply_priming_tokens(self) -> int:
        return _scaled(ESTIMATE.reply_priming_tokens(), self.ratio)


def count_label(counter: TokenCounter) -> str:
    """How a counter's counts are made, in the words the window shows: "exact",
    "estimated, calibrated from 3 replies" or "estimated"."""
    if counter.exact:
        return "exact"
    replies = getattr(counter, "replies", 0)
    if isinstance(replies, int) and replies > 0:
        return f"estimated, calibrated from {replies:,} repl{'y' if replies == 1 else 'ies'}"
    return "estimated"
