"""The side request a side question would make now, while it is typed: projected on the
GUI thread as the main preview is (the transcript's turns, the cached summary, the pins
the live preview holds, counts already made), so the side budget is in view before
*Ask aside*. Nothing is read from the database or the network here."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ....core.budget import Budget, InvalidBudget
from ....core.memory import Memory
from ....core.model import Conversation, Turn
from ....core.projection import CostIndex, ProjectionRefused
from ....core.side import SideProjection, SideQuestion, project_side, usable_summary
from ....core.summaries import StoredSummary
from ....service.route import Route, side_request_for


@dataclass(frozen=True, slots=True)
class SidePreview:
    """`planned`: the side request as it would go; else `refusal` (it would not fit) or
    `problem` (the side reserve is not valid)."""

    planned: SideProjection | None = None
    refusal: ProjectionRefused | None = None
    problem: str = ""
    budget: Budget | None = None  # the side budget it was planned in


def preview_side(conversation: Conversation, question: str, route: Route,
                 turns: Sequence[Turn], earlier: Sequence[SideQuestion], *,
                 memory: Memory, summary: StoredSummary | None,
                 costs: CostIndex) -> SidePreview:
    """What asking `question` aside would send, with the side budget it is planned in."""
    try:
        request = side_request_for(conversation, question, route, memory=memory)
    except InvalidBudget as err:
        return SidePreview(problem=str(err))
    cached = usable_summary(summary, turns, request.model) if request.compaction else None
    try:
        planned = project_side(
            turns, question, earlier, model=request.model, budget=request.budget,
            system_prompt=request.system_prompt, options=request.options,
            pinned=request.pinned, summary=cached, costs=costs)
    except ProjectionRefused as refusal:
        return SidePreview(refusal=refusal, budget=request.budget)
    return SidePreview(planned, budget=request.budget)
