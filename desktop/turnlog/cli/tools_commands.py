"""`turnlog-cli tools`: MCP tool servers (add, import, list, remove, enable, disable), and
what `ask --tools` needs: the servers chosen, approval asked on the terminal."""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import select
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import IO, Any

from ..config.paths import data_dir
from ..config.secrets import KeyringUnavailable, open_key_store
from ..config.tool_servers import (
    ToolConfigInvalid,
    ToolServer,
    ToolServerStore,
    ToolSettingsUnreadable,
    new_server,
    read_mcp_servers,
    remove_secrets,
    secret_by_default,
    store_secrets,
)
from ..core.provider import CancelToken
from ..core.tools import Approval, ToolCall
from ..toolhost.host import ServerState, ServerStatus, ToolHost, ToolServerUnavailable
from .terminal import print_json, safe_for

LIST_START_TIMEOUT_S = 20.0


def _add_options() -> argparse.ArgumentParser:
    """The options of `tools add` (before its `--`): parsed apart, so the command after
    `--` is taken as it is, options of its own included."""
    add = argparse.ArgumentParser(prog="turnlog-cli tools add NAME", add_help=False)
    add.add_argument("--url", metavar="URL", help="a streamable HTTP server's address")
    add.add_argument("--token-stdin", action="store_true",
                     help="read the server's bearer token from standard input (kept in the "
                          "keyring)")
    add.add_argument("--env", action="append", default=[], metavar="NAME=VALUE",
                     help="an environment variable of the server (names with KEY, TOKEN, "
                          "SECRET or PASSWORD are secret: kept in the keyring)")
    add.add_argument("--secret", action="append", default=[], metavar="NAME",
                     help="keep this variable's value in the keyring too")
    add.add_argument("--disabled", action="store_true", help="add it switched off")
    return add


ADD_OPTIONS = _add_options()


