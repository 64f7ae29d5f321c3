"""lnrnn/model/cells.py's infer_seqs, watched at the kernels (test_infer_path's count_kernels): a forward that no
backward follows (keep=False) runs the row's infer kernel, and with lengths (a masked final state) it still does for
the plain and LN RNNs, whose infer kernel returns y, the h sequence the final state is read from; the plain and LN
LSTMs run their full forward there instead (their infer kernel keeps two steps of c), and every row runs the full
forward when a backward follows. Whichever kernel ran, y and the final state (each row's own last step, a row of no
step its initial state) are the bits of the keep=True forward."""
from collections import Counter

import numpy as np
import pytest

from lnrnn.model import cells, functional
from test_infer_path import count_kernels

I, H, T, B = 3, 4, 5, 4
LENGTHS = np.array([5, 2, 0, 3], np.int64)


def arrays(spec, seed):
    rng = np.random.default_rng(seed)
    p = spec.init_params(rng, I, H, np.float64, 1.0)
    x = rng.standard_normal((T, B, I))                                       # (T, B, I)
    state = tuple(rng.standard_normal((B, H)) for _ in range(spec.nstate))  # each (B, H)
    return x, state, p


@pytest.mark.parametrize("name,masked_infer", [("rnn", True), ("ln-rnn", True), ("lstm", False),
                                               ("ln-lstm", False)])
def test_a_forward_without_backward_runs_infer_where_it_gives_the_masked_state(monkeypatch, name, masked_infer):
    spec = cells.CELLS[name]
    assert spec.infer_seqs == masked_infer
    s = functional.setup(spec, H, np.float64)
    x, state, p = arrays(spec, 452)
    y0, f0, saved = functional.forward(s, x, state, p, {}, lengths=LENGTHS, keep=True)
    assert saved is not None
    seen = count_kernels(monkeypatch)                   # {family_forward | family_infer: calls}

    def ran(**kw):
        seen.clear()
        out = functional.forward(s, x, state, p, {}, **kw)
        return out, seen.copy()

    (y1, f1, none), kernels = ran(lengths=LENGTHS, keep=False)
    assert kernels == Counter({f"{spec.cell}_{'infer' if masked_infer else 'forward'}": 1}) and none is None
    assert ran(keep=False)[1] == Counter({f"{spec.cell}_infer": 1})                 # unmasked: infer for every row
    assert ran(lengths=LENGTHS, keep=True)[1] == Counter({f"{spec.cell}_forward": 1})   # a backward follows
    np.testing.assert_array_equal(y1, y0)
    for a, b, h0 in zip(f1, f0, state):
        np.testing.assert_array_equal(a, b)
        np.testing.assert_array_equal(a[2], h0[2])       # row 2 has no step: its initial state
