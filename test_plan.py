"""The ToolUse.1 SPIN planning track in a checkout: `pytest test_plan.py --model X`.

The items live in the package (tooluse1/spin/plan_items.py, not named test_*.py so that `pytest --pyargs
tooluse1` runs only the core benchmark); an installed ToolUse.1 runs them with `tooluse1 plan --model X`.
"""
from tooluse1.spin.plan_items import test_plan  # noqa: F401  (pytest collects the imported test function)
