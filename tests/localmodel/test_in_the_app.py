"""The built-in local model as a person meets it: the app's first start adds its profile,
the window starts its server on the first question (showing the stage), counts tokens
exactly once it is up, and stops it on close; `turnlog-cli ask` takes the same route.

Tests marked `realmodel` run a real llama-cpp-python server with the real SmolLM2 and
are skipped, with the reason, where `turnlog[local]` is missing. The others need no
server and run everywhere.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import httpx
import pytest

from turnlog.app import open_window
from turnlog.config.profiles import ProfileStore, builtin_profile
from turnlog.core.failures import FailureKind
from turnlog.core.send import Stage
from turnlog.localmodel import BUILTIN, Availability, ServerTokenCounter, available
from turnlog.store import TurnlogStore
from turnlog.ui.dialogs.about import AboutDialog

AVAILABILITY = available()
needs_model = pytest.mark.skipif(not AVAILABILITY.ok,
                                 reason=AVAILABILITY.reason or "no local model")
N_CTX = 2048  # modest: quick to start on two cores, still room for a short chat
QUESTION = "What is the capital of France? Answer in one word."


@pytest.fixture
def app_store(turnlog_home):
    opened = TurnlogStore.open(turnlog_home)
    yield opened
    opened.close()


@pytest.fixture
def app_window(qtbot, app_store, turnlog_home):
    """The window as `turnlog.app.main` builds it on a fresh data directory."""
    made = []

    def make():
        window = open_window(app_store, turnlog_home, n_ctx=N_CTX)
        qtbot.addWidget(window)
        window.resize(1280, 720)
        window.show()
        made.append(window)
        return window

    yield make
    for window in made:
        window.shutdown()


def record_stages(window) -> list[Stage]:
    """Every stage the window's stage line enters, in order."""
    stages: list[Stage] = []
    window.session.stage_entered.connect(lambda stage, _words: stages.append(stage))
    return stages


def record_tokenizing_threads(monkeypatch) -> list[str]:
    """The name of the thread of every request to the server's tokenizer."""
    threads: list[str] = []
    original = ServerTokenCounter._tokenize

    def spy(self, text: str) -> int:
        threads.append(threading.current_thread().name)
        return original(self, text)

    monkeypatch.setattr(ServerTokenCounter, "_tokenize", spy)
    return threads


def open_conversation(window, store, model: str) -> int:
    conversation = store.conversations.create("Local", model=model)
    window.refresh_conversations(select_id=conversation.id)
    return conversation.id


