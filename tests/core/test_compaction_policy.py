"""The main conversation's compaction policy, against a plain reference.

The reference serializes whole requests (`naive_request`) and answers three questions:
does the whole log fit, does the cached summary with every turn after it fit, and what
share of each budget do the verbatim turns take. For random logs, budgets, target shares
and cache states the send's compaction must: keep whole turns and a contiguous suffix;
reuse the cache (no call) whenever it fits; compact only when reuse does not fit; after
compacting keep the verbatim turns within the target share of each budget (unless only
the newest turn remains); hold both budgets; and never make more than 12 summary calls,
leaving the oldest turns out when a backlog is longer than that can fold.
"""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from compaction_setup import MemorySummaries
from fakes import FakeEndpoint
from projection_reference import naive_request
from summary_cache import cached_summary
from turnlog.core.body import RequestOptions
from turnlog.core.budget import Budget
from turnlog.core.compaction import (
    MAX_SUMMARY_CALLS,
    CompactionSettings,
    Compactor,
    StoredSummary,
    summary_text,
)
from turnlog.core.failures import ProviderFailure
from turnlog.core.model import Turn
from turnlog.core.projection import CostIndex, ProjectionRefused, SummaryPart, project
from turnlog.core.provider import CancelToken, Reply

QUESTION = "and now?"
SYSTEM = "sys"


def make_turns(sizes: list[int]) -> list[Turn]:
    now = datetime.now(UTC)
    return [Turn(f"t{i}", i, f"q{i} " + "字" * s, f"a{i} " + "x😀" * (s // 2), "m", "stop", now)
            for i, s in enumerate(sizes, start=1)]


def fits(kept, budget: Budget, summary: SummaryPart | None = None) -> bool:
    body, tokens = naive_request(kept, QUESTION, model="m", system_prompt=SYSTEM,
                                 summary=summary)
    return len(body) <= budget.max_bytes and tokens <= budget.input_tokens


def verbatim_share(kept, budget: Budget) -> tuple[float, float]:
    """Bytes and tokens the verbatim turns add to a request, as shares of each budget."""
    bare, bare_tokens = naive_request([], QUESTION, model="m", system_prompt=SYSTEM)
    body, tokens = naive_request(kept, QUESTION, model="m", system_prompt=SYSTEM)
    return ((len(body) - len(bare)) / budget.max_bytes,
            (tokens - bare_tokens) / budget.input_tokens)


def summarize(turns, cs: CompactionSettings, cached: StoredSummary | None):
    endpoint = FakeEndpoint(summary=lambda text: Reply("a short summary", "stop"))
    store = MemorySummaries()
    if cached is not None:
        store.rows.append(cached)
    compactor = Compactor(store, endpoint, costs=CostIndex())
    result = compactor.summarize(1, 0, turns, QUESTION, cs, system_prompt=SYSTEM, pinned=(),
                                 cancel=CancelToken(), progress=lambda k, n: None)
    return result, len(endpoint.summary_calls)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    sizes=st.lists(st.integers(0, 700), min_size=1, max_size=60),
    max_bytes=st.integers(3_000, 24_000),
    window=st.sampled_from([4_096, 8_192, 32_768, 200_000]),
    target=st.sampled_from([0.25, 0.4, 0.5, 0.65, 0.8]),
    cache=st.sampled_from(["none", "valid", "stale"]),
    cached_count=st.integers(1, 60),
)
def test_policy_against_a_plain_reference(sizes, max_bytes, window, target, cache,
                                          cached_count):
    turns = make_turns(sizes)
    budget = Budget(max_bytes, window, 1024)
    cs = CompactionSettings("m", budget, RequestOptions(), target)
    count = min(cached_count, len(turns))
    cached = None if cache == "none" else cached_summary(
        turns, count, cs.key, ids_of=(lambda ts: ts[1:]) if cache == "stale" else None)
    cached_part = None
    if cache == "valid":
        cached_part = SummaryPart(summary_text(cached), count, cached.id)
    try:
        result, calls = summarize(turns, cs, cached)
    except ProviderFailure:
        return  # a budget too small to summarize in: a named failure
    whole_fits = fits(turns, budget)
    reuse_fits = cached_part is not None and fits(turns[count:], budget, cached_part)

    # Reuse whenever it fits; compact only when it does not.
    if whole_fits:
        assert result.summary is None and calls == 0
        return
    if reuse_fits:
        assert calls == 0 and result.stored is cached
    if calls:
        assert not reuse_fits
    assert calls <= MAX_SUMMARY_CALLS
    try:
        p = project(turns, QUESTION, model="m", budget=budget, system_prompt=SYSTEM,
                    summary=result.summary, costs=CostIndex())
    except ProjectionRefused:
        return  # the send refuses with the sizes, summary included
    # Whole turns, a contiguous suffix: left out, then summarized, then verbatim.
    part = result.summary
    assert part is not None
    ordinals = [t.ordinal for t in turns]
    assert p.left_out == tuple(ordinals[: part.first])
    assert p.summarized == tuple(ordinals[part.first : part.covered_count])
    assert p.sent == tuple(ordinals[part.covered_count :])
    assert p.body_bytes <= budget.max_bytes and p.input_tokens <= budget.input_tokens
    assert fits(turns[part.covered_count :], budget, part)  # the reference agrees
    if part.first:  # only a backlog longer than the calls can fold leaves turns out
        assert calls >= 1
    if calls and len(p.sent) > 1:
        byte_share, token_share = verbatim_share(turns[part.covered_count :], budget)
        assert byte_share <= target and token_share <= target
        # Fill what is left: one more turn verbatim would pass the target (so the
        # summary reaches no further than the low-water mark asks).
        more = verbatim_share(turns[part.covered_count - 1 :], budget)
        assert part.covered_count == part.first or more[0] > target or more[1] > target \
            or len(p.summarized) == 0


def test_the_conversation_setting_sets_the_low_water_mark(turnlog_home):
    """A send compacts down to the conversation's target share, stored with its settings."""
    from dataclasses import replace

    from compaction_setup import request, seed, sender_for
    from turnlog.core.model import ConversationSettings
    from turnlog.core.send import Committed
    from turnlog.store import TurnlogStore

    sent: dict[int, int] = {}
    with TurnlogStore.open(turnlog_home) as store:
        for percent in (25, 80):
            conv = seed(store, 40)
            conv = store.conversations.update(conv.id, settings=replace(
                conv.settings, compaction_target=percent))
            assert store.conversations.get(conv.id).settings.compaction_target == percent
            outcome = sender_for(store, FakeEndpoint()).send(request(conv))
            assert isinstance(outcome, Committed) and outcome.projection.summarized
            budget = Budget.from_settings(conv.settings)
            share = verbatim_share([t for t in store.turns(conv.id)
                                    if t.ordinal in outcome.projection.sent], budget)
            assert max(share) <= percent / 100
            sent[percent] = len(outcome.projection.sent)
    assert sent[25] < sent[80]
    assert ConversationSettings(compaction_target=5).compaction_share == 0.25
    assert ConversationSettings.from_json({"compaction_target": 70}).compaction_target == 70
