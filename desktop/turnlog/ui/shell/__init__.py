"""The window itself: its assembly and wiring, menus, geometry, keyboard, and the smoke run."""
