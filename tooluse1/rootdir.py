"""Keep pytest's rootdir where the user stands when an option of ours takes a path as a separate argument.

pytest chooses its rootdir and ini file before any plugin can add options: it parses the command line with
its built-in options only, so in `pytest --model /path/to/checkpoint` the checkpoint directory looks like a
test path, becomes the rootdir, and the project's pytest.ini (its testpaths, addopts, pythonpath) and
conftest.py are never read. `--model=/path` works because an argument starting with `-` is never a path.

Our plugins are loaded from a pytest11 entry point, before pytest's first hook that may still change the
outcome (`pytest_load_initial_conftests`). There `reroot` parses the command line again with every option
known, and when the setup pytest would have chosen for the real test paths differs from the one it chose,
applies that one instead: rootdir, ini file and values, the ini's addopts and pythonpath, and the conftest
cut-off directory. This touches attributes of pytest's Config that are not public API (pinned range in
pyproject.toml; tested in tests_grader/test_pytest_entry.py); where they are missing, the user gets one
message naming the `--option=value` spelling that always works.
"""
from __future__ import annotations

import copy

import pytest


def reroot(early_config: pytest.Config, parser: pytest.Parser, args: list[str]) -> None:
    """Re-determine rootdir and ini file from the command line's real test paths (option values excluded).

    Guarantees: does nothing when the result equals pytest's own choice (every invocation without a
    separate path-valued option of ours, and every run where those values lie inside the project); otherwise
    the rest of the session sees the configuration of `pytest --opt=value ...`. Raises pytest.UsageError
    (one message) only when this pytest's Config lacks the attributes needed."""
    from _pytest.config.findpaths import determine_setup

    ns = early_config.known_args_namespace
    rootpath, inipath, inicfg, ignored = determine_setup(
        inifile=ns.inifilename, override_ini=ns.override_ini, args=ns.file_or_dir,
        rootdir_cmd_arg=ns.rootdir or None, invocation_dir=early_config.invocation_params.dir)
    if rootpath == early_config.rootpath and inipath == early_config.inipath:
        return
    try:
        early_config._rootpath, early_config._inipath = rootpath, inipath
        early_config._inicfg, early_config._ignored_config_files = inicfg, ignored
        early_config._inicache.clear()
        parser.extra_info.update(rootdir=str(rootpath), inifile=str(inipath))
        user_cutdir = any(a == "--confcutdir" or a.startswith("--confcutdir=") for a in args)
        if "--override-ini=addopts=" not in args and not any(a.startswith("-o") and "addopts=" in a for a in args):
            # The ini's addopts were read from the wrong (absent) file; pytest puts them before the user's args.
            args[:] = early_config._validate_args(early_config.getini("addopts"), "via addopts config") + args
        early_config._configure_python_path()
        early_config.known_args_namespace = ns = parser.parse_known_args(args, namespace=copy.copy(early_config.option))
        if not user_cutdir:
            ns.confcutdir = str(inipath.parent if inipath is not None else rootpath)
    except AttributeError as e:
        raise pytest.UsageError(
            f"this pytest ({pytest.__version__}) chose {early_config.rootpath} as rootdir because an option value "
            f"looked like a test path, and ToolUse.1 cannot correct it ({e}); write such options as "
            "--model=PATH (with '='), or run `python -m tooluse1 run ...`") from None
