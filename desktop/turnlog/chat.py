"""Wiring a send for a conversation: which model, which options, which budget, which sender.

The window and `turnlog-cli` both build requests here, so a preview, a CLI
projection and a real send of the same question produce the same bytes.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Protocol

from .core.body import RequestOptions
from .core.budget import Budget
from .core.compaction import Compactor, SummaryStore
from .core.model import Conversation
from .core.projection import CostIndex
from .core.provider import ChatProvider
from .core.send import LogStore, Sender, SendRequest


def options_for(conversation: Conversation, *, include_usage: bool = False) -> RequestOptions:
    """The request options a send for this conversation uses."""
    settings = conversation.settings
    return RequestOptions(
        stream=settings.stream,
        include_usage=include_usage,
        max_tokens=settings.output_reserve,
        temperature=settings.temperature,
    )


@dataclass(frozen=True, slots=True)
class Route:
    """Where a conversation's requests go, known without reading the keyring."""

    model: str
    include_usage: bool = False
    context_window: int | None = None


def budget_for(conversation: Conversation, route: Route) -> Budget:
    """The conversation's own window wins; else the endpoint's; else unknown (200,000)."""
    window = conversation.settings.context_window or route.context_window
    return Budget.from_settings(conversation.settings, context_window=window)


def request_for(
    conversation: Conversation, question: str, route: Route, *, turn_id: str | None = None
) -> SendRequest:
    return SendRequest(
        conversation,
        question,
        conversation.model or route.model,
        budget_for(conversation, route),
        options_for(conversation, include_usage=route.include_usage),
        turn_id=turn_id or uuid.uuid4().hex,
    )


class ChatStore(LogStore, SummaryStore, Protocol):
    """The log and its summaries (`TurnlogStore` is one)."""


def sender_for(store: ChatStore, provider: ChatProvider, costs: CostIndex) -> Sender:
    """A sender that compacts through the same provider as it answers."""
    return Sender(store, provider, costs=costs,
                  compactor=Compactor(store, provider, costs=costs))
