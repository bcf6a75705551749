"""The ToolUse.1 SPIN planning track: one item per scenario x variant, ids `<scenario-id>-<variant>`.

    pytest test_plan.py --model default                           # the 61 test scenarios x 5 variants
    pytest test_plan.py --model default --variant base,spin       # two variants
    pytest test_plan.py --model default -m "spin and chain"       # exactly the spin variant's chains
    pytest test_plan.py --model default -k "spin and chain"       # -k matches substrings: spin + its ablations
    pytest test_plan.py --model default --spin-split train --variant valid --save-trajectories URL   # fill the store
    pytest test_plan.py --model oracle                            # scripted: Accomplished everywhere

Items are marked with their variant (base, valid, spin, spin_wo_sim, spin_wo_cri), shape (single, chain,
fan_in, fan_out, early_answer, conditional) and language (en, ru). All selected runs are computed at the
first item (batched, see tooluse1/spin/plugin.py); an item passes when its run is Accomplished.
"""
from tooluse1.spin.plugin import failure_message


def test_plan(spin_record):
    assert spin_record.outcome == "Accomplished", failure_message(spin_record)
