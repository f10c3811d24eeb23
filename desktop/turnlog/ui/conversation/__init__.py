"""The open conversation: its header and pickers, the composer, the failure banner, drafts,
versions, the history actions and the first send."""
