"""The Memory panel: pin from a turn's selected words, from the key-fact warning, typed;
notes and preferences with kept / left-out marks after a send; deleting a source turn."""

from __future__ import annotations

import json

from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor

from loopback import Behaviour
from turnlog.core.model import ConversationSettings
from turnlog.ui.dialogs.privacy import Decision
from uihelpers import numbered
from window_sending import open_window, type_draft, wait_done

pytest_plugins = ["uiwindow"]


def texts(widget) -> list[str]:
    return [widget.item(r).text() for r in range(widget.count())]


def test_pin_from_selected_words_of_a_turn_reaches_the_wire(qtbot, make_window, store,
                                                            loopback):
    window, cid = open_window(qtbot, make_window, store,
                              [("Where are the backups?", "On NAS-7 in rack 4.")])
    panel = window.memory.panel
    qtbot.waitUntil(lambda: panel.state is not None)
    view = window.view
    view.setCurrentIndex(window.transcript.index(0))
    dialog = window.memory.pin_from_current_turn()
    assert dialog is not None and not dialog.pin.isEnabled()
    text = dialog.text.toPlainText()
    cursor = dialog.text.textCursor()
    start = text.index("NAS-7")
    cursor.setPosition(start)
    cursor.setPosition(start + len("NAS-7 in rack 4"), QTextCursor.MoveMode.KeepAnchor)
    dialog.text.setTextCursor(cursor)
    assert dialog.pin.isEnabled()
    qtbot.mouseClick(dialog.pin, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: panel.pins.count() == 1)
    assert texts(panel.pins) == ["📌 NAS-7 in rack 4\n   from turn 1"]
    (pin,) = store.memory.pins(cid)
    assert pin.sources == (store.turns(cid)[0].id,)
    # The pinned words are underlined in their turn, and its tooltip names the pin.
    row = window.transcript.index(0)
    qtbot.waitUntil(lambda: window.transcript.pins_of(pin.sources[0]) == ("NAS-7 in rack 4",))
    assert "Pinned: “NAS-7 in rack 4”" in row.data(Qt.ItemDataRole.ToolTipRole)
    _, answer = view.delegate._documents(row)
    (doc,) = answer.documents
    found = doc.find("NAS-7 in rack 4")
    assert found.charFormat().fontUnderline()
    assert not doc.find("On").charFormat().fontUnderline()

    # The pin's source link shows and selects its turn.
    view.setCurrentIndex(window.transcript.index(0).sibling(0, 0))
    panel.pins.setCurrentRow(0)
    assert window.memory.show_source() == 0 and view.currentIndex().row() == 0

    loopback.script(Behaviour.answer("Understood."))
    type_draft(window, "Can I delete them?")
    qtbot.mouseClick(window.composer.send_button, Qt.MouseButton.LeftButton)
    wait_done(qtbot, window)
    body = json.loads(loopback.requests[-1].body)
    assert body["messages"][0]["content"].endswith("\n- NAS-7 in rack 4")
    parts = [window.inspector.parts.item(r, 0).text()
             for r in range(window.inspector.parts.rowCount())]
    assert "pinned facts" in parts


