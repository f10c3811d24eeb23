"""Chat completion calls against the loopback server, and the failures they end in."""

from __future__ import annotations

import pytest

from turnlog.core.body import Message, RequestOptions, build_body
from turnlog.core.failures import ProviderFailure
from turnlog.core.provider import CancelToken, Reply
from turnlog.providers import (
    ChatCompletionsProvider,
)


def body(text: str = "Hello?", *, stream: bool = True, include_usage: bool = False) -> bytes:
    options = RequestOptions(stream=stream, include_usage=include_usage)
    return build_body("loopback-model", [Message("user", text)], options)


def complete(provider: ChatCompletionsProvider, data: bytes,
             cancel: CancelToken | None = None) -> tuple[Reply, list[str]]:
    deltas: list[str] = []
    reply = provider.complete(data, on_delta=deltas.append, cancel=cancel or CancelToken())
    return reply, deltas


def failure_of(provider: ChatCompletionsProvider, data: bytes,
               cancel: CancelToken | None = None) -> ProviderFailure:
    with pytest.raises(ProviderFailure) as caught:
        complete(provider, data, cancel)
    return caught.value
