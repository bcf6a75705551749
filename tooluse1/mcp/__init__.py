"""ToolUse.1's MCP track: 13 MCP stdio servers of our own (servers.py, serve.py), the synchronous client pool
(client.py), 18 two-server tasks with their solver-built references (tasks.py, tasks.yaml, references.json),
Table 4's deterministic columns (metrics.py) and scripted agents (scripted.py). BASE and SPIN as MCP clients
live in tooluse1/spin/mcp_runner.py; `python -m tooluse1.mcp` runs them (docs/mcp.md)."""
