"""turnlog-cli profile add's network options, and ask refusing a key in clear text."""

from __future__ import annotations

import json

import pytest

from cli_runs import cli
from loopback import Behaviour
from tlscerts import make_certs

LAN = "http://10.0.0.5:8000/v1"
KEY = "sk-test-CLEARTEXT-0123456789"


def profiles(home):
    return json.loads((home / "profiles.json").read_text())["profiles"]


def test_profile_add_refuses_a_key_for_plain_http_on_another_machine(turnlog_home):
    result = cli("profile", "add", "lan", "--preset", "custom", "--base-url", LAN,
                 "--model", "m", "--key-stdin", input=KEY + "\n")
    assert result.returncode == 2
    assert "the key was not stored" in result.stderr
    assert "plain http://" in result.stderr and "--allow-insecure-key" in result.stderr
    assert KEY not in result.stderr + result.stdout
    assert not (turnlog_home / "profiles.json").exists()


def test_profile_add_stores_the_network_settings(turnlog_home, tmp_path):
    certs = make_certs(tmp_path / "certs")
    result = cli("profile", "add", "lan", "--preset", "llamacpp", "--base-url", LAN,
                 "--model", "m", "--allow-insecure-key", "--no-retry",
                 "--first-token-timeout", "1200", "--ca-file", str(certs.ca), input="")
    assert result.returncode == 0, result.stderr
    [saved] = profiles(turnlog_home)
    assert saved["allow_insecure_key"] is True and saved["retry"] is False
    assert saved["first_token_timeout_s"] == 1200 and saved["ca_file"] == str(certs.ca)
    again = cli("profile", "add", "lan", "--preset", "llamacpp", "--base-url", LAN,
                "--model", "m", input="")
    assert again.returncode == 0
    [saved] = profiles(turnlog_home)
    assert saved["allow_insecure_key"] is False and saved["retry"] is True
    assert saved["first_token_timeout_s"] is None and saved["ca_file"] is None


@pytest.mark.parametrize(("args", "words"), [
    (("--ca-file", "/nonexistent/ca.pem"), "does not exist"),
    (("--first-token-timeout", "0"), "between 0 and 86400"),
])
def test_profile_add_refuses_unusable_settings(turnlog_home, args, words):
    result = cli("profile", "add", "x", "--preset", "custom", "--base-url",
                 "https://example.invalid/v1", "--model", "m", *args, input="")
    assert result.returncode == 2 and words in result.stderr


@pytest.mark.keyring
def test_ask_refuses_to_send_a_stored_key_in_clear(loopback, secret_service, turnlog_home):
    """A key stored for an https address; the address is then edited to plain http on
    another machine: the ask is refused with a named failure and nothing goes out."""
    added = cli("profile", "add", "lan", "--preset", "custom", "--base-url",
                "https://10.0.0.5:8000/v1", "--model", "m", "--key-stdin", input=KEY + "\n")
    assert added.returncode == 0, added.stderr
    data = json.loads((turnlog_home / "profiles.json").read_text())
    data["profiles"][0]["base_url"] = LAN
    (turnlog_home / "profiles.json").write_text(json.dumps(data))
    loopback.script(Behaviour.answer("must not be asked for"))
    result = cli("ask", "--new", "--profile", "lan", "Secret plans")
    assert result.returncode == 4
    assert "failure: insecure_key" in result.stderr and "Secret plans" in result.stderr
    assert KEY not in result.stderr
    assert cli("list").stdout.lower() == "no conversations yet\n"
