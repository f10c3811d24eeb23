"""What the next request would carry, worked out before anything is sent.

With compaction on, a send reuses the cached rolling summary while the turns it
covers are unchanged and folds only newer turns in. The preview asks the same plan
(`core.compaction.plan_compaction`) as the send: it carries the cached summary when a send
would reuse it, and names the turns a send would still have to summarize, so the
marks never call a turn "not sent" when it is about to be summarized.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..core.body import RequestOptions
from ..core.budget import Budget
from ..core.compaction import CompactionSettings, StoredSummary, plan_compaction
from ..core.model import FrozenTurns, Turn, ordinals_of
from ..core.projection import CostIndex, Projection, project


@dataclass(frozen=True, slots=True)
class Preview:
    """The projection a send would start from. `to_summarize`: ordinals a send would first
    fold into the summary (they are not in `projection`'s body); `summary`: the cached
    summary the projection carries, if any."""

    projection: Projection
    to_summarize: tuple[int, ...] = ()
    summary: StoredSummary | None = None


def preview(
    turns: Sequence[Turn],
    question: str,
    *,
    model: str,
    budget: Budget,
    system_prompt: str,
    options: RequestOptions,
    costs: CostIndex,
    compaction: bool,
    cached: StoredSummary | None,
    pinned: Sequence[str] = (),
) -> Preview:
    """Project `question` over `turns` as a send would begin. Raises `ProjectionRefused`
    when the mandatory part (with the cached summary, if a send would carry it) does not fit.
    """
    if not isinstance(turns, (tuple, FrozenTurns)):
        turns = tuple(turns)
    plan = plan_compaction(turns, question, CompactionSettings(model, budget, options),
                           system_prompt=system_prompt, pinned=pinned, costs=costs,
                           cached=cached if compaction else None)
    if plan.refusal is not None:
        raise plan.refusal
    assert plan.plain is not None
    if not compaction or plan.covered == 0:
        return Preview(plan.plain)
    part = plan.base_part()
    projection = project(turns, question, model=model, budget=budget,
                         system_prompt=system_prompt, options=options, pinned=pinned,
                         summary=part, costs=costs, max_verbatim=len(turns) - plan.covered)
    first_sent = len(turns) - projection.sent_count
    to_summarize = ordinals_of(turns, plan.start, first_sent)
    return Preview(projection, to_summarize, plan.base)
