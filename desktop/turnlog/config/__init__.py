"""Configuration: where Turnlog keeps its files, provider profiles, the API keys in
the OS keyring, tool server settings, and what is known or learned about models."""
