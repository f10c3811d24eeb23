"""Keyring fixtures (a pytest plugin): a real Secret Service, or a skip that says why."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import keyring
import keyring.errors
import pytest
from keyring.backend import KeyringBackend


@pytest.fixture
def secret_service() -> Iterator[KeyringBackend]:
    """keyring's Secret Service backend, talking to a running, unlocked daemon."""
    try:
        from keyring.backends import SecretService
    except ImportError as err:  # pragma: no cover - keyring always ships it
        pytest.skip(f"keyring has no Secret Service backend here: {err}")
    try:
        SecretService.Keyring.priority  # noqa: B018 - raises when no daemon is reachable
    except RuntimeError as err:
        pytest.skip(f"no Secret Service reachable over D-Bus ({err}); run inside "
                    "dbus-run-session with gnome-keyring-daemon --unlock")
    backend = SecretService.Keyring()
    probe = f"turnlog-probe-{uuid.uuid4().hex}"
    try:
        backend.set_password(probe, "probe", "probe")
        backend.delete_password(probe, "probe")
    except keyring.errors.KeyringLocked:
        pytest.skip("the Secret Service keyring is locked; start gnome-keyring with --unlock")
    yield backend
