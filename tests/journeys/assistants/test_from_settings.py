"""An assistant made on Settings → Assistants starts a conversation (Ctrl+Shift+N) whose first
request, as the loopback server received it, carries its setup with the variables filled;
editing the assistant afterwards leaves that conversation as it was."""

from __future__ import annotations

import json

from PySide6.QtCore import Qt

from loopback import Behaviour
from turnlog.ui.dialogs.assistants_page import AssistantsPage
from turnlog.ui.infra.tasks import TaskRunner

pytest_plugins = ["uiwindow"]

PROMPT = "You edit for {{audience}} on {{date}}. Model: {{model}}. {{{{kept}}"
STYLE = "STYLE-GUIDE-MARK-e41b: short sentences. 短句。"


def _make_in_settings(qtbot, store, tmp_path) -> AssistantsPage:
    runner = TaskRunner()
    page = AssistantsPage(store, runner, lambda: [])
    qtbot.addWidget(page)
    page.new()
    page.name.setText("Editor")
    page.icon.setText("📝")
    page.prompt.setPlainText(PROMPT)
    page.model.setText("editor-model")
    page.temperature.setValue(0.4)
    page.pins.setPlainText("Never use passive voice.")
    page.notes.setPlainText("The reader is busy.")
    style = tmp_path / "style.md"
    style.write_text(STYLE, encoding="utf-8")
    page.attach([style])
    qtbot.waitUntil(lambda: [f.name for f in page.files] == ["style.md"], timeout=5000)
    page.save()
    qtbot.waitUntil(lambda: page.list.count() == 1, timeout=5000)
    assert page.list.item(0).text() == "📝 Editor"
    return page


def _start_from_menu(qtbot, window, label: str) -> None:
    """File → New from assistant… (Ctrl+Shift+N), then the assistant in the menu it shows."""
    window.from_assistant.ask_value = lambda assistant, name: {"audience": "engineers"}[name]
    [file_menu] = [a.menu() for a in window.menuBar().actions() if a.text() == "&File"]
    [new_from] = [a for a in file_menu.actions() if a.shortcut().toString() == "Ctrl+Shift+N"]
    new_from.trigger()
    menu = window.from_assistant.menu
    qtbot.waitUntil(lambda: menu.isVisible(), timeout=5000)
    [action] = [a for a in menu.actions() if a.text() == label]
    action.trigger()
    menu.hide()


def test_an_assistant_from_settings_starts_a_conversation_with_its_setup(
        qtbot, store, make_window, loopback, tmp_path):
    page = _make_in_settings(qtbot, store, tmp_path)
    window = make_window()
    button_menu = window.sidebar.new_button.menu()  # the New button's menu lists it too
    button_menu.aboutToShow.emit()
    assert [a.text() for a in button_menu.actions()] == ["📝 Editor"]
    _start_from_menu(qtbot, window, "📝 Editor")
    qtbot.waitUntil(lambda: window.conversation is not None, timeout=5000)
    qtbot.waitUntil(lambda: [f.name for f in window.composer.attachments] == ["style.md"],
                    timeout=5000)
    loopback.script(Behaviour.answer("Edited."), Behaviour.answer("Again."))
    window.composer.set_draft("Please check my text.")
    window.send()
    qtbot.waitUntil(lambda: not window.running and len(loopback.requests) == 1, timeout=10_000)
    body = loopback.requests[-1].json()
    system = body["messages"][0]
    assert system["role"] == "system" and system["content"].startswith(
        "You edit for engineers on 20")
    assert system["content"].endswith("Model: editor-model. {{kept}}")
    assert (body["model"], body["temperature"]) == ("editor-model", 0.4)
    wire = loopback.requests[-1].body.decode("utf-8")
    assert "Never use passive voice." in wire and "The reader is busy." in wire
    assert "STYLE-GUIDE-MARK-e41b" in json.dumps(body["messages"][-1], ensure_ascii=False)
    cid = window.conversation.id
    qtbot.waitUntil(lambda: len(store.turns(cid)) == 1, timeout=5000)

    # Editing the assistant leaves the conversation as it was.
    page.list.setCurrentRow(0)
    page.prompt.setPlainText("Something else entirely.")
    page.model.setText("other-model")
    page.pins.setPlainText("Another pin.")
    page.save()
    qtbot.waitUntil(lambda: store.assistants.list()[0].setup.model == "other-model",
                    timeout=5000)
    window.composer.set_draft("And now?")
    window.send()
    qtbot.waitUntil(lambda: not window.running and len(loopback.requests) == 2, timeout=10_000)
    again = loopback.requests[-1].json()
    assert again["messages"][0]["content"] == system["content"]
    assert again["model"] == "editor-model"
    assert "Another pin." not in loopback.requests[-1].body.decode("utf-8")
    assert store.assistants.origin(cid).name == "Editor"

    # Conversation → Update from assistant, asked for: the new setup from now on.
    [menu] = [a.menu() for a in window.menuBar().actions() if a.text() == "&Conversation"]
    menu.aboutToShow.emit()
    [update] = [a for a in menu.actions() if a.text() == "&Update from assistant"]
    assert update.isEnabled()
    update.trigger()
    qtbot.waitUntil(lambda: window.conversation.system_prompt == "Something else entirely.",
                    timeout=5000)
    loopback.script(Behaviour.answer("Third."))
    window.composer.set_draft("Once more?")
    window.send()
    qtbot.waitUntil(lambda: not window.running and len(loopback.requests) == 3, timeout=10_000)
    third = loopback.requests[-1].json()
    assert (third["messages"][0]["content"], third["model"]) == (
        "Something else entirely.", "other-model")
    assert "Another pin." in loopback.requests[-1].body.decode("utf-8")


def test_the_page_reorders_duplicates_and_removes(qtbot, store, tmp_path):
    page = _make_in_settings(qtbot, store, tmp_path)
    page.duplicate()
    qtbot.waitUntil(lambda: page.list.count() == 2, timeout=5000)
    assert [page.list.item(i).text() for i in range(2)] == ["📝 Editor", "📝 Editor (copy)"]
    page.list.setCurrentRow(1)
    page.move(-1)
    qtbot.waitUntil(lambda: page.list.item(0).text() == "📝 Editor (copy)", timeout=5000)
    page._confirm = lambda question: True
    page.list.setCurrentRow(0)
    page.remove()
    qtbot.waitUntil(lambda: page.list.count() == 1, timeout=5000)
    assert [a.name for a in store.assistants.list()] == ["Editor"]
    page.new()
    page.name.setText("Editor")
    page.save()
    qtbot.waitUntil(lambda: page.problem.isVisibleTo(page), timeout=5000)
    assert "already an assistant" in page.problem.text()
    example = page.examples_button.menu().actions()
    assert any("写作助手" in a.text() for a in example)
    [chinese] = [a for a in example if "写作助手" in a.text()]
    chinese.trigger()
    qtbot.waitUntil(lambda: page.list.count() == 2, timeout=5000)
    assert page.list.item(1).data(Qt.ItemDataRole.UserRole) == store.assistants.list()[1].id
