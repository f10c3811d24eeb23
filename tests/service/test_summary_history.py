"""A conversation's compaction history and the summary the user rewrites, over the real
loopback server and a real SQLite file: what each summary replaced and folded, which
requests carried it, an edit sent on the wire and folded from, Undo, and the edited-away
text kept only while a record needs it."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from loopback import Behaviour
from privacy_scan import scan
from turnlog.core.compaction import SUMMARY_PROMPT
from turnlog.core.model import ConversationSettings, Usage
from turnlog.core.projection import CostIndex
from turnlog.core.send import Committed, PendingTurn
from turnlog.core.summaries import SummaryEditError, VersionState, folded_span
from turnlog.providers import ChatCompletionsProvider
from turnlog.service.chat import Route, request_for, sender_for
from turnlog.service.request_body import request_of_turn
from turnlog.store import TurnlogStore

SETTINGS = ConversationSettings(max_bytes=8_000, context_window=32_768, output_reserve=1024)


def seed(store: TurnlogStore, conv_id: int | None, count: int) -> int:
    if conv_id is None:
        conv_id = store.conversations.create("history", model="loopback-model",
                                             settings=SETTINGS).id
    start = len(store.turns(conv_id)) + 1
    for i in range(start, start + count):
        store.turns.commit(conv_id, PendingTurn(
            f"h{conv_id}-{i}", f"question {i}: " + "问" * 40 + "q" * 200,
            f"answer {i}: " + "a" * 200, "m", "stop", Usage(), datetime.now(UTC)))
    return conv_id


def send(store, loopback, conv_id, question="now?"):
    provider = ChatCompletionsProvider(loopback.base_url)
    outcome = sender_for(store, provider, CostIndex()).send(
        request_for(store.conversations.get(conv_id), question, Route("loopback-model")))
    assert isinstance(outcome, Committed)
    return outcome


def summary_sent(loopback) -> str:
    """The summary message of the newest chat request (its first, system message)."""
    last = [r.json() for r in loopback.requests
            if r.json()["messages"][0]["content"] != SUMMARY_PROMPT][-1]
    first = last["messages"][0]
    assert first["role"] == "system"
    return first["content"]


def folds(loopback) -> list[str]:
    return [r.json()["messages"][1]["content"] for r in loopback.requests
            if r.json()["messages"][0]["content"] == SUMMARY_PROMPT]


@pytest.fixture
def store(turnlog_home):
    s = TurnlogStore.open(turnlog_home)
    yield s
    s.close()


def test_history_says_what_each_summary_replaced_folded_and_which_requests_carried_it(
        store, loopback):
    loopback.default = Behaviour.answer("Summary v1.")
    cid = seed(store, None, 40)
    send(store, loopback, cid)
    loopback.default = Behaviour.answer("Summary v2.")
    seed(store, cid, 20)
    send(store, loopback, cid, "again")
    found = store.records.summary_history(cid)
    assert [v.state for v in found] == [VersionState.EARLIER, VersionState.CURRENT]
    first, second = found
    assert (first.summary.content, second.summary.content) == ("Summary v1.", "Summary v2.")
    assert first.summary.replaced_id is None and second.summary.replaced_id == first.summary.id
    assert second.replaced_kept and not second.summary.edited
    assert len(first.record_ids) == 1 and len(second.record_ids) == 1
    assert first.record_ids[0] < second.record_ids[0]
    # Each was made during the request that first carried it: that request is reachable
    # (by the turn it answered) and verifies.
    records = store.records.of(cid)
    assert (first.made_in, second.made_in) == (first.record_ids[0], second.record_ids[0])
    for version in (first, second):
        turn = next(t for t in store.turns(cid) if t.id == version.made_for)
        assert version.made_for_ordinal == turn.ordinal
        rebuilt = request_of_turn(store, cid, version.made_for)
        assert rebuilt.verified and rebuilt.record_id == version.made_in
    assert len(records) == 2
    kept = {v.summary.id: v.summary for v in found}
    assert folded_span(first, kept) == (1, first.summary.last_ordinal)
    assert folded_span(second, kept) == (first.summary.last_ordinal + 1,
                                         second.summary.last_ordinal)


def test_an_edit_is_sent_from_then_on_folded_from_and_undo_returns(store, loopback):
    loopback.default = Behaviour.answer("Summary v1.")
    cid = seed(store, None, 40)
    send(store, loopback, cid)
    made = store.records.latest_summary(cid)
    edited = store.records.edit_summary(cid, "Edited: the user grows tulips 🌷 郁金香", 12)
    assert edited.edited and edited.edited_from == made.id == edited.replaced_id
    assert store.records.latest_summary(cid).id == edited.id
    sent = send(store, loopback, cid, "what do I grow?")
    assert summary_sent(loopback).endswith(":\nEdited: the user grows tulips 🌷 郁金香")
    assert store.records.of(cid)[-1].summary_id == edited.id
    rebuilt = request_of_turn(store, cid, sent.turn.id)
    assert rebuilt.verified, rebuilt.why

    mine = store.records.summary_history(cid)[-1]
    assert mine.summary.id == edited.id and mine.made_in is None and mine.made_for is None
    back = store.records.undo_summary_edit(cid)
    assert back.id == made.id and store.records.latest_summary(cid).id == made.id
    states = {v.summary.id: v.state for v in store.records.summary_history(cid)}
    assert states == {made.id: VersionState.CURRENT, edited.id: VersionState.UNDONE}
    send(store, loopback, cid, "and now?")
    assert summary_sent(loopback).endswith(":\nSummary v1.")
    assert request_of_turn(store, cid, sent.turn.id).verified  # the undone text stays for it
    with pytest.raises(SummaryEditError, match="no edit to undo"):
        store.records.undo_summary_edit(cid)

    store.records.edit_summary(cid, "Edited again: tulips and ORCHID-17", 9)
    loopback.default = Behaviour.answer("Summary v3.")
    before = len(folds(loopback))
    seed(store, cid, 20)
    send(store, loopback, cid, "later")
    new_folds = folds(loopback)[before:]
    assert new_folds and new_folds[0].startswith(
        "Previous summary:\nEdited again: tulips and ORCHID-17")
    assert store.records.latest_summary(cid).content == "Summary v3."


def test_an_edit_needs_a_summary_and_a_different_text(store, loopback):
    cid = seed(store, None, 2)
    with pytest.raises(SummaryEditError, match="no summary to edit"):
        store.records.edit_summary(cid, "anything", 1)
    loopback.default = Behaviour.answer("Summary v1.")
    seed(store, cid, 38)
    send(store, loopback, cid)
    with pytest.raises(SummaryEditError, match="already stands"):
        store.records.edit_summary(cid, "Summary v1.", 1)


def test_edited_away_text_stays_only_while_a_record_or_undo_needs_it(turnlog_home, loopback):
    never_sent = "EDITED-AWAY-NEVER-SENT 兰花"
    carried = "EDITED-AND-CARRIED 秘密"
    with TurnlogStore.open(turnlog_home) as store:
        loopback.default = Behaviour.answer("Summary v1.")
        cid = seed(store, None, 40)
        send(store, loopback, cid)
        store.records.edit_summary(cid, never_sent, 5)
        store.records.undo_summary_edit(cid)  # no record carried it: gone at once
        store.records.edit_summary(cid, carried, 5)
        sent = send(store, loopback, cid, "go on")
        store.records.edit_summary(cid, "A third text", 3)
        # Undo of the third returns to the carried one, so it is kept for both reasons.
        assert store.records.summary_history(cid)[-2].summary.content == carried
    assert scan(turnlog_home, [never_sent]) == []
    assert scan(turnlog_home, [carried])
    with TurnlogStore.open(turnlog_home) as store:
        assert store.records.forget_earlier_summaries(cid) == 2
        assert [v.summary.content for v in store.records.summary_history(cid)] == [
            "A third text"]
        rebuilt = request_of_turn(store, cid, sent.turn.id)
        assert not rebuilt.verified and rebuilt.body is None
        assert rebuilt.stored_sha256 is None  # the hash of the removed text went with it
    assert scan(turnlog_home, [carried]) == []
