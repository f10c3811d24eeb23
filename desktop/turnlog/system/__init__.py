"""The two doors to the operating system: the one way a child process is started
(it dies with Turnlog) and the one bounded reader of user-named files."""