def test_pin_from_this_turn_takes_the_words_selected_in_the_transcript(
        qtbot, make_window, store):
    from selection_drags import drag, point_of, utf16

    answer = "Die Sicherung liegt auf **NAS-7** im Rack 4, 机房二楼 🙂 seit Mai."
    shown = "Die Sicherung liegt auf NAS-7 im Rack 4, 机房二楼 🙂 seit Mai."
    window, cid = open_window(qtbot, make_window, store, [("Wo sind die Backups?", answer)])
    panel = window.memory.panel
    qtbot.waitUntil(lambda: panel.state is not None)
    window.view.scrollTo(window.transcript.index(0))
    words = "NAS-7 im Rack 4, 机房二楼 🙂"
    first = shown.index(words)
    drag(qtbot, window, point_of(window, 0, 1, utf16(shown, first)),
         point_of(window, 0, 1, utf16(shown, first + len(words))))
    assert window.view.selected_text() == words
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key.Key_P,
                   Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    dialog = window.memory.dialog
    assert dialog is not None and dialog.isVisible()
    assert dialog.selected() == words  # the words chosen in the transcript, chosen here
    assert "**" not in dialog.text.toPlainText()  # the turn as it reads, not its Markdown
    assert dialog.pin.isEnabled()
    qtbot.mouseClick(dialog.pin, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: panel.pins.count() == 1)
    (pin,) = store.memory.pins(cid)
    assert (pin.text, pin.sources) == (words, (store.turns(cid)[0].id,))
    qtbot.waitUntil(lambda: window.transcript.pins_of(pin.sources[0]) == (words,))


def test_notes_and_preferences_show_kept_and_left_out_after_a_send(qtbot, make_window, store,
                                                                   loopback):
    window, cid = open_window(qtbot, make_window, store, numbered(2),
                              settings=ConversationSettings(max_bytes=8_000))
    panel = window.memory.panel
    qtbot.waitUntil(lambda: panel.state is not None)
    panel.note_editor.text.setText("small note 小")
    panel.note_editor.priority.setValue(4)
    qtbot.mouseClick(panel.note_editor.add, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: panel.notes.count() == 1)
    panel.note_editor.text.setText("huge " + "x" * 2_000)  # more than 10 % of 8,000 bytes
    qtbot.mouseClick(panel.note_editor.add, Qt.MouseButton.LeftButton)
    panel.preference_editor.text.setText("Answer in English.")
    qtbot.mouseClick(panel.preference_editor.add, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: panel.notes.count() == 2 and panel.preferences.count() == 1)

    loopback.script(Behaviour.answer("Fine."))
    type_draft(window, "Next?")
    qtbot.mouseClick(window.composer.send_button, Qt.MouseButton.LeftButton)
    wait_done(qtbot, window)
    qtbot.waitUntil(lambda: "kept" in texts(panel.notes)[0])
    notes = texts(panel.notes)
    assert notes[0].endswith("kept")
    assert notes[1].endswith("left out: larger than the memory share")
    assert texts(panel.preferences)[0].endswith("kept")
    body = loopback.requests[-1].body.decode()
    assert body.count("small note 小") == 1 and "huge xxx" not in body
    assert body.index("Answer in English.") < body.index("small note")
    rows = [window.inspector.parts.item(r, 0).text()
            for r in range(window.inspector.parts.rowCount())]
    assert any(r.startswith("memory share (exact choice)") for r in rows)
    assert any("left out, larger than the memory share" in r for r in rows)

    # Preferences switched off for this conversation: the next request leaves them out.
    panel.use_preferences.setChecked(False)
    qtbot.waitUntil(lambda: not store.conversations.get(cid).settings.preferences)
    qtbot.waitUntil(lambda: texts(panel.preferences)[0].endswith("off in this conversation"))
    loopback.script(Behaviour.answer("Fine again."))
    type_draft(window, "And now?")
    qtbot.mouseClick(window.composer.send_button, Qt.MouseButton.LeftButton)
    wait_done(qtbot, window)
    assert b"Answer in English." not in loopback.requests[-1].body


def test_pin_from_the_key_fact_warning(qtbot, make_window, store, loopback):
    window, cid = open_window(qtbot, make_window, store, numbered(1))
    panel = window.memory.panel
    qtbot.waitUntil(lambda: panel.state is not None)
    window.inspector.pin_requested.emit("Never delete the backups")
    qtbot.waitUntil(lambda: panel.pins.count() == 1)
    assert [(p.text, p.sources) for p in store.memory.pins(cid)] == \
        [("Never delete the backups", ())]
    label = window.inspector.summary_warning
    window.inspector._warned = ("4.2.17 <b>",)
    label.linkActivated.emit("0")
    qtbot.waitUntil(lambda: panel.pins.count() == 2)
    assert store.memory.pins(cid)[1].text == "4.2.17 <b>"


