"""File formats: importers of other apps' exports, export, and reading the files a
question attaches (text, PDF)."""
