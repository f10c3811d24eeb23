"""Deleting a turn that the summary covers, when the user rewrote that summary: the
question says the edited summary goes with it, the note counts it, and neither the edited
text nor the version it was edited from is kept."""

from __future__ import annotations

from datetime import UTC, datetime

from loopback import Behaviour
from privacy_scan import scan
from turnlog.core.model import ConversationSettings, Usage
from turnlog.core.projection import CostIndex
from turnlog.core.send import Committed, PendingTurn
from turnlog.providers import ChatCompletionsProvider
from turnlog.service.chat import Route, request_for, sender_for
from turnlog.store import TurnlogStore
from turnlog.ui.dialogs.privacy import delete_turn_question
from turnlog.ui.infra.deletion_text import counts_text

SETTINGS = ConversationSettings(max_bytes=8_000, context_window=32_768, output_reserve=1024)
MADE = "MODEL-SUMMARY-TEXT 模型摘要"
MINE = "MY-EDITED-SUMMARY 我的摘要 ✍️"


def test_deleting_a_covered_turn_says_the_edited_summary_goes_and_erases_it(
        qapp, turnlog_home, loopback):
    loopback.default = Behaviour.answer(MADE)
    with TurnlogStore.open(turnlog_home) as store:
        cid = store.conversations.create("d", model="loopback-model", settings=SETTINGS).id
        for i in range(1, 41):
            store.turns.commit(cid, PendingTurn(
                f"d{i}", f"question {i}: " + "q" * 220, f"answer {i}: " + "a" * 200, "m",
                "stop", Usage(), datetime.now(UTC)))
        outcome = sender_for(store, ChatCompletionsProvider(loopback.base_url), CostIndex()
                             ).send(request_for(store.conversations.get(cid), "now?",
                                                Route("loopback-model")))
        assert isinstance(outcome, Committed)
        plain = store.privacy.preview_turn("d2")
        assert plain.edited_summaries == 0
        assert "edited" not in delete_turn_question(2, plain).detail
        store.records.edit_summary(cid, MINE, 9)
        counts = store.privacy.preview_turn("d2")
        assert (counts.summaries, counts.edited_summaries) == (2, 1)
        question = delete_turn_question(2, counts)
        assert "The summary you edited includes it" in question.detail
        assert "2 summaries (1 edited by you)" in question.text
        assert "2 summaries (1 edited by you)" in counts.describe()
        deleted = store.privacy.delete_turn("d2")
        assert deleted.counts.edited_summaries == 1 and deleted.summary is None
        assert "1 edited by you" in counts_text(deleted.counts)
        assert store.records.summary_history(cid) == []
    # (The model's summary text is also the answer of the turn it sent: only the edit is
    # looked for on the disk; that no version is kept is the history above.)
    assert scan(turnlog_home, [MINE]) == []