def alive(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return False
    return "State:\tZ" not in status


def server_prompt_tokens(base_url: str, body: bytes) -> int:
    """The server's own count of the prompt `body` carries (a one-token completion)."""
    data = json.loads(body)
    data.update(stream=False, max_tokens=1)
    response = httpx.post(base_url + "/chat/completions", json=data, timeout=120,
                          trust_env=False)
    assert response.status_code == 200, response.text
    return int(response.json()["usage"]["prompt_tokens"])


# ------------------------------------------------------------------ with the real model
@pytest.mark.realmodel
@needs_model
def test_first_start_chats_offline_counts_exactly_and_stops_the_server_on_close(
    qtbot, app_window, app_store, turnlog_home, monkeypatch
):
    window = app_window()
    [profile] = ProfileStore(turnlog_home).list()
    assert profile.builtin and profile.name == BUILTIN.profile_name
    assert window.setup.active() == profile
    cid = open_conversation(window, app_store, profile.model)

    window.composer.set_draft(QUESTION)
    window.refresh_preview()
    assert "(estimated)" in window.composer.counter.text()  # the server is not up yet
    assert "starts with the first question" in window.shown.endpoint.label

    stages = record_stages(window)
    tokenized_on = record_tokenizing_threads(monkeypatch)
    window.send()
    qtbot.waitUntil(lambda: not window.running, timeout=180_000)
    assert not window.banner.isVisible(), window.banner.report()
    assert Stage.STARTING_LOCAL_MODEL in stages and Stage.ANSWERING in stages
    assert stages.index(Stage.STARTING_LOCAL_MODEL) < stages.index(Stage.ANSWERING)

    [turn] = app_store.turns(cid)
    assert turn.question == QUESTION and turn.answer.strip()
    shown = window.preview.last
    assert shown is not None and shown.failure is None
    projection = shown.projection
    assert projection.tokens_exact and shown.record.tokens_exact
    endpoint = window.connector.local.running(None)
    assert endpoint is not None and endpoint.counter.exact
    # The budget is the server's window with a reserve sized to it, not core's defaults.
    assert projection.budget.context_window == endpoint.context_window == N_CTX
    assert projection.budget.output_reserve == 512
    assert json.loads(projection.body)["model"] == BUILTIN.alias
    window.preview.show(shown)
    assert f"{projection.input_tokens:,} of" in window.inspector.tokens_label.text()
    assert "(exact)" in window.inspector.tokens_label.text()
    # No system prompt: SmolLM2's default one is in the prompt, so the count is exact
    # (tests/localmodel/test_server.py documents the 21-token overcount when one is sent).
    assert projection.input_tokens == server_prompt_tokens(endpoint.base_url, projection.body)

    # Once the server is up, previews count exactly too: the counts are made on the
    # network worker, never on the GUI thread (estimated, and labelled so, meanwhile).
    window.composer.set_draft("And of Italy?")
    window.refresh_preview()
    assert "(estimated)" in window.composer.counter.text()
    qtbot.waitUntil(lambda: "(exact)" in window.composer.counter.text(), timeout=30_000)
    assert window.shown.projection.tokens_exact
    assert tokenized_on and threading.main_thread().name not in tokenized_on, tokenized_on
    assert "running on 127.0.0.1:" in window.shown.endpoint.label

    [pid] = window.connector.local.pids
    assert alive(pid)
    window.close()
    window.shutdown()  # what turnlog.app.main does when the window has closed
    assert not alive(pid)


@pytest.mark.realmodel
@needs_model
def test_stop_while_the_model_starts_cancels_the_start_and_gives_the_draft_back(
    qtbot, app_window, app_store, turnlog_home
):
    window = app_window()
    [profile] = ProfileStore(turnlog_home).list()
    cid = open_conversation(window, app_store, profile.model)
    stages = record_stages(window)
    window.composer.set_draft(QUESTION)
    window.send()
    qtbot.waitUntil(lambda: Stage.STARTING_LOCAL_MODEL in stages, timeout=10_000)
    window.stop()
    qtbot.waitUntil(lambda: not window.running, timeout=30_000)
    assert Stage.ANSWERING not in stages
    assert window.composer.text() == QUESTION
    assert window.banner.isVisible()
    assert window.preview.last.failure.kind is FailureKind.CANCELLED
    assert app_store.turns(cid) == ()
    assert window.connector.local.running(None) is None
    assert not any(alive(pid) for pid in window.connector.local.pids)


@pytest.mark.realmodel
@needs_model
def test_cli_ask_with_the_builtin_profile_commits(turnlog_home):
    assert ProfileStore(turnlog_home).offer_builtin() is not None  # as the app's first start
    done = subprocess.run(
        [sys.executable, "-m", "turnlog.cli", "ask", "--new", "--profile", BUILTIN.profile_name,
         QUESTION],
        capture_output=True, text=True, timeout=300, env=os.environ.copy())
    assert done.returncode == 0, done.stderr
    assert "[starting local model" in done.stderr
    assert "saved as turn 1" in done.stderr and done.stdout.strip()
    log = (turnlog_home / "logs" / "local-model.log").read_text(errors="replace")
    assert log  # the server wrote its log under the data directory


# ------------------------------------------------------------- no server needed
def test_without_the_extra_the_first_start_asks_for_an_endpoint(
    qtbot, app_window, turnlog_home, monkeypatch
):
    missing = Availability(False, "The local model server is not installed (missing: "
                                  "llama_cpp).")
    monkeypatch.setattr("turnlog.config.profiles.available", lambda model_path=None: missing)
    window = app_window()
    assert ProfileStore(turnlog_home).list() == []
    assert window.empty_hint.isVisible()
    assert "needs a chat endpoint" in window.empty_hint.text()
    assert "Settings (Ctrl+,)" in window.empty_hint.text()
    window.refresh_preview()
    assert not window.composer.send_button.isEnabled()


def test_a_model_file_that_cannot_run_is_an_inline_failure_with_the_draft_back(
    qtbot, app_window, app_store, turnlog_home, tmp_path
):
    store = ProfileStore(turnlog_home)
    store.save([builtin_profile(str(tmp_path / "gone.gguf"), name="Local (gone)",
                                model="gone")], builtin_offered=True)
    window = app_window()
    open_conversation(window, app_store, "gone")
    window.composer.set_draft("Still here?")
    window.send()
    qtbot.waitUntil(lambda: not window.running, timeout=10_000)
    assert window.composer.text() == "Still here?"
    assert window.banner.isVisible()
    failure = window.preview.last.failure
    assert failure.kind is FailureKind.LOCAL_MODEL
    assert failure.stage == "starting local model"
    assert window.banner.title.text()


def test_about_names_the_builtin_model_and_its_license(qtbot, app_window):
    window = app_window()
    dialog = window.show_about()
    qtbot.addWidget(dialog)
    text = dialog.text.text()
    for part in ("Turnlog", "io.github.turnlog.Turnlog", BUILTIN.name, "Apache-2.0",
                 "HuggingFaceTB/SmolLM2-135M-Instruct", "not for real work"):
        assert part in text, part
    missing = AboutDialog(availability=Availability(False, "Install the local extra."))
    qtbot.addWidget(missing)
    assert "Not installed here. Install the local extra." in missing.text.text()


@needs_model
def test_settings_for_the_builtin_profile_choose_a_gguf_and_state_the_caveat(
    qtbot, app_window, tmp_path
):
    from PySide6.QtWidgets import QDialogButtonBox

    window = app_window()
    settings = window.open_settings()
    qtbot.addWidget(settings)
    dialog = settings.providers.edit_selected()  # the built-in profile, in use
    save = dialog.buttons.button(QDialogButtonBox.StandardButton.Save)
    assert dialog.builtin and dialog.model_file.text() == ""
    assert not dialog.preset.isEnabled()  # editing never turns it into another preset
    assert not dialog.base_url.isVisibleTo(dialog) and not dialog.key.isVisibleTo(dialog)
    status = dialog.local_status.text()
    assert f"Model: {BUILTIN.name}" in status and "License: Apache-2.0" in status
    assert f"Context window: {N_CTX:,} tokens" in status
    assert "not for real work" in status
    assert status.count("not for real work") == 1  # the note says its sentence once
    assert save.isEnabled()

    not_a_model = tmp_path / "notes.gguf"
    not_a_model.write_text("hello")
    dialog.model_file.setText(str(not_a_model))
    assert not save.isEnabled()
    assert "notes.gguf is not a GGUF model file." in dialog.problem.text()
    dialog.builtin_file.click()
    assert save.isEnabled() and not dialog.problem.isVisible()
    save.click()

    # A new profile's preset can still change: its rows follow.
    added = settings.providers.add_profile("builtin")
    added.preset.setCurrentIndex(added.preset.findData("ollama"))
    assert added.base_url.isVisibleTo(added) and not added.local_status.isVisibleTo(added)
    assert added.base_url.text() == "http://localhost:11434/v1"
    added.preset.setCurrentIndex(added.preset.findData("builtin"))
    assert added.local_status.isVisibleTo(added) and not added.base_url.isVisibleTo(added)
    added.reject()
    settings.reject()
    [profile] = ProfileStore().list()
    assert profile.builtin and profile.model_path is None and profile.model == BUILTIN.alias
