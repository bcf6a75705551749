"""benchmarks/bfcl_side_by_side.py's own rules, without bfcl-eval or BFCL's data: the perturbed outputs it
writes from a right call, and the two shapes it hands the graders (ToolUse.1's json protocol, BFCL's
decoded calls)."""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _module():
    spec = importlib.util.spec_from_file_location("bfcl_side_by_side", ROOT / "benchmarks" / "bfcl_side_by_side.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ITEM = {"id": "live_simple_0-0-0", "function": [
    {"name": "get_user_info", "parameters": {"type": "dict", "required": ["user_id"], "properties": {
        "user_id": {"type": "integer"},
        "special": {"type": "string", "default": "none"},
        "verbose": {"type": "boolean", "default": False}}}}]}
RIGHT = {"name": "get_user_info", "arguments": {"user_id": 7890, "special": "Black, Inc."}}


def test_each_perturbation_changes_the_right_call_by_its_rule():
    m = _module()
    out = {k: m.perturb(k, ITEM, RIGHT) for k in m.PERTURBATIONS}
    assert out["right"] == [RIGHT]
    assert out["wrong_value"][0]["arguments"] == {"user_id": 7897, "special": "Black, Inc."}
    assert out["missing_required"][0]["arguments"] == {"special": "Black, Inc."}
    assert out["default_stated"][0]["arguments"]["verbose"] is False
    assert out["extra_undeclared"][0]["arguments"]["note"]
    assert out["value_as_string"][0]["arguments"]["user_id"] == "7890"
    assert out["string_respelled"][0]["arguments"]["special"] == "black inc"
    assert out["optional_left_out"][0]["arguments"] == {"user_id": 7890}
    assert isinstance(out["no_call"], str)
    assert out["wrong_name"][0]["name"] == "get_user_info_v2"
    assert out["second_call"] == [RIGHT, RIGHT]
    assert RIGHT == {"name": "get_user_info", "arguments": {"user_id": 7890, "special": "Black, Inc."}}


def test_a_rule_that_does_not_apply_writes_nothing():
    m = _module()
    only_required = {"name": "get_user_info", "arguments": {"user_id": 1}}
    assert m.perturb("optional_left_out", ITEM, only_required) is None
    assert m.perturb("string_respelled", ITEM, only_required) is None


def test_outputs_reach_each_grader_in_its_own_shape():
    m = _module()
    two = [RIGHT, RIGHT]
    assert [json.loads(line) for line in m.as_json_protocol(two).splitlines()] == two
    assert m.as_bfcl(two) == [{"get_user_info": RIGHT["arguments"]}] * 2
    assert m.as_bfcl("no call here") is None and m.as_json_protocol("no call here") == "no call here"
