"""Turnlog: a chat client that keeps every turn and shows what each request carried."""

from importlib.metadata import PackageNotFoundError, version

APP_ID = "io.github.turnlog.Turnlog"
APP_NAME = "Turnlog"

try:
    # pyproject.toml holds the one version number; everything reads it from the metadata.
    __version__ = version("turnlog")
except PackageNotFoundError:  # a source tree on sys.path without an install
    __version__ = "0+unknown"
