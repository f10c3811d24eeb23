"""The settings dialog: a profile added and validated on the Providers page, models from
/models, the key kept out of the files, the conversation's limits checked on their own
page, and a send through the profile it saved."""

from __future__ import annotations

from PySide6.QtWidgets import QDialogButtonBox

from loopback import Behaviour
from turnlog.config.profiles import ProfileStore
from turnlog.config.secrets import SessionKeys
from turnlog.ui.infra.tasks import TaskRunner
from turnlog.ui.request.connection import ProviderConnector
from turnlog.ui.request.provider_setup import ProviderSetup
from turnlog.ui.shell.window import MainWindow, window_settings
from uihelpers import seed

pytest_plugins = ["uiwindow"]

KEY = "sk-test-1234567890"


def test_settings_validate_save_and_send_through_the_profile(qtbot, store, loopback,
                                                             turnlog_home):
    conversation = seed(store, "chat", [("Hi", "Hello")], model="")
    keys = SessionKeys()
    setup = ProviderSetup(ProfileStore(), window_settings(turnlog_home), keyring=keys)
    window = MainWindow(store, TaskRunner(), ProviderConnector(setup.config, setup.keys),
                        setup=setup)
    qtbot.addWidget(window)
    window.show()
    try:
        qtbot.waitUntil(lambda: len(window.transcript.turns) == 1)
        window.composer.set_draft("Ready?")
        window.refresh_preview()
        assert not window.composer.send_button.isEnabled()
        assert "Settings" in window.composer.reason.text()

        dialog = window.open_settings()
        page = dialog.providers
        assert page.list.count() == 0 and page.empty.isVisibleTo(dialog)
        editor = page.add_profile("custom")
        save = editor.buttons.button(QDialogButtonBox.StandardButton.Save)
        editor.base_url.setText("ftp://example.org")
        editor.model.setEditText("m")
        editor.model.setEditText("")  # typed and cleared: now it is said
        assert not save.isEnabled()
        assert "must start with http:// or https://" in editor.problem.text()
        assert "Choose or type a model name." in editor.problem.text()
        editor.base_url.setText(loopback.base_url)
        editor.key.setText("sk bad key")
        assert "spaces" in editor.problem.text()
        editor.key.setText(KEY)
        assert "Stored in: memory only, until Turnlog closes" in editor.key_backend.text()

        editor.fetch.click()
        qtbot.waitUntil(lambda: editor.model.count() == 1, timeout=5000)
        assert editor.model.itemText(0) == "loopback-model"
        models_request = loopback.requests[-1]
        assert models_request.path == "/v1/models"
        assert models_request.headers["authorization"] == f"Bearer {KEY}"
        editor.model.setEditText("loopback-model")
        assert save.isEnabled()
        save.click()
        qtbot.waitUntil(lambda: not editor.isVisible(), timeout=5000)
        assert page.list.count() == 1

        # The conversation's limits, on their own page, checked against each other.
        dialog.show_conversation_page()
        save = dialog.buttons.button(QDialogButtonBox.StandardButton.Save)
        dialog.window_tokens.setValue(4096)
        dialog.reserve.setValue(4096)
        assert "leaves no room for input" in dialog.problem.text()
        assert not save.isEnabled() and dialog.problem.isVisible()
        dialog.reserve.setValue(1024)
        dialog.max_bytes.setValue(5000)
        # The low-water mark of compaction: 50 % unless set, within 25–80 %.
        target = dialog.compaction_target
        assert (target.value(), target.minimum(), target.maximum()) == (50, 25, 80)
        dialog.compaction.setChecked(False)
        assert not target.isEnabled()
        dialog.compaction.setChecked(True)
        target.setValue(30)
        # Side questions have their own output reserve, 256–32,768, 8,192 unless set.
        side = dialog.side_reserve
        assert (side.value(), side.minimum(), side.maximum()) == (8_192, 256, 32_768)
        side.setValue(2_048)
        dialog.system_prompt.setPlainText("Be brief. 简短。")
        assert save.isEnabled()
        save.click()
        qtbot.waitUntil(lambda: window.conversation.settings.max_bytes == 5000, timeout=5000)

        [profile] = ProfileStore().load()
        assert (profile.base_url, profile.model, profile.preset) == (
            loopback.base_url, "loopback-model", "custom")
        assert KEY not in (turnlog_home / "profiles.json").read_text(encoding="utf-8")
        assert keys.get(profile.id) == KEY
        saved = store.conversations.get(conversation.id)
        assert saved.system_prompt == "Be brief. 简短。"
        assert saved.model == ""  # the profile's model, whichever profile is in use
        assert (saved.settings.context_window, saved.settings.output_reserve) == (4096, 1024)
        assert saved.settings.compaction_target == 30
        assert saved.settings.side_output_reserve == 2_048
        assert saved.settings.compaction_share == 0.3

        loopback.script(Behaviour.answer("Yes."))
        assert window.composer.send_button.isEnabled()
        window.send()
        qtbot.waitUntil(lambda: not window.running, timeout=10_000)
        chat = loopback.requests[-1]
        assert chat.headers["authorization"] == f"Bearer {KEY}"
        body = chat.json()
        assert body["model"] == "loopback-model"
        assert body["messages"][0] == {"role": "system", "content": "Be brief. 简短。"}
        assert body["max_tokens"] == 1024
        assert [t.answer for t in store.turns(conversation.id)] == ["Hello", "Yes."]
        assert KEY in window.connector.secrets()

        # Settings saved with nothing changed: the marks still show the last request.
        assert window.legend.source.text().startswith("Marks show the last request")
        window.open_settings().buttons.button(QDialogButtonBox.StandardButton.Save).click()
        qtbot.wait(200)
        assert window.legend.source.text().startswith("Marks show the last request")
    finally:
        window.shutdown()