def test_deleting_a_source_turn_asks_about_its_pins(qtbot, make_window, store, loopback):
    window, cid = open_window(qtbot, make_window, store, numbered(2))
    panel = window.memory.panel
    qtbot.waitUntil(lambda: panel.state is not None)
    first, second = store.turns(cid)
    store.memory.add_pin(cid, "from the first", sources=[first.id])
    store.memory.add_pin(cid, "from the second", sources=[second.id])
    asked = []
    window.confirm = lambda confirmation: asked.append(confirmation) or Decision(True, False)
    window.history.delete_turn(first.id)
    qtbot.waitUntil(lambda: len(store.turns(cid)) == 1)
    assert asked[0].option == "Keep the 1 pinned fact taken from it, as typed"
    assert "1 pinned fact" in asked[0].text
    assert [p.text for p in store.memory.pins(cid)] == ["from the second"]
    window.confirm = lambda confirmation: Decision(True, True)  # keep as typed
    window.history.delete_turn(second.id)
    qtbot.waitUntil(lambda: not store.turns(cid))
    assert [(p.text, p.sources) for p in store.memory.pins(cid)] == [("from the second", ())]
    qtbot.waitUntil(lambda: texts(panel.pins) == ["📌 from the second\n   typed"])


def test_the_panel_warns_when_the_summary_lacks_a_pinned_fact(qtbot, make_window, store,
                                                              loopback):
    window, cid = open_window(qtbot, make_window, store, numbered(1))
    panel = window.memory.panel
    store.memory.add_pin(cid, "Never delete the backups")
    window.memory.reload()
    qtbot.waitUntil(lambda: panel.pins.count() == 1)
    panel.show_selection(None, "Backups were discussed.")
    assert panel.warning.isVisible()
    assert "“Never delete the backups”" in panel.warning.text()
    assert "sent word for word regardless" in panel.warning.text()
    panel.show_selection(None, "Never delete the backups.")
    assert not panel.warning.isVisible()


def test_delete_all_history_offers_the_preferences(qtbot, make_window, store, loopback):
    open_window(qtbot, make_window, store, numbered(1))
    window = make_window()
    store.memory.add_preference("Answer in Chinese. 用中文回答。")
    asked = []

    def answer(confirmation):
        asked.append(confirmation)
        return Decision(True)

    window.confirm = answer
    window.delete_all_history()
    qtbot.waitUntil(lambda: store.conversations() == [] and store.memory.preferences() == [])
    assert asked[1].text == "Also delete the 1 preference used in every conversation?"


def test_delete_all_history_keeps_the_preferences_when_told(qtbot, make_window, store,
                                                            loopback):
    window, _ = open_window(qtbot, make_window, store, numbered(1))
    store.memory.add_preference("Keep me")
    answers = iter([Decision(True), Decision(False)])
    window.confirm = lambda confirmation: next(answers)
    window.delete_all_history()
    qtbot.waitUntil(lambda: store.conversations() == [])
    assert [p.text for p in store.memory.preferences()] == ["Keep me"]


def test_the_panel_is_reached_and_used_from_the_keyboard(qtbot, make_window, store, loopback):
    window, cid = open_window(qtbot, make_window, store, numbered(1))
    panel = window.memory.panel
    qtbot.waitUntil(lambda: panel.state is not None)
    (go,) = [a for a in window.view_menu.actions() if a.text() == "&Memory"]
    assert go.shortcut().toString() == "Ctrl+Shift+M"
    go.trigger()
    qtbot.waitUntil(lambda: panel.isVisible())
    assert panel.pin_editor.text.hasFocus()
    qtbot.keyClicks(panel.pin_editor.text, "ticket OPS-22 stays open")
    qtbot.keyClick(panel.pin_editor.text, Qt.Key.Key_Return)
    qtbot.waitUntil(
        lambda: [p.text for p in store.memory.pins(cid)] == ["ticket OPS-22 stays open"])
    qtbot.waitUntil(lambda: texts(panel.pins) == ["📌 ticket OPS-22 stays open\n   typed"])


