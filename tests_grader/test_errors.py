"""Every exception class ToolUse.1 defines derives from tooluse1.errors.ToolUse1Error (issue 23)."""
from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest

import tooluse1
from tooluse1.errors import BackendError, ToolUse1Error

# Modules whose import needs an optional heavy dependency this test must not load (torch, openai, psycopg):
# they are walked too, but only when the dependency is importable.
_OPTIONAL = {"tooluse1.backends.transformers_backend": "torch", "tooluse1.backends.fast_decode": "torch",
             "tooluse1.backends.openai_backend": "openai"}


def _package_exception_classes() -> list[type[BaseException]]:
    found: list[type[BaseException]] = []
    for info in pkgutil.walk_packages(tooluse1.__path__, "tooluse1."):
        if info.name == "tooluse1.__main__":   # importing it runs the CLI
            continue
        dep = _OPTIONAL.get(info.name)
        if dep is not None and importlib.util.find_spec(dep) is None:
            continue
        module = importlib.import_module(info.name)
        for _, obj in inspect.getmembers(module, inspect.isclass):
            if issubclass(obj, BaseException) and obj.__module__ == info.name:
                found.append(obj)
    return found


def test_every_exception_class_of_the_package_derives_from_the_base() -> None:
    classes = _package_exception_classes()
    names = {c.__qualname__ for c in classes}
    # the walk really reaches the package's classes, private ones and the SPIN track's included
    assert {"BackendError", "CorpusError", "ScenarioError", "StoreError", "_RunFailed", "ServeError"} <= names
    outside = sorted(f"{c.__module__}.{c.__qualname__}" for c in classes if not issubclass(c, ToolUse1Error))
    assert outside == []


@pytest.mark.parametrize("module, name, builtin", [
    ("tooluse1.results", "ResultsFileError", ValueError), ("tooluse1.compare", "IncomparableError", ValueError),
    ("tooluse1.spin.plan", "PlanError", ValueError), ("tooluse1.spin.store", "StoreError", RuntimeError),
])
def test_classes_keep_their_builtin_base(module: str, name: str, builtin: type) -> None:
    """`except ValueError` in callers still catches what it caught before the common base arrived."""
    assert issubclass(getattr(importlib.import_module(module), name), builtin)


def test_backend_error_is_the_one_class_under_both_names() -> None:
    from tooluse1.backends import base
    from tooluse1.serve import ServeError
    assert base.BackendError is BackendError and issubclass(BackendError, RuntimeError)
    assert issubclass(ServeError, BackendError)
