"""lnrnn.predict (lnrnn/api.py) on a tiny per-step classifier trained here by lnrnn.fit: probabilities at every
valid step against a plain LSTM and the head's softmax written in NumPy from the run's parameters
(test_values101_api's), classes the argmax there and -1 past each row's length, whatever the batch size; row
lengths outside 1..T (T+1, 0, a float, the wrong count) refused by a one-line UserError naming lengths."""
import numpy as np
import pytest

import lnrnn
from lnrnn.errors import UserError
from test_values101_api import C, HID, I, N, T, _arrays, _probs_by_hand


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("api117") / "step"
    x, y = _arrays(1)
    lnrnn.fit(x, y, cell="lstm", out=str(out), epochs=1, hidden=HID, batch_size=4, x_val=x[:2], y_val=y[:2])
    return lnrnn.load_run(str(out)), x


@pytest.mark.parametrize("batch_size", [1, 3, N])
def test_predict_against_the_lstm_by_hand(run, batch_size):
    r, x = run
    lengths = np.array([T, 2, 1, T, 3, 1, 2, T])
    p = lnrnn.predict(r, x, lengths, batch_size=batch_size)
    want = _probs_by_hand(r.model.params, x)                      # (N,T,C)
    valid = np.arange(T)[None, :] < lengths[:, None]              # (N,T)
    assert p.probabilities.shape == (N, T, C) and p.classes.shape == (N, T) and p.classes.dtype == np.int64
    np.testing.assert_allclose(p.probabilities[valid], want[valid], rtol=2e-5, atol=1e-6)
    np.testing.assert_array_equal(p.classes[valid], want[valid].argmax(-1))
    assert np.all(p.classes[~valid] == -1)
    np.testing.assert_array_equal(p.lengths, lengths)


@pytest.mark.parametrize("lengths", [[T + 1] + [T] * (N - 1), [T] * (N - 1) + [T + 1], [0] + [T] * (N - 1),
                                     [float(T)] * N, [T] * (N - 1)])
def test_lengths_outside_one_to_T_refused(run, lengths):
    r, x = run
    with pytest.raises(UserError) as e:
        lnrnn.predict(r, x, np.array(lengths))
    assert "lengths" in str(e.value) and f"T={T}" in str(e.value) and "\n" not in str(e.value)
