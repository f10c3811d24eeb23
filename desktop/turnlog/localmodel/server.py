"""The built-in model server: `python -m llama_cpp.server` as a child process.

`LocalServer.start` launches it on a free 127.0.0.1 port, waits (bounded,
cancellable, with progress) until `GET /v1/models` answers, and returns a
`LocalEndpoint`: the base URL to give the ordinary HTTP provider, the
context window, and an exact token counter. `stop` ends it: terminate, wait,
kill.

No orphan survives the window: the child is started through
`turnlog.system.children` (it dies with Turnlog, whichever thread asked for it), and
`atexit` stops every server still running at a normal exit. A keeper thread
waits for the child and writes how it ended into its log.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import os
import re
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..config.paths import log_dir as default_log_dir
from ..core.failures import Failure, FailureKind, ProviderFailure
from ..core.model import MAX_OUTPUT_RESERVE, MIN_OUTPUT_RESERVE
from ..core.provider import CancelToken, ChatProvider, Reply
from ..system import children
from ..system.lazy import LazyModule
from .build import LlamaBuild, installed_build
from .model_file import (
    INSTALL_HINT,
    ModelInfo,
    NotAModelFile,
    available,
    describe,
    read_metadata,
    training_context,
)
from .tokens import ServerTokenCounter

if TYPE_CHECKING:
    import httpx
else:
    httpx = LazyModule("httpx")  # loaded by the first request

log = logging.getLogger(__name__)

HOST = "127.0.0.1"
DEFAULT_N_CTX = 4096
DEFAULT_THREADS = 2
STARTUP_TIMEOUT_S = 120.0
# A server nobody has asked anything for this long is stopped; the next send starts it.
IDLE_TIMEOUT_S = 600.0
# How long a failed request waits for the server's exit status (a connection reset can
# arrive a moment before the kernel has reaped the process).
EXIT_GRACE_S = 1.0
STOP_TIMEOUT_S = 5.0
POLL_INTERVAL_S = 0.1
PORT_ATTEMPTS = 3
LOG_NAME = "local-model.log"
TOKENIZE_PATH = "/extras/tokenize"  # llama-cpp-python's endpoint, at the server root

# How llama-cpp-python states its window when refusing an over-long prompt.
_WINDOW_STATED = re.compile(r"maximum context length is (\d+) tokens|context window of (\d+)")


class StartFailure(Exception):
    """Why a start did not produce a server (internal; surfaces as `LocalModelFailure`)."""


@dataclass(frozen=True, slots=True)
class ServerExit:
    """How the server process ended: its exit code, or the signal that ended it."""

    returncode: int

    @property
    def signal_name(self) -> str:
        if self.returncode >= 0:
            return ""
        try:
            return signal.Signals(-self.returncode).name
        except ValueError:
            return f"signal {-self.returncode}"

    def describe(self) -> str:
        """"signal 11 (SIGSEGV)" or "exit code 1"."""
        if self.returncode < 0:
            return f"signal {-self.returncode} ({self.signal_name})"
        return f"exit code {self.returncode}"


def last_lines(text: str, count: int = 6, width: int = 240) -> list[str]:
    """The last `count` non-blank lines of a log, each cut to `width` characters."""
    lines = [line.rstrip()[:width] for line in text.splitlines() if line.strip()]
    return lines[-count:]


class LocalModelFailure(ProviderFailure):
    """The built-in model could not start (missing extra, bad model file, port taken,
    server exited or never answered) or its start was cancelled. `failure.kind` is
    `FailureKind.LOCAL_MODEL`, or `CANCELLED` when the user stopped the start."""

    def __init__(self, detail: str, hint: str = "", *, cancelled: bool = False,
                 log_tail: tuple[str, ...] = ()) -> None:
        kind = FailureKind.CANCELLED if cancelled else FailureKind.LOCAL_MODEL
        super().__init__(Failure(kind, detail=detail, hint=hint, stage="starting local model",
                                 log_tail=log_tail))


CRASH_HINT = "See the local model log; if it happens again, try another model file in Settings"
_CPU_LACKS = "This computer's processor lacks {}, which the built-in model's build needs"


class LocalModelCrashed(ProviderFailure):
    """The built-in model's server process ended on its own (killed by a signal, or
    exited) while it was answering. `failure.kind` is `FailureKind.LOCAL_MODEL_CRASHED`;
    the detail names the signal or exit code and `failure.log_tail` holds the last lines
    of the server's log. The next send starts the server again."""

    def __init__(self, ended: ServerExit, log_text: str, *, hint: str = CRASH_HINT,
                 partial: str = "", during: str = "answering") -> None:
        super().__init__(Failure(FailureKind.LOCAL_MODEL_CRASHED,
                                 detail=f"the server process ended with {ended.describe()}",
                                 hint=hint, stage=during,
                                 log_tail=tuple(last_lines(log_text))),
                         partial=partial)
        self.ended = ended


