"""Memory selection against brute force, and memory layers in the projected body."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memory_reference import brute_force
from projection_reference import make_turns
from turnlog.core.budget import Budget
from turnlog.core.memory import (
    Cost,
    ItemKind,
    Memory,
    MemoryItem,
    PinnedFact,
    Reason,
    choose_exact,
    choose_greedy,
    select,
)
from turnlog.core.projection import PartKind, ProjectionRefused, project

instances = st.integers(0, 16).flatmap(lambda n: st.tuples(
    st.lists(st.integers(1, 5), min_size=n, max_size=n),
    st.lists(st.builds(Cost, st.integers(1, 60), st.integers(1, 40)), min_size=n, max_size=n),
    st.builds(Cost, st.integers(0, 300), st.integers(0, 200)),
))


@settings(max_examples=400, deadline=None)
@given(instances)
def test_exact_choice_equals_brute_force(instance):
    priorities, costs, limit = instance
    mask = choose_exact(priorities, costs, limit)
    assert mask == brute_force(priorities, costs, limit)
    chosen = [i for i in range(len(costs)) if mask >> i & 1]
    assert sum(costs[i].bytes for i in chosen) <= limit.bytes
    assert sum(costs[i].tokens for i in chosen) <= limit.tokens


@settings(max_examples=200, deadline=None)
@given(instances)
def test_greedy_stays_within_both_limits(instance):
    priorities, costs, limit = instance
    mask = choose_greedy(priorities, costs, limit)
    chosen = [i for i in range(len(costs)) if mask >> i & 1]
    assert sum(costs[i].bytes for i in chosen) <= limit.bytes
    assert sum(costs[i].tokens for i in chosen) <= limit.tokens


def test_ties_go_to_fewer_bytes_then_to_the_older_item():
    limit = Cost(100, 100)
    # Same priority: the smaller one wins.
    assert choose_exact([3, 3], [Cost(60, 10), Cost(50, 10)], limit) == 0b10
    # Same priority and bytes: the older one wins.
    assert choose_exact([3, 3], [Cost(60, 10), Cost(60, 10)], limit) == 0b01
    # A higher total priority beats fewer bytes; two small items beat one big one.
    assert choose_exact([5, 3, 3], [Cost(90, 1), Cost(45, 1), Cost(45, 1)], limit) == 0b110


def test_the_token_limit_binds_as_well_as_the_byte_limit():
    costs = [Cost(10, 80), Cost(10, 30), Cost(10, 30)]
    assert choose_exact([5, 3, 3], costs, Cost(100, 100)) == 0b110
    assert choose_exact([5, 3, 3], costs, Cost(100, 200)) == 0b111


def test_beyond_the_bounds_the_choice_is_greedy_and_says_approximate():
    items = [MemoryItem(f"n{i}", ItemKind.NOTE, "x" * i, 1 + i % 5) for i in range(70)]
    costs = [Cost(10 + i, 5 + i % 7) for i in range(70)]
    chosen = select(items, costs, Cost(400, 100))
    assert chosen.approximate
    assert sum(c.cost.bytes for c in chosen.choices if c.kept) <= 400
    exact = select(items[:20], costs[:20], Cost(400, 100))
    assert not exact.approximate


def test_sixty_four_items_are_chosen_exactly_within_the_state_budget():
    items = [MemoryItem(f"n{i}", ItemKind.NOTE, "x", 1 + (i * 7) % 5) for i in range(64)]
    costs = [Cost(20 + (i * 37) % 180, 5 + (i * 13) % 60) for i in range(64)]
    chosen = select(items, costs, Cost(1_600, 400))
    assert not chosen.approximate


def test_reasons_say_why_an_item_was_left_out():
    items = [MemoryItem("a", ItemKind.NOTE, "a", 5), MemoryItem("b", ItemKind.NOTE, "b", 1),
             MemoryItem("c", ItemKind.PREFERENCE, "c", 5)]
    chosen = select(items, [Cost(60, 1), Cost(50, 1), Cost(500, 1)], Cost(100, 100))
    assert [c.reason for c in chosen.choices] == [Reason.KEPT, Reason.NO_ROOM, Reason.TOO_LARGE]


BUDGET = Budget(max_bytes=4_000, context_window=8_192, output_reserve=1_024)


def contents(projection) -> list[str]:
    return [m["content"] for m in json.loads(projection.body)["messages"]]


def test_wire_order_and_every_layer_exactly_once():
    memory = Memory(
        pins=(PinnedFact("p1", "PIN-MARK-1"),),
        optional=(MemoryItem("pref:1", ItemKind.PREFERENCE, "PREF-MARK"),
                  MemoryItem("note:1", ItemKind.NOTE, "NOTE-MARK")),
        share_percent=30,
    )
    turns = make_turns([("TURN-Q", "TURN-A")])
    projection = project(turns, "QUESTION", model="m", budget=BUDGET, system_prompt="SYS",
                         pinned=memory)
    body = projection.body.decode()
    order = ["SYS", "PREF-MARK", "PIN-MARK-1", "NOTE-MARK", "TURN-Q", "QUESTION"]
    assert [body.index(marker) for marker in order] == sorted(body.index(m) for m in order)
    assert all(body.count(marker) == 1 for marker in order)
    assert [p.kind for p in projection.parts][:5] == [
        PartKind.ENVELOPE, PartKind.SYSTEM, PartKind.PREFERENCE, PartKind.PINNED, PartKind.NOTE]
    assert sum(p.bytes for p in projection.parts) == len(projection.body)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(st.text(max_size=80), st.integers(1, 5)), max_size=8),
    st.lists(st.text(max_size=60), max_size=3),
    st.integers(0, 30),
    st.integers(400, 3_000),
    st.sampled_from(["", "sys"]),
)
def test_kept_items_fit_the_share_and_pins_are_always_sent(optional, pins, share, max_bytes,
                                                          system_prompt):
    memory = Memory(
        pins=tuple(PinnedFact(f"p{i}", text) for i, text in enumerate(pins)),
        optional=tuple(MemoryItem(f"n{i}", ItemKind.NOTE if i % 2 else ItemKind.PREFERENCE,
                                  text, priority) for i, (text, priority) in enumerate(optional)),
        share_percent=share,
    )
    budget = Budget(max_bytes=max_bytes, context_window=2_048, output_reserve=256)
    turns = make_turns([("q" * 50, "a" * 50)] * 5)
    try:
        projection = project(turns, "hi", model="m", budget=budget, system_prompt=system_prompt,
                             pinned=memory)
    except ProjectionRefused as refusal:
        assert refusal.includes_pinned == bool(pins)
        return
    assert projection.body_bytes == sum(p.bytes for p in projection.parts) <= max_bytes
    assert projection.input_tokens <= budget.input_tokens
    kept = [p for p in projection.parts if p.kind in (PartKind.PREFERENCE, PartKind.NOTE)]
    assert sum(p.bytes for p in kept) <= max_bytes * share // 100
    assert sum(p.tokens for p in kept) <= budget.input_tokens * share // 100
    messages = contents(projection)
    if pins:
        pinned = next(m for m in messages if m.startswith("Pinned facts"))
        assert all(f"\n- {text}" in pinned for text in pins)


def test_unused_share_goes_to_the_turns():
    turns = make_turns([("q" * 300, "a" * 300)] * 12)
    bare = project(turns, "hi", model="m", budget=BUDGET)
    with_share = project(turns, "hi", model="m", budget=BUDGET, pinned=Memory(share_percent=30))
    assert with_share.sent == bare.sent


def test_items_never_cause_a_refusal():
    budget = Budget(max_bytes=400, context_window=2_048, output_reserve=256)
    memory = Memory(optional=(MemoryItem("n", ItemKind.NOTE, "x" * 30),), share_percent=30)
    question = "q" * 270
    projection = project((), question, model="m", budget=budget, pinned=memory)
    assert projection.body_bytes <= 400
    with pytest.raises(ProjectionRefused) as refused:
        project((), question + "q" * 200, model="m", budget=budget,
                pinned=Memory(pins=(PinnedFact("p", "keep the backups"),)))
    assert refused.value.includes_pinned
    assert "pinned facts" in str(refused.value)


def test_a_summary_that_lost_pinned_facts_is_flagged():
    from turnlog.core.key_facts import pinned_facts_missing

    pins = ["Never delete the backups on NAS-7", "we run 4.2.17"]
    lossy = "Backups were discussed. The team runs version 4.2.17."
    assert pinned_facts_missing(pins, lossy) == ["NAS-7", "Never delete the backups on NAS-7"]
    faithful = "Never delete the backups on NAS-7; version 4.2.17 is in use."
    assert pinned_facts_missing(pins, faithful) == []


def test_a_search_over_its_state_budget_gives_up_and_the_selection_says_approximate():
    priorities = [1 + i % 5 for i in range(30)]
    costs = [Cost(30 + (i * 37) % 200, 5 + (i * 11) % 50) for i in range(30)]
    assert choose_exact(priorities, costs, Cost(1_000, 300), max_states=50) is None
    assert choose_exact(priorities, costs, Cost(1_000, 300)) is not None
