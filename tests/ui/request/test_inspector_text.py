"""A refusal's sentence reads right: "The question takes …" when the question alone is
too large, "The system prompt and question take …" when more than one thing is."""

from __future__ import annotations

import pytest

from turnlog.core.model import ConversationSettings
from turnlog.core.projection import ProjectionRefused, RefusalReason
from turnlog.ui.request.inspector_text import refusal_text
from uihelpers import seed

pytest_plugins = ["uiwindow"]


def refusal(reason: RefusalReason, *, system: bool, exact: bool = False) -> ProjectionRefused:
    return ProjectionRefused(reason=reason, mandatory_bytes=2_789_061, max_bytes=16_000,
                             mandatory_tokens=9_000, token_budget=4_000, tokens_exact=exact,
                             includes_summary=False, includes_system=system)


@pytest.mark.parametrize(("reason", "exact"), [(RefusalReason.BYTES, False),
                                               (RefusalReason.TOKENS, False),
                                               (RefusalReason.TOKENS, True)])
def test_the_verb_agrees_with_what_is_too_large(qapp, reason, exact):
    alone, more = refusal(reason, system=False, exact=exact), \
        refusal(reason, system=True, exact=exact)
    for text in (alone.describe(), refusal_text(alone)):
        assert text.startswith("The question takes "), text
    for text in (more.describe(), refusal_text(more)):
        assert text.startswith("The system prompt and question take "), text


@pytest.mark.parametrize(("system_prompt", "opening"), [
    ("", "The question takes "), ("Be brief.", "The system prompt and question take ")])
def test_the_composer_says_it_as_a_sentence(qtbot, make_window, store, system_prompt,
                                            opening):
    seed(store, "chat", [("Hi", "Hello")], system_prompt=system_prompt,
         settings=ConversationSettings(max_bytes=400))
    window = make_window()
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 1, timeout=5000)
    window.composer.set_draft("Why? " * 100, 3)
    window.refresh_preview()
    qtbot.waitUntil(lambda: "Too large to send" in window.composer.reason.text(),
                    timeout=5000)
    assert opening in window.composer.reason.text()
