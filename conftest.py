# Registers the ToolUse.1 pytest plugin for this project only (it is never auto-loaded elsewhere).
pytest_plugins = ["tooluse1.plugin"]
