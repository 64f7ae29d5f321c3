"""The synchronized BN-RNN (lnrnn/kernels/bn_sync.py) against the BN-RNN's definition in NumPy
(test_values65_bn_rnn), float64, with running means far from zero (the shift of the single-pass variance is
felt), rows of their own lengths (a step with one active row, a step with none) and T > Ts: in one process
(reduce the identity), and in a group of two ranks holding 3 and 4 of the 7 rows, run on two threads whose
reduce adds their buffers (the exchange of partial sums). Each rank's y and dL/dx, dL/dh0 are the definition's
on its rows; the ranks' parameter gradients add up to central differences of the definition's loss (which
counts the active (row, step)s only)."""
import numpy as np

from lnrnn.kernels import bn_sync
from test_values65_bn_rnn import EPS, LENGTHS, MOM, err, numeric_grads, problem, rnn_definition
from thread_ranks import run_ranks

I = 3
SHIFT = 2.5  # running means near 2.5: the sync cells' shift K is far from the batch means
GRADS = ["x", "h0", "Wx", "Wh", "b", "gx", "gh"]
PARAMS = ["Wx", "Wh", "b", "gx", "gh"]


def identity(buf):
    pass


def rank_run(reduce, p, run, dy, lengths):
    """One rank's forward and backward -> y, grads (dx, dh0, dWx, dWh, db, dgx, dgh); run updated in place."""
    y, hT, saved = bn_sync.bn_rnn_forward(reduce, *p.values(), *run, True, MOM, EPS, lengths=lengths)
    grads = bn_sync.bn_rnn_backward(reduce, dy, saved, p["x"], p["h0"], p["Wx"], p["Wh"], p["gx"], p["gh"])
    return y, grads


def test_one_process_against_the_definition():
    p, run, dy = problem(6540, I, mean_shift=SHIFT)
    run_d, run_s = [r.copy() for r in run], [r.copy() for r in run]
    y_d = rnn_definition(p, run_d, True, LENGTHS)
    y, grads = rank_run(identity, p, run_s, dy, LENGTHS)
    assert err(y, y_d) < 1e-10, "y"
    for k, (g, w) in enumerate(zip(run_s, run_d)):
        assert err(g, w) < 1e-11, f"running row {k}"
    num = numeric_grads(p, run, True, LENGTHS, dy)
    for name, g in zip(GRADS, grads):
        assert np.abs(num[name]).max() > 1e-3, name
        assert err(g, num[name]) < 1e-7, f"d{name}: {err(g, num[name]):.3g}"


def test_two_ranks_of_three_and_four_rows_against_the_definition():
    p, run, dy = problem(6541, I, mean_shift=SHIFT)
    run_d = [r.copy() for r in run]
    y_d = rnn_definition(p, run_d, True, LENGTHS)
    rows = [slice(0, 3), slice(3, 7)]
    runs = [[r.copy() for r in run] for _ in rows]

    def rank(reduce, r):
        pr = {k: (v[:, rows[r]] if k == "x" else v[rows[r]] if k == "h0" else v).copy() for k, v in p.items()}
        return rank_run(reduce, pr, runs[r], dy[:, rows[r]].copy(), LENGTHS[rows[r]])

    results = run_ranks(2, rank)
    num = numeric_grads(p, run, True, LENGTHS, dy)
    for r, sl in enumerate(rows):
        y, grads = results[r]
        assert err(y, y_d[:, sl]) < 1e-10, f"rank {r}: y"
        for k, (g, w) in enumerate(zip(runs[r], run_d)):
            assert err(g, w) < 1e-11, f"rank {r}: running row {k}"
        assert err(grads[0], num["x"][:, sl]) < 1e-7, f"rank {r}: dx"
        assert err(grads[1], num["h0"][sl]) < 1e-7, f"rank {r}: dh0"
    for k, name in enumerate(PARAMS, start=2):
        total = results[0][1][k] + results[1][1][k]
        assert np.abs(results[0][1][k]).max() > 1e-3 and np.abs(results[1][1][k]).max() > 1e-3, name
        assert err(total, num[name]) < 1e-7, f"d{name} summed over the ranks: {err(total, num[name]):.3g}"
