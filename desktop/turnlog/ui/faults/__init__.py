"""When things go wrong: storage faults in the window, the start-up dialog when the data
cannot be opened, the crash report."""
