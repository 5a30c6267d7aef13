"""The sentence encoder's forward pass in numpy, over the model directory's own files.

Importing sentence-transformers (and with it transformers and torch) costs about 12 s on two
cores; a question's embedding needs none of it. For a model this module knows how to run — a
BERT encoder with mean pooling and normalisation, as all-MiniLM-L6-v2 is — the weights are read
from ``model.safetensors`` (``safetensors.numpy``) and the text is cut into word pieces by the
model's ``tokenizer.json`` (``tokenizers``, the library transformers' fast tokenizer is), so
the vectors are those of sentence-transformers to float32 rounding (``tests/engine/
test_bert_numpy.py`` compares them). Any other model raises ``Unsupported`` and is run by
sentence-transformers.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from engine.providers.embedder.base import Vectors

Array = npt.NDArray[Any]
"""float32 arrays (numpy's stubs widen them to float64 through scalar arithmetic)."""

_ERF = (0.254829592, -0.284496736, 1.421413741, -1.453152027, 1.061405429)
_ERF_P = 0.3275911


class Unsupported(ValueError):
    """The model directory holds a model this forward pass does not run."""


def _erf(x: Array) -> Array:
    """erf to within 1.5e-7 (Abramowitz & Stegun 7.1.26), below float32's resolution of a
    GELU's output; numpy has no erf of its own and scipy's import costs half a second."""
    a = np.abs(x)
    t = 1.0 / (1.0 + _ERF_P * a)
    poly = t * (_ERF[0] + t * (_ERF[1] + t * (_ERF[2] + t * (_ERF[3] + t * _ERF[4]))))
    out: Array = np.sign(x) * (1.0 - poly * np.exp(-a * a))
    return out


def _layer_norm(x: Array, weight: Array, bias: Array, eps: float) -> Array:
    mean = x.mean(-1, keepdims=True)
    centred = x - mean
    var = (centred * centred).mean(-1, keepdims=True)
    out: Array = centred / np.sqrt(var + eps) * weight + bias
    return out


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise Unsupported(f"{path.name}: {exc}") from exc


def check_model(model_dir: Path) -> tuple[dict[str, Any], int]:
    """The BERT config and the maximum sequence length of a sentence-transformers model
    directory this module runs; ``Unsupported`` naming what differs otherwise."""
    modules = _read_json(model_dir / "modules.json")
    kinds = [m.get("type", "").rsplit(".", 1)[-1] for m in modules]
    if kinds not in (["Transformer", "Pooling", "Normalize"], ["Transformer", "Pooling"]):
        raise Unsupported(f"modules {kinds}")
    if kinds[-1] != "Normalize":
        raise Unsupported("the model does not normalise its vectors")
    pooling_dir = next(m.get("path", "") for m in modules if m["type"].endswith("Pooling"))
    pooling = _read_json(model_dir / pooling_dir / "config.json")
    modes = sorted(k for k, v in pooling.items() if k.startswith("pooling_mode") and v)
    if modes != ["pooling_mode_mean_tokens"]:
        raise Unsupported(f"pooling {modes}")
    config = _read_json(model_dir / "config.json")
    wanted = {
        "model_type": "bert",
        "hidden_act": "gelu",
        "position_embedding_type": "absolute",
    }
    for key, value in wanted.items():
        if config.get(key, value) != value:
            raise Unsupported(f"{key} {config.get(key)!r}")
    st = _read_json(model_dir / "sentence_bert_config.json")
    limit = int(st.get("max_seq_length") or config["max_position_embeddings"])
    if (
        not (model_dir / "model.safetensors").exists()
        or not (model_dir / "tokenizer.json").exists()
    ):
        raise Unsupported("no model.safetensors or tokenizer.json")
    return config, min(limit, int(config["max_position_embeddings"]))


_DTYPES = {"F32": np.float32, "F16": np.float16, "I64": np.int64, "I32": np.int32}


def mapped(path: Path) -> dict[str, Array]:
    """The tensors of a safetensors file as read-only arrays over a memory map of it: only
    the pages a question touches are read (the 30,522-row word table is 47 MB, of which a
    question uses a few rows), and nothing is copied. A layout this reader does not take is
    read whole by ``safetensors`` itself."""
    try:
        with path.open("rb") as f:
            size = int.from_bytes(f.read(8), "little")
            header = json.loads(f.read(size))
        data = np.memmap(path, dtype=np.uint8, mode="r", offset=8 + size)
        out: dict[str, Array] = {}
        for name, meta in header.items():
            if name == "__metadata__":
                continue
            dtype = np.dtype(_DTYPES[meta["dtype"]]).newbyteorder("<")
            start, stop = meta["data_offsets"]
            if start % dtype.itemsize:
                raise ValueError(f"{name} is not aligned")
            out[name] = np.asarray(data[start:stop]).view(dtype).reshape(meta["shape"])
        return out
    except (OSError, ValueError, KeyError, TypeError):
        from safetensors.numpy import load_file

        return dict(load_file(str(path)))


class BertEncoder:
    """Mean-pooled, L2-normalised BERT sentence vectors in numpy (float32)."""

    def __init__(self, model_dir: Path, batch_size: int = 64) -> None:
        from tokenizers import Tokenizer

        config, self.max_length = check_model(model_dir)
        self.batch_size = batch_size
        self.heads = int(config["num_attention_heads"])
        self.eps = float(config.get("layer_norm_eps", 1e-12))
        self.tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        # sentence-transformers cuts at max_seq_length, whatever tokenizer.json says
        self.tokenizer.enable_truncation(self.max_length)
        self.tokenizer.no_padding()
        w = {k.removeprefix("bert."): v for k, v in mapped(model_dir / "model.safetensors").items()}
        try:
            self.words = w["embeddings.word_embeddings.weight"]
            self.positions = w["embeddings.position_embeddings.weight"]
            self.type0 = w["embeddings.token_type_embeddings.weight"][0]
            self.norm0 = (w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
            self.layers = [self._layer(w, i) for i in range(int(config["num_hidden_layers"]))]
        except KeyError as exc:
            raise Unsupported(f"no weight {exc}") from exc
        self.dim = int(self.words.shape[1])

    @staticmethod
    def _layer(w: dict[str, Array], i: int) -> tuple[Array, ...]:
        def g(name: str) -> Array:
            return w[f"encoder.layer.{i}.{name}"]

        qkv = ("query", "key", "value")
        # transposed views, not copies: BLAS multiplies by a transposed matrix as fast
        return (
            np.concatenate([g(f"attention.self.{n}.weight") for n in qkv]).T,
            np.concatenate([g(f"attention.self.{n}.bias") for n in qkv]),
            g("attention.output.dense.weight").T,
            g("attention.output.dense.bias"),
            g("attention.output.LayerNorm.weight"),
            g("attention.output.LayerNorm.bias"),
            g("intermediate.dense.weight").T,
            g("intermediate.dense.bias"),
            g("output.dense.weight").T,
            g("output.dense.bias"),
            g("output.LayerNorm.weight"),
            g("output.LayerNorm.bias"),
        )

    def word_pieces(self, word: str) -> list[str]:
        """The tokenizer's pieces of ``word`` ("boosts" -> ["boost", "##s"])."""
        return list(self.tokenizer.encode(word, add_special_tokens=False).tokens)

    def encode(self, texts: list[str]) -> Vectors:
        """Unit vectors of ``texts``, batched by length so padding stays short."""
        return self.encode_rows(texts)[0]

    def encode_rows(self, texts: list[str]) -> tuple[Vectors, list[bool]]:
        """``encode``, and for each text whether its row was computed unpadded (its batch as
        wide as it): such a row is the very vector the text gets alone, bit for bit (the
        matrix products of a row do not depend on the other rows; a padded row's attention
        sums over more positions and differs in the last bits)."""
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        alone = [False] * len(texts)
        if not texts:
            return out, alone
        ids = [e.ids for e in self.tokenizer.encode_batch(texts)]
        order = sorted(range(len(texts)), key=lambda i: -len(ids[i]))
        for s in range(0, len(order), self.batch_size):
            rows = order[s : s + self.batch_size]
            width = max(len(ids[i]) for i in rows)
            for i in rows:
                alone[i] = len(ids[i]) == width
            batch = np.zeros((len(rows), width), dtype=np.int64)
            mask = np.zeros((len(rows), width), dtype=np.float32)
            for r, i in enumerate(rows):
                batch[r, : len(ids[i])] = ids[i]
                mask[r, : len(ids[i])] = 1.0
            out[rows] = self._forward(batch, mask)
        return out, alone

    def _forward(self, ids: npt.NDArray[np.int64], mask: Array) -> Array:
        b, n = ids.shape
        d, h = self.dim, self.heads
        hd = d // h
        x = self.words[ids] + self.positions[:n] + self.type0
        x = _layer_norm(x, *self.norm0, self.eps).reshape(b * n, d)
        hide = ((1.0 - mask) * np.finfo(np.float32).min)[:, None, None, :]
        scale = np.float32(1.0 / np.sqrt(hd))
        root2 = np.float32(np.sqrt(2.0))
        for qkv_w, qkv_b, o_w, o_b, n1_w, n1_b, i_w, i_b, f_w, f_b, n2_w, n2_b in self.layers:
            qkv = (x @ qkv_w + qkv_b).reshape(b, n, 3, h, hd).transpose(2, 0, 3, 1, 4)
            q, k, v = qkv[0], qkv[1], qkv[2]
            att = (q @ k.transpose(0, 1, 3, 2)) * scale + hide
            att = np.exp(att - att.max(-1, keepdims=True))
            att /= att.sum(-1, keepdims=True)
            ctx = (att @ v).transpose(0, 2, 1, 3).reshape(b * n, d)
            x = _layer_norm(ctx @ o_w + o_b + x, n1_w, n1_b, self.eps)
            inner = x @ i_w + i_b
            inner = inner * np.float32(0.5) * (np.float32(1.0) + _erf(inner / root2))
            x = _layer_norm(inner @ f_w + f_b + x, n2_w, n2_b, self.eps)
        x3 = x.reshape(b, n, d)
        pooled = (x3 * mask[..., None]).sum(1) / np.maximum(mask.sum(1, keepdims=True), 1e-9)
        norm = np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
        return np.asarray(pooled / norm, dtype=np.float32)