def test_the_memory_tab_folds_away_with_the_side_panels_and_comes_back(qtbot, make_window,
                                                                       store, loopback):
    window, _ = open_window(qtbot, make_window, store, numbered(1))
    dock = window.memory_dock
    assert dock in window.tabifiedDockWidgets(window.inspector_dock)
    window.resize(480, 844)
    qtbot.waitUntil(lambda: not dock.toggleViewAction().isChecked())
    assert not window.side_dock.toggleViewAction().isChecked()  # the side panel too
    assert not window.inspector_dock.isVisible() and not window.sidebar_dock.isVisible()
    window.resize(1280, 720)
    qtbot.waitUntil(lambda: dock.toggleViewAction().isChecked())
    assert window.inspector_dock.isVisible()


def test_export_from_the_window_carries_the_memory(qtbot, make_window, store, loopback,
                                                   tmp_path):
    from turnlog.ui.infra.export_file import ExportTarget

    window, cid = open_window(qtbot, make_window, store, numbered(1))
    (turn,) = store.turns(cid)
    store.memory.add_pin(cid, "pinned 钉住", sources=[turn.id])
    store.memory.add_note(cid, "a note", priority=5)
    assert store.memory.pinned_facts(cid) == ("pinned 钉住",)
    target = ExportTarget(tmp_path / "out.jsonl", "jsonl")
    window.choose_export = lambda title: target
    window.export_conversation()
    qtbot.waitUntil(lambda: target.path.exists())
    header = json.loads(target.path.read_text(encoding="utf-8").splitlines()[0])
    assert header["memory"]["pins"][0]["text"] == "pinned 钉住"
    assert header["memory"]["pins"][0]["sources"] == [turn.id]
    assert header["memory"]["notes"][0]["priority"] == 5


def test_deleting_a_version_that_facts_were_pinned_from_asks_about_the_pins(
        qtbot, make_window, store, loopback):
    """The delete dialog's one checkbox is about the other versions, so a turn with
    versions asks about its pins apart: no keeps them as typed, yes deletes them."""
    from datetime import UTC, datetime

    from turnlog.core.model import Usage
    from turnlog.core.send import PendingTurn

    window, cid = open_window(qtbot, make_window, store, numbered(1))
    (first,) = store.turns(cid)

    def version(turn_id: str, replaces: str) -> None:
        store.turns.commit(cid, PendingTurn(turn_id, first.question, f"answer {turn_id}", "m",
                                            "stop", Usage(), datetime.now(UTC),
                                            replaces=replaces))

    version("v2", first.id)
    store.memory.add_pin(cid, "kept from v2", sources=["v2"])
    asked = []
    answers = iter([Decision(True, False), Decision(False)])  # this version only; keep pins
    window.confirm = lambda confirmation: asked.append(confirmation) or next(answers)
    window.history.delete_turn("v2")
    qtbot.waitUntil(lambda: [t.id for t in store.turns.all(cid)] == [first.id])
    assert asked[0].option.startswith("Also delete its 1 other version")
    assert asked[1].text == "Also delete the 1 pinned fact taken from this turn?"
    assert [(p.text, p.sources) for p in store.memory.pins(cid)] == [("kept from v2", ())]
    version("v3", first.id)
    store.memory.add_pin(cid, "goes with v3", sources=["v3"])
    answers = iter([Decision(True, False), Decision(True)])  # this version only; delete pins
    window.history.delete_turn("v3")
    qtbot.waitUntil(lambda: [t.id for t in store.turns.all(cid)] == [first.id])
    assert [p.text for p in store.memory.pins(cid)] == ["kept from v2"]
