"""The rules of Turnlog as plain Python: no Qt, no peewee, no httpx, no keyring.

`store/`, `providers/` and `ui/` depend on this package; never the other way.
"""