def test_saving_a_conversations_settings_leaves_the_profiles_model(qtbot, store, loopback,
                                                                   turnlog_home):
    """Only *Keep verbatim* changed: the profile keeps its model (the conversation's own,
    imported model is not written into the profile), the conversation keeps its model."""
    from turnlog.config.profiles import new_profile
    from turnlog.core.model import ConversationSettings
    from turnlog.providers import CUSTOM

    profiles = ProfileStore()
    profile = new_profile(CUSTOM, model="m", base_url=loopback.base_url)
    profiles.put(profile)
    setup = ProviderSetup(profiles, window_settings(turnlog_home), keyring=SessionKeys())
    setup.set_active(profile.id)
    conversation = seed(store, "imported", [("Hi", "Hello")], model="gpt-4o-mini",
                        settings=ConversationSettings(compaction=True))
    window = MainWindow(store, TaskRunner(), ProviderConnector(setup.config, setup.keys),
                        setup=setup)
    qtbot.addWidget(window)
    window.show()
    try:
        qtbot.waitUntil(lambda: window.conversation is not None
                        and len(window.transcript.turns) == 1)
        dialog = window.open_settings()
        dialog.show_conversation_page()
        dialog.compaction_target.setValue(35)
        dialog.buttons.button(QDialogButtonBox.StandardButton.Save).click()
        qtbot.waitUntil(lambda: window.conversation.settings.compaction_target == 35,
                        timeout=5000)
        assert [p.model for p in ProfileStore().load()] == ["m"]
        assert store.conversations.get(conversation.id).model == "gpt-4o-mini"
    finally:
        window.shutdown()


