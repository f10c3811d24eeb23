"""MCP tool servers the user configured: which command or address, which tools are on.

Stored as JSON in `<data dir>/tools.json`, beside profiles.json. The file never holds a
secret: a server's bearer token and the values of environment variables marked secret
are in the OS keyring (`turnlog.config.secrets`) under `tool-server:<id>:…`; the file keeps only
their names. `launch_for` reads them back just before a server starts.

A server imported from another client's `mcpServers` file comes in switched off: nothing
starts until the user has seen its command line and enabled it. A server's tools are on
unless switched off one by one (`tools_off`); a conversation uses a server's tools only
once they are switched on for it.
"""

from __future__ import annotations

import json
import re
import shlex
import threading
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from turnlog.config.paths import write_atomically
from turnlog.config.secrets import KeyStore
from turnlog.system.user_files import FileRefused, read_json
from turnlog.toolhost.launch import HttpLaunch, Launch, StdioLaunch

FILE_NAME = "tools.json"
FORMAT_VERSION = 1
# Environment variables whose names hold one of these words are secret unless the user
# says otherwise: their values go to the keyring.
SECRET_WORDS = ("KEY", "TOKEN", "SECRET", "PASSWORD")
_NAME = re.compile(r"^[\w.-]{1,64}$", re.UNICODE)
_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
MAX_FILE_BYTES = 1 << 20


class ToolConfigInvalid(ValueError):
    """A tool server's settings (or an `mcpServers` file) cannot be used; nothing was
    changed. The message names what is wrong."""

    code = "tool_settings_invalid"


class ToolSettingsUnreadable(ToolConfigInvalid):
    """tools.json, or a server list to import, cannot be read as one (not a regular file,
    too large, not UTF-8, not JSON, nested too deeply); it is left untouched."""

    code = "tools_unreadable"


def secret_by_default(name: str) -> bool:
    upper = name.upper()
    return any(word in upper for word in SECRET_WORDS)


@dataclass(frozen=True, slots=True)
class EnvVar:
    """One environment variable of a stdio server. A secret one has no value here."""

    name: str
    value: str = ""
    secret: bool = False


@dataclass(frozen=True, slots=True)
class ToolServer:
    id: str
    name: str
    command: str = ""
    args: tuple[str, ...] = ()
    env: tuple[EnvVar, ...] = ()
    url: str = ""
    has_token: bool = False
    enabled: bool = False
    tools_off: frozenset[str] = field(default_factory=frozenset)
    imported_from: str = ""

    @property
    def kind(self) -> str:
        return "http" if self.url else "stdio"

    def command_line(self) -> str:
        """What will run (or be reached), as the user would type it; secrets not shown."""
        if self.url:
            return self.url
        env = [f"{var.name}={'(secret)' if var.secret else shlex.quote(var.value)}"
               for var in self.env]
        return " ".join([*env, shlex.join([self.command, *self.args])])

    def tool_on(self, tool: str) -> bool:
        return tool not in self.tools_off

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "name": self.name, "enabled": self.enabled}
        if self.url:
            out |= {"url": self.url, "token": self.has_token}
        else:
            out |= {"command": self.command, "args": list(self.args),
                    "env": [{"name": v.name, "secret": True} if v.secret else
                            {"name": v.name, "value": v.value} for v in self.env]}
        if self.tools_off:
            out["tools_off"] = sorted(self.tools_off)
        if self.imported_from:
            out["imported_from"] = self.imported_from
        return out

    @classmethod
    def from_json(cls, data: Any) -> ToolServer:
        if not isinstance(data, dict):
            raise ToolConfigInvalid("a tool server is not a JSON object")
        name = data.get("name")
        server_id = data.get("id")
        if not isinstance(server_id, str) or not isinstance(name, str):
            raise ToolConfigInvalid("a tool server has no id or name")
        env = tuple(EnvVar(str(v.get("name", "")), str(v.get("value", "")),
                           v.get("secret") is True)
                    for v in _listed(data, "env", name) if isinstance(v, dict))
        off = _listed(data, "tools_off", name)
        return check_server(cls(
            id=server_id, name=name, command=str(data.get("command") or ""),
            args=tuple(str(a) for a in _listed(data, "args", name)), env=env,
            url=str(data.get("url") or ""), has_token=data.get("token") is True,
            enabled=data.get("enabled") is True, tools_off=frozenset(str(t) for t in off),
            imported_from=str(data.get("imported_from") or "")))


def _listed(data: dict[str, Any], field: str, name: str) -> list[Any]:
    """A list field of a stored server ([] when absent); ToolConfigInvalid if not a list."""
    value = data.get(field) or []
    if not isinstance(value, list):
        raise ToolConfigInvalid(f"the “{field}” of tool server “{name}” is not a list")
    return value


