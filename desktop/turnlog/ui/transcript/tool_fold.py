"""A turn's tool calls as the transcript's fold shows them: each call's tool, who let it
run, how long it took, its arguments and its result."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from ...core.model import Turn
from ...core.tools import Approval
from ..infra.languages import arg

translate = QCoreApplication.translate  # translate("Context", …): lupdate reads it

APPROVALS = {
    Approval.RUN: QT_TRANSLATE_NOOP("Transcript", "approved by you"),
    Approval.ALWAYS: QT_TRANSLATE_NOOP("Transcript",
                                       "approved by you, always in this conversation"),
    Approval.ALLOWED: QT_TRANSLATE_NOOP("Transcript", "allowed before in this conversation"),
    Approval.ALL: QT_TRANSLATE_NOOP("Transcript", "approved for every call (--approve-all)"),
    Approval.DENY: QT_TRANSLATE_NOOP("Transcript", "declined by you"),
}
SHOWN_RESULT_CHARS = 5_000


@dataclass(frozen=True)
class ToolFold:
    """A turn's tool calls as its fold shows them: how many, which, and the text."""

    count: int
    names: str
    text: str


def tool_fold(turn: Turn) -> ToolFold:
    """Each call of the turn: tool, who let it run, how long it took, its arguments and
    its result as sent to the model (a long one shortened here)."""
    blocks, names = [], []
    for tool_round in turn.tools:
        if tool_round.content:  # what the model said beside its calls
            blocks.append(tool_round.content)
        for call, result in tool_round.pairs():
            names.append(call.name)
            how = translate("Transcript", APPROVALS[result.approval])
            if not result.ran and result.approval is not Approval.DENY:
                how = translate("Transcript", "not run: its arguments could not be read")
            text = result.content
            if len(text) > SHOWN_RESULT_CHARS:
                text = text[:SHOWN_RESULT_CHARS] + arg(translate(
                    "Transcript", "… (%1 more characters)"), len(text) - SHOWN_RESULT_CHARS)
            heading = arg(translate("Transcript", "%1 — %2 · %3 s"), call.name, how,
                          f"{result.duration_s:.2f}")
            if result.server:
                heading += arg(translate("Transcript", " · on %1"), result.server)
            if result.is_error:
                heading += translate("Transcript", " · the tool reported an error")
            blocks.append("\n".join([heading, translate("Transcript", "Arguments:"),
                                     call.pretty_arguments(), translate("Transcript", "Result:"),
                                     text]))
    return ToolFold(len(names), ", ".join(dict.fromkeys(names)), "\n\n".join(blocks))
