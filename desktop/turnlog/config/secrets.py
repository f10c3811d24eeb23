"""API keys live in the OS keyring, one per provider profile, and nowhere else.

`SystemKeyring` stores them under service `turnlog` with the profile id as the
username. When the machine has no usable keyring it raises `KeyringUnavailable`;
the UI can then offer `SessionKeys`, which holds keys in memory for this run only.
There is deliberately no file fallback. `redact` (from `turnlog.core.redaction`, kept
here for callers that already hold a key store) removes keys from any text that might
be shown or logged.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from ..core.redaction import REDACTED, redact
from ..system.lazy import LazyModule

if TYPE_CHECKING:
    import keyring
    import keyring.backends.fail
    import keyring.backends.null
    import keyring.errors
    from keyring.backend import KeyringBackend
else:  # loaded when a keyring is first opened: the window's first screen needs no key
    keyring = LazyModule("keyring")
    _fail_keyrings = LazyModule("keyring.backends.fail")
    _null_keyrings = LazyModule("keyring.backends.null")
    _keyring_errors = LazyModule("keyring.errors")

log = logging.getLogger(__name__)

__all__ = [
    "REDACTED",
    "KeyStore",
    "KeyringUnavailable",
    "SessionKeys",
    "SystemKeyring",
    "check_key",
    "describe_backend",
    "open_key_store",
    "redact",
    "usable_backend",
]

SERVICE = "turnlog"
# Turnlog's own bound on one keyring call: a Secret Service that never answers (a daemon
# that could not start, a stuck unlock prompt) would otherwise hold the caller for D-Bus's
# own timeout or longer.
KEYRING_TIMEOUT_S = 8.0

T = TypeVar("T")

# Backends that would "work" while keeping no secret: the fail and null keyrings store
# nothing, and keyrings.alt's file backends write the key to disk (plainly, or behind a
# terminal password prompt a desktop app cannot answer).
_REFUSED_MODULES = ("keyrings.alt.file",)


def _no_storage() -> tuple[type, ...]:
    if TYPE_CHECKING:
        return (keyring.backends.fail.Keyring, keyring.backends.null.Keyring)
    return (_fail_keyrings.Keyring, _null_keyrings.Keyring)


def _errors() -> Any:
    """`keyring.errors`."""
    return keyring.errors if TYPE_CHECKING else _keyring_errors


class _NoSecretStorage(Exception):
    """Never raised: secretstorage is not installed on this platform."""


def _secret_storage_error() -> type[Exception]:
    """The Secret Service backend's own error type: it can fail below keyring's types."""
    try:
        from secretstorage.exceptions import SecretStorageException
    except ImportError:  # pragma: no cover - secretstorage ships with keyring on Linux
        return _NoSecretStorage
    return SecretStorageException

class KeyringUnavailable(Exception):
    """No keyring can hold API keys on this machine right now, with the reason in plain words."""


class KeyStore(Protocol):
    """Where the API key of each provider profile is kept."""

    def get(self, profile_id: str) -> str | None: ...

    def set(self, profile_id: str, key: str) -> None: ...

    def replace(self, profile_id: str, key: str) -> bool: ...

    def delete(self, profile_id: str) -> bool: ...

    def backend_name(self) -> str: ...


def check_key(key: str) -> str:
    """The key as it will be sent: surrounding whitespace removed (a paste often adds a
    newline). Raises ValueError for a blank key or one an HTTP header cannot carry."""
    key = key.strip()
    if not key:
        raise ValueError("The API key is empty")
    if any(not ("!" <= ch <= "~") for ch in key):
        raise ValueError(
            "The API key contains spaces or characters that are not plain ASCII; "
            "copy it again from the provider's page"
        )
    return key


def _is_refused(backend: KeyringBackend) -> bool:
    return isinstance(backend, _no_storage()) or type(backend).__module__.startswith(
        _REFUSED_MODULES
    )


def describe_backend(backend: KeyringBackend) -> str:
    name = getattr(type(backend), "name", "") or type(backend).__name__
    return str(name)


def usable_backend(backend: KeyringBackend) -> KeyringBackend:
    """`backend` itself, or for a chain its best member that really stores secrets.

    Raises KeyringUnavailable when there is none.
    """
    members: list[KeyringBackend] = list(getattr(backend, "backends", [backend]))
    usable = [member for member in members if not _is_refused(member)]
    if usable:
        return usable[0]
    if any(type(m).__module__.startswith(_REFUSED_MODULES) for m in members):
        raise KeyringUnavailable(
            "The only keyring available stores keys in a plain file, which Turnlog does not "
            "use. Install and unlock a system keyring (GNOME Keyring, KWallet, macOS "
            "Keychain or Windows Credential Manager), or use the key only until Turnlog "
            "closes."
        )
    raise KeyringUnavailable(
        "No system keyring was found to keep the API key. Install and unlock one (GNOME "
        "Keyring, KWallet, macOS Keychain or Windows Credential Manager), or use the key "
        "only until Turnlog closes."
    )


class SystemKeyring:
    """Keys in the OS keyring via `keyring`: service `turnlog`, username = profile id.

    Every method raises KeyringUnavailable when the keyring cannot be used (missing,
    locked, or refusing access); the message says so in plain words.
    """

    def __init__(self, backend: KeyringBackend | None = None, *, service: str = SERVICE) -> None:
        chosen = backend if backend is not None else _bounded(keyring.get_keyring, "open")
        self._backend = usable_backend(chosen)
        self.service = service

    def backend_name(self) -> str:
        return describe_backend(self._backend)

    def get(self, profile_id: str) -> str | None:
        return _bounded(lambda: self._backend.get_password(self.service, profile_id),
                        "read the API key from")

    def set(self, profile_id: str, key: str) -> None:
        key = check_key(key)
        _bounded(lambda: self._backend.set_password(self.service, profile_id, key),
                 "store the API key in")

    def replace(self, profile_id: str, key: str) -> bool:
        """Store `key` in place of the profile's key; True if a different key was there."""
        key = check_key(key)
        previous = self.get(profile_id)
        self.set(profile_id, key)
        return previous is not None and previous != key

    def delete(self, profile_id: str) -> bool:
        """Remove the profile's key; False if there was none."""
        def remove() -> bool:
            if self._backend.get_password(self.service, profile_id) is None:
                return False
            try:
                self._backend.delete_password(self.service, profile_id)
            except _errors().PasswordDeleteError:
                return False
            return True

        return _bounded(remove, "remove the API key from")


