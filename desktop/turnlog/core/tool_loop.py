"""One round of the tool loop: each call of a reply approved (or not), run, and answered.

The decisions are here, the I/O behind `ToolRunner` (the wiring asks the person and
calls the MCP server). Time spent waiting for the person's answer is measured apart: it
does not count against the turn's deadline.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .failures import Failure, FailureKind
from .provider import CancelToken, Reply
from .tools import (
    DECLINED,
    Approval,
    MalformedToolCall,
    ToolBounds,
    ToolCall,
    ToolResult,
    ToolRound,
    ToolSpec,
    result_for_model,
)


@dataclass(frozen=True, slots=True)
class ToolOutcome:
    text: str
    is_error: bool
    duration_s: float
    server: str = ""  # the name of the tool server that ran the call ("" where none did)


class ToolTimedOut(Exception):  # noqa: N818 - raised by a runner, named for what happened
    """The call did not return within the time it was given (it may have done something)."""


class ToolRunner(Protocol):
    """What a send with tools needs: the tools to offer, the person's approval of each
    call, and a way to run one."""

    @property
    def bounds(self) -> ToolBounds: ...

    def specs(self) -> Sequence[ToolSpec]: ...

    def approve(self, call: ToolCall, timeout_s: float, cancel: CancelToken) -> Approval | None:
        """The person's answer, or None when none came within `timeout_s`."""
        ...

    def run(self, call: ToolCall, arguments: dict[str, Any], timeout_s: float,
            cancel: CancelToken) -> ToolOutcome:
        """Run the call; a tool's own error is an outcome with `is_error`. Raises
        `ToolTimedOut` past `timeout_s`."""
        ...


class ToolLoopFailed(Exception):
    """The loop hit a bound or was stopped; `failure` says which."""

    def __init__(self, failure: Failure) -> None:
        super().__init__(failure.message())
        self.failure = failure


def bound(code: str, detail: str, hint: str = "") -> ToolLoopFailed:
    return ToolLoopFailed(Failure(FailureKind.TOOLS, detail=detail, hint=hint, code=code))


@dataclass
class RoundProgress:
    """What a round did so far (kept by the caller, so a failure mid-round can still list
    the calls that ran), and how long it waited for the person."""

    done: list[tuple[ToolCall, ToolResult]]
    waited_s: float = 0.0


def run_round(reply: Reply, runner: ToolRunner, cancel: CancelToken,
              clock: Callable[[], float], remaining_s: Callable[[], float],
              progress: RoundProgress) -> ToolRound:
    """Every call of `reply`, in order: arguments checked, approval asked, run within the
    smaller of the call's limit and the turn's remaining time, result cut for sending."""
    bounds = runner.bounds
    full: dict[str, str] = {}
    for call in reply.calls:
        if cancel.cancelled:
            raise ToolLoopFailed(Failure(FailureKind.CANCELLED))
        result = _one_call(call, runner, bounds, cancel, clock, remaining_s, progress, full)
        progress.done.append((call, result))
    calls = tuple(call for call, _ in progress.done[-len(reply.calls):])
    results = tuple(result for _, result in progress.done[-len(reply.calls):])
    return ToolRound(calls, results, reply.content, full)


def _one_call(call: ToolCall, runner: ToolRunner, bounds: ToolBounds, cancel: CancelToken,
              clock: Callable[[], float], remaining_s: Callable[[], float],
              progress: RoundProgress, full: dict[str, str]) -> ToolResult:
    try:
        arguments = call.parsed()
    except MalformedToolCall as err:  # the model's mistake: it reads why, nothing runs
        return ToolResult(call.id, f"Error: {err}. The tool was not run.", True,
                          approval=Approval.RUN, ran=False)
    asked = clock()
    approval = runner.approve(call, bounds.approval_timeout_s, cancel)
    progress.waited_s += clock() - asked
    if cancel.cancelled:
        raise ToolLoopFailed(Failure(FailureKind.CANCELLED))
    if approval is None:
        minutes = bounds.approval_timeout_s / 60
        raise bound("tool_approval_timeout",
                    f"the call of “{call.name}” waited {minutes:g} minutes for approval",
                    "Send again and answer the approval card")
    if not approval.runs:
        return ToolResult(call.id, DECLINED, False, approval=approval, ran=False)
    timeout = min(bounds.call_timeout_s, remaining_s())
    if timeout <= 0:
        raise _deadline(bounds)
    try:
        outcome = runner.run(call, arguments, timeout, cancel)
    except ToolTimedOut:
        progress.done.append((call, ToolResult(call.id, "", True, timeout, approval)))
        if timeout < bounds.call_timeout_s:
            raise _deadline(bounds) from None
        raise bound("tool_timeout",
                    f"“{call.name}” did not return within {bounds.call_timeout_s:g} s",
                    "Send again, or switch that tool off") from None
    sent, cut, kept = result_for_model(outcome.text, bounds)
    if cut:
        full[call.id] = kept
    return ToolResult(call.id, sent, outcome.is_error, outcome.duration_s, approval, cut,
                      server=outcome.server)


def _deadline(bounds: ToolBounds) -> ToolLoopFailed:
    return bound("tool_deadline",
                 f"the tool calls and answers took longer than {bounds.deadline_s:g} s "
                 "(time waiting for approval not counted)", "Send again")
