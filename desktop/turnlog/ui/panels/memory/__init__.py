"""The Memory panel: pinned facts, notes and preferences, in a dock beside the inspector."""
