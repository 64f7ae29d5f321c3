"""The Python API (lnrnn/api.py) on a tiny per-step LSTM classifier trained here by lnrnn.fit: predict against
the same network recomputed here in NumPy (float64) from the run's export (lnrnn.api.export_run, torch's gate
order i, f, g, o), in batches of two over five rows (a partial last batch), with lengths 1 and T among the rows:
probabilities that are the softmax of the head's outputs at each valid step, classes their argmax and -1 past a
row's end; load_run of a pathlib.Path keeping the folder as a string; and the one-sentence refusals of lengths out
of range and of a data file whose input count does not fit the checkpoint (both heads described in words)."""
import pathlib

import numpy as np
import pytest

import lnrnn
from lnrnn.api import evaluate_run, export_run, load_run, predict
from lnrnn.errors import CheckpointError, UserError
from lnrnn.interop.export import read_safetensors
from test_values161_api import _arrays  # (n, T, I) float32 inputs and (n, T) classes, T 4, I 2, C 3 as here

N, T, I, C, HID = 5, 4, 2, 3, 3
LENGTHS = np.array([4, 1, 3, 2, 4])   # 1 and T among them; the last row alone in its batch of two


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("api196") / "step"
    x, y = _arrays(N, 0)
    xv, yv = _arrays(2, 1)
    return lnrnn.fit(x, y, cell="lstm", out=str(out), epochs=1, hidden=HID, batch_size=4, x_val=xv, y_val=yv), out


def _sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def _numpy_logits(tensors, x):
    """x (N,T,I) -> the head's outputs (N,T,C) of a one-layer LSTM from zero states, torch's formulas."""
    w = {k: np.asarray(v, np.float64) for k, v in tensors.items()}
    n = x.shape[0]
    h, c = np.zeros((n, HID)), np.zeros((n, HID))
    out = np.zeros((n, T, C))
    for t in range(T):
        a = (x[:, t].astype(np.float64) @ w["rnn.weight_ih_l0"].T + w["rnn.bias_ih_l0"]
             + h @ w["rnn.weight_hh_l0"].T + w["rnn.bias_hh_l0"])
        i, f, g, o = (a[:, k * HID:(k + 1) * HID] for k in range(4))
        c = _sigmoid(f) * c + _sigmoid(i) * np.tanh(g)
        h = _sigmoid(o) * np.tanh(c)
        out[:, t] = h @ w["head.weight"].T + w["head.bias"]
    return out


def test_predict_equals_the_lstm_recomputed_from_the_export(run, tmp_path):
    r, _ = run
    export_run(r, tmp_path / "e.safetensors")
    tensors, meta = read_safetensors(tmp_path / "e.safetensors")
    assert meta["gate_order"] == "i,f,g,o"
    x, _ = _arrays(N, 3)
    logits = _numpy_logits(tensors, x)
    e = np.exp(logits - logits.max(-1, keepdims=True))
    probs = e / e.sum(-1, keepdims=True)
    p = predict(r, x, lengths=LENGTHS, batch_size=2)
    valid = np.arange(T)[None, :] < LENGTHS[:, None]                        # (N,T)
    np.testing.assert_array_equal(p.lengths, LENGTHS)
    np.testing.assert_allclose(p.probabilities[valid], probs[valid], rtol=2e-5, atol=1e-6)
    np.testing.assert_allclose(p.probabilities[valid].sum(-1), 1.0, rtol=1e-12)
    np.testing.assert_array_equal(p.classes, np.where(valid, probs.argmax(-1), -1))
    # every row in one batch: the same numbers at the valid steps
    q = predict(r, x, lengths=LENGTHS, batch_size=N)
    np.testing.assert_allclose(p.probabilities[valid], q.probabilities[valid], rtol=1e-12)


def test_load_run_of_a_path_keeps_the_folder_as_a_string(run):
    _, out = run
    r = load_run(pathlib.Path(out))
    assert r.path == str(out) and isinstance(r.path, str)
    assert repr(r).startswith(f"Run({str(out)!r}: ")


@pytest.mark.parametrize("lengths", [[4, 0, 3, 2, 4], [4, 5, 3, 2, 4], [4, 1, 3]])
def test_lengths_out_of_range_are_refused_in_one_sentence(run, lengths):
    r, _ = run
    with pytest.raises(UserError) as e:
        predict(r, _arrays(N, 3)[0], lengths=np.array(lengths))
    assert str(e.value) == f"lengths must be N={N} integers between 1 and T={T}."


def test_a_data_file_of_another_input_count_is_refused_with_both_heads(run, tmp_path):
    r, _ = run
    x, y = _arrays(4, 5, inputs=I + 1)
    other = tmp_path / "other.npz"
    np.savez(other, x=x, y=y, x_val=x[:2], y_val=y[:2])
    with pytest.raises(CheckpointError) as e:
        evaluate_run(r, "val", data_dir=other)
    assert str(e.value) == (f"checkpoint {r.path} expects {I} inputs and a classifier head with {C} outputs, but npz "
                            f"has {I + 1} inputs and needs a classifier head with {C} outputs.")
