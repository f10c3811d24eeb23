"""The window's preview and a send follow one compaction plan.

The preview promises which cached summary a send starts from and which turns it still
has to fold in; the send then folds exactly those turns (seen in the summary requests it
makes), starting from exactly that summary. Checked for a summary cache that is missing,
valid, made from turns that changed since, made with other settings, or wider than the
send needs, and as a property over log sizes and budgets.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fakes import FakeEndpoint
from summary_cache import CACHED_TEXT, MODEL, cached_summary
from turnlog.core.body import RequestOptions
from turnlog.core.budget import Budget
from turnlog.core.compaction import (
    CompactionSettings,
    Compactor,
    StoredSummary,
    SummaryDraft,
    plan_compaction,
)
from turnlog.core.failures import ProviderFailure
from turnlog.core.model import Turn
from turnlog.core.projection import CostIndex, ProjectionRefused
from turnlog.core.provider import CancelToken
from turnlog.ui.request.preview import preview

QUESTION = "and now?"
SYSTEM = "sys"


class Summaries:
    """In-memory `SummaryStore` holding one cached summary to start from."""

    def __init__(self, cached: StoredSummary | None) -> None:
        self.rows = [cached] if cached else []

    def latest_summary(self, conversation_id: int) -> StoredSummary | None:
        return self.rows[-1] if self.rows else None

    def save_summary(self, conversation_id: int, draft: SummaryDraft) -> StoredSummary:
        stored = StoredSummary(
            100 + len(self.rows), conversation_id, draft.first_ordinal, draft.last_ordinal,
            len(draft.covered_turn_ids), draft.covered_digest, draft.content, draft.model,
            draft.settings_key, datetime.now(UTC), len(draft.content.encode()),
            draft.content_tokens, draft.usages, draft.warnings)
        self.rows.append(stored)
        return stored


def make_turns(sizes: list[int]) -> list[Turn]:
    now = datetime.now(UTC)
    return [Turn(f"t{i}", i, f"问题 {i} " + "q" * size, f"answer {i} " + "a" * size, MODEL,
                 "stop", now) for i, size in enumerate(sizes, start=1)]


def folded_by_send(turns, cached, cs: CompactionSettings):
    """What a send did before answering: the ordinals folded into the summary in each
    pass (a pass extends the summary once; a second one follows only when the new summary
    left no room for a turn the plan kept verbatim), the first summary call's input, and
    the summary the request carries."""
    endpoint = FakeEndpoint()
    steps: list[int] = []
    compactor = Compactor(Summaries(cached), endpoint, costs=CostIndex())
    result = compactor.summarize(1, 0, turns, QUESTION, cs, system_prompt=SYSTEM, pinned=(),
                                 cancel=CancelToken(), progress=lambda k, n: steps.append(k))
    folds = [call["messages"][1]["content"] for call in endpoint.summary_calls]
    passes: list[list[int]] = []
    for step, fold in zip(steps, folds, strict=True):
        if step == 1:
            passes.append([])
        passes[-1].extend(int(n) for n in re.findall(r"\[Turn (\d+)\]", fold))
    return [tuple(sorted(set(p))) for p in passes], (folds[0] if folds else None), result.stored


def previewed(turns, cached, cs: CompactionSettings):
    return preview(turns, QUESTION, model=cs.model, budget=cs.budget, system_prompt=SYSTEM,
                   options=cs.options, costs=CostIndex(), compaction=True, cached=cached)


def assert_same_start(shown, first_fold, stored) -> None:
    """The send starts from the summary the preview carried: extends it, or reuses it."""
    if shown.summary is None:
        assert first_fold is None or "Previous summary:\n(none yet)" in first_fold
    elif shown.to_summarize:
        assert f"Previous summary:\n{CACHED_TEXT}\n" in first_fold
    else:
        assert stored is not None and stored.id == shown.summary.id


def assert_same_plan(turns, cached, cs: CompactionSettings) -> None:
    shown = previewed(turns, cached, cs)
    passes, first_fold, stored = folded_by_send(turns, cached, cs)
    # One pass, folding the turns the preview named and no others.
    assert passes == ([shown.to_summarize] if shown.to_summarize else [])
    assert_same_start(shown, first_fold, stored)


CS = CompactionSettings(MODEL, Budget(6_000, 32_768, 1024), RequestOptions())
OTHER_MODEL = replace(CS, model="another-model")


@pytest.mark.parametrize(
    "cache",
    ["none", "valid", "exact", "turns changed", "settings changed", "wider than needed"],
)
def test_preview_and_send_agree_on_the_plan(cache):
    turns = make_turns([300] * 40)
    plan = plan_compaction(turns, QUESTION, CS, system_prompt=SYSTEM, pinned=(),
                           costs=CostIndex(), cached=None)
    assert 5 < plan.covered < len(turns)  # the log needs a summary under this budget
    cached = {
        "none": None,
        "valid": cached_summary(turns, 5, CS.key),
        "exact": cached_summary(turns, plan.covered, CS.key),
        "turns changed": cached_summary(
            turns, 5, CS.key, ids_of=lambda ts: [replace(ts[0], id="deleted"), *ts[1:]]),
        "settings changed": cached_summary(turns, 5, OTHER_MODEL.key),
        "wider than needed": cached_summary(turns, plan.covered + 1, CS.key),
    }[cache]
    shown = previewed(turns, cached, CS)
    # A cached summary reaching further than a new compaction would is reused all the
    # same while it and every turn after it fit: no summary call.
    reused = cache in ("valid", "exact", "wider than needed")
    assert shown.summary is (cached if reused else None)
    start = cached.covered_count if reused else 0
    assert shown.to_summarize == tuple(range(start + 1, plan.covered + 1))
    assert_same_plan(turns, cached, CS)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    sizes=st.lists(st.integers(0, 1_200), min_size=1, max_size=40),
    max_bytes=st.integers(3_000, 16_000),
    cache=st.sampled_from(["none", "valid", "turns changed", "settings changed"]),
    cached_count=st.integers(1, 40),
)
def test_preview_and_send_agree_for_any_log_and_budget(sizes, max_bytes, cache, cached_count):
    turns = make_turns(sizes)
    cs = replace(CS, budget=Budget(max_bytes, 32_768, 1024))
    count = min(cached_count, len(turns))
    cached = {
        "none": None,
        "valid": cached_summary(turns, count, cs.key),
        "turns changed": cached_summary(
            turns, count, cs.key, ids_of=lambda ts: [replace(ts[-1], id="gone"), *ts[:-1]]),
        "settings changed": cached_summary(turns, count, OTHER_MODEL.key),
    }[cache]
    try:
        shown = previewed(turns, cached, cs)
    except ProjectionRefused:
        return  # the send refuses this question with the sizes, before any summary
    plan = plan_compaction(turns, QUESTION, cs, system_prompt=SYSTEM, pinned=(),
                           costs=CostIndex(), cached=cached)
    try:
        passes, first_fold, stored = folded_by_send(turns, cached, cs)
    except ProviderFailure:
        return  # a budget too small to summarize in: a named failure, nothing to compare
    assert_same_start(shown, first_fold, stored)
    # The send carries out the plan the preview showed: it folds the turns from the end of
    # the reused summary to the start of the recent window, first. The preview names those
    # turns too; it may name more where the cached summary leaves less room than the plan
    # hoped, and the send may fold more in a later pass where its new summary does.
    assert shown.summary is plan.base
    expected = tuple(t.ordinal for t in turns[plan.start:plan.covered])
    assert shown.to_summarize[: len(expected)] == expected
    folded = tuple(ordinal for one in passes for ordinal in one)
    if plan.covered == 0:
        assert passes == []
    if expected:
        assert passes[0] == expected
    if folded:
        assert folded[0] == plan.start + 1
