"""Tool server settings: tools.json holds no secret, imports start switched off."""

from __future__ import annotations

import json
import sys

import pytest

from mcp_peers import PEER_SCRIPT
from turnlog.config.secrets import SessionKeys, SystemKeyring
from turnlog.config.tool_servers import (
    ToolConfigInvalid,
    ToolServerStore,
    launch_for,
    new_server,
    read_mcp_servers,
    remove_secrets,
    secret_by_default,
    store_secrets,
)
from turnlog.toolhost.host import ServerState, ToolHost
from turnlog.toolhost.launch import HttpLaunch, StdioLaunch

CLAUDE_STYLE = {
    "mcpServers": {
        "filesystem": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem",
                                                  "/home/me/文档"]},
        "github": {"command": "docker", "args": ["run", "-i", "ghcr.io/github/github-mcp"],
                   "env": {"GITHUB_PERSONAL_ACCESS_TOKEN": "ghp_abcdef123", "LOG_LEVEL": "info"}},
        "remote": {"url": "https://mcp.example.com/mcp",
                   "headers": {"Authorization": "Bearer sk-remote-999"}},
    }
}


def test_names_that_say_key_token_or_secret_are_secret_by_default():
    assert all(secret_by_default(n) for n in ("OPENAI_API_KEY", "gh_token", "CLIENT_SECRET",
                                              "DB_PASSWORD"))
    assert not any(secret_by_default(n) for n in ("LOG_LEVEL", "HOME", "PATH"))


def test_secrets_go_to_the_key_store_and_never_to_the_file(turnlog_home):
    keys = SessionKeys()
    store = ToolServerStore(turnlog_home)
    server = new_server("search", command="search-mcp", args=["--fast"],
                        env={"SEARCH_API_KEY": "sk-search-1", "REGION": "eu"})
    store_secrets(keys, server, env={"SEARCH_API_KEY": "sk-search-1"})
    store.put(server)
    text = (turnlog_home / "tools.json").read_text(encoding="utf-8")
    assert "sk-search-1" not in text and "eu" in text
    back = store.find("search")
    assert back == server
    assert back.command_line() == "SEARCH_API_KEY=(secret) REGION=eu search-mcp --fast"
    launch = launch_for(back, keys)
    assert launch == StdioLaunch("search-mcp", ("--fast",),
                                 {"SEARCH_API_KEY": "sk-search-1", "REGION": "eu"})
    remove_secrets(keys, back)
    with pytest.raises(ToolConfigInvalid, match="SEARCH_API_KEY .* not in the keyring"):
        launch_for(back, keys)


def test_an_http_server_keeps_its_token_in_the_keyring(turnlog_home):
    keys = SessionKeys()
    server = new_server("web", url="https://tools.example.com/mcp", has_token=True)
    store_secrets(keys, server, token="tok-777")
    ToolServerStore(turnlog_home).put(server)
    assert "tok-777" not in (turnlog_home / "tools.json").read_text(encoding="utf-8")
    assert launch_for(server, keys) == HttpLaunch("https://tools.example.com/mcp", "tok-777")


@pytest.mark.keyring
def test_secrets_in_a_real_secret_service_keyring(secret_service, turnlog_home):
    keys = SystemKeyring(secret_service, service="turnlog-test-tools")
    server = new_server("web", url="https://tools.example.com/mcp", has_token=True)
    store_secrets(keys, server, token="tok-real-keyring")
    assert launch_for(server, keys).token == "tok-real-keyring"  # type: ignore[union-attr]
    remove_secrets(keys, server)
    assert keys.get(f"tool-server:{server.id}:token") is None


def test_an_mcp_servers_file_is_imported_switched_off_with_secrets_apart(tmp_path,
                                                                        turnlog_home):
    source = tmp_path / "claude_desktop_config.json"
    source.write_text(json.dumps(CLAUDE_STYLE, ensure_ascii=False), encoding="utf-8")
    imported = read_mcp_servers(source)
    assert [i.server.name for i in imported] == ["filesystem", "github", "remote"]
    assert not any(i.server.enabled for i in imported)
    github = imported[1]
    assert github.env == {"GITHUB_PERSONAL_ACCESS_TOKEN": "ghp_abcdef123"}
    assert github.server.command_line() == (
        "GITHUB_PERSONAL_ACCESS_TOKEN=(secret) LOG_LEVEL=info "
        "docker run -i ghcr.io/github/github-mcp")
    assert imported[2].token == "sk-remote-999" and imported[2].server.has_token
    store = ToolServerStore(turnlog_home)
    store.put(new_server("github", command="gh-mcp"))
    added = store.add_imported(imported)
    assert [s.name for s in added] == ["filesystem", "github-2", "remote"]
    text = (turnlog_home / "tools.json").read_text(encoding="utf-8")
    assert "ghp_abcdef123" not in text and "sk-remote-999" not in text
    assert "/home/me/文档" in text


@pytest.mark.parametrize(("content", "message"), [
    ("{not json", "is not JSON"),
    ('{"servers": {}}', "no “mcpServers”"),
    ('{"mcpServers": {"x": {"args": ["a"]}}}', "neither a “command” nor a “url”"),
    ('{"mcpServers": {"x": {"command": "a", "args": "b"}}}', "not a list of strings"),
    ('{"mcpServers": {"x": {"url": "ftp://host/x"}}}', "not an http:// or https://"),
    ('{"mcpServers": {"a b/c": {"command": "a"}}}', "cannot name a tool server"),
])
def test_a_bad_mcp_servers_file_is_refused_by_name_and_nothing_is_added(tmp_path,
                                                                        turnlog_home,
                                                                        content, message):
    source = tmp_path / "mcp.json"
    source.write_text(content, encoding="utf-8")
    with pytest.raises(ToolConfigInvalid, match=message):
        read_mcp_servers(source)
    assert not (turnlog_home / "tools.json").exists()


def test_a_damaged_tools_file_is_named_and_left_alone(turnlog_home):
    (turnlog_home / "tools.json").write_text('{"version": 1, "servers": 3}', encoding="utf-8")
    with pytest.raises(ToolConfigInvalid, match="not a valid tool server list"):
        ToolServerStore(turnlog_home).list()
    assert (turnlog_home / "tools.json").read_text(encoding="utf-8").endswith("3}")


def test_a_configured_stdio_server_starts_with_its_secret_environment(turnlog_home):
    keys = SessionKeys()
    server = new_server("peer", command=sys.executable, args=[str(PEER_SCRIPT)],
                        env={"PEER_API_KEY": "sk-peer"})
    store_secrets(keys, server, env={"PEER_API_KEY": "sk-peer"})
    host = ToolHost()
    try:
        status = host.ensure_started(server.id, launch_for(server, keys))
        assert status.state is ServerState.READY
        seen = host.call(server.id, "getenv", {"name": "PEER_API_KEY"}, timeout_s=20)
        assert seen.text == "sk-peer"
    finally:
        host.close()
