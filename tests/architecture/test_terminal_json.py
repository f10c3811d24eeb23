"""Every `--json` the command line prints goes out through one terminal-safety path: C1
and bidi controls are written as JSON `\\uXXXX` escapes, so a terminal obeys none of them
and a program reading the JSON gets the very same data."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import turnlog

CLI_DIR = Path(turnlog.__file__).parent / "cli"
# A tool server whose tool names and descriptions hold a CSI (U+009B), a right-to-left
# override (U+202E) and a left-to-right isolate (U+2066).
HOSTILE_NAME = "look\u009b2J\u202eeman"
HOSTILE_DESCRIPTION = "Reads\u2066 files\u202e \u009b31mred"
SERVER = f"""
from mcp.server.mcpserver import MCPServer

server = MCPServer("hostile")


def look() -> str:
    return "x"


server.add_tool(look, name={HOSTILE_NAME!r}, description={HOSTILE_DESCRIPTION!r})
server.run("stdio")
"""
CONTROLS = "\u009b\u202e\u2066"


def cli(*args: str, terminal: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "turnlog.cli", *args], capture_output=True,
                          text=True, timeout=90, start_new_session=True,
                          env={**os.environ, "TURNLOG_TERMINAL": terminal})


def test_tools_list_json_escapes_c1_and_bidi_controls(turnlog_home, tmp_path):
    script = tmp_path / "hostile_server.py"
    script.write_text(SERVER, encoding="utf-8")
    added = cli("tools", "add", "hostile", "--", sys.executable, str(script), terminal="0")
    assert added.returncode == 0, added.stderr
    for terminal in ("1", "0"):
        listed = cli("tools", "list", "--json", terminal=terminal)
        assert listed.returncode == 0, listed.stderr
        assert not any(c in listed.stdout for c in CONTROLS), listed.stdout
        assert "\\u009b" in listed.stdout and "\\u202e" in listed.stdout
        (server,) = json.loads(listed.stdout)["servers"]
        assert server["state"] == "ready", server
        (tool,) = server["tools"]
        assert (tool["name"], tool["description"]) == (HOSTILE_NAME, HOSTILE_DESCRIPTION)
    plain = cli("tools", "list", terminal="1")
    assert not any(c in plain.stdout for c in CONTROLS)


def test_json_goes_out_only_through_print_json():
    """No command module writes JSON by itself: `json.dumps` and `visible_json` belong to
    cli/terminal.py alone."""
    offenders = []
    for path in sorted(CLI_DIR.glob("*.py")):
        if path.name == "terminal.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr in ("dumps", "dump") and \
                    isinstance(node.value, ast.Name) and node.value.id == "json":
                offenders.append(f"{path.name}:{node.lineno}: json.{node.attr}")
            if isinstance(node, ast.Name) and node.id == "visible_json":
                offenders.append(f"{path.name}:{node.lineno}: visible_json")
    assert offenders == []
