"""A ChatGPT conversation's message tree is walked in memory while small and through a
temporary database once large: both ways give the same turns, counts and errors."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

import chatgpt_export as gpt
from hostile_inputs import chatgpt_export
from turnlog.core.imports import ImportProblem
from turnlog.formats.importers import chatgpt, tree


def read(items: Any, spill: int, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every conversation of `items` as plain values (or the error that stopped it)."""
    monkeypatch.setattr(tree, "SPILL_BYTES", spill)
    out: list[Any] = []
    try:
        text = items if isinstance(items, str) else json.dumps(items)
        for item in chatgpt.conversations(io.StringIO(text), "conversations.json"):
            turns = [(t.pending.id, t.pending.question, t.pending.answer, t.pending.model,
                      t.pending.created_at.isoformat()) for t in item.turns]
            out.append((item.title, item.system_prompt, item.source_model, turns,
                        sorted(item.skipped.items())))
    except ImportProblem as err:
        out.append(("refused", str(err)))
    return out


def both(items: Any, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    held = read(items, 1 << 30, monkeypatch)
    spilled = read(items, 0, monkeypatch)  # every message through the database
    assert held == spilled
    return held


def cyclic() -> dict[str, Any]:
    return {"title": "loop", "current_node": "b", "mapping": {
        "a": {"id": "a", "parent": "b", "children": ["b"], "message": None},
        "b": {"id": "b", "parent": "a", "children": ["a"], "message": None}}}


def test_fixed_trees_give_the_same_turns_held_or_spilled(monkeypatch):
    kyoto = gpt.kyoto().to_json()
    lost = dict(gpt.kyoto().to_json(), current_node="nowhere")  # the newest leaf instead
    shown = both(gpt.conversations() + [lost], monkeypatch)
    assert len(shown) == 4 and shown[0][3] and shown[3][3]
    assert any(count for _, count in shown[0][4])  # branches off the path were counted
    assert both([kyoto, cyclic()], monkeypatch)[-1] == (
        "refused", "conversation 2 ('loop'): its message tree has a cycle")
    broken = {"title": "broken", "mapping": {"a": "not a node"}, "current_node": "a"}
    assert both([broken], monkeypatch)[-1] == (
        "refused", "conversation 1 ('broken'): message 'a' is not a JSON object")
    # An id given twice counts where it is read last, held or spilled.
    text = json.dumps([kyoto])
    first = next(iter(kyoto["mapping"]))
    again = json.dumps({first: kyoto["mapping"][first]})[1:-1]
    twice = text.replace('"mapping": {', '"mapping": {' + again + ", ", 1)
    assert both(twice, monkeypatch)[0][3] == shown[0][3]
    # A lone surrogate, escaped in the file, goes through the database as it came (and
    # the turn is then left out, named, either way).
    odd = gpt.Tree("odd", "odd")
    asked = odd.add("root", "user", gpt.text("half a pair: \ud800"))
    odd.current = odd.add(asked, "assistant", gpt.text("noted"))
    assert both([odd.to_json()], monkeypatch)[0][3:] == (
        [], [("turns holding text that is not valid UTF-8", 1)])


def test_a_conversation_spills_once_its_messages_pass_the_limit(monkeypatch):
    monkeypatch.setattr(tree, "SPILL_BYTES", 2_000)
    held = tree.MessageTree(lambda message: message == "seen")
    try:
        for k in range(3):
            held.add(f"m{k}", {"id": f"m{k}", "parent": f"m{k - 1}" if k else None,
                               "message": "seen"}, "x" * 900)
        held.add("off", {"id": "off", "parent": "m0", "message": "seen"}, "{}")
        assert held._spilled and held._db is not None  # 2,700 bytes > 2,000
        assert held.walk("m2", "c") == 1  # "off" lies off the path
        assert list(held.messages()) == ["seen"] * 3
        held.reset()
        held.add("n0", {"id": "n0", "parent": None, "message": "seen"}, "{}")
        held.add("n1", {"id": "n1", "parent": "n0", "message": "seen"}, "{}")
        assert not held._spilled and held.walk("n0", "c") == 1
    finally:
        held.close()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(chatgpt_export())
def test_fuzzed_exports_give_the_same_outcome_held_or_spilled(items):
    with pytest.MonkeyPatch.context() as monkeypatch:
        both(items, monkeypatch)


def test_a_question_s_image_comes_through_held_or_spilled(monkeypatch):
    from PIL import Image
    buffer = io.BytesIO()
    Image.new("RGB", (64, 48), (200, 30, 30)).save(buffer, "PNG")
    photo = buffer.getvalue()
    items = gpt.conversations(gpt.kyoto())

    def files(file_id: str) -> tuple[str, bytes] | None:
        return ("file-abc-temple.png", photo) if file_id == "file-abc" else None

    seen = []
    for spill in (1 << 30, 0):
        monkeypatch.setattr(tree, "SPILL_BYTES", spill)
        for kyoto in chatgpt.conversations(io.StringIO(json.dumps(items)), "c.json", files):
            seen.append([[(a.name, a.kind.value, a.width, a.height, a.original == photo)
                          for a in t.pending.attachments] for t in kyoto.turns])
    assert seen[0] == seen[1]
    assert seen[0][1] == [("temple.jpg", "image", 64, 48, True)]
