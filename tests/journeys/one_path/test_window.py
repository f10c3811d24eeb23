"""One path for every request, as a person sees it in the window: the counter, the
inspector's preview and the body on the wire are the same bytes — with a tool server's
14 tools on, while the built-in model starts, and never "final" where Send is refused."""

from __future__ import annotations

import re
import shutil

import pytest

from attachfiles import png_bytes, write
from loopback import Behaviour
from places import SUPPORT
from starting_windows import ROOMY, shown_body, starting_window
from turnlog.config.profiles import NetworkSettings
from turnlog.config.tool_servers import ToolServerStore, new_server
from turnlog.core.model import ConversationSettings
from turnlog.core.send import Stage
from turnlog.providers import CUSTOM
from turnlog.ui.infra.tasks import TaskRunner
from turnlog.ui.request.connection import ProviderConfig, ProviderConnector
from turnlog.ui.shell.window import MainWindow
from uihelpers import seed

pytest_plugins = ["uiwindow"]

FS_DIR = SUPPORT / "mcp_filesystem"
FS_SERVER = FS_DIR / "node_modules" / ".bin" / "mcp-server-filesystem"
FINAL = "final: this body is exactly what Send puts on the wire"


def counter_bytes(window) -> int:
    """The body size the composer's counter shows ("8,539 / 16,000 bytes · …")."""
    found = re.match(r"([\d,]+) / ", window.composer.counter.text())
    assert found, window.composer.counter.text()
    return int(found.group(1).replace(",", ""))


@pytest.fixture
def filesystem_tools(turnlog_home, tmp_path):
    if shutil.which("node") is None or not FS_SERVER.exists():
        pytest.fail("the reference filesystem server is not installed: run "
                    f"`npm ci --prefix {FS_DIR}`")
    folder = tmp_path / "shared"
    folder.mkdir()
    server = new_server("fs", command=str(FS_SERVER), args=[str(folder)])
    ToolServerStore(turnlog_home).put(server)
    return server


def test_with_a_14_tool_server_on_counter_preview_and_wire_are_the_same_bytes(
        qtbot, make_window, store, loopback, filesystem_tools):
    conversation = seed(store, "tools", [("Hello", "Hi there")], settings=ConversationSettings(
        max_bytes=64_000, context_window=32_000, tool_servers=(filesystem_tools.id,)))
    loopback.script(Behaviour.answer("Nothing to do."), Behaviour.answer("Still nothing."))
    window = make_window()
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 1, timeout=5000)
    for question in ("What is in the folder?", "And now?"):
        window.composer.set_draft(question)
        window.refresh_preview()
        # The server starts in the background; the preview says final once its tools are in.
        qtbot.waitUntil(lambda: FINAL in window.inspector.outcome_value.text(), timeout=30_000)
        previewed = shown_body(window)
        assert counter_bytes(window) == len(previewed)
        assert f"{len(previewed):,} bytes" in window.inspector.body_label.text()
        window.send()
        qtbot.waitUntil(lambda: not window.running, timeout=30_000)
        wire = loopback.requests[-1].body
        assert len(loopback.requests[-1].json()["tools"]) == 14
        assert wire == previewed
        assert store.records.of(conversation.id)[-1].body_bytes == len(wire)


def test_while_the_model_starts_the_request_in_flight_is_the_question_sent(
        qtbot, store, loopback):
    seed(store, "dogs", [("Hello", "Hi")], settings=ROOMY)
    window, connector, stages = starting_window(qtbot, store, loopback)
    try:
        qtbot.waitUntil(lambda: len(window.transcript.turns) == 1, timeout=5000)
        window.refresh_preview()  # the empty composer's preview is on show
        window.composer.set_draft("Tell me about dogs")
        window.send()  # Ctrl+Enter at once, before the preview caught up with the typing
        qtbot.waitUntil(lambda: Stage.STARTING_LOCAL_MODEL in stages, timeout=10_000)
        qtbot.waitUntil(lambda: window.shown.projection is not None, timeout=10_000)
        assert window.inspector.heading.text().startswith("Request in flight")
        in_flight = shown_body(window)
        assert b'"Tell me about dogs"' in in_flight
        assert "Tell me about dogs" in window.inspector.body.toPlainText()
        assert counter_bytes(window) == len(in_flight)
        connector.ready.set()
        qtbot.waitUntil(lambda: not window.running, timeout=20_000)
        (request,) = loopback.requests
        assert request.json()["messages"][-1]["content"] == "Tell me about dogs"
        # The last request names where the model now runs, not that it was to start.
        assert window.inspector.endpoint.text().startswith("Built-in · running")
    finally:
        connector.ready.set()
        window.shutdown()


