"""The reference MCP filesystem server (@modelcontextprotocol/server-filesystem, pinned in
tests/support/mcp_filesystem/package.json): a real peer nobody on the team wrote.

README Quick start line 2 installs it with `npm ci`; without it this test fails (it does
not skip), saying how to install it.
"""

from __future__ import annotations

import shutil

import pytest

from places import SUPPORT
from turnlog.toolhost.host import ServerState, ToolHost
from turnlog.toolhost.launch import StdioLaunch

PEER_DIR = SUPPORT / "mcp_filesystem"
SERVER = PEER_DIR / "node_modules" / ".bin" / "mcp-server-filesystem"


@pytest.fixture
def filesystem_server(tmp_path):
    if shutil.which("node") is None or not SERVER.exists():
        pytest.fail("the reference filesystem server is not installed: run "
                    f"`npm ci --prefix {PEER_DIR}` (README Quick start line 2 does)")
    folder = tmp_path / "shared"
    folder.mkdir()
    host = ToolHost()
    yield host, StdioLaunch(str(SERVER), (str(folder),)), folder
    host.close()


def test_the_reference_filesystem_server_lists_reads_and_writes(filesystem_server):
    host, launch, folder = filesystem_server
    (folder / "笔记.txt").write_text("第一行\nsecond line\n", encoding="utf-8")
    status = host.ensure_started("fs", launch)
    assert status.state is ServerState.READY, status
    names = {tool.name for tool in status.tools}
    assert {"read_text_file", "write_file", "list_directory"} <= names
    read = host.call("fs", "read_text_file", {"path": str(folder / "笔记.txt")}, timeout_s=30)
    assert not read.is_error and "第一行" in read.text
    wrote = host.call("fs", "write_file", {"path": str(folder / "out.md"), "content": "# hi"},
                      timeout_s=30)
    assert not wrote.is_error
    assert (folder / "out.md").read_text(encoding="utf-8") == "# hi"
    listing = host.call("fs", "list_directory", {"path": str(folder)}, timeout_s=30)
    assert "out.md" in listing.text and "笔记.txt" in listing.text


def test_outside_its_folder_the_reference_server_answers_with_an_error_result(
        filesystem_server, tmp_path):
    host, launch, _folder = filesystem_server
    secret = tmp_path / "outside.txt"
    secret.write_text("not yours", encoding="utf-8")
    host.ensure_started("fs", launch)
    out = host.call("fs", "read_text_file", {"path": str(secret)}, timeout_s=30)
    assert out.is_error and "not yours" not in out.text
