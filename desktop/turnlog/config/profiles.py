"""Provider profiles: which server, which model, how to talk to it.

Stored as JSON in `<data dir>/profiles.json`. A profile never holds its API key: the
key is in the OS keyring under the profile's id (see `turnlog.config.secrets`).

A `ProfileStore` reads the file once and keeps the profiles in memory: a preview asks
for the profile in use without touching the disk. `save` writes the file and tells
every subscriber (`subscribe`, a plain callback list; the window turns it into a Qt
signal). A change made by another process (`turnlog-cli profile add`) is seen after
`reload` or `refresh_if_changed` (the window calls it when it sees the file change).

The built-in local model is a profile too (preset `builtin`, no address: Turnlog starts
its server). It is added once, on the first start where it can run; the file remembers
that it was offered, so a user who removes it does not get it back.
"""

from __future__ import annotations

import builtins
import json
import logging
import re
import threading
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from turnlog.config.paths import data_dir, write_atomically
from turnlog.core.cost import PriceInvalid, Prices
from turnlog.core.failures import StoreError
from turnlog.providers.presets import BUILTIN_LOCAL, Preset, preset_by_id
from turnlog.system.user_files import FileRefused, read_json

TYPE_CHECKING = False  # typing's constant, without loading typing: turnlog-cli starts sooner
if TYPE_CHECKING:
    from typing import Any

    from turnlog.localmodel import Availability

log = logging.getLogger(__name__)


def available(model_path: Path | None = None) -> Availability:
    """Whether the built-in local model (or the GGUF at `model_path`) can run here
    (`localmodel.available`, loaded when first asked: reading and using profiles does
    not need it)."""
    from turnlog.localmodel import available as can_run

    return can_run(model_path)

FILE_NAME = "profiles.json"
FORMAT_VERSION = 1
MAX_FILE_BYTES = 4 << 20  # thousands of profiles; anything larger is not a profile list


class ProfilesUnreadable(StoreError):
    """profiles.json exists but cannot be read as profiles; it is left untouched."""

    code = "profiles_unreadable"


@dataclass(frozen=True, slots=True)
class NetworkSettings:
    """How a profile talks to its server. `first_token_timeout_s`: how long the first
    delta of an answer may take (None: the preset's default, 600 s for a local server,
    else 90 s). `retry`: try an answer again by itself within the retry budget.
    `allow_insecure_key`: the person allowed the key to go over plain http:// to another
    machine. `ca_file`: a PEM file of CA certificates to trust for this server, besides
    the system's."""

    first_token_timeout_s: float | None = None
    retry: bool = True
    allow_insecure_key: bool = False
    ca_file: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"first_token_timeout_s": self.first_token_timeout_s, "retry": self.retry,
                "allow_insecure_key": self.allow_insecure_key, "ca_file": self.ca_file}

    @classmethod
    def from_json(cls, data: dict[str, Any], name: str) -> NetworkSettings:
        timeout = data.get("first_token_timeout_s")
        if timeout is not None and (not isinstance(timeout, int | float)
                                    or isinstance(timeout, bool) or not 0 < timeout <= 86400):
            raise ValueError(f"profile “{name}” has an invalid time to first token")
        flags = {flag: data.get(flag, default) for flag, default in
                 (("retry", True), ("allow_insecure_key", False))}
        if not all(isinstance(value, bool) for value in flags.values()):
            raise ValueError(f"profile “{name}” has an invalid retry or key flag")
        ca_file = data.get("ca_file")
        if ca_file is not None and (not isinstance(ca_file, str) or not ca_file):
            raise ValueError(f"profile “{name}” has an invalid CA certificate file")
        return cls(float(timeout) if timeout is not None else None, flags["retry"],
                   flags["allow_insecure_key"], ca_file)


