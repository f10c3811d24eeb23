"""Settings → Assistants names the folder an assistant's conversations start in (the
folders that exist, or none); New from assistant then puts the conversation there, and
the sidebar lists it in that folder."""

from __future__ import annotations

from turnlog.core.assistants import AssistantSetup
from turnlog.ui.dialogs.assistants_page import AssistantsPage
from turnlog.ui.infra.tasks import TaskRunner

pytest_plugins = ["uiwindow"]


def test_the_page_names_a_folder_and_the_conversation_starts_there(qtbot, store,
                                                                   make_window):
    work = store.folders.add("工作 Work")
    store.folders.add("Other")
    store.assistants.add(AssistantSetup("Reviewer", system_prompt="Review."))
    page = AssistantsPage(store, TaskRunner(), lambda: [])
    qtbot.addWidget(page)
    qtbot.waitUntil(lambda: page.list.count() == 1 and page.folder.count() == 3,
                    timeout=5000)
    assert [page.folder.itemText(i) for i in range(3)] == ["(none)", "Other", "工作 Work"]
    assert page.folder.currentText() == "(none)"
    page.folder.setCurrentIndex(page.folder.findText("工作 Work"))
    page.save()
    qtbot.waitUntil(lambda: store.assistants.list()[0].setup.folder == "工作 Work",
                    timeout=5000)
    page.list.setCurrentRow(0)
    assert page.folder.currentText() == "工作 Work"

    window = make_window()
    menu = window.sidebar.new_button.menu()
    window.from_assistant.fill(menu)
    [action] = [a for a in menu.actions() if a.text() == "Reviewer"]
    action.trigger()
    qtbot.waitUntil(lambda: window.conversation is not None, timeout=5000)
    assert window.conversation.folder_id == work.id
    assert store.conversations.get(window.conversation.id).folder_id == work.id
    qtbot.waitUntil(lambda: any(f.name == "工作 Work" and f.conversations == 1
                                for f in store.folders()), timeout=5000)

    # Back to none: the next conversation starts in no folder.
    page.folder.setCurrentIndex(0)
    page.save()
    qtbot.waitUntil(lambda: store.assistants.list()[0].setup.folder == "", timeout=5000)
    first = window.conversation.id
    window.from_assistant.fill(menu)
    [action] = [a for a in menu.actions() if a.text() == "Reviewer"]
    action.trigger()
    qtbot.waitUntil(lambda: window.conversation.id != first, timeout=5000)
    assert store.conversations.get(window.conversation.id).folder_id is None
