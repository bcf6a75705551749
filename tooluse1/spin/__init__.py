"""SPIN planning track: plan grammar and validator (`plan`), critic prompt and output parsing (`critic`)."""