@dataclass(frozen=True, slots=True)
class Profile:
    """One configured provider. `context_window` None means the model's window is unknown.
    `model_path`: for the built-in preset, a GGUF file chosen instead of the shipped model."""

    id: str
    name: str
    preset: str
    base_url: str
    model: str
    context_window: int | None = None
    stream: bool = True
    model_path: str | None = None
    # How to talk to the server (see `NetworkSettings`; `network` groups them).
    first_token_timeout_s: float | None = None
    retry: bool = True
    allow_insecure_key: bool = False
    ca_file: str | None = None
    # Whether the model names a new conversation after its first answer (one short extra
    # request); None: the default, off (the built-in model is too small to name well).
    model_titles: bool | None = None
    # Whether the model takes images in a question; None: the preset's default.
    accepts_images: bool | None = None
    # What the model costs per million tokens, with the day set (None: not priced; the
    # built-in model never is).
    prices: Prices | None = None

    @property
    def makes_titles(self) -> bool:
        return bool(self.model_titles)

    @property
    def takes_images(self) -> bool:
        return self.accepts_images if self.accepts_images is not None else self.server.images

    @property
    def network(self) -> NetworkSettings:
        return NetworkSettings(self.first_token_timeout_s, self.retry,
                               self.allow_insecure_key, self.ca_file)

    def with_network(self, network: NetworkSettings) -> Profile:
        return replace(self, first_token_timeout_s=network.first_token_timeout_s,
                       retry=network.retry, allow_insecure_key=network.allow_insecure_key,
                       ca_file=network.ca_file)

    @property
    def server(self) -> Preset:
        return preset_by_id(self.preset)

    @property
    def builtin(self) -> bool:
        return self.server.builtin

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "preset": self.preset,
            "base_url": self.base_url,
            "model": self.model,
            "context_window": self.context_window,
            "stream": self.stream,
            "model_path": self.model_path,
            **self.network.to_json(),
            "model_titles": self.model_titles,
            "accepts_images": self.accepts_images,
            "prices": self.prices.to_json() if self.prices is not None else None,
        }

    @classmethod
    def from_json(cls, data: Any) -> Profile:
        """A profile from its JSON object. Unknown fields (a key someone typed into the file
        by hand included) are dropped, never carried along."""
        if not isinstance(data, dict):
            raise ValueError("a profile is not a JSON object")
        for name in ("id", "name", "preset", "base_url", "model"):
            if not isinstance(data.get(name), str):
                raise ValueError(f"a profile has no text field “{name}”")
        window = data.get("context_window")
        if window is not None and (not isinstance(window, int) or isinstance(window, bool)
                                   or window <= 0):
            raise ValueError(f"profile “{data['name']}” has an invalid context window")
        stream = data.get("stream", True)
        if not isinstance(stream, bool):
            raise ValueError(f"profile “{data['name']}” has an invalid stream flag")
        model_path = data.get("model_path")
        if model_path is not None and (not isinstance(model_path, str) or not model_path):
            raise ValueError(f"profile “{data['name']}” has an invalid model file")
        titles = data.get("model_titles")
        if titles is not None and not isinstance(titles, bool):
            raise ValueError(f"profile “{data['name']}” has an invalid titles flag")
        images = data.get("accepts_images")
        if images is not None and not isinstance(images, bool):
            raise ValueError(f"profile “{data['name']}” has an invalid images flag")
        prices = None
        if data.get("prices") is not None:
            try:
                prices = Prices.from_json(data["prices"])
            except PriceInvalid as err:
                raise ValueError(f"profile “{data['name']}” has invalid prices: {err}") from None
        return replace(cls(data["id"], data["name"], data["preset"], data["base_url"],
                           data["model"], window, stream, model_path).with_network(
                               NetworkSettings.from_json(data, data["name"])),
                       model_titles=titles, accepts_images=images, prices=prices)


_CONTROLS = "[\x00-\x1f\x7f-\x9f]"


def check_base_url(url: str) -> str:
    """The URL without a trailing slash; ValueError with plain words if it is not usable."""
    url = url.strip().rstrip("/")
    if not url.isprintable() and re.search(_CONTROLS, url):  # compiled only for such a URL
        raise ValueError("The base URL must not contain control characters such as a line "
                         "break")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError("The base URL must start with http:// or https:// and name a server, "
                         "for example http://localhost:8080/v1")
    if "@" in parts.netloc:
        raise ValueError("The base URL must not hold a user name or password (user:password@"
                         "): put the key in the key field, which keeps it in the keyring")
    if parts.query or parts.fragment:
        raise ValueError("The base URL must not contain ? or #")
    return url


def without_credentials(url: str) -> str:
    """`url` with any `user:password@` taken out of its server part."""
    try:
        parts = urlsplit(url)
    except ValueError:  # not a URL any client could use either
        return url
    if "@" not in parts.netloc:
        return url
    return urlunsplit(parts._replace(netloc=parts.netloc.rpartition("@")[2]))


def new_profile(preset: Preset, *, model: str, name: str | None = None,
                base_url: str | None = None, context_window: int | None = None,
                stream: bool = True, network: NetworkSettings | None = None) -> Profile:
    """A profile with a fresh id, using the preset's address unless one is given."""
    url = check_base_url(base_url if base_url is not None else preset.base_url)
    return Profile(uuid.uuid4().hex, name or preset.name, preset.id, url, model.strip(),
                   context_window, stream).with_network(network or NetworkSettings())


