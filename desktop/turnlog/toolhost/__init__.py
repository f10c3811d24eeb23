"""MCP tool servers at run time: started on first use, one asyncio loop off the GUI thread."""