def test_the_preview_of_a_refused_image_does_not_say_final(qtbot, store, loopback, tmp_path):
    seed(store, "files", [("first", "ok")], settings=ROOMY)
    config = ProviderConfig("loopback", "Loopback", CUSTOM, loopback.base_url,
                            "loopback-model", network=NetworkSettings(retry=False),
                            images=False)
    window = MainWindow(store, TaskRunner(), ProviderConnector(lambda: config, lambda: None))
    qtbot.addWidget(window)
    window.show()
    try:
        qtbot.waitUntil(lambda: len(window.transcript.turns) == 1, timeout=5000)
        window.composer.offer_files([str(write(tmp_path, "chart.png", png_bytes(64, 32)))])
        qtbot.waitUntil(lambda: len(window.composer.attachments) == 1, timeout=5000)
        window.composer.set_draft("What is this?")
        window.refresh_preview()
        assert not window.composer.send_button.isEnabled()
        outcome = window.inspector.outcome_value.text()
        assert FINAL not in outcome
        assert "not final: Send is refused: the model takes no images" in outcome
        window.composer.remove_attachment(0)
        window.refresh_preview()
        assert FINAL in window.inspector.outcome_value.text()
    finally:
        window.shutdown()


class CalibratedConnector(ProviderConnector):
    """The loopback connector, with a cost index of its own for the conversation's
    endpoint (as a profile's calibrated or exact counts are)."""

    def __init__(self, base_url: str) -> None:
        config = ProviderConfig("loopback", "Loopback", CUSTOM, base_url, "loopback-model",
                                network=NetworkSettings(retry=False))
        super().__init__(lambda: config, lambda: None)
        from turnlog.core.projection import CostIndex

        self.index = CostIndex()

    def exact_costs(self, conversation):
        return self.index


def test_asking_for_a_request_s_parts_changes_nothing_the_preview_holds(qtbot, store,
                                                                        loopback):
    conversation = seed(store, "parts", [("Hello", "Hi")], settings=ROOMY)
    connector = CalibratedConnector(loopback.base_url)
    window = MainWindow(store, TaskRunner(), connector)
    qtbot.addWidget(window)
    window.show()
    try:
        qtbot.waitUntil(lambda: len(window.transcript.turns) == 1, timeout=5000)
        held = window.preview.costs
        assert held is connector.index  # the preview counts with the endpoint's index
        connector.index = type(held)()  # the endpoint's counts changed (another profile)
        parts = window.preview.parts(conversation)
        assert parts.costs is connector.index  # what a send would count with…
        assert window.preview.costs is held  # …without the preview's own being replaced
    finally:
        window.shutdown()


def test_project_through_the_built_in_model_says_its_body_is_not_final_yet(turnlog_home,
                                                                           store):
    """`ask` starts the built-in model's server, whose window the body then follows: the
    projection before says so instead of "final"."""
    import json
    import os
    import subprocess
    import sys

    from turnlog.config.profiles import ProfileStore, builtin_profile

    conversation = seed(store, "local", [("Hello", "Hi")], settings=ROOMY)
    ProfileStore(turnlog_home).put(builtin_profile())
    result = subprocess.run(
        [sys.executable, "-m", "turnlog.cli", "project", "--conversation",
         str(conversation.id), "--question", "Tell me about dogs", "--json"],
        capture_output=True, text=True, timeout=60, env=os.environ.copy())
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["final"] is False
    assert out["not_final"].startswith("the built-in model is still starting")
