"""`turnlog-cli project` budgets in the window a send would use: the one the profile's
server stated (or an overflow taught), remembered in model_facts.json, and says so."""

from __future__ import annotations

import json

from cli_log_runs import cli, project, two_turns  # noqa: F401 - the fixture
from turnlog.config.model_facts import FactStore


def test_project_uses_the_window_the_server_stated(two_turns, turnlog_home):  # noqa: F811 - the fixture
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


def test_project_names_a_learned_window_its_date_and_lets_your_window_win(
        two_turns, turnlog_home):  # noqa: F811 - the fixture
    from datetime import UTC, datetime

    added = cli("profile", "add", "gpu", "--preset", "custom", "--base-url",
                "http://127.0.0.1:9/v1", "--model", "m1", input="")
    assert added.returncode == 0, added.stderr
    [profile] = json.loads((turnlog_home / "profiles.json").read_text())["profiles"]
    FactStore.in_dir(turnlog_home).learn_window(profile["id"], "m1", 512)
    today = datetime.now(UTC).date().isoformat()
    rc, out = project(two_turns, "Still there?", "--profile", "gpu")
    assert rc == 0, out
    assert (out["context_window"], out["window_source"]) == (512, "learned")
    assert out["window_learned_on"] == today and out["output_reserve"] == 128
    assert out["summary"]["state"] == "none"  # no summary call fits 512 tokens
    rc, out = project(two_turns, "Still there?", "--profile", "gpu", "--window", "32768")
    assert (out["context_window"], out["window_source"]) == (32_768, "set by you")
    assert out["output_reserve"] == 8_192 and out["sent"] == [1, 2]
    assert out["server_window"] == {"tokens": 512, "source": "learned"}
    text = cli("project", "--conversation", str(two_turns), "--question", "q",
               "--profile", "gpu")
    assert f"window 512 tokens, learned (learned from an overflow on {today})" in text.stdout


def test_profile_forget_window_forgets_a_learned_window(two_turns, turnlog_home):  # noqa: F811 - the fixture
    added = cli("profile", "add", "gpu", "--preset", "custom", "--base-url",
                "http://127.0.0.1:9/v1", "--model", "m1", input="")
    assert added.returncode == 0, added.stderr
    [profile] = json.loads((turnlog_home / "profiles.json").read_text())["profiles"]
    FactStore.in_dir(turnlog_home).learn_window(profile["id"], "m1", 512)
    rc, out = project(two_turns, "Still there?", "--profile", "gpu")
    assert (out["context_window"], out["window_source"]) == (512, "learned")
    forgot = cli("profile", "forget-window", "gpu")
    assert forgot.returncode == 0, forgot.stderr
    assert forgot.stdout.startswith("forgot the window learned for m1 through gpu (512 tokens")
    rc, out = project(two_turns, "Still there?", "--profile", "gpu")
    assert (out["context_window"], out["window_source"]) == (200_000, "assumed")
    again = cli("profile", "forget-window", "gpu")
    assert again.returncode == 0 and again.stdout == "no window learned for m1 through gpu\n"
    missing = cli("profile", "forget-window", "nobody")
    assert missing.returncode == 1 and "no profile “nobody”" in missing.stderr
