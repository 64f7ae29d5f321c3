"""lnrnn export and lnrnn/interop/export.py, read back by a reader written here from the safetensors definition
(8-byte little-endian header length, a JSON object padded to 8 bytes, dtype codes, shapes, data_offsets back to
back from 0, string-valued __metadata__): an LN-LSTM regression run with every parameter random, its exported
tensors run through the README's LN-LSTM equations (a = LN(h Wh; gh, bh) + LN(x Wx; gx, bx) + b over all G, gates
in the metadata's order, h = s(o) tanh(LN(c; gc, bc)), biased variance, eps 1e-5), give lnrnn.api.predict's values,
and the metadata names the format, the gate order, the model config and the step; lnrnn's reader refuses a header
that is a JSON list with its one sentence; an --out without a suffix is refused as having none, before the run
is loaded, writing nothing."""
import json
import os
import struct

import numpy as np
import pytest

import lnrnn.api
from lnrnn.interop.export import read_safetensors
from lnrnn.model.models import build_model, head_config
from lnrnn.training.checkpoint import save_checkpoint

from test_cli import assert_clean_error, invoke

CODES = {"F16": "<f2", "F32": "<f4", "F64": "<f8", "I32": "<i4", "I64": "<i8", "U8": "u1"}


def read_by_definition(path):
    raw = open(path, "rb").read()
    n = struct.unpack("<Q", raw[:8])[0]
    assert (8 + n) % 8 == 0
    header = json.loads(raw[8:8 + n].decode("utf-8"))
    meta = header.pop("__metadata__", {})
    assert all(isinstance(v, str) for v in meta.values())
    data, out, end = raw[8 + n:], {}, 0
    for name, info in sorted(header.items(), key=lambda kv: kv[1]["data_offsets"]):
        b, e = info["data_offsets"]
        assert b == end                                                    # back to back from 0
        dt = np.dtype(CODES[info["dtype"]])
        out[name] = np.frombuffer(data[b:e], dtype=dt).reshape(info["shape"])
        assert out[name].nbytes == e - b
        end = e
    assert end == len(data)
    return out, meta


def ln(v, g, b):
    mu = v.mean(axis=-1, keepdims=True)
    var = ((v - mu) ** 2).mean(axis=-1, keepdims=True)                     # biased
    return (v - mu) / np.sqrt(var + 1e-5) * g + b


def test_an_ln_lstms_exported_tensors_give_the_runs_values(tmp_path):
    m = build_model(dict(cell="lstm", norm="ln", input_size=2, hidden_size=4, num_layers=1, dtype="float64",
                         forget_bias=1.0, head=head_config("mse", 2, False)), seed=183)
    rng = np.random.default_rng(183)
    for v in m.params.values():                                            # gains and biases all distinct
        v[...] = rng.uniform(-0.9, 0.9, v.shape)
    arrays = {"param/" + k: v for k, v in m.params.items()}
    save_checkpoint(str(tmp_path / "run"), arrays, {"model": m.config, "step": 7, "epoch": 1,
                                                    "task": {"task": "digits"},
                                                    "train": {"cell": "ln-lstm", "eval_batch_size": 100}})
    out = tmp_path / "w.safetensors"
    r = invoke("export", "--checkpoint", tmp_path / "run", "--out", out)
    assert r.exit_code == 0, r.output + repr(r.exception)
    w, meta = read_by_definition(out)
    assert meta["format"] == "lnrnn-export" and meta["step"] == "7" and meta["gate_order"] == "i,f,g,o"
    assert json.loads(meta["model_config"]) == m.config

    x = rng.uniform(-1.0, 1.0, (3, 5, 2))
    H = w["rnn.weight_hh_l0"].shape[1]
    order = meta["gate_order"].split(",")
    sig = lambda v: 1.0 / (1.0 + np.exp(-v))  # noqa: E731
    h, c = np.zeros((3, H)), np.zeros((3, H))
    for t in range(x.shape[1]):
        a = (ln(h @ w["rnn.weight_hh_l0"].T, w["rnn.norm_hh_weight_l0"], w["rnn.norm_hh_bias_l0"])
             + ln(x[:, t] @ w["rnn.weight_ih_l0"].T, w["rnn.norm_ih_weight_l0"], w["rnn.norm_ih_bias_l0"])
             + w["rnn.bias_ih_l0"] + w["rnn.bias_hh_l0"])
        gate = {name: a[:, j * H:(j + 1) * H] for j, name in enumerate(order)}
        c = sig(gate["f"]) * c + sig(gate["i"]) * np.tanh(gate["g"])
        h = sig(gate["o"]) * np.tanh(ln(c, w["rnn.norm_cell_weight_l0"], w["rnn.norm_cell_bias_l0"]))
    mine = h @ w["head.weight"].T + w["head.bias"]
    want = lnrnn.api.predict(lnrnn.api.load_run(str(tmp_path / "run")), x).values
    np.testing.assert_allclose(mine, want, rtol=1e-10, atol=1e-12)


def test_a_header_that_is_a_json_list_is_refused(tmp_path):
    text = b"[]" + b" " * 6
    path = tmp_path / "list.safetensors"
    path.write_bytes(struct.pack("<Q", len(text)) + text)
    with pytest.raises(ValueError) as e:
        read_safetensors(str(path))
    assert str(e.value) == f"{path}: the header is not a JSON object"


def test_an_out_without_a_suffix_is_refused_as_having_none(tmp_path, monkeypatch):
    monkeypatch.setattr(lnrnn.api, "load_run", lambda *a, **k: pytest.fail("the run was loaded"))
    out = tmp_path / "new" / "weights"
    r = invoke("export", "--checkpoint", tmp_path / "run", "--out", out)
    line = assert_clean_error(r, f"--out {out} has no suffix, but lnrnn export writes safetensors")
    assert line.endswith(f"name it {out}.safetensors.")
    assert os.listdir(tmp_path) == []