@dataclass(frozen=True, slots=True)
class LocalEndpoint:
    """What a running local server offers to the rest of Turnlog."""

    base_url: str  # e.g. http://127.0.0.1:40123/v1, for the ordinary HTTP provider
    model: str  # the alias to put in request bodies
    context_window: int  # n_ctx as the server reports it, else as launched
    context_window_source: str  # "server" or "launch settings"
    tokenize_url: str
    counter: ServerTokenCounter
    info: ModelInfo


def output_reserve_for(context_window: int) -> int:
    """The output reserve to use with a local window: a quarter of it, within core's limits.

    Core's default reserve (8,192) is larger than a small local window; a quarter
    leaves most of the window for the conversation and room for a full answer.
    Send it as `max_tokens` too, so the server never generates past the budget.
    """
    return max(MIN_OUTPUT_RESERVE, min(MAX_OUTPUT_RESERVE, context_window // 4))


def free_port() -> int:
    """A port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


# Strong references: a server dropped without `stop` is still stopped at exit.
_live: set[LocalServer] = set()


@atexit.register
def _stop_all() -> None:
    for server in list(_live):
        server.stop()


def _rotate(path: Path) -> None:
    """Keep the previous run's log beside the new one; older ones go."""
    if path.exists():
        with contextlib.suppress(OSError):
            path.replace(path.with_name(path.name + ".1"))


def _tail(path: Path, limit: int = 16_384) -> str:
    try:
        with path.open("rb") as handle:
            handle.seek(0, os.SEEK_END)
            size = handle.tell()
            handle.seek(max(0, size - limit))
            return handle.read().decode("utf-8", "replace")
    except OSError:
        return ""


def _explain_exit(log_text: str, ended: ServerExit) -> tuple[str, str, bool]:
    """(detail, hint, port_taken) for a server that exited while starting."""
    text = log_text.lower()
    if "address already in use" in text or "errno 98" in text:
        return "the port it was given was taken by another program", "Try again", True
    if "no module named" in text:
        return "part of the local model server is not installed", INSTALL_HINT, False
    if "failed to load model" in text or "gguf" in text or "llama_model_load" in text:
        return (
            "the model file could not be loaded (it may be damaged or of an unsupported "
            "kind)",
            "Choose another GGUF file in Settings",
            False,
        )
    if "memoryerror" in text or "failed to allocate" in text or "out of memory" in text:
        return ("there was not enough memory for the model",
                "Close other programs, or choose a smaller model file in Settings", False)
    return (f"the server stopped while starting ({ended.describe()})",
            _hint_for(ended), False)


def cpu_refusal(build: LlamaBuild, cpu_flags: set[str] | None = None
                ) -> LocalModelFailure | None:
    """The failure to give before starting a build this CPU cannot run (it would die of
    an illegal instruction on its first matrix multiply), else None."""
    missing = build.missing_on_this_cpu(cpu_flags)
    if not missing:
        return None
    return LocalModelFailure(f"this computer's processor lacks {', '.join(missing)}",
                             "Choose another provider in Settings")


def _hint_for(ended: ServerExit) -> str:
    """The next step after the server died: name a CPU the build cannot run on."""
    if ended.signal_name == "SIGILL":
        missing = installed_build().missing_on_this_cpu()
        if missing:
            return _CPU_LACKS.format(", ".join(missing))
    return CRASH_HINT


class LocalServer:
    """One llama-cpp-python server process for one GGUF file. Thread-safe; `start` is
    idempotent and returns the running server's endpoint."""

    def __init__(
        self,
        model_path: Path | None = None,
        *,
        n_ctx: int = DEFAULT_N_CTX,
        n_threads: int = DEFAULT_THREADS,
        log_dir: Path | None = None,
        python: str = sys.executable,
        startup_timeout: float = STARTUP_TIMEOUT_S,
    ) -> None:
        self.model_path = model_path
        self.n_ctx = n_ctx
        self.n_threads = n_threads
        self._log_dir = log_dir
        self.python = python
        self.startup_timeout = startup_timeout
        self._lock = threading.RLock()
        self._process: children.Child | None = None
        self._keeper: threading.Thread | None = None
        self._stopping = threading.Event()  # set while `stop` ends the process on purpose
        self._endpoint: LocalEndpoint | None = None
        self.log_path: Path | None = None
        self._busy = 0  # requests in flight (`in_use`)
        self._last_used = time.monotonic()

    # ------------------------------------------------------------------ state
    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.running()

    @property
    def endpoint(self) -> LocalEndpoint | None:
        """The endpoint of the running server, or None before `start` or after `stop`."""
        return self._endpoint if self.running else None

    @contextlib.contextmanager
    def in_use(self) -> Iterator[None]:
        """Around a request to the server: it is not idle while one is in flight."""
        with self._lock:
            self._busy += 1
        try:
            yield
        finally:
            with self._lock:
                self._busy -= 1
                self._last_used = time.monotonic()

    def idle_for(self) -> float:
        """Seconds since the last request ended (0 while one is in flight or stopped)."""
        with self._lock:
            if self._busy or not self.running:
                return 0.0
            return time.monotonic() - self._last_used

    def ended_unexpectedly(self, wait: float = EXIT_GRACE_S) -> ServerExit | None:
        """How the server ended, if it ended on its own (not by `stop`); waits up to
        `wait` seconds for a process that is going down to be reaped."""
        process = self._process
        if process is None or self._stopping.is_set():
            return None
        code = process.wait(wait)
        if code is None:
            return None
        return None if self._stopping.is_set() else ServerExit(code)

    def log_text(self) -> str:
        """The end of the server's log (what it printed, and how it ended)."""
        if self._keeper is not None:
            self._keeper.join(EXIT_GRACE_S)  # its exit line is written once it is reaped
        return _tail(self.log_path) if self.log_path is not None else ""

    # ------------------------------------------------------------------ start
    def start(
        self,
        *,
        on_progress: Callable[[str], None] = lambda message: None,
        cancel: CancelToken | None = None,
    ) -> LocalEndpoint:
        """Start the server (if it is not running) and wait until it answers.

        Raises `LocalModelFailure` with plain words when it cannot start, and
        with kind CANCELLED when `cancel` fires first (the child is stopped).
        """
        cancel = cancel or CancelToken()
        with self._lock:
            if self._endpoint is not None and self.running:
                return self._endpoint
            self.stop()  # a server that died since: clean up before starting anew
            check = available(self.model_path)
            if not check.ok or check.model_path is None:
                raise LocalModelFailure(check.reason)
            refused = cpu_refusal(installed_build())
            if refused is not None:
                raise refused
            model_path = check.model_path
            try:
                info = describe(model_path)
                trained = training_context(read_metadata(model_path))
            except (NotAModelFile, OSError) as err:
                raise LocalModelFailure(str(err), "Choose another GGUF file in Settings") from err
            n_ctx = self.n_ctx if trained is None else min(self.n_ctx, trained)
            on_progress(f"Starting {info.name}…")
            for attempt in range(1, PORT_ATTEMPTS + 1):
                port = free_port()
                try:
                    self._launch(model_path, info.alias, port, n_ctx)
                    root = self._wait_ready(port, info, on_progress, cancel)
                except StartFailure:
                    self.stop()
                    if attempt == PORT_ATTEMPTS:
                        raise LocalModelFailure(
                            "every free port it tried was taken before it could listen",
                            "Try again",
                        ) from None
                    continue
                except BaseException:
                    self.stop()
                    raise
                break
            window, source = self._read_context_window(root, info.alias, n_ctx)
            counter = ServerTokenCounter.calibrate(
                root + TOKENIZE_PATH, root + "/v1", info.alias
            )
            self._endpoint = LocalEndpoint(
                base_url=root + "/v1",
                model=info.alias,
                context_window=window,
                context_window_source=source,
                tokenize_url=root + TOKENIZE_PATH,
                counter=counter,
                info=info,
            )
            self._last_used = time.monotonic()  # idle from now, not from before the start
            log.info(
                "local model %s ready on port %d (n_ctx %d from %s, tokens %s)",
                info.alias, port, window, source, "exact" if counter.exact else "estimated",
            )
            return self._endpoint

    def _launch(self, model_path: Path, alias: str, port: int, n_ctx: int) -> None:
        folder = self._log_dir or default_log_dir()
        folder.mkdir(parents=True, exist_ok=True)
        self.log_path = folder / LOG_NAME
        _rotate(self.log_path)
        handle = self.log_path.open("wb")
        argv = [
            self.python, "-m", "llama_cpp.server",
            "--model", str(model_path),
            "--model_alias", alias,
            "--host", HOST,
            "--port", str(port),
            "--n_ctx", str(n_ctx),
            "--n_threads", str(self.n_threads),
            # Requests queue rather than cut off a reply that is still streaming
            # (a token count during an answer would otherwise end the answer).
            "--interrupt_requests", "False",
            # Model metadata and timings only; prompts are never logged either way.
            "--verbose", "False",
        ]
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        stopping = self._stopping
        stopping.clear()
        try:
            process = children.start(argv, stdout=handle, stderr="stdout", env=env)
        except children.ChildStartFailed as err:
            handle.close()
            raise LocalModelFailure(f"the server could not be launched ({err})",
                                    INSTALL_HINT) from None

        def keep() -> None:
            # Once the child has ended: how it ended, written into its log.
            code = process.wait()
            ended = ServerExit(code if code is not None else -1)
            how = "stopped by Turnlog" if stopping.is_set() else "ended unexpectedly"
            with contextlib.suppress(OSError, ValueError):
                handle.write(f"\n[turnlog] the server process {how}: {ended.describe()} "
                             f"at {time.strftime('%Y-%m-%d %H:%M:%S')}\n".encode())
                handle.close()
            if not stopping.is_set():
                log.warning("local model server (pid %d) ended unexpectedly: %s",
                            process.pid, ended.describe())

        keeper = threading.Thread(target=keep, name="turnlog-local-model", daemon=True)
        keeper.start()
        self._process = process
        self._keeper = keeper
        _live.add(self)
        log.info("local model server launched (pid %d, port %d)", process.pid, port)

    def _wait_ready(
        self, port: int, info: ModelInfo, on_progress: Callable[[str], None],
        cancel: CancelToken,
    ) -> str:
        root = f"http://{HOST}:{port}"
        started = time.monotonic()
        last_report = started
        assert self._process is not None and self.log_path is not None
        with httpx.Client(timeout=httpx.Timeout(2.0), trust_env=False) as client:
            while True:
                code = self._process.returncode
                if code is not None:
                    log_text = self.log_text()
                    detail, hint, port_taken = _explain_exit(log_text, ServerExit(code))
                    if port_taken:
                        raise StartFailure(detail)
                    raise LocalModelFailure(detail, hint, log_tail=tuple(last_lines(log_text)))
                try:
                    response = client.get(root + "/v1/models")
                    if response.status_code == 200 and isinstance(
                        response.json().get("data"), list
                    ):
                        return root
                except (httpx.HTTPError, ValueError, AttributeError):
                    pass
                now = time.monotonic()
                if now - started > self.startup_timeout:
                    raise LocalModelFailure(
                        f"the server did not answer within {self.startup_timeout:.0f} s",
                        "See the local model log for details",
                        log_tail=tuple(last_lines(_tail(self.log_path))),
                    )
                if now - last_report >= 1.0:
                    on_progress(f"Starting {info.name}… {now - started:.0f} s")
                    last_report = now
                if cancel.wait(POLL_INTERVAL_S):
                    raise LocalModelFailure("stopped while the local model was starting",
                                            cancelled=True)

    @staticmethod
    def _read_context_window(root: str, model: str, launched: int) -> tuple[int, str]:
        """The context window as the server states it, else as launched.

        llama.cpp says it in `/props`. llama-cpp-python has no such endpoint but names
        its window when refusing a prompt that is one window long (before evaluating
        anything, so the probe costs only a tokenization).
        """
        try:
            with httpx.Client(timeout=httpx.Timeout(30.0, connect=2.0),
                              trust_env=False) as client:
                response = client.get(root + "/props")
                if response.status_code == 200:
                    data = response.json()
                    settings = data.get("default_generation_settings", {})
                    value = settings.get("n_ctx", data.get("n_ctx"))
                    if isinstance(value, int) and value > 0:
                        return value, "server"
                response = client.post(root + "/v1/chat/completions", json={
                    "model": model, "stream": False, "max_tokens": 1,
                    "messages": [{"role": "user", "content": "word " * launched}],
                })
                if response.status_code == 400:
                    found = _WINDOW_STATED.search(response.text)
                    if found:
                        return int(found.group(1) or found.group(2)), "server"
        except (httpx.HTTPError, ValueError, AttributeError):
            pass
        return launched, "launch settings"

    # ------------------------------------------------------------------- stop
    def stop(self, timeout: float = STOP_TIMEOUT_S, *, why: str = "") -> None:
        """Terminate the child, wait up to `timeout`, then kill it. Safe to call twice."""
        with self._lock:
            process, self._process = self._process, None
            keeper, self._keeper = self._keeper, None
            if self._endpoint is not None:
                self._endpoint.counter.close()
            self._endpoint = None
            if process is not None:
                if process.running():
                    self._stopping.set()
                    process.terminate()
                    if process.wait(timeout) is None:
                        log.warning("local model server ignored SIGTERM; killing it")
                    process.stop(0)  # its group too, whatever it started
                log.info("local model server stopped%s (pid %d, exit %s)",
                         f" ({why})" if why else "", process.pid, process.returncode)
            if keeper is not None:
                keeper.join(timeout)
            _live.discard(self)

    def __enter__(self) -> LocalServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()




class WatchedProvider:
    """A provider talking to the built-in model's server, which tells a crash of that
    server from a network failure: when a request fails and the process has ended on
    its own, the failure is `LocalModelCrashed` (with the signal or exit code and the
    log's last lines), never "could not reach the server" — the person set no URL.
    Requests in flight keep the server from being stopped as idle."""

    def __init__(self, inner: ChatProvider, server: LocalServer) -> None:
        self.inner = inner
        self.server = server

    def complete(self, body: bytes, *, on_delta: Callable[[str], None],
                 cancel: CancelToken, on_reasoning: Callable[[str], None] | None = None
                 ) -> Reply:
        with self.server.in_use():
            try:
                if on_reasoning is None:
                    reply = self.inner.complete(body, on_delta=on_delta, cancel=cancel)
                else:
                    reply = self.inner.complete(body, on_delta=on_delta, cancel=cancel,
                                                on_reasoning=on_reasoning)
            except ProviderFailure as err:
                if err.failure.kind is not FailureKind.CANCELLED:
                    self._raise_if_crashed(err.partial, err)
                raise
            if reply.finish_reason != "stop":  # a stream that simply ended: why?
                self._raise_if_crashed(reply.content, None)
            return reply

    def _raise_if_crashed(self, partial: str, cause: BaseException | None) -> None:
        ended = self.server.ended_unexpectedly()
        if ended is not None:
            raise LocalModelCrashed(ended, self.server.log_text(), hint=_hint_for(ended),
                                    partial=partial) from cause

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)
