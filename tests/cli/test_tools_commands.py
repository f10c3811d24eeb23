"""turnlog-cli tools …, ask --tools and show, against a real MCP server over stdio and the
loopback chat server."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
import time

import pytest

from loopback import Behaviour
from mcp_peers import PEER_SCRIPT

PEER = [sys.executable, str(PEER_SCRIPT)]


def cli(*args: str, input: str | None = None, timeout: float = 90,
        ) -> subprocess.CompletedProcess[str]:
    # A session of its own: no controlling terminal, as under CI or a pipe.
    return subprocess.run([sys.executable, "-m", "turnlog.cli", *args], capture_output=True,
                          text=True, input=input, timeout=timeout, env=os.environ.copy(),
                          start_new_session=True)


def add_profile(loopback) -> None:
    result = cli("profile", "add", "loop", "--preset", "custom", "--base-url",
                 loopback.base_url, "--model", "loopback-model", input="")
    assert result.returncode == 0, result.stderr


def test_add_list_and_remove_a_stdio_server(turnlog_home):
    added = cli("tools", "add", "peer", "--", *PEER, "--verbose")
    assert added.returncode == 0, added.stderr
    assert "added tool server peer" in added.stdout
    listed = cli("tools", "list", "--json")
    assert listed.returncode == 0, listed.stderr
    (server,) = json.loads(listed.stdout)["servers"]
    assert server["state"] == "ready" and server["enabled"]
    assert {t["name"] for t in server["tools"]} >= {"echo", "write_file", "hang"}
    assert server["command_line"].endswith("--verbose")
    text = cli("tools", "list").stdout
    assert "peer\tready with 6 tools" in text and "Return the text unchanged." in text
    assert cli("tools", "remove", "peer").returncode == 0
    assert json.loads(cli("tools", "list", "--json").stdout) == {"servers": []}
    missing = cli("tools", "remove", "peer")
    assert missing.returncode == 1 and "no tool server “peer”" in missing.stderr


def test_a_failing_server_is_listed_with_its_reason_and_stderr(turnlog_home):
    assert cli("tools", "add", "broken", "--", *PEER, "--crash").returncode == 0
    (server,) = json.loads(cli("tools", "list", "--json").stdout)["servers"]
    assert server["state"] == "failed" and server["reason"]
    assert "test peer: cannot open its database" in server["stderr"]


def test_list_starts_the_servers_at_once_not_one_after_another(turnlog_home, tmp_path):
    """Three servers that each take seconds to come up: `tools list` starts them side by
    side, so every one has started before the first is ready."""
    stamps = tmp_path / "stamps"
    for name in ("one", "two", "three"):
        added = cli("tools", "add", name, "--", *PEER, "--slow-start", "3", str(stamps))
        assert added.returncode == 0, added.stderr
    listed = cli("tools", "list", "--json")
    assert listed.returncode == 0, listed.stderr
    servers = json.loads(listed.stdout)["servers"]
    assert [s["state"] for s in servers] == ["ready"] * 3
    assert [s["name"] for s in servers] == ["one", "two", "three"]  # the order they have
    times = [line.split() for line in stamps.read_text().splitlines()]
    starts = [float(t) for kind, t in times if kind == "start"]
    readies = [float(t) for kind, t in times if kind == "ready"]
    assert len(starts) == len(readies) == 3
    assert max(starts) < min(readies)


def test_imported_servers_start_switched_off(turnlog_home, tmp_path):
    source = tmp_path / "mcp.json"
    source.write_text(json.dumps({"mcpServers": {
        "peer": {"command": PEER[0], "args": PEER[1:]}}}), encoding="utf-8")
    imported = cli("tools", "import", str(source))
    assert imported.returncode == 0, imported.stderr
    assert "imported peer (switched off)" in imported.stdout
    (server,) = json.loads(cli("tools", "list", "--json").stdout)["servers"]
    assert (server["state"], server["enabled"]) == ("off", False)
    assert cli("tools", "enable", "peer").returncode == 0
    (server,) = json.loads(cli("tools", "list", "--json").stdout)["servers"]
    assert server["state"] == "ready"
    bad = tmp_path / "bad.json"
    bad.write_text('{"mcpServers": {"x": {"args": []}}}', encoding="utf-8")
    refused = cli("tools", "import", str(bad))
    assert refused.returncode == 1 and "nothing was imported" in refused.stderr


def test_ask_with_tools_and_no_terminal_refuses_unless_approve_all(turnlog_home, loopback,
                                                                    tmp_path):
    add_profile(loopback)
    assert cli("tools", "add", "peer", "--", *PEER).returncode == 0
    refused = cli("ask", "--new", "--tools", "peer", "写个文件")
    assert refused.returncode == 2
    assert "no terminal to ask on" in refused.stderr and "写个文件" in refused.stderr
    assert loopback.requests == []

    target = tmp_path / "out.txt"
    loopback.script(
        Behaviour.calls(("write_file", json.dumps({"path": str(target), "text": "好"}))),
        Behaviour.answer("写好了。"),
    )
    asked = cli("ask", "--new", "--tools", "peer", "--approve-all", "写个文件")
    assert asked.returncode == 0, asked.stderr
    assert "写好了。" in asked.stdout and target.read_text(encoding="utf-8") == "好"
    assert "tools" in loopback.requests[0].json()
    shown = cli("show", "1")
    assert shown.returncode == 0, shown.stderr
    out = shown.stdout
    assert "tool call write_file (approve-all" in out
    assert f'"path": "{target}"' in out and "wrote 3 bytes" in out
    assert out.index("写个文件") < out.index("tool call write_file") < out.index("写好了。")


def test_ask_tools_names_a_missing_or_switched_off_server(turnlog_home, loopback):
    add_profile(loopback)
    missing = cli("ask", "--new", "--tools", "nope", "--approve-all", "hi")
    assert missing.returncode == 2 and "no tool server “nope”" in missing.stderr
    assert cli("tools", "add", "peer", "--disabled", "--", *PEER).returncode == 0
    off = cli("ask", "--new", "--tools", "peer", "--approve-all", "hi")
    assert off.returncode == 2 and "switched off" in off.stderr


def become_terminal_of(name: str) -> None:
    """In the child: a session of its own whose controlling terminal is the pty `name`
    (its standard error keeps the pty open)."""
    os.setsid()
    os.close(os.open(name, os.O_RDWR))


def test_ask_tools_asks_on_the_terminal(turnlog_home, loopback):
    add_profile(loopback)
    assert cli("tools", "add", "peer", "--", *PEER).returncode == 0
    loopback.script(Behaviour.calls(("echo", '{"text":"终端"}')), Behaviour.answer("好"))
    master, slave = pty.openpty()
    name = os.ttyname(slave)
    proc = subprocess.Popen(
        [sys.executable, "-m", "turnlog.cli", "ask", "--new", "--tools", "peer", "问"],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=slave,
        env=os.environ.copy(), preexec_fn=lambda: become_terminal_of(name))
    os.close(slave)
    seen = b""
    deadline = time.monotonic() + 60
    try:
        while b"[d]eny?" not in seen and time.monotonic() < deadline:
            try:
                seen += os.read(master, 4096)
            except OSError:  # the terminal hung up: the command ended
                break
        os.write(master, b"r\n")
        out, _err = proc.communicate(timeout=60)
    finally:
        os.close(master)
    assert b"wants to run the tool \xe2\x80\x9cecho\xe2\x80\x9d of peer" in seen, seen
    assert "终端".encode() in seen
    assert proc.returncode == 0, seen.decode(errors="replace")
    assert "好" in out.decode()


@pytest.mark.keyring
def test_an_http_server_s_token_goes_to_the_keyring_and_reaches_the_server(
        secret_service, turnlog_home):
    from mcp_peers import http_peer

    with http_peer() as peer:
        added = cli("tools", "add", "web", "--url", peer.url, "--token-stdin",
                    input=peer.token + "\n")
        assert added.returncode == 0, added.stderr
        assert peer.token not in (turnlog_home / "tools.json").read_text(encoding="utf-8")
        (server,) = json.loads(cli("tools", "list", "--json").stdout)["servers"]
        assert server["state"] == "ready", server
        secret = cli("tools", "add", "env", "--env", "PEER_API_KEY=sk-cli-1", "--", *PEER)
        assert secret.returncode == 0, secret.stderr
        text = (turnlog_home / "tools.json").read_text(encoding="utf-8")
        assert "sk-cli-1" not in text and '"secret": true' in text
        assert cli("tools", "remove", "web").returncode == 0
        assert cli("tools", "remove", "env").returncode == 0


def test_project_tools_previews_the_body_ask_tools_sends(turnlog_home, loopback):
    add_profile(loopback)
    assert cli("tools", "add", "peer", "--", *PEER).returncode == 0
    loopback.script(Behaviour.answer("你好。"), Behaviour.answer("Nothing to list."))
    assert cli("ask", "--new", "Hello").returncode == 0
    projected = cli("project", "--conversation", "1", "--question", "Which files are there?",
                    "--profile", "loop", "--tools", "peer", "--json")
    assert projected.returncode == 0, projected.stderr
    preview = json.loads(projected.stdout)
    assert preview["final"] is True and preview["not_final"] == ""
    offered = [t["function"]["name"] for t in json.loads(preview["body"])["tools"]]
    assert {"echo", "write_file"} <= set(offered)
    asked = cli("ask", "--conversation", "1", "--tools", "peer", "--approve-all",
                "Which files are there?")
    assert asked.returncode == 0, asked.stderr
    assert loopback.requests[-1].body == preview["body"].encode("utf-8")
    assert preview["body_bytes"] == len(loopback.requests[-1].body)
    missing = cli("project", "--conversation", "1", "--question", "Hi?", "--tools", "nope")
    assert missing.returncode == 2 and "no tool server “nope”" in missing.stderr
