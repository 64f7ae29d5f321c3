"""lnrnn/model/functional.py's forward keeps what backward needs unless told not to: called without ``keep``, it
returns the saved tuple, the same arrays bit for bit as with keep=True; keep=False returns None and the same y and
final state (the plain LSTM, the LN-RNN, the BN-LSTM; float64, test_values282_cells' problem: T 4, B 3, I 7, H 5).
"""
import numpy as np
import pytest

from lnrnn.model import functional
from test_values282_cells import H, T, setup_of


@pytest.mark.parametrize("name", ["lstm", "ln-rnn", "bn-lstm"])
def test_forward_keeps_by_default(name):
    spec, p, x, state, _ = setup_of(name, 4)
    s = functional.setup(spec, H, np.float64)

    def run(**kw):
        return functional.forward(s, x, state, p, spec.init_buffers(H, T, np.float64), training=True, **kw)
    y, final, saved = run()
    y1, final1, saved1 = run(keep=True)
    y0, final0, saved0 = run(keep=False)
    assert saved is not None and saved0 is None
    assert len(saved) == len(saved1)
    for a, b in zip(saved, saved1):
        if isinstance(a, np.ndarray):
            np.testing.assert_array_equal(a, b)
    for got in (y1, y0):
        np.testing.assert_array_equal(y, got)
    for got in (final1, final0):
        for a, b in zip(final, got):
            np.testing.assert_array_equal(a, b)
