"""Shared set-up for the window tests: a real store in the test's data directory,
seeded through the store's own append path."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from pathlib import Path

from turnlog.core.model import Conversation, ConversationSettings, Usage
from turnlog.core.send import PendingTurn
from turnlog.store import TurnlogStore


def seed(
    store: TurnlogStore,
    title: str,
    pairs: Iterable[tuple[str, str]],
    *,
    model: str = "loopback-model",
    system_prompt: str = "",
    settings: ConversationSettings | None = None,
) -> Conversation:
    conversation = store.conversations.create(
        title, model=model, system_prompt=system_prompt, settings=settings
    )
    pending = [
        PendingTurn(uuid.uuid4().hex, q, a, model, "stop", Usage(), datetime.now(UTC))
        for q, a in pairs
    ]
    if pending:
        store.turns.commit_many(conversation.id, pending)
    return store.conversations.get(conversation.id)


def exported(home: Path, conversation_id: int) -> str:
    """The conversation as `turnlog-cli export` prints it: a separate process reading the
    database file, so what is on disk is compared, not the window's cache."""
    done = subprocess.run(
        [sys.executable, "-c", "import sys; from turnlog.cli import main; sys.exit(main())",
         "export", str(conversation_id)],
        env={**os.environ, "TURNLOG_HOME": str(home)}, capture_output=True, text=True,
        timeout=60, check=True,
    )
    return done.stdout


def numbered(count: int, *, size: int = 40) -> Sequence[tuple[str, str]]:
    return [(f"question {i} " + "q" * size, f"answer {i} " + "a" * size)
            for i in range(1, count + 1)]


def loopback_connector(base_url: str, *, model: str = "loopback-model",
                       read_timeout_s: float | None = None, retry: bool = False,
                       preset=None):
    """The window's real connector, pointed at a loopback server with no key (as a Custom
    profile unless `preset` names another kind of server). Automatic retries are off
    unless asked for: most window tests show one failed attempt."""
    from turnlog.config.profiles import NetworkSettings
    from turnlog.providers import CUSTOM
    from turnlog.ui.request.connection import ProviderConfig, ProviderConnector

    config = ProviderConfig("loopback", "Loopback", preset or CUSTOM, base_url, model,
                            network=NetworkSettings(retry=retry))
    return ProviderConnector(lambda: config, lambda: None, read_timeout_s=read_timeout_s)
