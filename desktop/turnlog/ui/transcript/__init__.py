"""The transcript: the list model over the log, the delegate that paints its rows, the view,
and what a row is made of (answer documents, text selection, marks, pinned words)."""