def unique_name(name: str, taken: Sequence[str]) -> str:
    """`name`, or "name 2", "name 3" … the first that none of `taken` is (in any case)."""
    used = {t.strip().casefold() for t in taken}
    candidate, number = name, 1
    while candidate.casefold() in used:
        number += 1
        candidate = f"{name} {number}"
    return candidate


def builtin_profile(model_path: str | None = None, *, name: str | None = None,
                    model: str | None = None) -> Profile:
    """A profile for the built-in local model (or the GGUF at `model_path`); its server's
    address is only known once Turnlog has started it."""
    from turnlog.core.builtin_model import BUILTIN

    return Profile(uuid.uuid4().hex, name or BUILTIN.profile_name, BUILTIN_LOCAL.id, "",
                   model or BUILTIN.alias, None, True, model_path)


class ProfileStore:
    """The profiles of `<home>/profiles.json` (home: the data directory unless given), read
    once and kept in memory. Writes are atomic (a crash leaves the old file) and notify
    the subscribers. Thread-safe: the window reads on the GUI thread and its workers."""

    def __init__(self, home: Path | None = None) -> None:
        self.path = (home if home is not None else data_dir()) / FILE_NAME
        self._lock = threading.Lock()
        self._loaded = False
        self._profiles: builtins.list[Profile] | None = None
        self._offered: bool | None = None
        self._problem = ""
        self._listeners: builtins.list[Callable[[builtins.list[Profile]], None]] = []
        self._seen: tuple[int, int, int] | None = None  # the file as last read or written
        self._cleaned: builtins.list[str] = []  # profiles whose URL lost its credentials

    def list(self) -> builtins.list[Profile]:
        """Every profile, in the order saved."""
        return self.load()

    def load(self) -> builtins.list[Profile]:
        """Every profile, in the order saved: from memory once the file was read.
        Raises `ProfilesUnreadable` (each time) while the file cannot be read."""
        with self._lock:
            self._ensure_read()
            if self._profiles is None:
                raise ProfilesUnreadable(self._problem)
            return builtins.list(self._profiles)

    def take_cleaned(self) -> builtins.list[str]:
        """The names of the profiles whose base URL lost a `user:password@` on loading
        since the last call (to tell the user once)."""
        with self._lock:
            cleaned, self._cleaned = self._cleaned, []
            return cleaned

    def reload(self) -> None:
        """Read the file again on the next `load` (another process may have changed it)."""
        with self._lock:
            self._loaded = False

    def refresh_if_changed(self) -> bool:
        """Read the file again if another process (turnlog-cli profile add) wrote it since
        this one read it: one stat, cheap enough for every time the window is activated.
        True when it changed."""
        with self._lock:
            if not self._loaded or self._signature() == self._seen:
                return False
            self._loaded = False
            return True

    def _signature(self) -> tuple[int, int, int] | None:
        try:
            stat = self.path.stat()
        except OSError:
            return None
        return (stat.st_ino, stat.st_size, stat.st_mtime_ns)

    def subscribe(
        self, listener: Callable[[builtins.list[Profile]], None]
    ) -> Callable[[], None]:
        """Call `listener` with the profiles after every save (on the saving thread).
        Returns the function that unsubscribes it."""
        with self._lock:
            self._listeners.append(listener)

        def unsubscribe() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return unsubscribe

    def _ensure_read(self) -> None:
        """Fill the memory from the file, once (under the lock)."""
        if self._loaded:
            return
        self._loaded = True
        self._profiles, self._offered, self._problem = None, None, ""
        self._seen = self._signature()
        try:
            data = self._read()
        except ProfilesUnreadable as err:
            self._problem = str(err)
            return
        self._offered = bool(data and data.get("builtin_offered") is True)
        try:
            self._profiles = ([Profile.from_json(item) for item in data["profiles"]]
                              if data is not None else [])
        except ValueError as err:
            self._problem = f"{self.path} is not a valid profile list: {err}"
            return
        self._forget_credentials()

    def _forget_credentials(self) -> None:
        """Take a `user:password@` out of every stored base URL (it would be sent as Basic
        auth, and shown): the profile is kept, the file rewritten, the user told."""
        assert self._profiles is not None
        cleaned = [p.name for p in self._profiles if without_credentials(p.base_url)
                   != p.base_url]
        if not cleaned:
            return
        self._profiles = [replace(p, base_url=without_credentials(p.base_url))
                          for p in self._profiles]
        payload = self._payload(self._profiles, bool(self._offered))
        try:
            write_atomically(self.path, payload, prefix=".profiles-")
        except OSError as err:
            log.warning("profiles.json could not be rewritten without the credentials: %s",
                        err.strerror or err)
        self._seen = self._signature()
        self._cleaned += cleaned
        for name in cleaned:
            log.warning("profile “%s”: its base URL held a user name and password; they were "
                        "removed (a key belongs in the key field, kept in the keyring)", name)

    def _read(self) -> dict[str, Any] | None:
        """The file's JSON object (checked to hold a profile list), or None if there is none."""
        try:
            data = read_json(self.path, MAX_FILE_BYTES, what="profile list")
        except FileNotFoundError:
            return None
        except FileRefused as err:
            raise ProfilesUnreadable(f"{self.path} could not be read: {err.reason}") from err
        try:
            if not isinstance(data, dict) or not isinstance(data.get("profiles"), list):
                raise ValueError("it has no “profiles” list")
            if not isinstance(data.get("version"), int) or data["version"] > FORMAT_VERSION:
                raise ValueError("it was written by a newer Turnlog")
        except ValueError as err:
            raise ProfilesUnreadable(f"{self.path} is not a valid profile list: {err}") from err
        return data

    def builtin_offered(self) -> bool:
        """Whether the built-in profile was ever added here (even if removed since)."""
        with self._lock:
            self._ensure_read()
            if self._offered is None:
                raise ProfilesUnreadable(self._problem)
            return self._offered

    def offer_builtin(
        self, check: Callable[[], Availability] | None = None
    ) -> Profile | None:
        """Add the built-in local model's profile, once per data directory, if it can run.

        Returns the new profile, or None: already offered (kept or removed by the user —
        a removal is a choice to remember), or not installed here (offered on a later
        start, once the `local` extra is installed). An unreadable file is left alone.
        """
        try:
            if self.builtin_offered() or any(p.builtin for p in self.load()):
                return None
        except ProfilesUnreadable:
            return None
        availability = (check or available)()
        if not availability.ok:
            log.info("no built-in model profile: %s", availability.reason)
            return None
        profile = builtin_profile()
        self.save([*self.load(), profile], builtin_offered=True)
        return profile

    def save(self, profiles: Sequence[Profile], *, builtin_offered: bool | None = None) -> None:
        """Write `profiles` in place of the file's, then tell the subscribers."""
        ids = [profile.id for profile in profiles]
        if len(set(ids)) != len(ids):
            raise ValueError("two profiles share one id")
        if builtin_offered is None:
            try:
                builtin_offered = self.builtin_offered()
            except ProfilesUnreadable:
                builtin_offered = False
        text = self._payload(profiles, builtin_offered)
        write_atomically(self.path, text, prefix=".profiles-")
        with self._lock:
            self._loaded, self._problem = True, ""
            self._seen = self._signature()
            self._profiles = builtins.list(profiles)
            self._offered = bool(builtin_offered or any(p.builtin for p in profiles))
            listeners = builtins.list(self._listeners)
        for listener in listeners:
            listener(builtins.list(profiles))

    @staticmethod
    def _payload(profiles: Sequence[Profile], builtin_offered: bool) -> str:
        payload: dict[str, Any] = {"version": FORMAT_VERSION,
                                   "profiles": [p.to_json() for p in profiles]}
        if builtin_offered or any(p.builtin for p in profiles):
            payload["builtin_offered"] = True
        return json.dumps(payload, ensure_ascii=False, indent=2) + "\n"

    def get(self, profile_id: str) -> Profile | None:
        return next((p for p in self.load() if p.id == profile_id), None)

    def put(self, profile: Profile) -> None:
        """Add `profile`, or replace the stored one with the same id in its place (in the
        file as it is now: what another process wrote since is kept)."""
        self.refresh_if_changed()
        profiles = self.load()
        for index, existing in enumerate(profiles):
            if existing.id == profile.id:
                profiles[index] = profile
                break
        else:
            profiles.append(profile)
        self.save(profiles)

    def remove(self, profile_id: str) -> bool:
        """Drop the profile; False if there was none. Its key is the caller's to delete."""
        self.refresh_if_changed()
        profiles = self.load()
        kept = [p for p in profiles if p.id != profile_id]
        if len(kept) == len(profiles):
            return False
        self.save(kept)
        return True
