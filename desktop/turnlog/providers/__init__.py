"""OpenAI-compatible chat servers over httpx: the `ChatProvider` core sends through."""

from .client import (
    CONNECT_TIMEOUT_S,
    DEFAULT_DEADLINE_S,
    DEFAULT_MAX_CONTENT_BYTES,
    READ_TIMEOUT_S,
    ChatCompletionsProvider,
    ModelInfo,
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

__all__ = [
    "BUILTIN_LOCAL",
    "CONNECT_TIMEOUT_S",
    "CUSTOM",
    "DEEPSEEK",
    "DEFAULT_DEADLINE_S",
    "DEFAULT_MAX_CONTENT_BYTES",
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
    "parse_retry_after",
    "preset_by_id",
]
