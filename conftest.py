# The ToolUse.1 pytest plugins (core benchmark, SPIN planning track) are loaded from the package's pytest11 entry
# points once it is installed (`make setup`); this line registers them for a checkout that is not installed
# (pytest skips a plugin already registered under the same module name).
pytest_plugins = ["tooluse1.plugin", "tooluse1.spin.plugin"]
