"""lnrnn/interop/export.py against the safetensors definition, with test_values212_export's writer by hand (an
8-byte little-endian header length N, N bytes of JSON, the data with offsets counted from its first byte): a
header length that runs past the file by one byte is refused naming that length, one that ends exactly at the
file's end is read; tensors with a gap, or overlapping, are refused as not back to back, the same two
back to back (listed out of order, an empty one among them) are read; offsets that do not fit the shape are
refused naming both offsets as written; export_weights' metadata holds the model's config (the keys given to
build_model, its head, its state noise), and lnrnn.jax.load_export hands that config back with the
parameters under their names without the rnn. prefix."""
import json
import struct
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn.interop.export import export_weights, read_safetensors
from lnrnn.model.models import build_model, head_config
from test_values212_export import write_by_definition


def test_a_header_length_past_the_end_by_one_byte_is_refused_with_that_length(tmp_path):
    ok = tmp_path / "ok.safetensors"
    ok.write_bytes(struct.pack("<Q", 8) + b"{}      ")                   # N = 8: the header ends the file
    assert read_safetensors(str(ok)) == ({}, {})
    bad = tmp_path / "bad.safetensors"
    bad.write_bytes(struct.pack("<Q", 9) + b"{}      ")                  # N = 9: one byte past the end
    with pytest.raises(ValueError) as e:
        read_safetensors(str(bad))
    assert str(e.value) == f"{bad}: header length 9 runs past the end of the file"


def _two(tmp_path, name, a_offsets, b_offsets, size):
    header = {"b": {"dtype": "F32", "shape": [2], "data_offsets": b_offsets},
              "a": {"dtype": "F32", "shape": [2], "data_offsets": a_offsets},
              "e": {"dtype": "F64", "shape": [0], "data_offsets": [8, 8]}}
    return write_by_definition(tmp_path / name, header, np.arange(size // 4, dtype="<f4").tobytes())


def test_tensors_with_a_gap_or_an_overlap_are_refused_and_back_to_back_ones_read(tmp_path):
    path = _two(tmp_path, "fine.safetensors", [0, 8], [8, 16], 16)
    tensors, _ = read_safetensors(path)
    assert tensors["a"].tolist() == [0.0, 1.0] and tensors["b"].tolist() == [2.0, 3.0]
    assert tensors["e"].shape == (0,) and tensors["e"].dtype == np.float64
    for name, a, b, size in [("gap", [0, 8], [12, 20], 20), ("overlap", [0, 8], [4, 12], 12),
                             ("late", [4, 12], [12, 20], 20)]:
        path = _two(tmp_path, f"{name}.safetensors", a, b, size)
        with pytest.raises(ValueError) as e:
            read_safetensors(path)
        assert str(e.value) == f"{path}: the tensors do not cover the data buffer back to back"


def test_offsets_that_do_not_fit_the_shape_are_named_as_written(tmp_path):
    header = {"w": {"dtype": "F32", "shape": [2, 3], "data_offsets": [4, 20]}}   # 16 bytes for 24
    path = write_by_definition(tmp_path / "w.safetensors", header, bytes(20))
    with pytest.raises(ValueError) as e:
        read_safetensors(path)
    assert str(e.value) == f"{path}: w has offsets 4..20 that do not fit shape (2, 3) float32"


def test_the_metadata_holds_the_models_config_and_load_export_hands_it_back(tmp_path):
    lj = pytest.importorskip("lnrnn.jax")
    given = dict(cell="lstm", norm="ln", input_size=3, hidden_size=2, num_layers=2, dtype="float64",
                 forget_bias=0.5, head=head_config("mse", 4, True))
    m = build_model(dict(given), seed=225)
    path = tmp_path / "w.safetensors"
    export_weights(SimpleNamespace(model=m, step=11), path)
    _, meta = read_safetensors(str(path))
    config = json.loads(meta["model_config"])
    for k, v in given.items():
        assert config[k] == v, k
    assert config["state_noise"] == m.state_noise and meta["step"] == "11"
    params, stats, back = lj.load_export(str(path))
    assert back == config and stats == {}
    for k in range(2):                              # as JAX holds them (float32 unless 64-bit types are on)
        for name, want in [(f"weight_ih_l{k}", m.params[f"rnn.l{k}.Wx"].T), (f"norm_cell_bias_l{k}",
                                                                            m.params[f"rnn.l{k}.bc"])]:
            got = np.asarray(params[name])
            np.testing.assert_array_equal(got, want.astype(got.dtype))
