"""Which provider profile is in use and where API keys are kept.

`ProviderSetup` is what the window, the settings dialog and the connector share: the
profiles on disk, the one in use (remembered per data directory), and the key store —
the system keyring, or this session only when there is none.
"""

from __future__ import annotations

import logging
import threading

from PySide6.QtCore import QSettings

from ...config.profiles import Profile, ProfileStore, ProfilesUnreadable
from ...config.secrets import KeyringUnavailable, KeyStore, SessionKeys, SystemKeyring
from ...service.connect import LocalModels
from ...service.route import ProviderConfig

log = logging.getLogger(__name__)


class LayeredKeys:
    """Each profile's key wherever it is: a key kept for this session only (typed with
    "until Turnlog closes") wins over the keyring's, so one profile's session key leaves
    the other profiles' keyring keys in use. New keys go to `session` when `session_only`
    (or there is no keyring), else to the keyring; a delete removes both."""

    def __init__(self, session: SessionKeys, keyring: KeyStore | None,
                 session_only: bool) -> None:
        self._session, self._keyring = session, keyring
        self._target: KeyStore = session if session_only or keyring is None else keyring

    def backend_name(self) -> str:
        return self._target.backend_name()

    def get(self, profile_id: str) -> str | None:
        key = self._session.get(profile_id)
        if key is None and self._keyring is not None:
            key = self._keyring.get(profile_id)
        return key

    def set(self, profile_id: str, key: str) -> None:
        self._target.set(profile_id, key)
        if self._target is not self._session:  # the stored key is the one used now
            self._session.delete(profile_id)

    def replace(self, profile_id: str, key: str) -> bool:
        previous = self.get(profile_id)
        self.set(profile_id, key)
        return previous is not None and previous != key.strip()

    def delete(self, profile_id: str) -> bool:
        gone = self._session.delete(profile_id)
        if self._keyring is not None:
            gone = self._keyring.delete(profile_id) or gone
        return gone


class ProviderSetup:
    """The profiles on disk, which one is in use (remembered per data directory), and
    where keys are kept: the system keyring, or this session only when there is none."""

    def __init__(self, profiles: ProfileStore, settings: QSettings,
                 keyring: KeyStore | None = None, *, local: LocalModels | None = None) -> None:
        self.profiles = profiles
        self.settings = settings
        self.local = local  # the app's built-in model servers (None: not offered here)
        self.session = SessionKeys()
        # The system keyring is opened on first use (it takes a tenth of a second or more,
        # and the window's first screen needs no key), from whichever thread asks first.
        self._keyring = keyring
        self._keyring_problem = ""
        self._keyring_opened = keyring is not None
        self._keyring_lock = threading.Lock()
        self._session_only: bool | None = None  # None: this session only if no keyring
        # The profile in use, removed by another process while it was: nothing is sent
        # until the person chooses a provider (`set_active`).
        self.removed: Profile | None = None

    @property
    def keyring(self) -> KeyStore | None:
        """The system keyring, or None where there is none (`keyring_problem` says why)."""
        with self._keyring_lock:
            if not self._keyring_opened:
                try:
                    self._keyring = SystemKeyring()
                except KeyringUnavailable as err:
                    self._keyring_problem = str(err)
                self._keyring_opened = True
            return self._keyring

    @property
    def keyring_problem(self) -> str:
        """Why there is no keyring ("" when there is one)."""
        return "" if self.keyring is not None else self._keyring_problem

    @property
    def session_only(self) -> bool:
        """Whether new keys go to this session's store only."""
        chosen = self._session_only
        return self.keyring is None if chosen is None else chosen

    def open_keyring_in_background(self) -> None:
        """Open the system keyring on a thread of its own, before a key is first needed."""
        threading.Thread(target=lambda: self.keyring, name="turnlog-keyring-open",
                         daemon=True).start()

    def keep_keys_for_session(self, only: bool) -> None:
        """New keys go to this session's store only (`only`), else to the keyring."""
        self._session_only = only

    def keys(self) -> KeyStore:
        """Where keys are read (this session's first, then the keyring) and written (this
        session's while `session_only`, else the keyring)."""
        return LayeredKeys(self.session, self.keyring, self.session_only)

    def load(self) -> list[Profile]:
        try:
            return self.profiles.load()
        except ProfilesUnreadable as err:
            log.warning("%s", err)
            return []

    def active(self) -> Profile | None:
        """The profile requests go to: the one chosen, else the first; none while the one
        in use was removed elsewhere (`removed`) and no other was chosen since."""
        profiles = self.load()
        wanted = str(self.settings.value("provider/active", ""))
        found = next((p for p in profiles if p.id == wanted), None)
        if found is None and self.removed is not None and self.removed.id == wanted:
            return None  # never another provider without the person choosing it
        return found or (profiles[0] if profiles else None)

    def gone(self) -> Profile | None:
        """The profile in use that was removed elsewhere, while no other is chosen."""
        return self.removed if self.removed is not None and self.active() is None else None

    def lost(self, profile: Profile) -> None:
        """The profile in use was removed elsewhere: nothing is sent until one is chosen."""
        self.removed = profile

    def set_active(self, profile_id: str) -> None:
        self.removed = None
        self.settings.setValue("provider/active", profile_id)

    def config(self) -> ProviderConfig | None:
        profile = self.active()
        return ProviderConfig.of(profile) if profile is not None else None
