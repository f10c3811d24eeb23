"""API keys in a real keyring, the no-keyring path, redaction, and profiles that hold no key.

The `keyring` tests use the Secret Service (gnome-keyring in a private D-Bus session)::

    dbus-run-session -- sh -c 'printf %s pw | gnome-keyring-daemon --unlock \
        --components=secrets >/dev/null; .venv/bin/pytest tests/config/test_secrets.py'

and skip, saying why, where none can be reached.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path

import keyring
import keyring.backends.fail
import keyring.backends.null
import keyring.errors
import pytest
from keyring.backend import KeyringBackend

from turnlog.config.profiles import (
    FILE_NAME,
    Profile,
    ProfileStore,
    ProfilesUnreadable,
    check_base_url,
    new_profile,
)
from turnlog.config.secrets import (
    SERVICE,
    KeyringUnavailable,
    SessionKeys,
    SystemKeyring,
    check_key,
    open_key_store,
    redact,
)
from turnlog.providers import LLAMA_CPP, OPENAI, preset_by_id

KEY = "sk-proj-Q9x2Lm7vTr41ZpKd"


# -- a real Secret Service -------------------------------------------------------------


@pytest.fixture
def service_name() -> str:
    """A service name of this test alone, so tests never see each other's keys."""
    return f"turnlog-test-{uuid.uuid4().hex}"


@pytest.fixture
def store(secret_service: KeyringBackend, service_name: str) -> Iterator[SystemKeyring]:
    yield SystemKeyring(secret_service, service=service_name)
    tool = shutil.which("secret-tool")
    if tool is not None:  # remove whatever a failed test left behind
        subprocess.run([tool, "clear", "service", service_name], timeout=10, check=False)


def secret_tool_lookup(service: str, username: str) -> str | None:
    """Read a secret back with libsecret's own tool: an independent witness of the keyring."""
    tool = shutil.which("secret-tool")
    if tool is None:
        pytest.skip("secret-tool (libsecret-tools) is not installed")
    result = subprocess.run([tool, "lookup", "service", service, "username", username],
                            capture_output=True, text=True, timeout=10, check=False)
    return result.stdout if result.returncode == 0 and result.stdout else None


@pytest.mark.keyring
def test_set_get_replace_delete_in_the_secret_service(store: SystemKeyring):
    assert store.get("profile-a") is None
    store.set("profile-a", KEY)
    assert store.get("profile-a") == KEY
    assert store.replace("profile-a", "sk-second-key-0001") is True
    assert store.get("profile-a") == "sk-second-key-0001"
    assert store.replace("profile-a", "sk-second-key-0001") is False
    assert store.delete("profile-a") is True
    assert store.get("profile-a") is None
    assert store.delete("profile-a") is False


@pytest.mark.keyring
def test_keys_are_per_profile(store: SystemKeyring):
    store.set("one", "sk-key-for-one")
    store.set("two", "sk-key-for-two")
    assert (store.get("one"), store.get("two")) == ("sk-key-for-one", "sk-key-for-two")
    store.delete("one")
    assert store.get("one") is None and store.get("two") == "sk-key-for-two"


@pytest.mark.keyring
def test_the_key_is_really_in_the_os_keyring(store: SystemKeyring, service_name: str):
    store.set("profile-b", f"  {KEY}\n")  # a paste with stray whitespace
    assert secret_tool_lookup(service_name, "profile-b") == KEY
    store.delete("profile-b")
    assert secret_tool_lookup(service_name, "profile-b") is None


@pytest.mark.keyring
def test_default_service_is_turnlog_with_the_profile_id_as_username(secret_service):
    profile_id = f"test-{uuid.uuid4().hex}"
    keys = SystemKeyring(secret_service)
    assert keys.service == SERVICE == "turnlog"
    keys.set(profile_id, KEY)
    try:
        assert secret_tool_lookup("turnlog", profile_id) == KEY
    finally:
        keys.delete(profile_id)
    assert keys.get(profile_id) is None


@pytest.mark.keyring
def test_backend_name_names_the_secret_service(store: SystemKeyring):
    assert "SecretService" in store.backend_name()


@pytest.mark.keyring
def test_profiles_file_never_holds_the_key(store: SystemKeyring, turnlog_home: Path):
    profile = new_profile(OPENAI, model="gpt-4o-mini")
    store.set(profile.id, KEY)
    ProfileStore().put(profile)
    assert KEY not in (turnlog_home / FILE_NAME).read_text(encoding="utf-8")
    assert store.get(profile.id) == KEY


# -- no usable keyring -----------------------------------------------------------------


@pytest.fixture
def restore_keyring() -> Iterator[None]:
    original = keyring.get_keyring()
    yield
    keyring.set_keyring(original)


def test_fail_keyring_is_unavailable_in_plain_words(restore_keyring):
    keyring.set_keyring(keyring.backends.fail.Keyring())
    with pytest.raises(KeyringUnavailable) as caught:
        SystemKeyring()
    assert "No system keyring" in str(caught.value)
    with pytest.raises(KeyringUnavailable):
        open_key_store()


def test_null_keyring_is_unavailable(restore_keyring):
    keyring.set_keyring(keyring.backends.null.Keyring())
    with pytest.raises(KeyringUnavailable):
        SystemKeyring()


class FakePlaintextKeyring(KeyringBackend):
    """A fake standing in for keyrings.alt's PlaintextKeyring, which is not installed here:
    it carries that module name and would write keys to a file."""

    priority = 1  # type: ignore[assignment]

    def get_password(self, service: str, username: str) -> str | None:
        raise AssertionError("a plaintext keyring must never be used")

    def set_password(self, service: str, username: str, password: str) -> None:
        raise AssertionError("a plaintext keyring must never be used")

    def delete_password(self, service: str, username: str) -> None:
        raise AssertionError("a plaintext keyring must never be used")


