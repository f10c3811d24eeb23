"""Each kind of change made on one machine comes through to another: A changes, A's
outgoing records, B applies them, B shows it (real SQLite files, two stores open)."""

from __future__ import annotations

import pytest

from sync_stores import conversation_by_gid, dump, gid_of, machines_open, pending, published, pull
from turnlog.core.model import ConversationSettings


@pytest.fixture
def machines(tmp_path):
    with machines_open(tmp_path) as opened:
        yield opened


def test_a_conversation_and_its_turns_come_through(machines):
    a, b = machines["A"], machines["B"]
    conv = a.conversations.create("Trip to Kyoto 🗾", system_prompt="Be brief.", model="m1")
    first = a.turns.commit(conv.id, pending("Where to stay?"))
    a.turns.commit(conv.id, pending("And to eat?"))
    applied = pull(b, a)
    assert applied.counts == {"conversation": 1, "turn": 2}
    there = conversation_by_gid(b, gid_of(a, conv.id))
    shown = b.conversations.get(there)
    assert (shown.title, shown.system_prompt, shown.model) == \
        ("Trip to Kyoto 🗾", "Be brief.", "m1")
    assert [t.question for t in b.turns.active(there)] == ["Where to stay?", "And to eat?"]
    assert b.turns.active(there)[0].id == first.id
    # the search finds the turns and the title that came in
    assert {(h.conversation_id, h.turn_id) for h in b.search("stay")} == {(there, first.id)}
    assert [h.conversation_id for h in b.search("Kyoto")] == [there]


def test_applying_the_same_records_twice_changes_nothing(machines):
    a, b = machines["A"], machines["B"]
    conv = a.conversations.create("Once")
    a.turns.commit(conv.id, pending("only once"))
    pull(b, a)
    before = dump(b)
    again = pull(b, a)
    assert again.counts == {} and again.skipped == len(published(a))
    assert dump(b) == before


def test_renames_settings_prompt_model_folder_and_star_come_through(machines):
    a, b = machines["A"], machines["B"]
    conv = a.conversations.create("Draft title")
    pull(b, a)
    folder = a.folders.add("Work")
    a.conversations.update(conv.id, title="Final title", system_prompt="Answer in French.",
                           model="m2", settings=ConversationSettings(temperature=0.3))
    a.folders.move([conv.id], folder.id)
    a.folders.star([conv.id])
    pull(b, a)
    there = b.conversations.get(conversation_by_gid(b, gid_of(a, conv.id)))
    assert there.title == "Final title"
    assert there.system_prompt == "Answer in French."
    assert there.model == "m2"
    assert there.settings.temperature == 0.3
    assert [f.name for f in b.folders.list()] == ["Work"]
    assert dump(a)[gid_of(a, conv.id)] == dump(b)[gid_of(a, conv.id)]


def test_versions_and_use_version_come_through(machines):
    a, b = machines["A"], machines["B"]
    conv = a.conversations.create("Versions")
    first = a.turns.commit(conv.id, pending("Q", "first answer"))
    second = a.turns.commit(conv.id, pending("Q", "second answer", replaces=first.id))
    pull(b, a)
    there = conversation_by_gid(b, gid_of(a, conv.id))
    assert [t.answer for t in b.turns.active(there)] == ["second answer"]
    a.turns.use_version(first.id)
    pull(b, a)
    assert [t.answer for t in b.turns.active(there)] == ["first answer"]
    assert {t.id for t in b.turns.all(there)} == {first.id, second.id}


def test_pins_notes_preferences_and_their_removal_come_through(machines):
    a, b = machines["A"], machines["B"]
    conv = a.conversations.create("Memory")
    turn = a.turns.commit(conv.id, pending("The budget is 500 EUR"))
    pin = a.memory.add_pin(conv.id, "budget 500 EUR", sources=[turn.id])
    note = a.memory.add_note(conv.id, "traveller is vegetarian", priority=2)
    preference = a.memory.add_preference("metric units")
    pull(b, a)
    there = conversation_by_gid(b, gid_of(a, conv.id))
    assert [p.text for p in b.memory.pins(there)] == ["budget 500 EUR"]
    assert b.memory.pins(there)[0].sources == (turn.id,) or \
        list(b.memory.pins(there)[0].sources) == [turn.id]
    assert [(n.text, n.priority) for n in b.memory.notes(there)] == [("traveller is vegetarian", 2)]
    assert [p.text for p in b.memory.preferences()] == ["metric units"]
    a.memory.edit_note(note.id, "traveller is vegan", 1)
    a.memory.remove_pin(pin.id)
    a.memory.remove_preference(preference.id)
    pull(b, a)
    assert b.memory.pins(there) == []
    assert [(n.text, n.priority) for n in b.memory.notes(there)] == [("traveller is vegan", 1)]
    assert b.memory.preferences() == []


def test_records_applied_from_another_machine_are_not_published_again(machines):
    a, b = machines["A"], machines["B"]
    conv = a.conversations.create("Theirs")
    a.turns.commit(conv.id, pending("from A"))
    pull(b, a)
    assert published(b) == []
    there = conversation_by_gid(b, gid_of(a, conv.id))
    b.turns.commit(there, pending("from B"))
    mine = published(b)
    assert [r["kind"] for r in mine] == ["turn"] and mine[0]["question"] == "from B"