def test_an_output_reserve_typed_as_8192_is_kept_as_typed(qtbot, store, loopback,
                                                          turnlog_home):
    """8,192 is also the default reserve, which a send sizes to the window (a quarter of
    16,000 here); typed, it is the person's own and goes as typed."""
    from PySide6.QtCore import Qt

    from turnlog.config.profiles import new_profile
    from turnlog.core.model import ConversationSettings
    from turnlog.providers import CUSTOM

    profiles = ProfileStore()
    profile = new_profile(CUSTOM, model="loopback-model", base_url=loopback.base_url)
    profiles.put(profile)
    setup = ProviderSetup(profiles, window_settings(turnlog_home), keyring=SessionKeys())
    setup.set_active(profile.id)
    conversation = seed(store, "chat", [("Hi", "Hello")],
                        settings=ConversationSettings(context_window=16_000))
    window = MainWindow(store, TaskRunner(), ProviderConnector(setup.config, setup.keys),
                        setup=setup)
    qtbot.addWidget(window)
    window.show()
    try:
        qtbot.waitUntil(lambda: window.conversation is not None
                        and len(window.transcript.turns) == 1)
        dialog = window.open_settings()
        dialog.show_conversation_page()
        assert dialog.reserve.value() == 8192
        dialog.reserve.setFocus()
        dialog.reserve.selectAll()
        qtbot.keyClicks(dialog.reserve, "8192")  # typed over the same digits
        qtbot.keyClick(dialog.reserve, Qt.Key.Key_Tab)
        dialog.buttons.button(QDialogButtonBox.StandardButton.Save).click()
        qtbot.waitUntil(lambda: store.conversations.get(conversation.id).settings.reserve_set,
                        timeout=5000)
        loopback.script(Behaviour.answer("Yes."))
        qtbot.waitUntil(lambda: window.conversation.settings.reserve_set, timeout=5000)
        window.composer.set_draft("Ready?")
        window.send()
        qtbot.waitUntil(lambda: not window.running, timeout=10_000)
        assert loopback.requests[-1].json()["max_tokens"] == 8192
    finally:
        window.shutdown()


def test_an_editor_open_on_a_profile_removed_elsewhere_does_not_bring_it_back(
        qtbot, store, loopback, turnlog_home):
    import os
    import subprocess
    import sys

    from turnlog.config.profiles import new_profile
    from turnlog.providers import CUSTOM

    profiles = ProfileStore()
    work = new_profile(CUSTOM, model="loopback-model", name="Work", base_url=loopback.base_url)
    spare = new_profile(CUSTOM, model="loopback-model", name="Spare",
                        base_url=loopback.base_url)
    profiles.put(work)
    profiles.put(spare)
    setup = ProviderSetup(profiles, window_settings(turnlog_home), keyring=SessionKeys())
    setup.set_active(spare.id)
    seed(store, "chat", [("Hi", "Hello")])
    window = MainWindow(store, TaskRunner(), ProviderConnector(setup.config, setup.keys),
                        setup=setup)
    qtbot.addWidget(window)
    window.show()
    try:
        qtbot.waitUntil(lambda: window.conversation is not None)
        dialog = window.open_settings()
        dialog.providers.select(work.id)
        editor = dialog.providers.edit_selected()
        editor.model.setEditText("another-model")
        removed = subprocess.run(
            [sys.executable, "-m", "turnlog.cli", "profile", "remove", "Work"],
            capture_output=True, text=True, timeout=60, env=os.environ.copy())
        assert removed.returncode == 0, removed.stderr
        save = editor.buttons.button(QDialogButtonBox.StandardButton.Save)
        save.click()
        assert editor.isVisible()  # not saved: it says why
        assert "“Work” was removed" in editor.problem.text() and editor.problem.isVisible()
        assert [p.name for p in ProfileStore().load()] == ["Spare"]  # not brought back
        assert save.text() == "Save as new"
        save.click()  # the person chose to add it again, as a new provider
        qtbot.waitUntil(lambda: not editor.isVisible(), timeout=5000)
        again = {p.name: p for p in ProfileStore().load()}
        assert sorted(again) == ["Spare", "Work"]
        assert again["Work"].id != work.id and again["Work"].model == "another-model"
    finally:
        window.shutdown()