def check_name(name: str) -> str:
    name = name.strip()
    if not _NAME.match(name):
        raise ToolConfigInvalid(
            f"“{name}” cannot name a tool server: use up to 64 letters, digits, “-”, “_” or “.”")
    return name


def check_url(url: str) -> str:
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ToolConfigInvalid(f"“{url}” is not an http:// or https:// address")
    if parts.username or parts.password:
        raise ToolConfigInvalid("put the token in the token field, not in the address")
    return url.strip()


def check_server(server: ToolServer) -> ToolServer:
    check_name(server.name)
    if server.url:
        check_url(server.url)
        if server.command:
            raise ToolConfigInvalid(f"tool server “{server.name}” has both a command and "
                                    "an address; give one")
    elif not server.command.strip():
        raise ToolConfigInvalid(f"tool server “{server.name}” has neither a command nor an "
                                "address")
    for var in server.env:
        if not _ENV_NAME.match(var.name):
            raise ToolConfigInvalid(f"“{var.name}” is not an environment variable name")
    return server


def new_server(name: str, *, command: str = "", args: Sequence[str] = (),
               env: Mapping[str, str] | None = None, secret: Sequence[str] | None = None,
               url: str = "", has_token: bool = False, enabled: bool = True,
               imported_from: str = "") -> ToolServer:
    """A new server; env variables named in `secret` (by default: those whose names say
    KEY, TOKEN, SECRET or PASSWORD) are secret, and their values are not kept here."""
    env = env or {}
    secret_names = set(secret) if secret is not None else \
        {name for name in env if secret_by_default(name)}
    variables = tuple(EnvVar(k, "" if k in secret_names else v, k in secret_names)
                      for k, v in env.items())
    return check_server(ToolServer(
        id=uuid.uuid4().hex, name=check_name(name), command=command, args=tuple(args),
        env=variables, url=url, has_token=has_token, enabled=enabled,
        imported_from=imported_from))


def token_id(server: ToolServer) -> str:
    return f"tool-server:{server.id}:token"


def env_id(server: ToolServer, name: str) -> str:
    return f"tool-server:{server.id}:env:{name}"


def store_secrets(keys: KeyStore, server: ToolServer, *, token: str | None = None,
                  env: Mapping[str, str] | None = None) -> None:
    """Put the server's token and secret environment values in the keyring (raises
    KeyringUnavailable, or ToolConfigInvalid for a value the keyring layer refuses)."""
    try:
        if token is not None:
            keys.set(token_id(server), token)
    except ValueError as err:
        raise ToolConfigInvalid(f"the token of “{server.name}” cannot be used: {err}") from err
    for var in server.env:
        value = (env or {}).get(var.name)
        if var.secret and value is not None:
            try:
                keys.set(env_id(server, var.name), value)
            except ValueError as err:
                raise ToolConfigInvalid(
                    f"the value of {var.name} cannot be kept in the keyring: it is empty or "
                    "has spaces or characters that are not plain ASCII") from err


def remove_secrets(keys: KeyStore, server: ToolServer) -> None:
    keys.delete(token_id(server))
    for var in server.env:
        if var.secret:
            keys.delete(env_id(server, var.name))


def launch_for(server: ToolServer, keys: KeyStore | None) -> Launch:
    """How to start the server now, its secrets read from the keyring. ToolConfigInvalid
    when a secret it needs is not there (or there is no keyring to read it from)."""
    if server.url:
        token = None
        if server.has_token:
            token = keys.get(token_id(server)) if keys is not None else None
            if not token:
                raise ToolConfigInvalid(f"the token of “{server.name}” is not in the keyring; "
                                        "enter it again")
        return HttpLaunch(server.url, token)
    env: dict[str, str] = {}
    for var in server.env:
        value = var.value
        if var.secret:
            value = (keys.get(env_id(server, var.name)) if keys is not None else None) or ""
            if not value:
                raise ToolConfigInvalid(f"the value of {var.name} for “{server.name}” is not "
                                        "in the keyring; enter it again")
        env[var.name] = value
    return StdioLaunch(server.command, server.args, env)


@dataclass(frozen=True, slots=True)
class Imported:
    """One server of an `mcpServers` file, with the secrets it brought."""

    server: ToolServer
    token: str | None
    env: Mapping[str, str]


