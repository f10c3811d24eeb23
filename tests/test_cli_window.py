"""`turnlog-cli project` budgets in the window a send would use: the one the profile's
server stated (or an overflow taught), remembered in model_facts.json, and says so."""

from __future__ import annotations

import json

from test_cli_log import cli, project, two_turns  # noqa: F401 - the fixture
from turnlog.model_facts import FactStore


def test_project_uses_the_window_the_server_stated(two_turns, turnlog_home):  # noqa: F811
    added = cli("profile", "add", "gpu", "--preset", "vllm", "--base-url",
                "http://127.0.0.1:9/v1", "--model", "m1", input="")
    assert added.returncode == 0, added.stderr
    rc, out = project(two_turns, "How far along are we?", "--profile", "gpu")
    assert rc == 0
    assert (out["context_window"], out["window_source"]) == (200_000, "assumed")
    [profile] = json.loads((turnlog_home / "profiles.json").read_text())["profiles"]
    FactStore.in_dir(turnlog_home).server_window(profile["id"], "m1", 12_288)
    rc, out = project(two_turns, "How far along are we?", "--profile", "gpu")
    assert (out["context_window"], out["window_source"]) == (12_288, "from the server")
    assert out["token_budget"] == 12_288 - 12_288 // 4 - 615  # reserve sized to the window
    rc, out = project(two_turns, "How far along are we?", "--profile", "gpu",
                      "--window", "4096")
    assert (out["context_window"], out["window_source"]) == (4_096, "set by you")
    text = cli("project", "--conversation", str(two_turns), "--question", "q",
               "--profile", "gpu")
    assert "window 12,288 tokens, from the server" in text.stdout
