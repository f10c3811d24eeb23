"""Settings → Providers end to end: several profiles side by side (added from presets,
edited, duplicated, removed with their key, made default), the header's picker listing
them all, a change made by turnlog-cli showing in the open window within a second, and
Settings fitting small screens."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox

from loopback import Behaviour, LoopbackServer
from places import DESKTOP, SUPPORT
from providers_window import open_window
from turnlog.config.profiles import ProfileStore, builtin_profile, new_profile, unique_name
from turnlog.config.secrets import KeyringUnavailable, SessionKeys, SystemKeyring
from turnlog.providers import CUSTOM, PRESETS
from turnlog.ui.conversation.centre import FIRST_RUN_HINT
from turnlog.ui.dialogs.privacy import Decision
from turnlog.ui.dialogs.providers_page import KeyState
from turnlog.ui.request.provider_setup import ProviderSetup
from turnlog.ui.shell.window import MainWindow, window_settings
from uihelpers import seed

pytest_plugins = ["uiwindow"]

KEY = "sk-test-PROVIDERS-" + "7" * 20


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "turnlog.cli", *args], capture_output=True,
                          text=True, input="", timeout=60, env=os.environ.copy())


def listed(window: MainWindow) -> list[str]:
    combo = window.centre.header.profile
    return [combo.itemText(i) for i in range(combo.count())]


def pick(combo, profile_id: str) -> None:
    """Choose the profile in the header as a person does (the combo's `activated`)."""
    index = combo.findData(profile_id)
    assert index >= 0
    combo.setCurrentIndex(index)
    combo.activated.emit(index)


def save(qtbot, editor) -> None:
    button = editor.buttons.button(QDialogButtonBox.StandardButton.Save)
    assert button.isEnabled(), editor.problem.text()
    button.click()
    qtbot.waitUntil(lambda: not editor.isVisible(), timeout=10_000)


def stored_key(backend, profile_id: str) -> str | None:
    """The keyring's key for the profile, read while the window's worker may be removing
    it (a read racing the delete is "busy", and asked again)."""
    try:
        return SystemKeyring(backend).get(profile_id)
    except KeyringUnavailable:
        return "busy"


def second_line_drawn(view, row: int) -> bool:
    """Whether the lower part of the row (where its second line goes) has text drawn."""
    rect = view.visualItemRect(view.item(row))
    image = view.viewport().grab(rect).toImage()
    background = image.pixelColor(1, 1).lightness()
    top = image.height() * 7 // 10
    return sum(abs(image.pixelColor(x, y).lightness() - background) > 60
               for x in range(image.width()) for y in range(top, image.height())) > 20


@pytest.fixture
def second_server():
    with LoopbackServer() as server:
        yield server


@pytest.mark.keyring
def test_providers_page_adds_switches_and_removes_profiles_with_their_keys(
        qtbot, store, loopback, second_server, secret_service, turnlog_home):
    profiles = ProfileStore()
    builtin = builtin_profile()
    profiles.save([builtin], builtin_offered=True)
    keyring = SystemKeyring(secret_service)
    setup = ProviderSetup(profiles, window_settings(turnlog_home), keyring=keyring)
    seed(store, "chat", [("Hi", "Hello")], model="")
    window = open_window(qtbot, store, setup)
    asked = []

    def confirm(confirmation):
        asked.append(confirmation)
        return Decision(True)

    window.confirm = confirm
    try:
        qtbot.waitUntil(lambda: len(window.transcript.turns) == 1, timeout=5000)
        header = window.centre.header
        assert header.profile.isEnabled() and header.profile.count() == 1  # one, still a list
        dialog = window.open_settings()
        page = dialog.providers
        assert page.list.count() == 1 and "default" in page.list.item(0).text()

        # A Custom profile beside the built-in one: the built-in stays.
        editor = page.add_profile("custom")
        assert editor.name.text() == "Custom" and editor.preset.isEnabled()
        editor.base_url.setText(loopback.base_url)
        editor.model.setEditText("loopback-model")
        save(qtbot, editor)
        assert [p.preset for p in ProfileStore().load()] == ["builtin", "custom"]
        custom = ProfileStore().load()[1]
        assert ProfileStore().load()[0] == builtin

        # Editing it keeps it one profile, by its id; the preset is fixed now.
        page.select(custom.id)
        editor = page.edit_selected()
        assert not editor.preset.isEnabled()
        editor.name.setText("本地 Custom")
        save(qtbot, editor)
        assert [(p.id, p.name) for p in ProfileStore().load()] == [
            (builtin.id, builtin.name), (custom.id, "本地 Custom")]

        # Two of one preset are fine: the second is named apart; a taken name is refused.
        editor = page.add_profile("custom")
        assert editor.name.text() == "Custom"
        editor.name.setText("本地 custom")
        assert "already called" in editor.problem.text()
        editor.reject()

        # An OpenAI-preset profile, its key in the keyring (never in profiles.json).
        editor = page.add_profile("openai")
        assert editor.name.text() == "OpenAI"
        editor.base_url.setText(second_server.base_url)
        editor.model.setEditText("gpt-test")
        editor.key.setText(KEY)
        save(qtbot, editor)
        openai = ProfileStore().load()[2]
        assert openai.preset == "openai"
        assert secret_service.get_password("turnlog", openai.id) == KEY
        assert KEY not in (turnlog_home / "profiles.json").read_text(encoding="utf-8")
        qtbot.waitUntil(lambda: page.keys.get(openai.id) is KeyState.STORED, timeout=10_000)
        row = [page.list.item(i).text() for i in range(page.list.count())][2]
        assert "OpenAI" in row and second_server.base_url in row and "gpt-test" in row
        assert "key stored in the keyring" in row
        dialog.reject()

        # The header lists all three and switches between them.
        qtbot.waitUntil(lambda: len(listed(window)) == 3, timeout=2000)
        assert listed(window)[1:] == ["本地 Custom", "OpenAI"]
        pick(header.profile, openai.id)
        assert setup.active().id == openai.id
        second_server.script(Behaviour.answer("From OpenAI."))
        window.composer.set_draft("Who answers?")
        window.refresh_preview()
        window.send()
        qtbot.waitUntil(lambda: not window.running, timeout=10_000)
        [chat] = [r for r in second_server.requests if r.path == "/v1/chat/completions"]
        assert chat.headers["authorization"] == f"Bearer {KEY}"
        assert chat.json()["model"] == "gpt-test"
        pick(header.profile, custom.id)
        loopback.script(Behaviour.answer("From Custom."))
        window.composer.set_draft("And now?")
        window.refresh_preview()
        window.send()
        qtbot.waitUntil(lambda: not window.running, timeout=10_000)
        assert [r for r in loopback.requests if r.path == "/v1/chat/completions"]
        assert [t.answer for t in window.transcript.turns][-2:] == ["From OpenAI.",
                                                                   "From Custom."]

        # Remove OpenAI: the confirmation names it, its key leaves the keyring.
        dialog = window.open_settings()
        page = dialog.providers
        page.select(openai.id)
        assert page.remove_selected()
        assert "OpenAI" in asked[-1].text and "keyring" in asked[-1].text
        assert [p.id for p in ProfileStore().load()] == [builtin.id, custom.id]
        qtbot.waitUntil(lambda: stored_key(secret_service, openai.id) is None, timeout=10_000)
        qtbot.waitUntil(lambda: len(listed(window)) == 2, timeout=2000)

        # Make default: first in the file (turnlog-cli's default), and in use.
        page.select(custom.id)
        page.make_selected_default()
        assert [p.id for p in ProfileStore().load()] == [custom.id, builtin.id]
        assert "default" in page.list.item(0).text() and "本地 Custom" in page.list.item(0).text()
        dialog.reject()

        # Removing the built-in profile is explicit, and remembered.
        dialog = window.open_settings()
        dialog.providers.select(builtin.id)
        assert dialog.providers.remove_selected()
        assert "Add → Built-in" in asked[-1].detail
        dialog.reject()
        assert ProfileStore().builtin_offered()
        assert ProfileStore().offer_builtin() is None
        assert [p.id for p in ProfileStore().load()] == [custom.id]
    finally:
        window.shutdown()


@pytest.mark.keyring
def test_a_key_kept_until_turnlog_closes_leaves_the_other_profiles_keys_in_use(
        qtbot, store, loopback, second_server, secret_service, turnlog_home):
    setup = ProviderSetup(ProfileStore(), window_settings(turnlog_home),
                          keyring=SystemKeyring(secret_service))
    seed(store, "chat", [("Hi", "Hello")], model="")
    window = open_window(qtbot, store, setup)
    session_key = "sk-test-SESSION-" + "5" * 20
    try:
        qtbot.waitUntil(lambda: len(window.transcript.turns) == 1, timeout=5000)
        dialog = window.open_settings()
        editor = dialog.providers.add_profile("openai")
        editor.base_url.setText(loopback.base_url)
        editor.model.setEditText("gpt-test")
        editor.key.setText(KEY)
        save(qtbot, editor)
        editor = dialog.providers.add_profile("deepseek")
        editor.base_url.setText(second_server.base_url)
        editor.model.setEditText("deepseek-chat")
        editor.key.setText(session_key)
        editor.session_only.setChecked(True)
        save(qtbot, editor)
        stored, kept = ProfileStore().load()
        # Each editor says where its own key is kept.
        page = dialog.providers
        for profile, session_only in ((stored, False), (kept, True)):
            page.select(profile.id)
            editor = page.edit_selected()
            assert editor.session_only.isChecked() is session_only, profile.name
            editor.reject()
        assert secret_service.get_password("turnlog", stored.id) == KEY
        assert secret_service.get_password("turnlog", kept.id) is None
        qtbot.waitUntil(lambda: page.keys.get(kept.id) is KeyState.SESSION, timeout=10_000)
        assert "key kept until Turnlog closes" in page.list.item(1).text()
        dialog.reject()

        for profile, server, key in ((stored, loopback, KEY),
                                     (kept, second_server, session_key)):
            pick(window.centre.header.profile, profile.id)
            server.script(Behaviour.answer("Yes."))
            window.composer.set_draft(f"To {profile.name}?")
            window.refresh_preview()
            window.send()
            qtbot.waitUntil(lambda: not window.running, timeout=10_000)
            [chat] = [r for r in server.requests if r.path == "/v1/chat/completions"]
            assert chat.headers["authorization"] == f"Bearer {key}", profile.name
    finally:
        window.shutdown()


def test_duplicate_makes_a_second_profile_and_leaves_the_first(qtbot, store, loopback,
                                                               turnlog_home):
    profiles = ProfileStore()
    first = new_profile(CUSTOM, model="loopback-model", name="本地 Local",
                        base_url=loopback.base_url)
    profiles.save([first])
    setup = ProviderSetup(profiles, window_settings(turnlog_home), keyring=SessionKeys())
    window = open_window(qtbot, store, setup)
    try:
        dialog = window.open_settings()
        editor = dialog.providers.duplicate_selected()
        assert editor.name.text() == "本地 Local 2" and editor.base_url.text() == loopback.base_url
        editor.model.setEditText("other-model")
        editor.name.setText("Local copy")
        save(qtbot, editor)
        saved = ProfileStore().load()
        assert [(p.name, p.model) for p in saved] == [("本地 Local", "loopback-model"),
                                                      ("Local copy", "other-model")]
        assert saved[0].id == first.id and saved[1].id != first.id
        # Each row shows both its lines, a Chinese name's row too: ink in its lower part.
        view = dialog.providers.list
        qtbot.waitUntil(lambda: "no key needed" in view.item(1).text(), timeout=5000)
        view.clearSelection()
        view.setCurrentRow(-1)
        for row in range(view.count()):
            assert second_line_drawn(view, row), view.item(row).text()
        # Enter on a row opens its editor; Settings stays open behind it.
        dialog.providers.list.setFocus()
        dialog.providers.list.setCurrentRow(1)
        qtbot.keyClick(dialog.providers.list, Qt.Key.Key_Return)
        editor = dialog.providers.editor
        assert editor is not None and editor.name.text() == "Local copy"
        assert editor.isVisible() and dialog.isVisible()
        editor.reject()
        dialog.reject()
    finally:
        window.shutdown()


def test_a_model_picked_from_the_servers_list_brings_its_window(qtbot, store, loopback,
                                                                 turnlog_home):
    loopback.models = ["small-model", {"id": "big-model", "max_model_len": 65536}]
    setup = ProviderSetup(ProfileStore(), window_settings(turnlog_home), keyring=SessionKeys())
    window = open_window(qtbot, store, setup)
    try:
        dialog = window.open_settings()
        editor = dialog.providers.add_profile("vllm")
        editor.base_url.setText(loopback.base_url)
        editor.fetch.click()
        qtbot.waitUntil(lambda: editor.model.count() == 2, timeout=5000)
        assert editor.model.itemText(1) == "big-model  (65,536 tokens)"
        editor.model.setCurrentIndex(1)
        editor.model.activated.emit(1)  # as a click on the entry
        assert editor.model.currentText() == "big-model"
        save(qtbot, editor)
        [profile] = ProfileStore().load()
        assert (profile.model, profile.context_window) == ("big-model", 65536)
        editor = dialog.providers.edit_selected()  # renamed only: the window stays
        editor.name.setText("vLLM 大")
        save(qtbot, editor)
        assert ProfileStore().load()[0].context_window == 65536
        # Another model typed: the window is no longer known.
        editor = dialog.providers.edit_selected()
        editor.model.setEditText("typed-model")
        save(qtbot, editor)
        [profile] = ProfileStore().load()
        assert (profile.model, profile.context_window) == ("typed-model", None)
        dialog.reject()
    finally:
        window.shutdown()


def test_unique_names_count_up_in_any_case():
    assert unique_name("Custom", []) == "Custom"
    assert unique_name("Custom", ["custom"]) == "Custom 2"
    assert unique_name("Custom", ["Custom", "Custom 2"]) == "Custom 3"
    assert unique_name("自定义", ["自定义"]) == "自定义 2"


def test_a_profile_changed_by_turnlog_cli_shows_in_the_open_window_within_a_second(
        qtbot, store, loopback, turnlog_home):
    profiles = ProfileStore()
    first = new_profile(CUSTOM, model="loopback-model", name="First",
                        base_url=loopback.base_url)
    profiles.save([first])
    setup = ProviderSetup(profiles, window_settings(turnlog_home), keyring=SessionKeys())
    seed(store, "chat", [("Hi", "Hello")], model="")
    window = open_window(qtbot, store, setup)
    try:
        qtbot.waitUntil(lambda: len(window.transcript.turns) == 1, timeout=5000)
        dialog = window.open_settings()
        added = cli("profile", "add", "远程 Remote", "--preset", "custom", "--base-url",
                    loopback.base_url, "--model", "remote-model")
        assert added.returncode == 0, added.stderr
        done = time.monotonic()
        qtbot.waitUntil(lambda: listed(window) == ["First", "远程 Remote"], timeout=1000)
        assert time.monotonic() - done < 1.0
        qtbot.waitUntil(lambda: dialog.providers.list.count() == 2, timeout=1000)
        assert "远程 Remote" in dialog.providers.list.item(1).text()
        dialog.reject()

        # The profile in use removed elsewhere: it says so, and nothing goes to another
        # provider (the first, say) until the person chooses one.
        remote = ProfileStore().load()[1]
        pick(window.centre.header.profile, remote.id)
        assert setup.active().id == remote.id
        window.picker.pick_model("remote-only-model")  # a model only that server has
        qtbot.waitUntil(lambda: window.conversation.model == "remote-only-model", timeout=5000)
        removed = cli("profile", "remove", "远程 Remote")
        assert removed.returncode == 0, removed.stderr
        qtbot.waitUntil(lambda: listed(window) == [
            "First", "“远程 Remote” was removed: choose a provider"], timeout=1000)
        assert setup.active() is None
        note = window.statusBar().currentMessage()
        assert "远程 Remote" in note and "removed elsewhere" in note and "nothing is sent" in note
        asked = len(loopback.requests)
        window.composer.set_draft("Still there?")
        window.refresh_preview()
        assert not window.composer.send_button.isEnabled()
        assert "远程 Remote" in window.composer.reason.text()
        window.send()  # Ctrl+Enter all the same: refused, the draft kept, nothing sent
        qtbot.wait(300)
        assert len(loopback.requests) == asked and window.composer.text() == "Still there?"
        assert [t.answer for t in store.turns(window.conversation.id)] == ["Hello"]
        # Choosing the other provider is the person's confirmation: it is used from then on.
        pick(window.centre.header.profile, first.id)
        assert setup.active().id == first.id
        qtbot.waitUntil(lambda: window.conversation.model == "", timeout=5000)
        window.refresh_preview()
        assert window.shown.endpoint.label.startswith("First · ")
        assert json.loads(window.shown.projection.body)["model"] == "loopback-model"
    finally:
        window.shutdown()


def test_the_first_profile_added_from_the_terminal_shows_in_a_window_without_one(
        qtbot, store, loopback, turnlog_home):
    setup = ProviderSetup(ProfileStore(), window_settings(turnlog_home), keyring=SessionKeys())
    window = open_window(qtbot, store, setup)
    try:
        assert not (turnlog_home / "profiles.json").exists()
        assert window.empty_hint.text() == FIRST_RUN_HINT
        added = cli("profile", "add", "Ollama 本机", "--preset", "ollama", "--model", "qwen2.5")
        assert added.returncode == 0, added.stderr
        qtbot.waitUntil(lambda: listed(window) == ["Ollama 本机"], timeout=1000)
        assert window.empty_hint.text() != FIRST_RUN_HINT
        assert setup.active().model == "qwen2.5"
    finally:
        window.shutdown()


def test_a_providers_file_spoiled_elsewhere_is_named_and_left_alone(qtbot, store, loopback,
                                                                   turnlog_home):
    profiles = ProfileStore()
    profiles.save([new_profile(CUSTOM, model="loopback-model", name="First",
                               base_url=loopback.base_url)])
    setup = ProviderSetup(profiles, window_settings(turnlog_home), keyring=SessionKeys())
    window = open_window(qtbot, store, setup)
    try:
        spoiled = '{"version": 1, "profiles": [ {"id": '
        path = turnlog_home / "profiles.json"
        temp = turnlog_home / ".profiles-hand.json"
        temp.write_text(spoiled, encoding="utf-8")
        temp.replace(path)  # as an editor saves: a new file in its place
        qtbot.waitUntil(lambda: "could not be read" in window.statusBar().currentMessage(),
                        timeout=1000)
        assert "profiles.json" in window.statusBar().currentMessage()
        assert path.read_text(encoding="utf-8") == spoiled  # nothing written over it
        assert setup.active() is None and window.centre.header.profile.isEnabled()
        dialog = window.open_settings()
        assert "could not be read" in dialog.providers.note.text()
        assert dialog.providers.note.isVisibleTo(dialog)
        dialog.reject()
    finally:
        window.shutdown()


def fit_rows(tmp_path: Path, language: str) -> list[dict]:
    """Run settings_fit.py on three offscreen screens in `language`; its JSON lines."""
    sys.path.insert(0, str(SUPPORT))
    try:
        from settings_fit import platform_config
    finally:
        sys.path.remove(str(SUPPORT))
    env = os.environ.copy()
    env["QT_QPA_PLATFORM"] = platform_config(tmp_path)
    env["TURNLOG_FIT_LANGUAGE"] = language
    env["PYTHONPATH"] = os.pathsep.join([str(DESKTOP),
                                         env.get("PYTHONPATH", "")])
    done = subprocess.run([sys.executable, str(SUPPORT / "settings_fit.py")], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_settings_and_every_presets_editor_fit_small_screens(tmp_path, language):
    rows = fit_rows(tmp_path, language)
    dialogs = [row for row in rows if "what" in row]
    assert len(dialogs) == 3 * (2 + len(PRESETS) + 1)
    for row in dialogs:
        where = f"{row['what']} on {row['screen']}"
        assert row["screen_seen"] == row["screen"], where
        ax, ay, aw, ah = row["area"]
        fx, fy, fw, fh = row["frame"]
        assert ax <= fx and ay <= fy and fx + fw <= ax + aw and fy + fh <= ay + ah, (
            where, row["frame"], row["area"])
        sx, sy, sw, sh = row["save"]
        assert fx <= sx and sx + sw <= fx + fw and fy <= sy and sy + sh <= fy + fh, where
        assert row["save_visible"] and row["save_on_top"], where
        assert row["clipped"] == [], where
        assert all(scroll["across"] == 0 for scroll in row["scrolls"]), where
        if row["what"].endswith("(problem)"):
            assert row["problem_visible"] and not row["save_enabled"], where
        else:
            assert row["save_enabled"] and row["clicked"], where
    notes = [row["builtin_note"] for row in rows if "builtin_note" in row]
    ending = {"en": "not for real work.", "zh_CN": "不适合实际工作。"}[language]
    assert len(notes) == 3 and all(note.endswith(ending) for note in notes)
