"""Asking a server what it knows about a model: its context window, and whether it can
count tokens.

Each kind of server says its window in its own place:

- llama.cpp's `llama-server`: `GET /props` → `default_generation_settings.n_ctx` (the
  window of one slot, as the server was started), or a top-level `n_ctx`;
- Ollama: `POST /api/show {"model": …}` → `num_ctx` in `parameters` when the model file
  sets one, else `model_info["<architecture>.context_length"]`;
- LM Studio: `GET /api/v0/models` → the model's `loaded_context_length`, else
  `max_context_length`;
- vLLM: `GET /v1/models` → the model's `max_model_len`;
- OpenRouter: `GET /models` → the model's `context_length`.

Other servers (OpenAI, DeepSeek, a custom one) are not asked: OpenAI-style `/models`
lists name no window.

Every question is one short request; a server that answers with something else has
simply not said (None). One that cannot be reached raises `NotAnswered`, so it is asked
again next time.
"""

from __future__ import annotations

import logging
import re
import zlib
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

from turnlog.system.lazy import LazyModule

from .inflate import INFLATABLE, Inflater
from .presets import LLAMA_CPP, LM_STUDIO, OLLAMA, OPENROUTER, VLLM, Preset
from .security import context_for
from .wirejson import server_json

if TYPE_CHECKING:
    import ssl

    import httpx
else:
    httpx = LazyModule("httpx")  # loaded by the first request

log = logging.getLogger(__name__)

# A model list or a model's details: well under this, even with a chat template inside.
MAX_ANSWER_BYTES = 1024 * 1024
_NUM_CTX = re.compile(r"(?m)^\s*num_ctx\s+(\d+)\s*$")


class NotAnswered(Exception):
    """The server could not be reached (or timed out) to ask it."""


def server_root(base_url: str) -> str:
    """`http://host:port` of a base URL such as `http://host:port/v1`."""
    parts = urlsplit(base_url)
    return urlunsplit((parts.scheme, parts.netloc, "", "", ""))


def _positive(value: Any) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return value
    return None


def _first(*values: Any) -> int | None:
    for value in values:
        found = _positive(value)
        if found is not None:
            return found
    return None


def _entry(data: Any, model: str) -> dict[str, Any] | None:
    """The entry for `model` in a `{"data": [...]}` list (or the only entry there is)."""
    listed = data.get("data") if isinstance(data, dict) else None
    if not isinstance(listed, list):
        return None
    entries: list[dict[str, Any]] = [e for e in listed if isinstance(e, dict)]
    for entry in entries:
        if model and model in (entry.get("id"), entry.get("name")):
            return entry
    return entries[0] if len(entries) == 1 else None


def window_of_models_entry(entry: dict[str, Any]) -> int | None:
    """The window a `/models` entry names: OpenRouter `context_length` (or its top
    provider's), vLLM `max_model_len`, LM Studio `loaded_context_length` /
    `max_context_length`, llama.cpp `meta.n_ctx_train`, or a plain `context_window`."""
    top = entry.get("top_provider")
    meta = entry.get("meta")
    return _first(
        entry.get("context_length"), entry.get("max_model_len"),
        entry.get("loaded_context_length"), entry.get("max_context_length"),
        entry.get("context_window"),
        top.get("context_length") if isinstance(top, dict) else None,
        meta.get("n_ctx_train") if isinstance(meta, dict) else None,
    )


def _llamacpp_props(data: Any, model: str) -> int | None:
    if not isinstance(data, dict):
        return None
    settings = data.get("default_generation_settings")
    return _first(settings.get("n_ctx") if isinstance(settings, dict) else None,
                  data.get("n_ctx"))


def _ollama_show(data: Any, model: str) -> int | None:
    if not isinstance(data, dict):
        return None
    parameters = data.get("parameters")
    if isinstance(parameters, str):
        found = _NUM_CTX.search(parameters)
        if found:
            return _positive(int(found.group(1)))
    info = data.get("model_info")
    if not isinstance(info, dict):
        return None
    arch = info.get("general.architecture")
    if isinstance(arch, str):
        return _positive(info.get(f"{arch}.context_length"))
    return _first(*(v for k, v in info.items() if k.endswith(".context_length")))


