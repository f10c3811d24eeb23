"""What the next request would carry, worked out before anything is sent.

With compaction on, a send reuses the cached rolling summary while the turns it
covers are unchanged (the rule of `Compactor.ensure`) and folds only newer turns
in. The preview follows the same rule: it carries the cached summary when a send
would reuse it, and names the turns a send would still have to summarize, so the
marks never call a turn "not sent" when it is about to be summarized.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..core.body import RequestOptions
from ..core.budget import Budget
from ..core.compaction import (
    CompactionSettings,
    StoredSummary,
    prefix_digest,
    recent_count,
    summary_text,
)
from ..core.model import FrozenTurns, Turn, ordinals_of
from ..core.projection import CostIndex, Projection, SummaryPart, project


@dataclass(frozen=True, slots=True)
class Preview:
    """The projection a send would start from. `to_summarize`: ordinals a send would first
    fold into the summary (they are not in `projection`'s body); `summary`: the cached
    summary the projection carries, if any."""

    projection: Projection
    to_summarize: tuple[int, ...] = ()
    summary: StoredSummary | None = None


def reusable(cached: StoredSummary | None, turns: Sequence[Turn], covered: int,
             settings_key: str) -> bool:
    """Whether a send needing `covered` summarized turns would start from `cached`."""
    return (
        cached is not None
        and cached.settings_key == settings_key
        and cached.covered_count <= covered
        and cached.covered_count <= len(turns)
        and prefix_digest(turns, cached.covered_count) == cached.covered_digest
    )


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
    plain = project(turns, question, model=model, budget=budget, system_prompt=system_prompt,
                    options=options, pinned=pinned, costs=costs)
    if not compaction or plain.sent_count == len(turns):
        return Preview(plain)
    # The same plan as `Compactor.covered_needed`: the recent window stays verbatim.
    kept = min(recent_count(turns, budget, costs), plain.sent_count)
    covered = len(turns) - kept
    key = CompactionSettings(model, budget, options).key
    part: SummaryPart | None = None
    summary = cached if reusable(cached, turns, covered, key) else None
    if summary is not None:
        part = SummaryPart(summary_text(summary), summary.covered_count, summary.id)
    projection = project(turns, question, model=model, budget=budget,
                         system_prompt=system_prompt, options=options, pinned=pinned,
                         summary=part, costs=costs, max_verbatim=kept)
    start = part.covered_count if part else 0
    first_sent = len(turns) - projection.sent_count
    to_summarize = ordinals_of(turns, start, first_sent)
    return Preview(projection, to_summarize, summary)
