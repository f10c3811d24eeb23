"""A conversation imported from ChatGPT keeps "gpt-4o" as provenance (the header, its
exports) but its requests name the profile's model — the main send, a side question and
`turnlog-cli ask` alike — until the user picks another in the header."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from PySide6.QtCore import Qt

import chatgpt_export as gpt
from loopback import Behaviour
from turnlog.service.transfer import import_file

pytest_plugins = ["uiwindow"]


def chats(server) -> list[dict]:
    return [r.json() for r in server.requests if r.path == "/v1/chat/completions"]


def cli(*args: str, input: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "turnlog.cli", *args], capture_output=True,
                          text=True, input=input, timeout=60, env=os.environ.copy())


def test_an_imported_conversation_sends_the_profile_s_model_until_one_is_picked(
        qtbot, make_window, store, loopback, tmp_path):
    path = gpt.write_json(tmp_path / "conversations.json", gpt.conversations(gpt.kyoto()))
    [outcome] = import_file(store, path)
    window = make_window()
    assert window.sidebar.select(outcome.id)
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 3, timeout=5000)
    header = window.centre.header
    assert header.provenance.isVisible()
    assert header.provenance.text() == "imported from ChatGPT · gpt-4o"
    assert header.model.currentText() == "loopback-model"  # what will be sent
    window.resize(1024, 600)  # read whole on a small screen too (beside the pickers: cut)
    label = header.provenance
    qtbot.waitUntil(lambda: label.width() >= label.fontMetrics().horizontalAdvance(
        label.text()) and label.geometry().right() <= header.width())

    loopback.script(Behaviour.answer("Sunny, 18 °C."))
    window.composer.set_draft("And the weather there tomorrow?")
    window.send()
    qtbot.waitUntil(lambda: not window.running, timeout=10_000)
    assert [c["model"] for c in chats(loopback)] == ["loopback-model"]

    loopback.script(Behaviour.answer("京都的明天是晴天。"))
    window.composer.set_draft("翻译一下上面的回答")
    qtbot.keyClick(window.composer.edit, Qt.Key.Key_Return,
                   Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: not window.side.session.running, timeout=10_000)
    assert "晴天" in window.side.panel.answer.toPlainText()
    assert [c["model"] for c in chats(loopback)] == ["loopback-model"] * 2

    header.model.setEditText("qwen3-32b")  # the user's own choice is sent from now on
    qtbot.keyClick(header.model.lineEdit(), Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.conversation.model == "qwen3-32b", timeout=5000)
    assert header.provenance.text() == "imported from ChatGPT · gpt-4o"
    loopback.script(Behaviour.answer("Bring an umbrella anyway."))
    window.composer.set_draft("Anything else?")
    window.send()
    qtbot.waitUntil(lambda: not window.running, timeout=10_000)
    assert chats(loopback)[-1]["model"] == "qwen3-32b"


def test_the_cli_asks_an_imported_conversation_with_the_profile_s_model(
        loopback, tmp_path, turnlog_home):
    path = gpt.write_zip(tmp_path / "export.zip", gpt.conversations(gpt.untitled()))
    imported = cli("import", str(path))
    assert imported.returncode == 0, imported.stderr
    added = cli("profile", "add", "loop", "--preset", "custom", "--base-url",
                loopback.base_url, "--model", "loopback-model", input="")
    assert added.returncode == 0, added.stderr
    loopback.script(Behaviour.answer("夏天来了。"))
    asked = cli("ask", "--conversation", "1", "再写一首关于夏天的")
    assert asked.returncode == 0, asked.stderr
    assert [c["model"] for c in chats(loopback)] == ["loopback-model"]
    loopback.script(Behaviour.answer("A side answer."))
    aside = cli("btw", "--conversation", "1", "What was the first poem about?")
    assert aside.returncode == 0, aside.stderr
    assert [c["model"] for c in chats(loopback)] == ["loopback-model"] * 2
    # The export keeps where it came from and the model it had there.
    exported = cli("export", "1")
    header = json.loads(exported.stdout.splitlines()[0])
    assert (header["model"], header["source"], header["source_model"]) == (
        "", "chatgpt", "gpt-4")
    markdown = cli("export", "1", "--format", "markdown")
    assert "Imported from: ChatGPT · gpt-4" in markdown.stdout


def test_a_conversation_asked_through_another_profile_sends_that_one_s_model(
        loopback, turnlog_home):
    """A new conversation names no model of its own: asked later through another
    profile, the old profile's model name never goes to the new one's server."""
    for name, model in (("first", "first-model"), ("second", "second-model")):
        added = cli("profile", "add", name, "--preset", "custom", "--base-url",
                    loopback.base_url, "--model", model, input="")
        assert added.returncode == 0, added.stderr
    loopback.script(Behaviour.answer("One."))
    assert cli("ask", "--new", "--profile", "first", "Count with me").returncode == 0
    loopback.script(Behaviour.answer("Two."))
    asked = cli("ask", "--conversation", "1", "--profile", "second", "Next?")
    assert asked.returncode == 0, asked.stderr
    assert [c["model"] for c in chats(loopback)] == ["first-model", "second-model"]


def test_a_fork_of_an_imported_conversation_keeps_its_provenance(store, tmp_path):
    path = gpt.write_json(tmp_path / "conversations.json", gpt.conversations(gpt.kyoto()))
    [outcome] = import_file(store, path)
    forked, _draft = store.forks.at(outcome.id, 2)
    assert (forked.model, forked.source, forked.source_model) == ("", "chatgpt", "gpt-4o")
