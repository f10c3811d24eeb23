"""Tools in the window: the approval card before each call, a turn committed with its
calls, the Tools page of Settings and the conversation's tool switches."""

from __future__ import annotations

import json
import sys

from PySide6.QtCore import Qt

from loopback import Behaviour
from mcp_peers import PEER_SCRIPT
from turnlog.config.tool_servers import ToolServerStore, new_server
from turnlog.core.model import ConversationSettings
from turnlog.core.tools import Approval
from uihelpers import seed

pytest_plugins = ["uiwindow"]


def peer_on(turnlog_home, *, enabled: bool = True):
    server = new_server("peer", command=sys.executable, args=[str(PEER_SCRIPT)],
                        enabled=enabled)
    ToolServerStore(turnlog_home).put(server)
    return server


def send(qtbot, window, text: str) -> None:
    window.composer.set_draft(text, len(text))
    window.refresh_preview()
    qtbot.mouseClick(window.composer.send_button, Qt.MouseButton.LeftButton)


def test_a_call_waits_for_the_card_and_the_turn_keeps_it(qtbot, make_window, store, loopback,
                                                        turnlog_home, tmp_path):
    server = peer_on(turnlog_home)
    conversation = seed(store, "tools", [],
                        settings=ConversationSettings(tool_servers=(server.id,)))
    target = tmp_path / "written.txt"
    loopback.script(
        Behaviour.calls(("write_file", json.dumps({"path": str(target), "text": "窗口"}))),
        Behaviour.calls(("echo", '{"text":"again"}')),
        Behaviour.answer("写好了，再见。"),
    )
    window = make_window()
    send(qtbot, window, "写一个文件")
    card = window.tool_card
    qtbot.waitUntil(card.isVisible, timeout=20_000)
    assert "write_file" in card.heading.text() and "peer" in card.heading.text()
    assert '"text": "窗口"' in card.arguments.toPlainText()
    assert not target.exists()  # nothing runs before the person says so
    qtbot.mouseClick(card.run_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(card.isVisible, timeout=20_000)
    qtbot.mouseClick(card.always_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not window.running, timeout=20_000)
    assert not card.isVisible()
    (turn,) = store.turns(conversation.id)
    assert target.read_text(encoding="utf-8") == "窗口"
    assert [r.results[0].approval for r in turn.tools] == [Approval.RUN, Approval.ALWAYS]
    assert [r.results[0].server for r in turn.tools] == ["peer", "peer"]  # which server ran it
    qtbot.waitUntil(lambda: store.conversations.get(conversation.id).settings.always_allowed
                    == ("echo",), timeout=5_000)
    assert "tools" in loopback.requests[0].json()

    # The transcript folds the calls between question and answer; a click opens them.
    from turnlog.ui.transcript.model import Role

    model, delegate = window.transcript, window.view.delegate
    index = model.index(model.rowCount() - 1)
    fold = index.data(Role.TOOL_CALLS)
    assert fold.count == 2 and fold.names == "write_file, echo"
    assert "approved by you · " in fold.text and "wrote 6 bytes" in fold.text
    assert '"text": "窗口"' in fold.text
    assert "approved by you, always in this conversation" in fold.text
    headings = [line for line in fold.text.splitlines() if line.startswith(("write_file —",
                                                                            "echo —"))]
    assert len(headings) == 2 and all(h.endswith(" s · on peer") for h in headings), headings
    view = window.view
    view.scrollTo(index)
    option = _option(view, index)
    folded = delegate.sizeHint(option, index).height()
    line = delegate._fold_line(option, index)
    assert line is not None
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=line.center())
    qtbot.waitUntil(lambda: delegate.sizeHint(_option(view, index), index).height()
                    > folded + 40, timeout=5_000)


def _option(view, index):
    from PySide6.QtWidgets import QStyleOptionViewItem

    option = QStyleOptionViewItem()
    view.initViewItemOption(option)
    option.rect = view.visualRect(index)
    return option


def test_deny_returns_a_declined_result_and_stop_ends_a_waiting_card(
        qtbot, make_window, store, loopback, turnlog_home, tmp_path):
    server = peer_on(turnlog_home)
    conversation = seed(store, "tools", [],
                        settings=ConversationSettings(tool_servers=(server.id,)))
    target = tmp_path / "never.txt"
    loopback.script(
        Behaviour.calls(("write_file", json.dumps({"path": str(target), "text": "x"}))),
        Behaviour.answer("好的，不写了。"),
        Behaviour.calls(("echo", '{"text":"x"}')),
    )
    window = make_window()
    send(qtbot, window, "写文件")
    qtbot.waitUntil(window.tool_card.isVisible, timeout=20_000)
    qtbot.mouseClick(window.tool_card.deny_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not window.running, timeout=20_000)
    (turn,) = store.turns(conversation.id)
    assert not target.exists() and not turn.tools[0].results[0].ran
    assert loopback.requests[1].json()["messages"][-1]["content"] == \
        "The user declined to run this tool call."

    send(qtbot, window, "再来")
    qtbot.waitUntil(window.tool_card.isVisible, timeout=20_000)
    window.session.stop()
    qtbot.waitUntil(lambda: not window.running, timeout=20_000)
    assert not window.tool_card.isVisible()
    assert window.composer.text() == "再来"  # the draft is back
    assert len(store.turns(conversation.id)) == 1


def test_a_conversation_without_tools_switched_on_sends_none(qtbot, make_window, store,
                                                            loopback, turnlog_home):
    peer_on(turnlog_home)
    seed(store, "plain", [])
    loopback.script(Behaviour.answer("没有工具。"))
    window = make_window()
    send(qtbot, window, "你好")
    qtbot.waitUntil(lambda: not window.running, timeout=20_000)
    assert "tools" not in loopback.requests[0].json()


