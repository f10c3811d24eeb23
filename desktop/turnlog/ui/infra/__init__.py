"""What every room of the window stands on: the task runner and the storage operations,
the theme, the interface languages, failures in words, small window and file helpers."""