FakePlaintextKeyring.__module__ = "keyrings.alt.file"


def test_plaintext_file_keyrings_are_refused():
    with pytest.raises(KeyringUnavailable) as caught:
        SystemKeyring(FakePlaintextKeyring())
    assert "plain file" in str(caught.value)


class FakeLockedKeyring(KeyringBackend):
    """A fake for a keyring whose unlock prompt the user dismissed."""

    priority = 1  # type: ignore[assignment]

    def get_password(self, service: str, username: str) -> str | None:
        raise keyring.errors.KeyringLocked("Failed to unlock the collection!")

    def set_password(self, service: str, username: str, password: str) -> None:
        raise keyring.errors.KeyringLocked("Failed to unlock the collection!")

    def delete_password(self, service: str, username: str) -> None:
        raise keyring.errors.KeyringLocked("Failed to unlock the collection!")


def test_locked_keyring_is_unavailable_and_says_locked():
    keys = SystemKeyring(FakeLockedKeyring())
    for action in (lambda: keys.get("p"), lambda: keys.set("p", KEY), lambda: keys.delete("p")):
        with pytest.raises(KeyringUnavailable) as caught:
            action()
        assert "locked" in str(caught.value)


def test_session_keys_hold_keys_for_this_run_only(turnlog_home: Path):
    keys = SessionKeys()
    assert keys.backend_name() == "memory only, until Turnlog closes"
    keys.set("p", f"{KEY}\n")
    assert keys.get("p") == KEY
    assert keys.replace("p", "sk-other-000001") is True
    assert keys.get("p") == "sk-other-000001"
    assert keys.delete("p") is True and keys.get("p") is None
    assert keys.delete("p") is False
    assert list(turnlog_home.rglob("*")) == []
    assert SessionKeys().get("p") is None


def test_check_key_strips_and_refuses_what_a_header_cannot_carry():
    assert check_key(f" {KEY}\r\n") == KEY
    for bad in ("", "   ", "sk-has space", "sk-ünïcode", "sk-tab\tinside"):
        with pytest.raises(ValueError):
            check_key(bad)


# -- redaction -------------------------------------------------------------------------


def test_redact_removes_the_key_in_every_form_a_server_echoes():
    key = "sk-a/b+c=d"
    text = (f"plain {key}; json {json.dumps(key)[1:-1]}; url sk-a%2Fb%2Bc%3Dd; "
            "header Authorization: Bearer some-other-token")
    out = redact(text, [key])
    assert "sk-a" not in out and "some-other-token" not in out
    assert out.count("[redacted]") == 4
    assert redact(out, [key]) == out


def test_redact_ignores_blank_secrets_and_leaves_other_text_alone():
    assert redact("nothing secret here", ["", "  "]) == "nothing secret here"
    assert redact("Bearer [redacted] stays", []) == "Bearer [redacted] stays"


# -- profiles --------------------------------------------------------------------------


def test_profiles_round_trip_in_the_data_dir(turnlog_home: Path):
    store = ProfileStore()
    assert store.path == turnlog_home / FILE_NAME
    assert store.load() == [] and store.list() == []
    local = new_profile(LLAMA_CPP, model="qwen2.5-7b", context_window=8192, stream=False)
    remote = new_profile(OPENAI, model="gpt-4o-mini", name="Work")
    store.put(local)
    store.put(remote)
    assert store.load() == [local, remote]
    assert ProfileStore(turnlog_home).list() == [local, remote]
    assert local.base_url == "http://localhost:8080/v1" and local.server is LLAMA_CPP
    renamed = Profile(**{**local.to_json(), "name": "Laptop"})
    store.put(renamed)
    assert [p.name for p in store.load()] == ["Laptop", "Work"]
    assert store.remove(local.id) is True and store.remove(local.id) is False
    assert store.get(remote.id) == remote and store.get(local.id) is None


def test_a_key_typed_into_the_profiles_file_is_dropped(turnlog_home: Path):
    path = turnlog_home / FILE_NAME
    path.write_text(json.dumps({"version": 1, "profiles": [{
        "id": "p1", "name": "Mine", "preset": "custom", "base_url": "http://127.0.0.1:9/v1",
        "model": "m", "api_key": KEY}]}), encoding="utf-8")
    store = ProfileStore()
    [profile] = store.load()
    store.put(profile)
    assert KEY not in path.read_text(encoding="utf-8")


def test_an_unreadable_profiles_file_is_named_and_left_alone(turnlog_home: Path):
    path = turnlog_home / FILE_NAME
    path.write_text("{not json", encoding="utf-8")
    store = ProfileStore()
    with pytest.raises(ProfilesUnreadable):
        store.load()
    with pytest.raises(ProfilesUnreadable):
        store.put(new_profile(OPENAI, model="m"))
    assert path.read_text(encoding="utf-8") == "{not json"


def test_base_url_is_checked_in_plain_words():
    assert check_base_url(" http://127.0.0.1:8080/v1/ ") == "http://127.0.0.1:8080/v1"
    for bad in ("localhost:8080/v1", "ftp://example.test/v1", "http://", ""):
        with pytest.raises(ValueError, match="http://"):
            check_base_url(bad)
    with pytest.raises(ValueError):
        new_profile(preset_by_id("custom"), model="m")  # Custom has no address of its own
