"""The ToolUse.1 benchmark in a checkout: `pytest --model X` collects this file (pytest.ini's testpaths).

The items live in the package (tooluse1/test_tooluse1.py), so an installed ToolUse.1 runs the same ones:
`pytest --pyargs tooluse1 --model X` or `tooluse1 run --model X`. See that module for the usage lines.
"""
from tooluse1.test_tooluse1 import test_case  # noqa: F401  (pytest collects the imported test function)
