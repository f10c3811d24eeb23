"""Turnlog: a chat client that keeps every turn and shows what each request carried."""

APP_ID = "io.github.turnlog.Turnlog"
APP_NAME = "Turnlog"
__version__ = "0.1.0"
