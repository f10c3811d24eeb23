"""The one way Turnlog runs a child process (tool servers, the built-in model, the
typesetter, the PDF reader): every child dies with Turnlog and none keeps more than it may.

- **Dies with Turnlog.** A child asks the kernel for SIGKILL when its parent dies
  (`PR_SET_PDEATHSIG`). The kernel sends it when the *thread* that forked the child ends,
  so every child is forked by one long-lived starter thread of this module, never by the
  worker that asked for it. Each child leads a process group of its own, so stopping it
  stops what it started too.
- **Reaped after a crash.** Each running child has a small record in the runtime
  directory (its pid, start time and command line, and its parent's). The first start of
  a later run kills the group of a child whose parent is gone — only after the pid's start
  time and command line still match (pids are reused) — and removes stale records.
- **Bounded.** A child's standard error is kept as its last 64 KiB in memory, never in an
  unbounded file; an address-space limit (`RLIMIT_AS`) can be set for it; `stop` ends it
  for certain (end of input, a grace period, then SIGKILL to its group).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import queue
import resource
import signal
import sys
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Literal

log = logging.getLogger(__name__)

if TYPE_CHECKING:  # a child's start loads what forks and waits; importing loads none
    import subprocess
    from concurrent.futures import Future


STDERR_TAIL_BYTES = 64 * 1024
_PR_SET_PDEATHSIG = 1
ENV_RUNTIME = "TURNLOG_RUNTIME_DIR"
"""Where the records of running children are kept (tests give a folder of their own);
by default `$XDG_RUNTIME_DIR/turnlog`, else a private folder in the temporary directory."""

Output = Literal["pipe", "tail", "null"] | IO[Any]
"""Where a child's stream goes: a pipe for the caller, the last 64 KiB kept in memory
(`tail`, standard error only), nowhere, or an open file."""


class ChildStartFailed(OSError):
    """The child could not be started; the message says why."""


@dataclass(frozen=True, slots=True)
class Limits:
    """Bounds the kernel keeps for a child: its address space in bytes, its CPU seconds."""

    address_space: int | None = None
    cpu_seconds: int | None = None


class StderrTail:
    """The last `limit` bytes a child wrote to standard error, read by a thread of its
    own as they come (a child whose error output is not read would block)."""

    def __init__(self, stream: IO[bytes], limit: int = STDERR_TAIL_BYTES) -> None:
        self._limit = limit
        self._kept = bytearray()
        self._lock = threading.Lock()
        self.total = 0  # how many bytes the child wrote in all
        self._thread = threading.Thread(target=self._drain, args=(stream,),
                                        name="turnlog-child-stderr", daemon=True)
        self._thread.start()

    def _drain(self, stream: IO[bytes]) -> None:
        with contextlib.suppress(OSError, ValueError), stream:
            while chunk := stream.read(65536):
                with self._lock:
                    self.total += len(chunk)
                    self._kept += chunk
                    if len(self._kept) > self._limit:
                        del self._kept[:len(self._kept) - self._limit]

    def bytes(self) -> bytes:
        with self._lock:
            return bytes(self._kept)

    def lines(self, count: int) -> tuple[str, ...]:
        """The last `count` non-blank lines."""
        text = self.bytes().decode("utf-8", "replace")
        return tuple([line.rstrip() for line in text.splitlines() if line.strip()][-count:])

    def join(self, timeout: float) -> None:
        self._thread.join(timeout)


class Child:
    """A running child process. `stdin` and `stdout` are binary pipes when asked for."""

    def __init__(self, process: subprocess.Popen[bytes], argv: Sequence[str],
                 record: Path | None, stderr: StderrTail | None) -> None:
        self._process = process
        self.argv = tuple(argv)
        self._record = record
        self._stderr = stderr
        self._lock = threading.Lock()

    @property
    def pid(self) -> int:
        return self._process.pid

    @property
    def stdin(self) -> IO[bytes] | None:
        return self._process.stdin

    @property
    def stdout(self) -> IO[bytes] | None:
        return self._process.stdout

    @property
    def returncode(self) -> int | None:
        return self._process.poll()

    def running(self) -> bool:
        return self._process.poll() is None

    def wait(self, timeout: float | None = None) -> int | None:
        """The exit code, or None if it is still running after `timeout` seconds."""
        import subprocess

        try:
            code = self._process.wait(timeout)
        except subprocess.TimeoutExpired:
            return None
        self._forget()
        return code

    def stderr_tail(self) -> bytes:
        """The last 64 KiB of its standard error (empty unless started with `tail`)."""
        return self._stderr.bytes() if self._stderr is not None else b""

    def stderr_lines(self, count: int) -> tuple[str, ...]:
        return self._stderr.lines(count) if self._stderr is not None else ()

    def stop(self, grace_s: float = 2.0) -> int | None:
        """End it for certain: its input closed, `grace_s` seconds to exit on its own,
        then SIGKILL to its whole group. Safe to call twice and from any thread."""
        with self._lock:
            for stream in (self._process.stdin,):
                if stream is not None:
                    with contextlib.suppress(OSError, ValueError):
                        stream.close()
            code = self.wait(grace_s) if grace_s > 0 else self._process.poll()
            self.kill_group()
            if code is None:
                code = self.wait(5)
            for stream in (self._process.stdout,):
                if stream is not None:
                    with contextlib.suppress(OSError, ValueError):
                        stream.close()
            if self._stderr is not None:
                self._stderr.join(1)
            return code

    def terminate(self) -> None:
        """SIGTERM to the child's process group: a request to end, which it may ignore."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self._process.pid, signal.SIGTERM)

    def kill_group(self) -> None:
        """SIGKILL to the child's process group (what it started goes with it)."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self._process.pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError):
            self._process.kill()

    def _forget(self) -> None:
        if self._record is not None:
            with contextlib.suppress(OSError):
                self._record.unlink()
            self._record = None


def start(argv: Sequence[str], *, stdin: Literal["pipe", "null"] = "null",
          stdout: Output = "null", stderr: Output | Literal["stdout"] = "tail",
          env: Mapping[str, str] | None = None, cwd: str | Path | None = None,
          limits: Limits | None = None) -> Child:
    """Start `argv` as a child of this process (from the starter thread, which is why
    this waits for it): it dies with Turnlog and is recorded for the next run to reap.
    Raises `ChildStartFailed` with the reason."""
    spec = _Spec(tuple(str(a) for a in argv), stdin, stdout, stderr,
                 dict(env) if env is not None else None,
                 str(cwd) if cwd is not None else None, limits or Limits())
    return _starter().run(spec)


def start_again(argv: Sequence[str]) -> None:
    """Replace this process with `argv` (Turnlog started again, e.g. in another language).
    Its children die with it: the starter thread that forked them ends with the exec."""
    os.execv(argv[0], list(argv))


def runtime_dir() -> Path:
    """Where the records of running children are: created private to the user."""
    override = os.environ.get(ENV_RUNTIME)
    if override:
        path = Path(override)
    elif os.environ.get("XDG_RUNTIME_DIR"):
        path = Path(os.environ["XDG_RUNTIME_DIR"]) / "turnlog"
    else:
        import tempfile

        path = Path(tempfile.gettempdir()) / f"turnlog-{os.getuid()}"
    path = path / "children"
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    return path


def reap_orphans(folder: Path | None = None) -> list[int]:
    """Kill the children a killed Turnlog left (their parent is gone; their pid, start
    time and command line still match their record); stale records go. The pids killed."""
    folder = folder or runtime_dir()
    killed: list[int] = []
    for record in sorted(folder.glob("*.json")):
        try:
            entry = json.loads(record.read_text(encoding="utf-8"))
            pid, owner = int(entry["pid"]), int(entry["owner"])
            started, owner_started = entry["started"], entry["owner_started"]
            argv = [str(a) for a in entry["argv"]]
        except (OSError, ValueError, KeyError, TypeError):
            with contextlib.suppress(OSError):
                record.unlink()
            continue
        if _start_time(owner) == owner_started:
            continue  # its Turnlog is still running: its child is its own business
        if _start_time(pid) == started and _same_command(_command_line(pid), argv):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(pid, signal.SIGKILL)
                killed.append(pid)
            log.info("stopped child %d left by an earlier run: %s", pid, " ".join(argv))
        with contextlib.suppress(OSError):
            record.unlink()
    return killed


# ----------------------------------------------------------------- the starter thread
@dataclass(frozen=True, slots=True)
class _Spec:
    argv: tuple[str, ...]
    stdin: str
    stdout: Output
    stderr: Output | str
    env: dict[str, str] | None
    cwd: str | None
    limits: Limits


class _Starter:
    """The one thread every child is forked from: it lives as long as the process, so a
    child's death signal fires when Turnlog ends, not when the asking worker does."""

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[tuple[_Spec, Future[Child]]] = queue.SimpleQueue()
        self._hook_parts = _death_signal_parts()
        self._thread = threading.Thread(target=self._serve, name="turnlog-child-starter",
                                        daemon=True)
        self._thread.start()

    def run(self, spec: _Spec) -> Child:
        from concurrent.futures import Future

        done: Future[Child] = Future()
        self._jobs.put((spec, done))
        return done.result()

    def _serve(self) -> None:
        try:
            reap_orphans()
        except Exception:  # noqa: BLE001 - reaping is a courtesy; starting must go on
            log.exception("could not look for children left by an earlier run")
        while True:
            spec, done = self._jobs.get()
            try:
                done.set_result(self._start(spec))
            except BaseException as err:  # noqa: BLE001 - handed to the caller
                done.set_exception(err)

    def _start(self, spec: _Spec) -> Child:
        import subprocess

        streams = {"pipe": subprocess.PIPE, "null": subprocess.DEVNULL,
                   "tail": subprocess.PIPE, "stdout": subprocess.STDOUT}

        def where(choice: object) -> Any:
            return streams[choice] if isinstance(choice, str) else choice

        try:
            process = subprocess.Popen(  # noqa: S603 - argv comes from the caller's settings
                spec.argv, stdin=where(spec.stdin), stdout=where(spec.stdout),
                stderr=where(spec.stderr), env=spec.env, cwd=spec.cwd, bufsize=0,
                close_fds=True, start_new_session=True,
                preexec_fn=self._hook(spec.limits))  # noqa: PLW1509 - see module doc
        except (OSError, ValueError, subprocess.SubprocessError) as err:
            raise ChildStartFailed(_why_not(spec.argv[0], err)) from err
        tail = StderrTail(process.stderr) if spec.stderr == "tail" and process.stderr \
            else None
        return Child(process, spec.argv, _record(process.pid, spec.argv), tail)

    def _hook(self, limits: Limits) -> Callable[[], None]:
        prctl, parent = self._hook_parts

        def hook() -> None:  # in the child, between fork and exec
            if prctl is not None:
                prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
                if os.getppid() != parent:  # the parent died before the request took hold
                    os._exit(1)
            if limits.address_space is not None:
                resource.setrlimit(resource.RLIMIT_AS,
                                   (limits.address_space, limits.address_space))
            if limits.cpu_seconds is not None:
                resource.setrlimit(resource.RLIMIT_CPU,
                                   (limits.cpu_seconds, limits.cpu_seconds + 1))

        return hook


