"""The numpy forward pass (``bert.py``) gives sentence-transformers' vectors: the FAISS indexes,
the exemplar bank's cached vectors and every calibration were made with those."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from engine.config import Settings
from engine.providers.embedder.bert import BertEncoder, Unsupported, check_model
from engine.providers.embedder.sentence import SentenceTransformerEmbedder, resolve_model_dir
from engine.understand.bank import Bank


def _texts() -> list[str]:
    """A few hundred texts of every length the engine embeds: the bank's wordings (questions
    with placeholders), single words, long passages past the 256-piece cut, and odd input."""
    wordings = [w for s in Bank.load().slots for w in s.wordings]
    step = max(1, len(wordings) // 250)
    long_text = " ".join(["Montelukast is a leukotriene receptor antagonist for asthma."] * 60)
    return [
        *wordings[::step],
        "aspirin",
        "Alzheimer's disease",
        "boosts",
        "TNF-α inhibitors in Crohn’s disease",
        long_text,
        long_text[:700],
        "",
        "?",
    ]


@pytest.fixture(scope="module")
def both() -> tuple[np.ndarray, np.ndarray, list[str]]:
    texts = _texts()
    model = Settings().embed_model
    light = SentenceTransformerEmbedder(model, 32, runtime="numpy").encode(texts)
    heavy = SentenceTransformerEmbedder(model, 32, runtime="torch").encode(texts)
    return light, heavy, texts


def test_numpy_vectors_are_the_sentence_transformers_vectors(
    both: tuple[np.ndarray, np.ndarray, list[str]],
) -> None:
    light, heavy, texts = both
    assert len(texts) >= 200
    assert light.shape == heavy.shape == (len(texts), 384)
    assert light.dtype == np.float32
    cosine = (light * heavy).sum(axis=1)
    assert cosine.min() >= 0.9999, texts[int(cosine.argmin())]
    assert np.abs(np.linalg.norm(light, axis=1) - 1.0).max() < 1e-5


def test_word_pieces_are_the_tokenizers() -> None:
    model = Settings().embed_model
    light = SentenceTransformerEmbedder(model, runtime="numpy")
    heavy = SentenceTransformerEmbedder(model, runtime="torch")
    for word in ("boosts", "montelukast's", "TNF-α", "crohn’s"):
        assert light.word_pieces(word) == heavy.word_pieces(word)


def _model_copy(tmp_path: Path) -> Path:
    """The packaged model's small files copied, its weights linked (a real model directory)."""
    src = resolve_model_dir(Settings().embed_model)
    dst = tmp_path / "model"
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns("model.safetensors"))
    (dst / "model.safetensors").symlink_to(src / "model.safetensors")
    return dst


def test_a_model_the_numpy_pass_does_not_run_is_refused(tmp_path: Path) -> None:
    model = _model_copy(tmp_path)
    check_model(model)  # the copy as it is runs
    pooling = model / "1_Pooling" / "config.json"
    conf = json.loads(pooling.read_text())
    conf.update(pooling_mode_mean_tokens=False, pooling_mode_cls_token=True)
    pooling.write_text(json.dumps(conf))
    with pytest.raises(Unsupported, match="pooling"):
        BertEncoder(model)


def test_the_embedder_falls_back_to_torch_for_such_a_model(tmp_path: Path) -> None:
    model = _model_copy(tmp_path)
    config = model / "config.json"
    conf = json.loads(config.read_text())
    conf["hidden_act"] = "relu"
    config.write_text(json.dumps(conf))
    embedder = SentenceTransformerEmbedder(str(model), runtime="numpy")
    assert embedder._light() is None and embedder.runtime == "torch"


def test_the_mapped_weights_are_the_files_tensors(tmp_path: Path) -> None:
    from safetensors.numpy import load_file, save_file

    from engine.providers.embedder.bert import mapped

    weights = resolve_model_dir(Settings().embed_model) / "model.safetensors"
    read, whole = mapped(weights), load_file(str(weights))
    assert read.keys() == whole.keys()
    for name, tensor in whole.items():
        assert read[name].dtype == tensor.dtype and np.array_equal(read[name], tensor), name
    small = tmp_path / "small.safetensors"
    tensors = {"a": np.arange(6, dtype=np.float32).reshape(2, 3), "b": np.arange(3)}
    save_file(tensors, str(small), metadata={"format": "np"})
    again = mapped(small)
    assert all(
        np.array_equal(again[k], v) and again[k].dtype == v.dtype for k, v in tensors.items()
    )
    small.write_bytes(small.read_bytes()[:20])  # broken: safetensors' own reader says why
    with pytest.raises(Exception):  # noqa: B017 - whichever error safetensors raises
        mapped(small)


def test_a_short_call_made_again_gets_its_vectors_without_running_the_model() -> None:
    embedder = SentenceTransformerEmbedder(Settings().embed_model, 32, runtime="numpy")
    texts = ["which drugs treat asthma?", "asthma"]
    first = embedder.encode(texts)
    light = embedder._light()
    assert light is not None
    runs: list[int] = []
    forward = light._forward
    light._forward = lambda ids, mask: runs.append(len(ids)) or forward(ids, mask)  # type: ignore[method-assign]
    again = embedder.encode(texts)
    assert runs == [] and np.array_equal(again, first)
    again[0, 0] = 7.0  # the caller's copy: what is kept stays as it was
    assert np.array_equal(embedder.encode(texts), first)
    embedder.encode(["asthma"])  # another call: run, not pieced together from the last
    assert runs == [1]


def test_a_text_computed_unpadded_in_a_call_gets_that_row_alone_the_same_bits() -> None:
    """A question's masked form and its words are embedded together by the planner, the masked
    form alone by memory: the longest text's row is computed as it is alone, so its own call
    is answered from it, with the very bits a call of it alone computes; a padded row is not."""
    model = Settings().embed_model
    embedder = SentenceTransformerEmbedder(model, 32, runtime="numpy")
    fresh = SentenceTransformerEmbedder(model, 32, runtime="numpy")
    masked, raw = "Which drugs treat [Disease]?", "Which drugs treat asthma?"
    embedder.encode([masked, raw])
    light = embedder._light()
    assert light is not None
    runs: list[int] = []
    forward = light._forward
    light._forward = lambda ids, mask: runs.append(len(ids)) or forward(ids, mask)  # type: ignore[method-assign]
    assert np.array_equal(embedder.encode([masked]), fresh.encode([masked]))
    assert runs == []
    assert np.array_equal(embedder.encode([raw]), fresh.encode([raw]))
    assert runs == [1]  # padded in the call: run alone


def test_unpadded_rows_are_the_vectors_of_the_texts_alone() -> None:
    """What the row reuse rests on, over calls of 2-5 of the bank's wordings."""
    encoder = SentenceTransformerEmbedder(Settings().embed_model, 32, runtime="numpy")._light()
    assert encoder is not None
    wordings = [w for s in Bank.load().slots for w in s.wordings][::7]
    unpadded = 0
    for n in range(0, 120, 3):
        texts = wordings[n : n + 2 + n % 4]
        vecs, alone = encoder.encode_rows(texts)
        for text, row, solo in zip(texts, vecs, alone, strict=True):
            if solo:
                unpadded += 1
                assert np.array_equal(row, encoder.encode([text])[0]), text
    assert unpadded >= 40
