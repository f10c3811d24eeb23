"""The built-in local model: a llama-cpp-python server Turnlog starts itself.

Optional: everything here needs the `turnlog[local]` extra at run time, and
`available()` says (with a reason) whether it is installed. The server speaks
the OpenAI protocol, so requests go through the ordinary HTTP provider; this
package only finds the model, runs the server and counts tokens exactly.
"""

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
