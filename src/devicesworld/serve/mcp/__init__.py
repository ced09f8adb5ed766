"""MCP servers over a task's devices (``devicesworld serve mcp``); needs the ``mcp`` extra."""
