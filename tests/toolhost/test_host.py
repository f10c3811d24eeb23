"""The tool host against real MCP servers: a stdio child process and streamable HTTP."""

from __future__ import annotations

import sys

import pytest

from mcp_peers import ONE_MB, PEER_SCRIPT, http_peer
from turnlog.toolhost.host import (
    ServerState,
    ToolCallTimedOut,
    ToolHost,
    ToolServerUnavailable,
)
from turnlog.toolhost.launch import HttpLaunch, StdioLaunch

PEER = StdioLaunch(sys.executable, (str(PEER_SCRIPT),))


@pytest.fixture
def host():
    tool_host = ToolHost()
    yield tool_host
    tool_host.close()


def test_a_stdio_server_starts_on_first_use_and_lists_its_tools(host):
    seen = []
    host.subscribe(lambda server_id, status: seen.append((server_id, status.state)))
    assert host.status("peer").state is ServerState.STOPPED
    status = host.ensure_started("peer", PEER)
    assert status.state is ServerState.READY, status
    assert {tool.name for tool in status.tools} == {"echo", "fail", "hang", "big", "write_file",
                                                   "getenv"}
    echo = next(tool for tool in status.tools if tool.name == "echo")
    assert echo.description == "Return the text unchanged."
    assert echo.input_schema["properties"]["text"]["type"] == "string"
    assert status.describe() == "ready with 6 tools"
    assert seen == [("peer", ServerState.STARTING), ("peer", ServerState.READY)]
    assert host.ensure_started("peer", PEER) is status  # running: not started twice


def test_calls_return_text_errors_as_results_and_side_effects_happen(host, tmp_path):
    host.ensure_started("peer", PEER)
    out = host.call("peer", "echo", {"text": "你好, tools"}, timeout_s=20)
    assert (out.text, out.is_error) == ("你好, tools", False)
    assert out.duration_s >= 0
    failed = host.call("peer", "fail", {"reason": "disk on fire"}, timeout_s=20)
    assert failed.is_error and "fail" in failed.text
    unknown = host.call("peer", "no_such_tool", {}, timeout_s=20)
    assert unknown.is_error
    target = tmp_path / "written.txt"
    wrote = host.call("peer", "write_file", {"path": str(target), "text": "side effect"},
                      timeout_s=20)
    assert not wrote.is_error and target.read_text(encoding="utf-8") == "side effect"
    big = host.call("peer", "big", {}, timeout_s=30)
    assert len(big.text.encode("utf-8")) == ONE_MB


def test_a_call_that_hangs_is_stopped_at_its_time_limit_and_the_server_stays_up(host):
    host.ensure_started("peer", PEER)
    with pytest.raises(ToolCallTimedOut, match="“hang” did not return within 0.5 s"):
        host.call("peer", "hang", {}, timeout_s=0.5)
    assert host.call("peer", "echo", {"text": "still here"}, timeout_s=20).text == "still here"


def test_a_server_that_exits_at_start_fails_with_its_stderr(host):
    status = host.ensure_started("crash", StdioLaunch(sys.executable,
                                                      (str(PEER_SCRIPT), "--crash")))
    assert status.state is ServerState.FAILED
    assert "test peer: cannot open its database" in status.stderr_tail
    assert status.reason
    with pytest.raises(ToolServerUnavailable, match="not running"):
        host.call("crash", "echo", {"text": "x"}, timeout_s=5)


def test_a_missing_command_fails_with_its_name(host):
    status = host.ensure_started("missing", StdioLaunch("turnlog-no-such-mcp-server"))
    assert status.state is ServerState.FAILED
    assert "turnlog-no-such-mcp-server" in status.reason


def test_stopping_ends_the_child_and_the_next_use_starts_it_again(host):
    host.ensure_started("peer", PEER)
    host.stop("peer")
    assert host.status("peer").state is ServerState.STOPPED
    with pytest.raises(ToolServerUnavailable):
        host.call("peer", "echo", {"text": "x"}, timeout_s=5)
    assert host.ensure_started("peer", PEER).state is ServerState.READY
    assert host.call("peer", "echo", {"text": "again"}, timeout_s=20).text == "again"


def test_a_streamable_http_server_with_its_bearer_token(host):
    with http_peer() as peer:
        status = host.ensure_started("web", HttpLaunch(peer.url, peer.token))
        assert status.state is ServerState.READY, status
        assert len(status.tools) == 6
        assert host.call("web", "echo", {"text": "over http"}, timeout_s=20).text == "over http"
        host.stop("web")
        refused = host.ensure_started("web-bad", HttpLaunch(peer.url, "wrong-token"),
                                      timeout_s=15)
        assert refused.state is ServerState.FAILED
        assert "wrong-token" not in refused.reason


def test_a_closed_host_refuses_plainly():
    tool_host = ToolHost()
    tool_host.ensure_started("peer", PEER)
    tool_host.close()
    with pytest.raises(ToolServerUnavailable, match="stopped"):
        tool_host.ensure_started("peer", PEER)
