"""lnrnn/interop/export.py, twelfth pass: a one-layer LSTM classifier (I 2, H 3, O 4, so every transpose shows in a
shape) exported with export_weights and read back by test_values183_export's reader written from the safetensors
definition: each name, shape, dtype and value against the model's own arrays by the module docstring's table
(weight_ih = Wx.T, weight_hh = Wh.T, bias_ih = b, bias_hh = 0, head.weight = W.T, head.bias = b), and the same
weights loaded into torch.nn.LSTM + nn.Linear giving the model's last-step outputs; a name that is not a
safetensors file (a double suffix, a trailing dot) and an unknown format refused word for word with nothing
written; an upper-case .SAFETENSORS accepted."""
import os
from types import SimpleNamespace

import numpy as np
import pytest
import torch

from lnrnn.errors import UserError
from lnrnn.interop.export import export_weights
from lnrnn.model.models import build_model

from test_values183_export import read_by_definition

I, H, O = 2, 3, 4


def _classifier():
    m = build_model(dict(cell="lstm", norm="none", input_size=I, hidden_size=H, num_layers=1, dtype="float64",
                         forget_bias=1.0, head={"kind": "classifier", "outputs": O, "per_step": False}), seed=267)
    rng = np.random.default_rng(267)
    m.flat[0].data[...] = rng.uniform(-0.9, 0.9, m.flat[0].data.size)   # every entry distinct, bias included
    return m


def test_every_exported_tensor_read_back_by_the_definition(tmp_path):
    m = _classifier()
    p = m.params
    shapes = export_weights(SimpleNamespace(model=m, step=11), tmp_path / "w.safetensors")
    tensors, meta = read_by_definition(tmp_path / "w.safetensors")
    want = {"rnn.weight_ih_l0": p["rnn.l0.Wx"].T, "rnn.weight_hh_l0": p["rnn.l0.Wh"].T,
            "rnn.bias_ih_l0": p["rnn.l0.b"], "rnn.bias_hh_l0": np.zeros(4 * H),
            "head.weight": p["head.W"].T, "head.bias": p["head.b"]}
    assert sorted(tensors) == sorted(want)
    assert {k: tuple(v) for k, v in shapes.items()} == {
        "rnn.weight_ih_l0": (12, 2), "rnn.weight_hh_l0": (12, 3), "rnn.bias_ih_l0": (12,),
        "rnn.bias_hh_l0": (12,), "head.weight": (4, 3), "head.bias": (4,)}
    for k, v in want.items():
        assert tensors[k].dtype == np.dtype("<f8"), k
        assert tensors[k].shape == shapes[k], k
        np.testing.assert_array_equal(tensors[k], v, err_msg=k)
    assert not np.any(tensors["rnn.bias_ih_l0"] == 0)                    # a copy of b would show
    assert meta["step"] == "11" and meta["format"] == "lnrnn-export"


def test_the_exported_weights_run_in_torch_give_the_models_outputs(tmp_path):
    m = _classifier()
    export_weights(SimpleNamespace(model=m, step=0), tmp_path / "w.safetensors")
    tensors, _ = read_by_definition(tmp_path / "w.safetensors")
    lstm = torch.nn.LSTM(I, H, num_layers=1).double()
    lstm.load_state_dict({k[len("rnn."):]: torch.tensor(np.array(v)) for k, v in tensors.items()
                          if k.startswith("rnn.")}, strict=True)
    lin = torch.nn.Linear(H, O).double()
    lin.load_state_dict({"weight": torch.tensor(np.array(tensors["head.weight"])),
                         "bias": torch.tensor(np.array(tensors["head.bias"]))}, strict=True)
    x = np.random.default_rng(5).standard_normal((5, 3, I))
    with torch.no_grad():
        out, _ = lstm(torch.tensor(x))
        z = lin(out[-1]).numpy()
    y, _ = m.stack.forward(x, m.stack.zero_state(3), False)
    np.testing.assert_allclose(z, y[-1] @ m.params["head.W"] + m.params["head.b"], rtol=1e-12, atol=1e-13)


@pytest.mark.parametrize("name, says, fix", [
    ("w.safetensors.pt", "ends in .pt", "w.safetensors.safetensors"),
    ("w.", "ends in .", "w.safetensors"),
    ("weights", "has no suffix", "weights.safetensors"),
    ("m.npz", "ends in .npz", "m.safetensors"),
])
def test_a_name_that_is_not_a_safetensors_file_is_refused_word_for_word(tmp_path, name, says, fix):
    run = SimpleNamespace(model=_classifier(), step=0)
    path = tmp_path / name
    with pytest.raises(UserError) as e:
        export_weights(run, path, option="--out")
    assert str(e.value) == (f"--out {path} {says}, but lnrnn export writes safetensors (read it with "
                            f"safetensors.torch.load_file, not torch.load): name it {tmp_path}/{fix}.")
    assert os.listdir(tmp_path) == []


def test_an_upper_case_suffix_is_a_safetensors_name(tmp_path):
    export_weights(SimpleNamespace(model=_classifier(), step=0), tmp_path / "W.SAFETENSORS")
    tensors, _ = read_by_definition(tmp_path / "W.SAFETENSORS")
    assert len(tensors) == 6


@pytest.mark.parametrize("fmt", ["npz", "SafeTensors", ""])
def test_an_unknown_format_is_refused_with_its_name_quoted(tmp_path, fmt):
    with pytest.raises(UserError) as e:
        export_weights(SimpleNamespace(model=_classifier(), step=0), tmp_path / "w.safetensors", fmt=fmt)
    assert str(e.value) == f"unknown export format '{fmt}'; choose one of safetensors."
    assert os.listdir(tmp_path) == []
