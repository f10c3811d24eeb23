"""Known OpenAI-compatible servers and what each one needs or tolerates."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

from ..core.builtin_model import BUILTIN as BUILTIN_MODEL


@dataclass(frozen=True, slots=True)
class Preset:
    """One kind of server. `base_url` is the default; "" means the user must supply one.

    `include_usage`: the server documents `stream_options.include_usage`, so a streamed
    reply can carry token usage. Only set where documented: an unknown field can make a
    strict server refuse the request.
    `tokenize_path`: an endpoint at the server root (not under `/v1`) that counts tokens
    exactly with the loaded model's tokenizer.
    `extra_headers`: sent with every request (OpenRouter uses `X-Title` to name the app).
    `empty_stream_overflows`: the server answers a request larger than its window with an
    empty 200 stream (llama-cpp-python's does; a "llama.cpp" profile may point at one),
    so an empty stream is a context overflow, not a cut reply.
    `builtin`: Turnlog runs the server itself (`turnlog.localmodel`) on a port it picks, so
    the profile has no address; the server's model and window are facts, not settings.
    `prefill`: the server continues a final assistant message instead of starting a new
    one (llama.cpp's server does), so the rest of a partial answer is asked for with that
    answer as the start of the reply. Elsewhere (OpenAI; llama-cpp-python, the built-in
    model, which closes that message and opens another) it is asked for by a follow-up
    request.
    `images`: whether a profile of this kind takes `image_url` parts unless it says
    otherwise (the servers that serve vision models through the same endpoint do; a
    llama.cpp server only with a projector loaded, DeepSeek's API and the built-in
    model not at all).
    `seed`: the server documents a `seed` field of the request, so a new sample
    (Regenerate) asks with a fresh one. Only set where documented, as `include_usage`.
    """

    id: str
    name: str
    base_url: str
    needs_key: bool
    include_usage: bool = False
    local: bool = False
    tokenize_path: str | None = None
    extra_headers: tuple[tuple[str, str], ...] = ()
    builtin: bool = False
    empty_stream_overflows: bool = False
    prefill: bool = False
    images: bool = True
    seed: bool = False

    def tokenize_url(self, base_url: str) -> str | None:
        """The tokenize endpoint for a server at `base_url`, or None if it has none."""
        if self.tokenize_path is None:
            return None
        parts = urlsplit(base_url)
        return urlunsplit((parts.scheme, parts.netloc, self.tokenize_path, "", ""))


OPENAI = Preset("openai", "OpenAI", "https://api.openai.com/v1", needs_key=True,
                include_usage=True, seed=True)
OLLAMA = Preset("ollama", "Ollama", "http://localhost:11434/v1", needs_key=False, local=True,
                seed=True)
LM_STUDIO = Preset("lmstudio", "LM Studio", "http://localhost:1234/v1", needs_key=False,
                   local=True, seed=True)
LLAMA_CPP = Preset("llamacpp", "llama.cpp server", "http://localhost:8080/v1", needs_key=False,
                   local=True, tokenize_path="/tokenize", empty_stream_overflows=True,
                   prefill=True, images=False, seed=True)
VLLM = Preset("vllm", "vLLM", "http://localhost:8000/v1", needs_key=False, include_usage=True,
              local=True, tokenize_path="/tokenize", seed=True)
OPENROUTER = Preset("openrouter", "OpenRouter", "https://openrouter.ai/api/v1", needs_key=True,
                    include_usage=True, extra_headers=(("X-Title", "Turnlog"),), seed=True)
DEEPSEEK = Preset("deepseek", "DeepSeek", "https://api.deepseek.com/v1", needs_key=True,
                  include_usage=True, images=False)
CUSTOM = Preset("custom", "Custom", "", needs_key=False)
# llama-cpp-python's server, started by Turnlog: no key, exact counts, no usage in streams.
BUILTIN_LOCAL = Preset("builtin", BUILTIN_MODEL.profile_name, "", needs_key=False, local=True,
                       tokenize_path="/extras/tokenize", builtin=True, images=False,
                       seed=True)

PRESETS: tuple[Preset, ...] = (OPENAI, OLLAMA, LM_STUDIO, LLAMA_CPP, VLLM, OPENROUTER,
                               DEEPSEEK, CUSTOM, BUILTIN_LOCAL)


def preset_by_id(preset_id: str) -> Preset:
    """The preset named `preset_id`; an unknown id (a newer profile file) is Custom."""
    for preset in PRESETS:
        if preset.id == preset_id:
            return preset
    return CUSTOM
