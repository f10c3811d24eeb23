"""The side panels: the conversation list and its filter, search, memory and side questions."""
