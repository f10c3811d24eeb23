"""The built-in local model: a llama-cpp-python server Turnlog starts itself.

Optional: everything here needs the `turnlog[local]` extra at run time, and
`available()` says (with a reason) whether it is installed. The server speaks
the OpenAI protocol, so requests go through the ordinary HTTP provider; this
package only finds the model, runs the server and counts tokens exactly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..system.lazy import lazy_names

if TYPE_CHECKING:
    from .build import LlamaBuild, installed_build
    from .model_file import (
        BUILTIN,
        Availability,
        ModelInfo,
        NotAModelFile,
        available,
        builtin_model_path,
        check_gguf,
        describe,
        read_metadata,
        training_context,
    )
    from .server import (
        DEFAULT_N_CTX,
        IDLE_TIMEOUT_S,
        LocalEndpoint,
        LocalModelCrashed,
        LocalModelFailure,
        LocalServer,
        ServerExit,
        WatchedProvider,
        free_port,
        output_reserve_for,
    )
    from .tokens import ServerTokenCounter, TemplateCosts, TokenizeError

# Each name loads its module when first read: a start that counts tokens or offers the
# built-in model does not load the server's process management.
_HOME = {
    "LlamaBuild": "build",
    "installed_build": "build",
    "BUILTIN": "model_file",
    "Availability": "model_file",
    "ModelInfo": "model_file",
    "NotAModelFile": "model_file",
    "available": "model_file",
    "builtin_model_path": "model_file",
    "check_gguf": "model_file",
    "describe": "model_file",
    "read_metadata": "model_file",
    "training_context": "model_file",
    "DEFAULT_N_CTX": "server",
    "IDLE_TIMEOUT_S": "server",
    "LocalEndpoint": "server",
    "LocalModelCrashed": "server",
    "LocalModelFailure": "server",
    "LocalServer": "server",
    "ServerExit": "server",
    "WatchedProvider": "server",
    "free_port": "server",
    "output_reserve_for": "server",
    "ServerTokenCounter": "tokens",
    "TemplateCosts": "tokens",
    "TokenizeError": "tokens",
}


__getattr__ = lazy_names(__name__, _HOME, globals())


__all__ = [
    "BUILTIN",
    "DEFAULT_N_CTX",
    "IDLE_TIMEOUT_S",
    "Availability",
    "LlamaBuild",
    "LocalEndpoint",
    "LocalModelCrashed",
    "LocalModelFailure",
    "LocalServer",
    "ModelInfo",
    "NotAModelFile",
    "ServerExit",
    "ServerTokenCounter",
    "TemplateCosts",
    "TokenizeError",
    "WatchedProvider",
    "available",
    "builtin_model_path",
    "check_gguf",
    "describe",
    "free_port",
    "installed_build",
    "output_reserve_for",
    "read_metadata",
    "training_context",
]
