"""The ToolUse.1 benchmark: one item per case x protocol, ids `<case-id>-<protocol>`.

    pytest --model default                          # everything (564 items)
    pytest --model default -k "xml and negative"    # the negative cases in the xml protocol
    pytest --model default "test_tooluse1.py::test_case[calculator-en-001-xml]"
    pytest --pyargs tooluse1 --model oracle         # the same items from an installed ToolUse.1

In a checkout `pytest` collects the root's test_tooluse1.py, which re-exports `test_case` from here.

Generation happens once for all selected items (see tooluse1/plugin.py); each test grades its item.
"""
import pytest

from tooluse1.plugin import failure_message


def test_case(tooluse1_record):
    # A sampled item (--samples N) passes when every one of its samples passes (failure_message says how many did).
    if not tooluse1_record.passed:
        # pytrace=False: the compact block is the whole failure report (no assertion introspection noise).
        pytest.fail(failure_message(tooluse1_record), pytrace=False)
