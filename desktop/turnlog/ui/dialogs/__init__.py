"""The dialogs: Settings, About, the privacy confirmations and export, import and export of
all history."""
