"""Hypothesis strategies for hostile JSON and text, and ChatGPT exports built from them."""

from __future__ import annotations

from hypothesis import strategies as st

HOSTILE_TEXT = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]),
                       max_size=40) | st.sampled_from(
    ["", "\x1b[2J", "\u202e", "\x00", "你好", "🙂", "\ud800".encode("utf-8", "surrogatepass")
     .decode("utf-8", "replace"), "a" * 5000])


SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-2**63, 2**64), st.floats(),
                    HOSTILE_TEXT)


ANY_JSON = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                        | st.dictionaries(HOSTILE_TEXT, inner, max_size=4), max_leaves=25)


def chatgpt_node(node_id: str, parent: str | None, children: list[str]) -> st.SearchStrategy:
    message = st.fixed_dictionaries({
        "author": st.fixed_dictionaries({"role": st.sampled_from(
            ["user", "assistant", "system", "tool", "x"]) | ANY_JSON}),
        "content": st.fixed_dictionaries({
            "content_type": st.sampled_from(["text", "code", "multimodal_text", "x"]),
            "parts": st.lists(HOSTILE_TEXT | ANY_JSON, max_size=3)}) | ANY_JSON,
        "create_time": st.floats() | st.none() | HOSTILE_TEXT,
        "metadata": st.fixed_dictionaries({}) | ANY_JSON,
    })
    return st.fixed_dictionaries({"id": st.just(node_id), "parent": st.just(parent),
                                  "children": st.just(children),
                                  "message": message | st.none() | ANY_JSON})


@st.composite
def chatgpt_export(draw) -> object:
    conversations = []
    for index in range(draw(st.integers(0, 3))):
        count = draw(st.integers(0, 5))
        ids = [f"n{index}-{k}" for k in range(count)]
        mapping = {node_id: draw(chatgpt_node(node_id, ids[k - 1] if k else None,
                                              ids[k + 1:k + 2]))
                   for k, node_id in enumerate(ids)}
        conversation = {"title": draw(HOSTILE_TEXT | ANY_JSON), "mapping": mapping,
                        "current_node": draw(st.sampled_from(ids) if ids else st.none()),
                        "create_time": draw(st.floats() | st.none())}
        if draw(st.booleans()):
            conversation = draw(ANY_JSON) or conversation
        conversations.append(conversation)
    return conversations