_the_starter: _Starter | None = None
_starter_lock = threading.Lock()


def _starter() -> _Starter:
    global _the_starter
    with _starter_lock:
        if _the_starter is None or not _the_starter._thread.is_alive():
            _the_starter = _Starter()
        return _the_starter


def _death_signal_parts() -> tuple[Any, int]:
    """libc's prctl (looked up before any fork) and this process's pid."""
    prctl = None
    if sys.platform.startswith("linux"):
        import ctypes
        import ctypes.util

        name = ctypes.util.find_library("c")
        if name is not None:
            prctl = ctypes.CDLL(name, use_errno=True).prctl
    return prctl, os.getpid()


def _why_not(command: str, err: BaseException) -> str:
    if isinstance(err, FileNotFoundError):
        return f"the command was not found ({command})"
    if isinstance(err, PermissionError):
        return f"the command may not be run ({command})"
    return f"{command} could not be started: {err}"


# ------------------------------------------------------------------ records of children
def _record(pid: int, argv: Sequence[str]) -> Path | None:
    entry = {"pid": pid, "started": _start_time(pid), "argv": list(argv),
             "owner": os.getpid(), "owner_started": _start_time(os.getpid())}
    try:
        path = runtime_dir() / f"{pid}.json"
        path.write_text(json.dumps(entry), encoding="utf-8")
    except OSError as err:
        log.warning("could not record child %d: %s", pid, err)
        return None
    return path


def _start_time(pid: int) -> int | None:
    """When the process started (clock ticks after boot), None if there is none: with the
    pid it names one process for certain, as a pid alone does not (pids are reused)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    fields = stat[stat.rfind(")") + 2:].split()
    try:
        return int(fields[19])  # field 22 of stat, counted after pid and comm
    except (IndexError, ValueError):
        return None


def _command_line(pid: int) -> list[str]:
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return []
    return [part.decode("utf-8", "replace") for part in raw.split(b"\0")[:-1]]


def _same_command(running: list[str], argv: list[str]) -> bool:
    """Whether a running command line is the one recorded: the same arguments at its end,
    the program's name before them (a script's interpreter may come first)."""
    if not running or not argv or len(running) < len(argv):
        return False
    head = running[:len(running) - len(argv) + 1]
    return running[len(running) - len(argv) + 1:] == argv[1:] and \
        any(Path(part).name == Path(argv[0]).name for part in head)