def test_the_tools_page_lists_checks_and_switches(qtbot, make_window, store, loopback,
                                                 turnlog_home, tmp_path):
    from turnlog.ui.dialogs.settings import SettingsDialog

    server = peer_on(turnlog_home, enabled=False)
    conversation = seed(store, "tools", [])
    window = make_window()
    dialog = SettingsDialog(window.setup, window.runner, conversation, window,
                            tools=window.tools) if window.setup else None
    if dialog is None:  # the test window has no provider setup: the page on its own
        from turnlog.ui.dialogs.tools_page import ConversationTools, ToolsPage

        page = ToolsPage(window.tools, window.runner)
        switches = ConversationTools(window.tools)
    else:
        page, switches = dialog.tools_page, dialog.tool_switches
    qtbot.addWidget(page)
    assert page.list.count() == 1 and "peer — off" in page.list.item(0).text()
    assert not switches.boxes  # only servers switched on can be used in a conversation
    page.check()
    assert "Switch the server on first" in page.problem.text()
    qtbot.mouseClick(page.switch_button, Qt.MouseButton.LeftButton)
    assert ToolServerStore(turnlog_home).find("peer").enabled
    switches.refresh()
    assert list(switches.boxes) == [server.id]
    page.check()
    qtbot.waitUntil(lambda: page.tools.count() == 6, timeout=20_000)
    assert "ready with 6 tools" in page.list.item(0).text()
    echo = next(page.tools.item(i) for i in range(page.tools.count())
                if page.tools.item(i).text().startswith("echo"))
    assert "Return the text unchanged." in echo.text()
    echo.setCheckState(Qt.CheckState.Unchecked)
    assert ToolServerStore(turnlog_home).find("peer").tools_off == frozenset({"echo"})

    source = tmp_path / "mcp.json"
    source.write_text(json.dumps({"mcpServers": {"fs": {"command": "mcp-fs", "args": ["/tmp"]}}}),
                      encoding="utf-8")
    page.import_file(str(source))
    qtbot.waitUntil(lambda: page.list.count() == 2, timeout=5_000)
    assert "fs — off" in page.list.item(1).text() and "mcp-fs /tmp" in page.list.item(1).text()


def test_the_editor_adds_a_stdio_server_and_names_what_is_wrong(qtbot, make_window, store,
                                                               loopback, turnlog_home):
    from turnlog.ui.dialogs.tools_page import ToolsPage

    window = make_window()
    page = ToolsPage(window.tools, window.runner)
    qtbot.addWidget(page)
    editor = page.add()
    editor.name.setText("files")
    editor.command.setText("npx -y '@modelcontextprotocol/server-filesystem' '/home/me/我的 文档'")
    editor.env.setPlainText("LOG_LEVEL=debug\nbroken line")
    editor._save()
    assert editor.isVisible() and "NAME=VALUE: broken line" in editor.problem.text()
    editor.env.setPlainText("LOG_LEVEL=debug")
    editor._save()
    qtbot.waitUntil(lambda: page.list.count() == 1, timeout=5_000)
    saved = ToolServerStore(turnlog_home).find("files")
    assert saved.args == ("-y", "@modelcontextprotocol/server-filesystem", "/home/me/我的 文档")
    assert saved.env[0].value == "debug" and not saved.env[0].secret
    again = page.edit()
    assert again.command.text().endswith("'/home/me/我的 文档'")
    again.reject()
    page.remove()
    qtbot.waitUntil(lambda: page.list.count() == 0, timeout=5_000)
    assert ToolServerStore(turnlog_home).list() == []


def test_a_failure_after_a_tool_ran_says_what_ran_and_gives_the_draft_back(
        qtbot, make_window, store, loopback, turnlog_home, tmp_path):
    server = peer_on(turnlog_home)
    conversation = seed(store, "tools", [],
                        settings=ConversationSettings(tool_servers=(server.id,)))
    target = tmp_path / "effect.txt"
    loopback.script(
        Behaviour.calls(("write_file", json.dumps({"path": str(target), "text": "留下"}))),
        Behaviour.server_error(),
    )
    window = make_window()
    send(qtbot, window, "写了再失败")
    qtbot.waitUntil(window.tool_card.isVisible, timeout=20_000)
    qtbot.mouseClick(window.tool_card.run_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not window.running, timeout=20_000)
    assert target.exists() and store.turns(conversation.id) == ()
    assert window.banner.isVisible()
    shown = window.banner.findChildren(type(window.tool_card.heading))
    words = "\n".join(label.text() for label in shown)
    assert "These tool calls ran; anything they changed stays changed:" in words
    assert "write_file" in words
    assert window.composer.text() == "写了再失败"


def test_a_server_that_cannot_start_is_named_and_the_question_is_answered(
        qtbot, make_window, store, loopback, turnlog_home):
    broken = new_server("broken", command=sys.executable, args=[str(PEER_SCRIPT), "--crash"])
    ToolServerStore(turnlog_home).put(broken)
    conversation = seed(store, "tools", [],
                        settings=ConversationSettings(tool_servers=(broken.id,)))
    loopback.script(Behaviour.answer("没有工具也能回答。"))
    window = make_window()
    send(qtbot, window, "你好")
    qtbot.waitUntil(lambda: not window.running, timeout=30_000)
    assert len(store.turns(conversation.id)) == 1
    message = window.statusBar().currentMessage()
    assert "Sent without the tools of: broken failed:" in message