def _bounded(call: Callable[[], T], action: str) -> T:
    """`call()` on a thread of its own, waited for at most `KEYRING_TIMEOUT_S`; every way
    it can fail — an error of any type, or no answer in time — is KeyringUnavailable with
    plain words. A call that never returns is left behind on its daemon thread."""
    outcome: queue.Queue[tuple[bool, object]] = queue.Queue(maxsize=1)

    def run() -> None:
        try:
            outcome.put((True, call()))
        except BaseException as err:  # noqa: BLE001 - handed to the waiting caller
            outcome.put((False, err))

    threading.Thread(target=run, name="turnlog-keyring", daemon=True).start()
    try:
        ok, value = outcome.get(timeout=KEYRING_TIMEOUT_S)
    except queue.Empty:
        log.warning("the system keyring did not answer within %.0f s", KEYRING_TIMEOUT_S)
        raise KeyringUnavailable(
            f"Could not {action} the system keyring: it did not answer within "
            f"{KEYRING_TIMEOUT_S:.0f} s. Unlock or restart it (or log in again), or use the "
            "key only until Turnlog closes."
        ) from None
    if ok:
        return value  # type: ignore[return-value]
    assert isinstance(value, BaseException)
    raise _as_unavailable(value, action) from value


def _as_unavailable(err: BaseException, action: str) -> BaseException:
    """The plain-words KeyringUnavailable for a keyring call's error (others as they are:
    an interrupt, or a bug of Turnlog's own)."""
    if isinstance(err, KeyringUnavailable | KeyboardInterrupt | SystemExit):
        return err
    errors = _errors()
    if isinstance(err, errors.KeyringLocked):
        return KeyringUnavailable(
            f"Could not {action} the system keyring: it is locked and was not unlocked. "
            "Unlock it and try again, or use the key only until Turnlog closes.")
    if isinstance(err, errors.NoKeyringError | errors.InitError):
        return KeyringUnavailable(
            f"Could not {action} the system keyring: no keyring is available ({err}).")
    if isinstance(err, errors.KeyringError | _secret_storage_error()):
        return KeyringUnavailable(
            f"Could not {action} the system keyring: {err or type(err).__name__}.")
    # Below keyring's own types: D-Bus errors (jeepney's DBusErrorResponse, a timed-out or
    # refused call), an OS error on the socket, a backend's own exception.
    return KeyringUnavailable(
        f"Could not {action} the system keyring: {type(err).__name__}: {err}. Use the key "
        "only until Turnlog closes, or try again once the keyring works.")


class SessionKeys:
    """Keys held in memory for this run only, for when no keyring can be used.

    Nothing is written anywhere; the keys are gone when the app quits.
    """

    def __init__(self) -> None:
        self._keys: dict[str, str] = {}

    def backend_name(self) -> str:
        return "memory only, until Turnlog closes"

    def get(self, profile_id: str) -> str | None:
        return self._keys.get(profile_id)

    def set(self, profile_id: str, key: str) -> None:
        self._keys[profile_id] = check_key(key)

    def replace(self, profile_id: str, key: str) -> bool:
        key = check_key(key)
        previous = self._keys.get(profile_id)
        self._keys[profile_id] = key
        return previous is not None and previous != key

    def delete(self, profile_id: str) -> bool:
        return self._keys.pop(profile_id, None) is not None


def open_key_store() -> SystemKeyring:
    """The system keyring, or KeyringUnavailable saying why there is none."""
    store = SystemKeyring()
    log.debug("API keys are kept in %s", store.backend_name())
    return store
