"""Titles in the store (a real SQLite file): a title taken from the first question is
written with the first answer and follows the first turn (rule 5: derived data), a
renamed title is the user's and stays, a title the model made gives way when the turn
it was made from goes, and a late title never comes back over a change."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import pytest

from turnlog.core.model import Usage
from turnlog.core.send import PendingTurn
from turnlog.core.titles import MODEL, QUESTION, USER
from turnlog.service.chat import NewConversation
from turnlog.store import TurnlogStore

FIRST = "Why does my Kubernetes deployment keep restarting every few minutes?"
SECOND = "请帮我解释一下为什么在分布式系统中一致性、可用性和分区容错性三者不能同时满足，并举例"


def pending(question: str, replaces: str | None = None) -> PendingTurn:
    return PendingTurn(uuid.uuid4().hex, question, "an answer", "m", "stop", Usage(),
                       datetime.now(UTC), replaces=replaces)


@pytest.fixture
def store(turnlog_home):
    opened = TurnlogStore.open(turnlog_home)
    yield opened
    opened.close()


def test_the_first_answer_names_a_new_conversation_and_later_ones_do_not(store):
    conversation = store.conversations.create("", title_source=QUESTION)
    assert store.conversations.get(conversation.id).title == ""
    store.turns.commit(conversation.id, pending(FIRST))
    store.turns.commit(conversation.id, pending("Something else entirely"))
    now = store.conversations.get(conversation.id)
    assert (now.title, now.title_source) == ("Why does my Kubernetes deployment keep…", QUESTION)
    assert [h.conversation_id for h in store.search("Kubernetes")][:1] == [conversation.id]


def test_a_derived_title_follows_the_first_turn_and_goes_neutral_with_none_left(store):
    conversation = store.conversations.create("", title_source=QUESTION)
    first = store.turns.commit(conversation.id, pending(FIRST))
    second = store.turns.commit(conversation.id, pending(SECOND))
    store.privacy.delete_turn(first.id)
    assert store.conversations.get(conversation.id).title == SECOND[:40] + "…"
    assert store.search("Kubernetes") == []  # the old title left the index too
    store.privacy.delete_turn(second.id)
    now = store.conversations.get(conversation.id)
    assert (now.title, now.title_source) == ("", QUESTION)
    with store.db.connection() as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    assert b"Kubernetes" not in store.path.read_bytes()


def test_a_renamed_title_stays_across_a_delete_of_the_first_turn(store):
    conversation = store.conversations.create("", title_source=QUESTION)
    first = store.turns.commit(conversation.id, pending(FIRST))
    store.turns.commit(conversation.id, pending(SECOND))
    renamed = store.conversations.update(conversation.id, title="Pods")
    assert renamed.title_source == USER
    store.privacy.delete_turn(first.id)
    assert store.conversations.get(conversation.id).title == "Pods"


def test_a_model_title_goes_back_to_the_question_when_its_turn_goes(store):
    conversation = store.conversations.create("", title_source=QUESTION)
    first = store.turns.commit(conversation.id, pending(FIRST))
    second = store.turns.commit(conversation.id, pending(SECOND))
    named = store.conversations.set_model_title(conversation.id, "Restarting pods", first.id)
    assert named is not None and (named.title, named.title_source) == ("Restarting pods",
                                                                       MODEL)
    store.turns.commit(conversation.id, pending("a third question"))  # a model title stays
    assert store.conversations.get(conversation.id).title == "Restarting pods"
    store.privacy.delete_turn(first.id)
    now = store.conversations.get(conversation.id)
    assert (now.title, now.title_source) == (SECOND[:40] + "…", QUESTION)
    # Late: made from the turn that was deleted, it is not written.
    assert store.conversations.set_model_title(conversation.id, "Restarting pods", first.id) is None
    assert store.conversations.set_model_title(conversation.id, "CAP", second.id) is not None


def test_a_model_title_never_replaces_the_users(store):
    conversation = store.conversations.create("", title_source=QUESTION)
    first = store.turns.commit(conversation.id, pending(FIRST))
    store.conversations.update(conversation.id, title="Mine")
    assert store.conversations.set_model_title(conversation.id, "The model's", first.id) is None
    assert store.conversations.get(conversation.id).title == "Mine"


def test_a_new_version_of_the_first_turn_renames_a_derived_title(store):
    conversation = store.conversations.create("", title_source=QUESTION)
    first = store.turns.commit(conversation.id, pending(FIRST))
    store.turns.commit(conversation.id, pending("Why is the sky blue?", replaces=first.id))
    assert store.conversations.get(conversation.id).title == "Why is the sky blue?"
    store.turns.use_version(first.id)
    assert store.conversations.get(conversation.id).title == \
        "Why does my Kubernetes deployment keep…"


def test_a_conversation_started_with_its_first_turn_is_named_after_it(store):
    new = NewConversation(store, model="m")
    new.turns.commit(0, pending(SECOND))
    assert new.created is not None
    now = store.conversations.get(new.created.id)
    assert (now.title, now.title_source) == (SECOND[:40] + "…", QUESTION)
    typed = NewConversation(store, "Typed", model="m")
    typed.turns.commit(0, pending(FIRST))
    assert typed.created is not None
    assert store.conversations.get(typed.created.id).title_source == USER


def test_a_fork_keeps_a_derived_title_following_its_own_first_turn(store):
    conversation = store.conversations.create("", title_source=QUESTION)
    store.turns.commit(conversation.id, pending(FIRST))
    store.turns.commit(conversation.id, pending(SECOND))
    fork, _ = store.forks.at(conversation.id, 2)
    assert (fork.title, fork.title_source) == ("Why does my Kubernetes deployment keep…",
                                               QUESTION)
    empty, _ = store.forks.at(conversation.id, 1)
    assert (empty.title, empty.title_source) == ("", QUESTION)
    named, _ = store.forks.at(conversation.id, 2, title="Named")
    assert named.title_source == USER
