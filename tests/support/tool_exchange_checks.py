"""Whether every tool call in a request body has its result, and every result its call."""

from __future__ import annotations


def check_exchanges_whole(messages: list[dict]) -> None:
    """Every assistant message with tool_calls is followed by exactly one tool message per
    call, in order; every tool message answers the call just before it."""
    i = 0
    while i < len(messages):
        message = messages[i]
        assert message["role"] != "tool", f"a result without its call at {i}"
        if message.get("tool_calls"):
            ids = [c["id"] for c in message["tool_calls"]]
            answered = [m.get("tool_call_id") for m in messages[i + 1:i + 1 + len(ids)]]
            assert answered == ids, f"calls {ids} answered by {answered}"
            i += len(ids)
        i += 1
