"""Which provider profile is in use and where API keys are kept.

`ProviderSetup` is what the window, the settings dialog and the connector share: the
profiles on disk, the one in use (remembered per data directory), and the key store —
the system keyring, or this session only when there is none.
"""

from __future__ import annotations

import logging

from PySide6.QtCore import QSettings

from ...chat import LocalModels, ProviderConfig
from ...profiles import Profile, ProfileStore, ProfilesUnreadable
from ...secrets import KeyringUnavailable, KeyStore, SessionKeys, SystemKeyring

log = logging.getLogger(__name__)


class ProviderSetup:
    """The profiles on disk, which one is in use (remembered per data directory), and
    where keys are kept: the system keyring, or this session only when there is none."""

    def __init__(self, profiles: ProfileStore, settings: QSettings,
                 keyring: KeyStore | None = None, *, local: LocalModels | None = None) -> None:
        self.profiles = profiles
        self.settings = settings
        self.local = local  # the app's built-in model servers (None: not offered here)
        self.session = SessionKeys()
        self.keyring_problem = ""
        if keyring is None:
            try:
                keyring = SystemKeyring()
            except KeyringUnavailable as err:
                self.keyring_problem = str(err)
        self.keyring = keyring
        self.session_only = keyring is None

    def keys(self) -> KeyStore:
        return self.session if self.session_only or self.keyring is None else self.keyring

    def load(self) -> list[Profile]:
        try:
            return self.profiles.load()
        except ProfilesUnreadable as err:
            log.warning("%s", err)
            return []

    def active(self) -> Profile | None:
        profiles = self.load()
        wanted = str(self.settings.value("provider/active", ""))
        return next((p for p in profiles if p.id == wanted), profiles[0] if profiles else None)

    def set_active(self, profile_id: str) -> None:
        self.settings.setValue("provider/active", profile_id)

    def config(self) -> ProviderConfig | None:
        profile = self.active()
        return ProviderConfig.of(profile) if profile is not None else None
