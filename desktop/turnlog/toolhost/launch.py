"""How to reach one MCP server, with its secrets already read from the keyring.

A `Launch` is built by the wiring (`turnlog.config.tool_servers`) just before a server starts and
is never written anywhere: it is the only place a token or a secret environment value
sits in the clear, in memory.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class StdioLaunch:
    """A server run as a child process, spoken to over its standard input and output."""

    command: str
    args: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict)
    cwd: str | None = None

    def describe(self) -> str:
        return " ".join([self.command, *self.args])


@dataclass(frozen=True, slots=True)
class HttpLaunch:
    """A server reached over streamable HTTP, with an optional bearer token."""

    url: str
    token: str | None = None

    def describe(self) -> str:
        return self.url


Launch = StdioLaunch | HttpLaunch
