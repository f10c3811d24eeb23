"""A hostile stdio MCP server for the tests, plain JSON-RPC over lines (standard library only).

    python tests/support/hostile_mcp.py PID_FILE MODE [ARG]

Modes:
- `silent`: reads its input and never answers, not even `initialize`; ignores end of
  input and SIGTERM.
- `deep N`: a well-behaved start, then `tools/list` names a tool whose input schema is
  nested N levels deep.
- `flood BYTES`: writes BYTES bytes to standard error first, then serves one `echo` tool.
- `deaf`: serves one `echo` tool, then ignores end of input and SIGTERM and sleeps on
  (only SIGKILL ends it).
- `replay FILE`: FILE holds {"list": …, "call": …}: the raw `result` of `tools/list` and
  of every `tools/call`, whatever they are (for fuzzing what a server may answer).

Each mode first writes its pid to PID_FILE (unless it is "-"), so a test can see whether
the process is still there (a tool server's environment is not the test's).
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time

ECHO = {"name": "echo", "description": "Return the text unchanged.",
        "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}}}


def send(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def deep_schema(levels: int) -> str:
    return '{"type": "object", "properties": {"a": ' * levels + "{}" + "}}" * levels


def serve(tools_result: str, call_result) -> None:
    """Answer the requests of a session; `tools_result`: the raw JSON of tools/list."""
    for line in sys.stdin:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        method, ident = message.get("method"), message.get("id")
        if ident is None:
            continue  # a notification
        if method == "initialize":
            result = {"protocolVersion": message["params"]["protocolVersion"],
                      "capabilities": {"tools": {}},
                      "serverInfo": {"name": "hostile", "version": "1"}}
            send({"jsonrpc": "2.0", "id": ident, "result": result})
        elif method == "tools/list":
            sys.stdout.write(f'{{"jsonrpc": "2.0", "id": {json.dumps(ident)}, '
                             f'"result": {tools_result}}}\n')
            sys.stdout.flush()
        elif method == "tools/call":
            send({"jsonrpc": "2.0", "id": ident, "result": call_result(message["params"])})
        else:
            send({"jsonrpc": "2.0", "id": ident, "result": {}})


def echo(params: dict) -> dict:
    text = str(params.get("arguments", {}).get("text", ""))
    return {"content": [{"type": "text", "text": text}], "isError": False}


def flood(size: int) -> None:
    chunk = b"stderr flood line " * 3640 + b"\n"  # about 64 KiB
    written = 0
    while written < size:
        written += os.write(2, chunk[:size - written])
    os.write(2, b"the flood ended here\n")


def wait_gone(pid: int, timeout_s: float) -> bool:
    """For the tests: whether process `pid` is gone (or a zombie) within `timeout_s`."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            with open(f"/proc/{pid}/stat", encoding="utf-8", errors="replace") as stat:
                text = stat.read()
        except OSError:
            return True
        if text[text.rfind(")") + 2:].startswith("Z"):
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.02)


def main() -> None:
    pid_file = sys.argv.pop(1)
    mode = sys.argv[1]
    if pid_file != "-":
        with open(pid_file, "w", encoding="utf-8") as out:
            out.write(str(os.getpid()))
    if mode in ("silent", "deaf"):
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if mode == "silent":
        for _line in sys.stdin:
            pass
    elif mode == "deep":
        schema = deep_schema(int(sys.argv[2]))
        serve(f'{{"tools": [{{"name": "deep", "inputSchema": {schema}}}]}}', echo)
    elif mode == "flood":
        flood(int(sys.argv[2]))
        serve(json.dumps({"tools": [ECHO]}), echo)
    elif mode == "deaf":
        serve(json.dumps({"tools": [ECHO]}), echo)
    elif mode == "replay":
        with open(sys.argv[2], encoding="utf-8") as source:
            script = json.load(source)
        serve(json.dumps(script["list"]), lambda params: script["call"])
    while mode in ("silent", "deaf"):  # end of input changes nothing
        time.sleep(60)


if __name__ == "__main__":
    main()
