"""Turnlog: a chat client that keeps every turn and shows what each request carried."""

APP_ID = "io.github.turnlog.Turnlog"
APP_NAME = "Turnlog"


def __getattr__(name: str) -> str:
    """`__version__`, read when first asked for: reading the metadata takes tens of
    milliseconds, and `turnlog-cli` must be able to handle Ctrl+C before anything slow."""
    if name != "__version__":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    try:
        # pyproject.toml holds the one version number; everything reads it from the metadata.
        found = version("turnlog")
    except PackageNotFoundError:  # a source tree on sys.path without an install
        found = "0+unknown"
    globals()["__version__"] = found
    return found
