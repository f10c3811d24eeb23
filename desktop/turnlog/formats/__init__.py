"""File formats: importers of other apps' exports, export, and reading the files a
question attaches (text, PDF)."""

# What a conversation is exported as (`formats.export`): named here too, so a command's
# options list them without loading the exporters.
EXPORT_FORMATS = ("jsonl", "markdown")
