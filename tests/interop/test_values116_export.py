"""lnrnn/interop/export.py read back and run: a plain two-layer LSTM's export, parsed with a reader written here
from the safetensors definition (8-byte little-endian header length, JSON header, data from offset 0), drives
an LSTM written here in PyTorch's convention (gates x W_ih^T + b_ih + h W_hh^T + b_hh in the order i, f, g, o)
whose last hidden state must equal the model's own last_outputs; the same for a plain RNN with tanh, whose
square W_hh would load either way round."""
import json
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn.interop.export import export_weights
from lnrnn.model.models import build_model, head_config


def parse(path):
    raw = open(path, "rb").read()
    n = int.from_bytes(raw[:8], "little")
    assert 8 + n <= len(raw)
    header = json.loads(raw[8:8 + n])
    meta = header.pop("__metadata__", {})
    data = raw[8 + n:]
    codes = {"F32": "<f4", "F64": "<f8"}
    return {k: np.frombuffer(data[v["data_offsets"][0]:v["data_offsets"][1]], dtype=codes[v["dtype"]])
            .reshape(v["shape"]) for k, v in header.items()}, meta


def sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def torch_convention(t, x, cell, layers):
    """(T,B,I) -> (B,H): the last step's top hidden state."""
    seq = x
    for k in range(layers):
        W_ih, W_hh = t[f"rnn.weight_ih_l{k}"], t[f"rnn.weight_hh_l{k}"]
        b = t[f"rnn.bias_ih_l{k}"] + t[f"rnn.bias_hh_l{k}"]
        H = W_hh.shape[1]
        h = np.zeros((x.shape[1], H))
        c = np.zeros_like(h)
        outs = []
        for x_t in seq:
            z = x_t @ W_ih.T + h @ W_hh.T + b
            if cell == "lstm":
                i, f, g, o = (z[:, j * H:(j + 1) * H] for j in range(4))
                c = sigmoid(f) * c + sigmoid(i) * np.tanh(g)
                h = sigmoid(o) * np.tanh(c)
            else:
                h = np.tanh(z)
            outs.append(h)
        seq = np.array(outs)
    return seq[-1]


@pytest.mark.parametrize("cell,G", [("lstm", 12), ("rnn", 3)])
def test_the_export_runs_as_the_model_does(tmp_path, cell, G):
    model = build_model(dict(cell=cell, norm="none", input_size=2, hidden_size=3, num_layers=2, dtype="float64",
                             forget_bias=1.0, head=head_config("ce", 4)), seed=11)
    rng = np.random.default_rng(116)
    for v in model.params.values():
        v[...] = rng.uniform(-0.8, 0.8, v.shape)    # square W_hh that is not symmetric, nonzero biases
    path = tmp_path / "w.safetensors"
    export_weights(SimpleNamespace(model=model, step=1), path)
    t, meta = parse(path)
    assert meta["pytorch_compatible"] == "true"
    for k in range(2):
        assert t[f"rnn.weight_hh_l{k}"].shape == (G, 3)
        assert t[f"rnn.weight_ih_l{k}"].shape == (G, 2 if k == 0 else 3)
    x = rng.normal(size=(5, 2, 2))
    np.testing.assert_allclose(torch_convention(t, x, cell, 2), model.last_outputs(x), rtol=1e-10, atol=1e-12)
