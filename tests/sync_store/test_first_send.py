"""A conversation made for a first send (as the window and `ask` make them) comes through:
its settings, rewritten when the first answer clears the first-send mark, travel as their
text, not refused as the wrong type."""

from __future__ import annotations

from sync_stores import conversation_by_gid, dump, gid_of, open_machines, pending, pull
from turnlog.core.model import ConversationSettings


def test_a_conversation_made_for_a_first_send_comes_through(tmp_path):
    machines = open_machines(tmp_path)
    a, b = machines["A"], machines["B"]
    try:
        conv = a.conversations.create("", first_send=True,
                                      settings=ConversationSettings(temperature=0.7))
        a.turns.commit(conv.id, pending("First question"))
        applied = pull(b, a)
        assert applied.counts["conversation"] >= 1 and applied.counts["turn"] == 1
        there = conversation_by_gid(b, gid_of(a, conv.id))
        assert b.conversations.get(there).settings.temperature == 0.7
        assert dump(a) == dump(b)
    finally:
        for store in machines.values():
            store.close()
