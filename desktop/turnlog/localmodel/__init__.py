"""The built-in local model: a llama-cpp-python server Turnlog starts itself.

Optional: everything here needs the `turnlog[local]` extra at run time, and
`available()` says (with a reason) whether it is installed. The server speaks
the OpenAI protocol, so requests go through the ordinary HTTP provider; this
package only finds the model, runs the server and counts tokens exactly.
"""

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
    LocalEndpoint,
    LocalModelFailure,
    LocalServer,
    free_port,
    output_reserve_for,
)
from .tokens import ServerTokenCounter, TemplateCosts, TokenizeError

__all__ = [
    "BUILTIN",
    "DEFAULT_N_CTX",
    "Availability",
    "LocalEndpoint",
    "LocalModelFailure",
    "LocalServer",
    "ModelInfo",
    "NotAModelFile",
    "ServerTokenCounter",
    "TemplateCosts",
    "TokenizeError",
    "available",
    "builtin_model_path",
    "check_gguf",
    "describe",
    "free_port",
    "output_reserve_for",
    "read_metadata",
    "training_context",
]
