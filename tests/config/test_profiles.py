"""A base URL holding `user:password@` or a control character is refused where it is typed
(the command line and the window's profile editor); one already stored loses its
credentials on first load (the profile kept, the user told), so they are never shown,
logged or sent as Basic auth."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from turnlog.config.profiles import ProfileStore, check_base_url, new_profile
from turnlog.providers import CUSTOM

PASSWORD = "PW-hunter2-SECRET"


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "turnlog.cli", *args], capture_output=True,
                          text=True, input="", timeout=60, env=os.environ.copy())


def with_credentials(base_url: str) -> str:
    return base_url.replace("http://", f"http://user:{PASSWORD}@")


def test_profile_add_refuses_a_url_with_credentials(turnlog_home, loopback):
    result = cli("profile", "add", "p", "--preset", "custom", "--base-url",
                 with_credentials(loopback.base_url), "--model", "loopback-model")
    assert result.returncode != 0
    assert "must not hold a user name or password" in result.stderr
    assert "key field" in result.stderr and PASSWORD not in result.stderr
    assert not (turnlog_home / "profiles.json").exists()


@pytest.mark.parametrize("control", ["\r\n", "\n", "\x1b", "\x85"],
                         ids=["crlf", "lf", "esc", "c1"])
def test_profile_add_refuses_a_url_with_control_characters(turnlog_home, loopback, control):
    url = f"{loopback.base_url}{control}X-Injected: 1"
    result = cli("profile", "add", "p", "--preset", "custom", "--base-url", url,
                 "--model", "loopback-model")
    assert result.returncode != 0
    assert "must not contain control characters" in result.stderr
    assert not (turnlog_home / "profiles.json").exists()


def test_a_stored_url_with_credentials_loses_them_on_first_load(turnlog_home, loopback):
    profile = new_profile(CUSTOM, model="loopback-model", name="p",
                          base_url=loopback.base_url)
    stored = {"version": 1, "profiles": [{**profile.to_json(),
                                          "base_url": with_credentials(loopback.base_url)}]}
    (turnlog_home / "profiles.json").write_text(json.dumps(stored), encoding="utf-8")

    listed = cli("profile", "list")
    assert listed.returncode == 0, listed.stderr
    assert PASSWORD not in listed.stdout + listed.stderr
    assert f"p\tCustom\t{loopback.base_url}\tloopback-model" in listed.stdout
    assert "profile “p”: its base URL held a user name and password; they were removed" \
        in listed.stderr
    assert PASSWORD not in (turnlog_home / "profiles.json").read_text(encoding="utf-8")
    (kept,) = ProfileStore(turnlog_home).load()
    assert kept.id == profile.id and kept.base_url == loopback.base_url
    assert "held a user name" not in cli("profile", "list").stderr  # told once

    asked = cli("ask", "--new", "Hello?")
    assert asked.returncode == 0, asked.stderr
    (request,) = loopback.requests
    assert "authorization" not in {k.lower() for k in request.headers}
    logs = "".join(p.read_text(encoding="utf-8", errors="replace")
                   for p in (turnlog_home / "logs").glob("*")) \
        if (turnlog_home / "logs").exists() else ""
    assert PASSWORD not in logs


@pytest.mark.parametrize("url", ["http://user:pw@127.0.0.1:8080/v1", "http://token@host/v1",
                                 "https://a:b@api.example.com/v1"])
def test_check_base_url_names_credentials(url):
    with pytest.raises(ValueError, match="must not hold a user name or password"):
        check_base_url(url)


def test_the_window_s_profile_editor_refuses_credentials_and_line_breaks(
        qtbot, turnlog_home, loopback):
    from turnlog.config.secrets import SessionKeys
    from turnlog.ui.dialogs.profile_editor import ProfileEditor
    from turnlog.ui.infra.tasks import TaskRunner
    from turnlog.ui.request.provider_setup import ProviderSetup
    from turnlog.ui.shell.window import window_settings

    setup = ProviderSetup(ProfileStore(turnlog_home), window_settings(turnlog_home),
                          keyring=SessionKeys())
    runner = TaskRunner()
    draft = new_profile(CUSTOM, model="loopback-model", name="p", base_url=loopback.base_url)
    editor = ProfileEditor(setup, runner, draft, new=True)
    qtbot.addWidget(editor)
    try:
        assert not any("base URL" in p for p in editor.problems())
        editor.base_url.setText(with_credentials(loopback.base_url))
        assert any("must not hold a user name or password" in p for p in editor.problems())
        editor.base_url.setText(loopback.base_url + "\r\nX-Injected: 1")
        assert any("must not contain control characters" in p for p in editor.problems())
    finally:
        runner.shutdown()


def test_the_window_tells_that_a_stored_url_lost_its_credentials(qtbot, turnlog_home,
                                                                 loopback):
    from turnlog.config.secrets import SessionKeys
    from turnlog.store import TurnlogStore
    from turnlog.ui.infra.tasks import TaskRunner
    from turnlog.ui.request.connection import ProviderConnector
    from turnlog.ui.request.provider_setup import ProviderSetup
    from turnlog.ui.shell.window import MainWindow, window_settings

    profile = new_profile(CUSTOM, model="loopback-model", name="Lab",
                          base_url=loopback.base_url)
    stored = {"version": 1, "profiles": [{**profile.to_json(),
                                          "base_url": with_credentials(loopback.base_url)}]}
    (turnlog_home / "profiles.json").write_text(json.dumps(stored), encoding="utf-8")
    setup = ProviderSetup(ProfileStore(turnlog_home), window_settings(turnlog_home),
                          keyring=SessionKeys())
    with TurnlogStore.open(turnlog_home) as store:
        window = MainWindow(store, TaskRunner(), ProviderConnector(setup.config, setup.keys),
                            setup=setup)
        qtbot.addWidget(window)
        try:
            shown = window.statusBar().currentMessage()
            assert "The base URL of “Lab” held a user name and password; they were removed" \
                in shown and PASSWORD not in shown
            assert setup.active().base_url == loopback.base_url
            assert PASSWORD not in (turnlog_home / "profiles.json").read_text(encoding="utf-8")
        finally:
            window.shutdown()