def read_mcp_servers(path: Path) -> list[Imported]:
    """The servers of another client's configuration file (`{"mcpServers": {NAME:
    {"command", "args", "env"} or {"url", "headers"}}}`), all switched off. Raises
    ToolConfigInvalid naming the first problem; nothing is half read."""
    try:
        data = read_json(path, MAX_FILE_BYTES, what="server list")
    except FileNotFoundError as err:
        raise ToolSettingsUnreadable(f"{path} could not be read: there is no such file") \
            from err
    except FileRefused as err:
        raise ToolSettingsUnreadable(f"{path} could not be read: {err.reason}") from err
    servers = data.get("mcpServers") if isinstance(data, dict) else None
    if not isinstance(servers, dict) or not servers:
        raise ToolConfigInvalid(f"{path} has no “mcpServers” object with servers in it")
    return [_imported(name, entry, path.name) for name, entry in servers.items()]


def _imported(name: str, entry: Any, source: str) -> Imported:
    if not isinstance(entry, dict):
        raise ToolConfigInvalid(f"server “{name}” is not a JSON object")
    url = entry.get("url") or entry.get("serverUrl")
    if url:
        headers = entry.get("headers") or {}
        auth = headers.get("Authorization") or headers.get("authorization") \
            if isinstance(headers, dict) else None
        token = None
        if isinstance(auth, str) and auth.lower().startswith("bearer "):
            token = auth[7:].strip()
        return Imported(new_server(name, url=str(url), has_token=token is not None,
                                   enabled=False, imported_from=source), token, {})
    command = entry.get("command")
    args = entry.get("args") or []
    env = entry.get("env") or {}
    if not isinstance(command, str) or not command.strip():
        raise ToolConfigInvalid(f"server “{name}” has neither a “command” nor a “url”")
    if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
        raise ToolConfigInvalid(f"the “args” of server “{name}” are not a list of strings")
    if not isinstance(env, dict) or not all(isinstance(v, str) for v in env.values()):
        raise ToolConfigInvalid(f"the “env” of server “{name}” is not an object of strings")
    server = new_server(name, command=command, args=args, env=env, enabled=False,
                        imported_from=source)
    return Imported(server, None, {v.name: env[v.name] for v in server.env if v.secret})


class ToolServerStore:
    """The configured servers in `<home>/tools.json`, written whole and atomically."""

    def __init__(self, home: Path) -> None:
        self.path = home / FILE_NAME
        self._lock = threading.Lock()

    def list(self) -> list[ToolServer]:
        try:
            data = read_json(self.path, MAX_FILE_BYTES, what="tool server list")
        except FileNotFoundError:
            return []
        except FileRefused as err:
            raise ToolSettingsUnreadable(f"{self.path} could not be read: {err.reason}") \
                from err
        try:
            if not isinstance(data, dict) or not isinstance(data.get("servers"), list):
                raise ValueError("it has no “servers” list")
            if not isinstance(data.get("version"), int) or data["version"] > FORMAT_VERSION:
                raise ValueError("it was written by a newer Turnlog")
            return [ToolServer.from_json(item) for item in data["servers"]]
        except ValueError as err:
            raise ToolSettingsUnreadable(f"{self.path} is not a valid tool server list: "
                                         f"{err}") from err

    def find(self, name: str) -> ToolServer | None:
        return next((s for s in self.list() if s.name == name or s.id == name), None)

    def save(self, servers: Sequence[ToolServer]) -> None:
        names = [s.name for s in servers]
        if len(set(names)) != len(names):
            raise ToolConfigInvalid("two tool servers share one name")
        payload = {"version": FORMAT_VERSION, "servers": [s.to_json() for s in servers]}
        text = json.dumps(payload, ensure_ascii=False, indent=2) + "\n"
        with self._lock:
            write_atomically(self.path, text, prefix=".tools-")

    def put(self, server: ToolServer) -> None:
        """Add `server`, or replace the one with its id (or, for a new id, its name)."""
        servers = [s for s in self.list() if s.id != server.id]
        clash = next((s for s in servers if s.name == server.name), None)
        if clash is not None:
            raise ToolConfigInvalid(f"there is already a tool server named “{server.name}”")
        old = [s.id for s in self.list()]
        at = old.index(server.id) if server.id in old else len(servers)
        servers.insert(at, server)
        self.save(servers)

    def add_imported(self, imported: Sequence[Imported]) -> list[ToolServer]:
        """Add the servers of an import, renamed where a name is taken (name-2 …)."""
        servers = self.list()
        taken = {s.name for s in servers}
        added = []
        for item in imported:
            name, n = item.server.name, 2
            while name in taken:
                name, n = f"{item.server.name}-{n}", n + 1
            taken.add(name)
            added.append(replace(item.server, name=name))
        self.save([*servers, *added])
        return added

    def remove(self, server_id: str) -> ToolServer | None:
        servers = self.list()
        gone = next((s for s in servers if s.id == server_id), None)
        if gone is not None:
            self.save([s for s in servers if s.id != server_id])
        return gone