def register(sub: Any) -> None:
    p = sub.add_parser("tools", help="MCP tool servers (secrets go to the OS keyring)")
    tsub = p.add_subparsers(dest="tools_command", required=True, metavar="ACTION")
    add = tsub.add_parser(
        "add", help="add a server: NAME -- COMMAND [ARGS...] (stdio) or NAME --url URL "
                    "(streamable HTTP)",
        usage="turnlog-cli tools add NAME [OPTIONS] -- COMMAND [ARGS...]\n"
              "       turnlog-cli tools add NAME --url URL [--token-stdin]",
        epilog=ADD_OPTIONS.format_help().partition("\n\n")[2])
    add.add_argument("name", metavar="NAME")
    add.add_argument("rest", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    add.set_defaults(run=run_add)
    imp = tsub.add_parser("import", help="import servers from an mcpServers JSON file "
                                         "(they come in switched off)")
    imp.add_argument("file", metavar="FILE")
    imp.set_defaults(run=run_import)
    lst = tsub.add_parser("list", help="servers, their state and tools (starts the ones "
                                       "switched on)")
    lst.add_argument("--json", action="store_true", help="as JSON")
    lst.set_defaults(run=run_list)
    for action, text, run in (("remove", "remove a server and its secrets", run_remove),
                              ("enable", "switch a server on", run_enable),
                              ("disable", "switch a server off", run_disable)):
        one = tsub.add_parser(action, help=text)
        one.add_argument("name", metavar="NAME")
        one.set_defaults(run=run)


def _error(text: str, code: int = 1) -> int:
    print(safe_for(sys.stderr)(f"error: {text}"), file=sys.stderr)
    return code


def _code(err: Exception) -> str:
    """The failure's name and a colon, for a file that could not be read."""
    return f"{err.code}: " if isinstance(err, ToolSettingsUnreadable) else ""


def _env(pairs: Sequence[str]) -> dict[str, str]:
    env = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise ToolConfigInvalid(f"--env {pair}: write it as NAME=VALUE")
        env[name] = value
    return env


def run_add(args: argparse.Namespace) -> int:
    store = ToolServerStore(data_dir())
    rest = list(args.rest)
    # argparse itself takes the first `--` when it comes right after NAME.
    split = rest.index("--") if "--" in rest else \
        (len(rest) if rest and rest[0].startswith("-") else -1)
    try:
        vars(args).update(vars(ADD_OPTIONS.parse_args(rest[:max(split, 0)])))
    except SystemExit as stop:  # argparse said what is wrong
        return int(stop.code or 2)
    args.command_line = rest[split + 1:]
    if bool(args.url) == bool(args.command_line):
        return _error("give either -- COMMAND [ARGS...] or --url URL", 2)
    try:
        env = _env(args.env)
        token = sys.stdin.readline().rstrip("\r\n") if args.token_stdin else None
        if args.url:
            server = new_server(args.name, url=args.url, has_token=bool(token),
                                enabled=not args.disabled)
        else:
            secret = {n for n in env if n in args.secret or secret_by_default(n)}
            server = new_server(args.name, command=args.command_line[0],
                                args=args.command_line[1:], env=env, secret=sorted(secret),
                                enabled=not args.disabled)
        if store.find(server.name) is not None:
            return _error(f"there is already a tool server named “{server.name}”")
        if token or any(v.secret for v in server.env):
            store_secrets(open_key_store(), server, token=token or None, env=env)
        store.put(server)
    except (ToolConfigInvalid, KeyringUnavailable) as err:
        return _error(f"the server was not added: {err}")
    print(safe_for(sys.stdout)(f"added tool server {server.name}: {server.command_line()}"
                               + ("" if server.enabled else " (switched off)")))
    return 0


def run_import(args: argparse.Namespace) -> int:
    from pathlib import Path

    store = ToolServerStore(data_dir())
    try:
        imported = read_mcp_servers(Path(args.file))
        keys = open_key_store() if any(i.token or i.env for i in imported) else None
        added = store.add_imported(imported)
        for item, server in zip(imported, added, strict=True):
            if keys is not None and (item.token or item.env):
                store_secrets(keys, server, token=item.token, env=item.env)
    except (ToolConfigInvalid, KeyringUnavailable) as err:
        return _error(f"{_code(err)}nothing was imported: {err}")
    safe = safe_for(sys.stdout)
    for server in added:
        print(safe(f"imported {server.name} (switched off): {server.command_line()}"))
    print(safe("check each command line, then switch a server on with: turnlog-cli tools "
               "enable NAME"))
    return 0


def _status_json(server: ToolServer, host: ToolHost | None,
                 start: Callable[[], ServerStatus] | Exception | None) -> dict[str, Any]:
    """What `tools list` says of `server`; `start` waits for it (already starting beside
    the others), or is what kept it from starting."""
    out: dict[str, Any] = {"name": server.name, "id": server.id, "kind": server.kind,
                           "command_line": server.command_line(), "enabled": server.enabled}
    if host is None or not server.enabled or start is None:
        out |= {"state": "off", "tools": []}
        return out
    try:
        if isinstance(start, Exception):
            raise start
        status = start()
    except (ToolConfigInvalid, KeyringUnavailable, ToolServerUnavailable) as err:
        out |= {"state": "failed", "reason": str(err), "stderr": [], "tools": []}
        return out
    out |= {"state": status.state.value, "tools": [
        {"name": t.name, "description": t.description, "on": server.tool_on(t.name)}
        for t in status.tools]}
    if status.state is ServerState.FAILED:
        out |= {"reason": status.reason, "stderr": list(status.stderr_tail)}
    return out


def _start_all(servers: list[ToolServer], host: ToolHost,
               pool: concurrent.futures.Executor
               ) -> list[Callable[[], ServerStatus] | Exception | None]:
    """Start every switched-on server at once (each may take up to the list's timeout,
    so one slow server does not hold up the others); their secrets are read first, one
    by one, from the keyring."""
    from ..config.tool_servers import launch_for

    started: list[Callable[[], ServerStatus] | Exception | None] = []
    for server in servers:
        if not server.enabled:
            started.append(None)
            continue
        try:
            launch = launch_for(server, open_key_store() if server.has_token or any(
                v.secret for v in server.env) else None)
        except (ToolConfigInvalid, KeyringUnavailable) as err:
            started.append(err)
            continue
        future = pool.submit(host.ensure_started, server.id, launch,
                             timeout_s=LIST_START_TIMEOUT_S)
        started.append(future.result)
    return started


def run_list(args: argparse.Namespace) -> int:
    try:
        servers = ToolServerStore(data_dir()).list()
    except ToolConfigInvalid as err:
        return _error(f"{_code(err)}{err}")
    host = ToolHost() if any(s.enabled for s in servers) else None
    try:
        with concurrent.futures.ThreadPoolExecutor(max(1, len(servers))) as pool:
            started = _start_all(servers, host, pool) if host is not None else [
                None] * len(servers)
            listed = [_status_json(server, host, start)
                      for server, start in zip(servers, started, strict=True)]
    finally:
        if host is not None:
            host.close()
    if args.json:
        print_json({"servers": listed}, indent=2)
        return 0
    safe = safe_for(sys.stdout)
    if not listed:
        print("no tool servers yet: turnlog-cli tools add NAME -- COMMAND [ARGS...]")
    for item in listed:
        state = item["state"]
        if state == "ready":
            count = len(item["tools"])
            state = f"ready with {count} tool{'s' if count != 1 else ''}"
        elif state == "failed":
            state = f"failed: {item['reason']}"
        print(safe(f"{item['name']}\t{state}\t{item['command_line']}"))
        for line in item.get("stderr", []):
            print(safe(f"    stderr: {line}"))
        for tool in item["tools"]:
            print(safe(f"    {tool['name']}{'' if tool['on'] else ' (off)'}\t"
                       f"{tool['description']}"))
    return 0


def _one(name: str) -> tuple[ToolServerStore, ToolServer] | None:
    store = ToolServerStore(data_dir())
    server = store.find(name)
    if server is None:
        _error(f"there is no tool server “{name}”")
        return None
    return store, server


def run_remove(args: argparse.Namespace) -> int:
    found = _one(args.name)
    if found is None:
        return 1
    store, server = found
    store.remove(server.id)
    with contextlib.suppress(KeyringUnavailable):  # no keyring: no secret was stored there
        remove_secrets(open_key_store(), server)
    print(safe_for(sys.stdout)(f"removed tool server {server.name}"))
    return 0


def _switch(args: argparse.Namespace, on: bool) -> int:
    from dataclasses import replace

    found = _one(args.name)
    if found is None:
        return 1
    store, server = found
    store.put(replace(server, enabled=on))
    print(safe_for(sys.stdout)(f"tool server {server.name} switched {'on' if on else 'off'}"))
    return 0


def run_enable(args: argparse.Namespace) -> int:
    return _switch(args, True)


def run_disable(args: argparse.Namespace) -> int:
    return _switch(args, False)


# -- ask --tools -----------------------------------------------------------------------
def chosen_servers(names: str) -> list[ToolServer]:
    """The servers `ask --tools A,B` names, each switched on; ToolConfigInvalid naming
    the first that is missing or off."""
    store = ToolServerStore(data_dir())
    chosen = []
    for name in [n.strip() for n in names.split(",") if n.strip()]:
        server = store.find(name)
        if server is None:
            raise ToolConfigInvalid(f"there is no tool server “{name}” (see turnlog-cli "
                                    "tools list)")
        if not server.enabled:
            raise ToolConfigInvalid(f"tool server “{name}” is switched off; check its command "
                                    f"line with turnlog-cli tools list, then turnlog-cli "
                                    f"tools enable {name}")
        chosen.append(server)
    if not chosen:
        raise ToolConfigInvalid("--tools names no server")
    return chosen


@dataclass
class Terminal:
    """The controlling terminal, to ask on (standard input may carry the question)."""

    reader: IO[str]
    writer: IO[str]

    def close(self) -> None:
        self.reader.close()
        self.writer.close()


def open_terminal() -> Terminal | None:
    try:
        reader = open("/dev/tty", encoding="utf-8")  # noqa: SIM115 - Terminal.close
    except OSError:
        return None
    try:
        return Terminal(reader, open("/dev/tty", "w", encoding="utf-8"))  # noqa: SIM115
    except OSError:
        reader.close()
        return None


def terminal_approval(tty: Terminal) -> Callable[[ToolCall, str, float, CancelToken],
                                                 Approval | None]:
    """Ask each call on the terminal: [r]un, [a]lways allow in this conversation, [d]eny."""
    safe = safe_for(tty.writer)
    out = tty.writer

    def ask(call: ToolCall, server: str, timeout_s: float,
            cancel: CancelToken) -> Approval | None:
        out.write(safe(f"\nThe model wants to run the tool “{call.name}”"
                       f"{f' of {server}' if server else ''} with:\n"
                       f"{call.pretty_arguments()}\n"))
        while True:
            out.write("[r]un, [a]lways allow it in this conversation, [d]eny? ")
            out.flush()
            ready, _w, _x = select.select([tty.reader], [], [], timeout_s)
            if not ready or cancel.cancelled:
                out.write("\n")
                return None
            answer = tty.reader.readline().strip().lower()
            if answer in ("r", "run", "y", "yes"):
                return Approval.RUN
            if answer in ("a", "always"):
                return Approval.ALWAYS
            if answer in ("d", "deny", "n", "no"):
                return Approval.DENY

    return ask
