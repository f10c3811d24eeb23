"""The window says how token counts are made and where the context window came from."""

from __future__ import annotations

from loopback import Behaviour
from turnlog.config.model_counts import ModelCounts
from turnlog.config.model_facts import FactStore
from turnlog.core.budget import ESTIMATE
from turnlog.providers import LLAMA_CPP
from turnlog.store import TurnlogStore
from turnlog.ui.infra.tasks import TaskRunner
from turnlog.ui.request.connection import ProviderConfig, ProviderConnector
from turnlog.ui.shell.window import MainWindow
from uihelpers import numbered, seed


def test_labels_follow_what_the_server_said(qtbot, loopback, turnlog_home):
    loopback.props = {"default_generation_settings": {"n_ctx": 8_192}}
    config = ProviderConfig("local", "llama.cpp", LLAMA_CPP, loopback.base_url,
                            "loopback-model")
    connector = ProviderConnector(lambda: config, lambda: None,
                                  counts=ModelCounts(FactStore.in_dir(turnlog_home)))
    store = TurnlogStore.open(turnlog_home)
    seed(store, "chat", numbered(3))
    window = MainWindow(store, TaskRunner(), connector)
    qtbot.addWidget(window)
    try:
        window.show()
        qtbot.waitUntil(lambda: len(window.transcript.turns) == 3)
        window.composer.set_draft("How long is the window?")
        window.refresh_preview()
        # Nothing asked yet: the window is assumed, the counts plainly estimated.
        assert "(estimated)" in window.composer.counter.text()
        assert "Context window: 200,000 tokens, assumed" in window.composer.counter.toolTip()
        assert "window 200,000 tokens, assumed" in window.inspector.tokens_label.text()

        loopback.script(Behaviour.answer("About 8k.", usage={"prompt_tokens": 10_000}))
        window.send()
        qtbot.waitUntil(lambda: not window.running, timeout=10_000)
        # The send asked the server first, so it was already budgeted in 8,192 tokens.
        budget = window.shown.projection.budget
        assert (budget.context_window, budget.output_reserve) == (8_192, 2_048)
        assert "window 8,192 tokens, from the server" in window.inspector.tokens_label.text()

        window.composer.set_draft("And the counts?")
        window.refresh_preview()
        counter = window.composer.counter
        assert "(estimated, calibrated from 1 reply)" in counter.text()
        assert "Context window: 8,192 tokens, from the server" in counter.toolTip()
        inspector = window.inspector.tokens_label.text()
        assert "(estimated, calibrated from 1 reply)" in inspector
        assert "window 8,192 tokens, from the server" in inspector
        # The reply reported more than the estimate: the preview counts higher now.
        plain = ESTIMATE.message_tokens("user", "And the counts?")
        assert window.shown.projection.input_tokens > plain
    finally:
        window.shutdown()
        store.close()
