"""Named fakes for the few places a real part cannot be scripted finely enough."""

from __future__ import annotations

import json
from collections.abc import Callable

from turnlog.core.compaction import SUMMARY_PROMPT
from turnlog.core.model import Usage
from turnlog.core.provider import CancelToken, Reply


class FakeEndpoint:
    """In-process stand-in for a chat endpoint: summary calls get `summary(fold_input)`,
    chat calls get `chat(body)`. Records every body it was given."""

    def __init__(self, summary: Callable[[str], Reply] | None = None,
                 chat: Callable[[dict], Reply] | None = None) -> None:
        self.bodies: list[bytes] = []
        self.summary = summary or (lambda text: Reply(
            f"summary of {text.count('[Turn ')} turns", "stop", Usage(10, 5, 15)))
        self.chat = chat or (lambda body: Reply("the answer", "stop", Usage(20, 3, 23)))

    def complete(self, body: bytes, *, on_delta, cancel: CancelToken) -> Reply:
        self.bodies.append(body)
        parsed = json.loads(body)
        messages = parsed["messages"]
        if messages[0]["content"] == SUMMARY_PROMPT:
            return self.summary(messages[1]["content"])
        return self.chat(parsed)

    @property
    def summary_calls(self) -> list[dict]:
        return [json.loads(b) for b in self.bodies
                if json.loads(b)["messages"][0]["content"] == SUMMARY_PROMPT]

    @property
    def chat_calls(self) -> list[dict]:
        return [json.loads(b) for b in self.bodies
                if json.loads(b)["messages"][0]["content"] != SUMMARY_PROMPT]
