"""The window: PySide6 widgets, models and delegates over core and store."""