def _models_list(data: Any, model: str) -> int | None:
    entry = _entry(data, model)
    return window_of_models_entry(entry) if entry is not None else None


def _question(preset: Preset, base_url: str,
              model: str) -> tuple[str, str, Any, Any] | None:
    """(method, URL, JSON body or None, reader) for the preset's way of saying the window,
    or None for a server that has none."""
    root = server_root(base_url)
    if preset.id == LLAMA_CPP.id:
        return "GET", root + "/props", None, _llamacpp_props
    if preset.id == OLLAMA.id:
        return "POST", root + "/api/show", {"model": model}, _ollama_show
    if preset.id == LM_STUDIO.id:
        return "GET", root + "/api/v0/models", None, _models_list
    if preset.id in (VLLM.id, OPENROUTER.id):
        return "GET", base_url.rstrip("/") + "/models", None, _models_list
    return None


def can_state_window(preset: Preset) -> bool:
    """Whether servers of this kind say their context window somewhere."""
    return _question(preset, "http://localhost", "") is not None


def server_window(preset: Preset, base_url: str, model: str, *, api_key: str | None = None,
                  client: httpx.Client | None = None,
                  verify: ssl.SSLContext | bool = True) -> int | None:
    """The context window the server states for `model`, or None where it says none (or
    is not the kind of server that would: nothing is asked then). Raises `NotAnswered`
    when the server cannot be reached."""
    question = _question(preset, base_url, model)
    if question is None:
        return None
    method, url, body, read = question
    headers = dict(preset.extra_headers)
    if api_key:
        headers["Authorization"] = f"Bearer {api_key}"
    own = client is None
    http = client or httpx.Client(timeout=httpx.Timeout(5.0, connect=3.0), trust_env=False,
                                  verify=context_for(url, verify))
    try:
        with http.stream(method, url, json=body, headers=headers) as response:
            if response.status_code != 200:
                log.info("no context window from %s (HTTP %s)", url, response.status_code)
                return None
            raw = _bounded(response)
        if raw is None:
            log.info("no context window from %s (the answer passed %s bytes)", url,
                     MAX_ANSWER_BYTES)
            return None
        window: int | None = read(server_json(raw), model)
    except (httpx.TransportError, httpx.InvalidURL) as err:
        raise NotAnswered(f"{url}: {type(err).__name__}") from err
    except (httpx.HTTPError, ValueError, zlib.error) as err:
        log.info("no context window from %s (%s)", url, type(err).__name__)
        return None
    finally:
        if own:
            http.close()
    log.info("context window of %s from %s: %s", model, url, window)
    return window


def _bounded(response: httpx.Response) -> bytes | None:
    """The body, or None once it passes `MAX_ANSWER_BYTES` (the rest is not read)."""
    body = bytearray()
    for piece in _pieces(response):
        body += piece
        if len(body) > MAX_ANSWER_BYTES:
            return None
    return bytes(body)


def _pieces(response: httpx.Response) -> Iterator[bytes]:
    """The body as it arrives; a compressed one inflated in bounded pieces."""
    encoding = response.headers.get("content-encoding", "").strip().lower()
    if encoding in ("", "identity"):
        yield from response.iter_raw()
        return
    if encoding not in INFLATABLE:
        raise ValueError(f"an answer compressed as {encoding[:40]}")
    inflater = Inflater(encoding, 64 * 1024)
    for raw in response.iter_raw():
        yield from inflater.feed(raw)
    yield from inflater.finish()


def tokenize_flavour(preset: Preset) -> str | None:
    """How the preset's server tokenizes ("llama.cpp", "vllm"), or None if it cannot."""
    if preset.id == LLAMA_CPP.id:
        return "llama.cpp"
    if preset.id == VLLM.id:
        return "vllm"
    return None
