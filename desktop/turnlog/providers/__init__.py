"""OpenAI-compatible chat servers over httpx: the `ChatProvider` core sends through."""

from __future__ import annotations

from ..system.lazy import lazy_names

TYPE_CHECKING = False  # typing's constant, without loading typing: turnlog-cli starts sooner
if TYPE_CHECKING:
    from .client import (
        CONNECT_TIMEOUT_S,
        DEFAULT_DEADLINE_S,
        DEFAULT_MAX_CONTENT_BYTES,
        FIRST_TOKEN_TIMEOUT_S,
        IDLE_TIMEOUT_S,
        LOCAL_FIRST_TOKEN_TIMEOUT_S,
        READ_TIMEOUT_S,
        ChatCompletionsProvider,
        ModelInfo,
        load_transport,
    )
    from .errors import ServerError, failure_for_error, parse_retry_after
    from .presets import (
        BUILTIN_LOCAL,
        CUSTOM,
        DEEPSEEK,
        LLAMA_CPP,
        LM_STUDIO,
        OLLAMA,
        OPENAI,
        OPENROUTER,
        PRESETS,
        VLLM,
        Preset,
        preset_by_id,
    )

# Each name loads its module when first read: a start that only counts or names a
# provider does not load the HTTP client (ssl, email, httpx's types).
_HOME = {
    "CONNECT_TIMEOUT_S": "client",
    "DEFAULT_DEADLINE_S": "client",
    "DEFAULT_MAX_CONTENT_BYTES": "client",
    "FIRST_TOKEN_TIMEOUT_S": "client",
    "IDLE_TIMEOUT_S": "client",
    "LOCAL_FIRST_TOKEN_TIMEOUT_S": "client",
    "READ_TIMEOUT_S": "client",
    "ChatCompletionsProvider": "client",
    "ModelInfo": "client",
    "load_transport": "client",
    "ServerError": "errors",
    "failure_for_error": "errors",
    "parse_retry_after": "errors",
    "BUILTIN_LOCAL": "presets",
    "CUSTOM": "presets",
    "DEEPSEEK": "presets",
    "LLAMA_CPP": "presets",
    "LM_STUDIO": "presets",
    "OLLAMA": "presets",
    "OPENAI": "presets",
    "OPENROUTER": "presets",
    "PRESETS": "presets",
    "VLLM": "presets",
    "Preset": "presets",
    "preset_by_id": "presets",
}


__getattr__ = lazy_names(__name__, _HOME, globals())


__all__ = [
    "BUILTIN_LOCAL",
    "CONNECT_TIMEOUT_S",
    "CUSTOM",
    "DEEPSEEK",
    "DEFAULT_DEADLINE_S",
    "DEFAULT_MAX_CONTENT_BYTES",
    "FIRST_TOKEN_TIMEOUT_S",
    "IDLE_TIMEOUT_S",
    "LOCAL_FIRST_TOKEN_TIMEOUT_S",
    "LLAMA_CPP",
    "LM_STUDIO",
    "OLLAMA",
    "OPENAI",
    "OPENROUTER",
    "PRESETS",
    "READ_TIMEOUT_S",
    "VLLM",
    "ChatCompletionsProvider",
    "ModelInfo",
    "Preset",
    "ServerError",
    "failure_for_error",
    "load_transport",
    "parse_retry_after",
    "preset_by_id",
]
