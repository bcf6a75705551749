# Registers the ToolUse.1 pytest plugins (core benchmark, SPIN planning track) for this project only
# (they are never auto-loaded elsewhere).
pytest_plugins = ["tooluse1.plugin", "tooluse1.spin.plugin"]
