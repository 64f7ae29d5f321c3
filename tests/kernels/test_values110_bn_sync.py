"""The synchronized BN-LSTM and BN-RNN (lnrnn/kernels/bn_sync.py) in float64 against the cells' definitions
written out in NumPy (test_values100_bn_lstm, test_values100_bn_rnn: Cooijmans et al. 2016, BN_t per step over
the active rows only): in one process (reduce the identity) and in groups of two and three ranks of unequal sizes
(1 + 6 rows; 1 + 2 + 4 rows, one rank holding only an empty row), run on threads whose reduce adds their
buffers. The batch is the definitions' seven rows in another order, so that the last row is active (a count that
misses the last row is seen) and a rank holds a row active at the step where only one row is; T is past each
side's own running rows (x 4, h 2, cell 3), momentum 0.3 and eps 1e-3. Each rank's y, hT, cT and dL/dx, dL/dh0,
dL/dc0 are the definition's on its rows, its running rows are the definition's (every rank updates them from the
group's statistics), and the ranks' parameter gradients add up to central differences of the definition's loss
over the active (row, step)s. The ranks' sums are added in another order than one process's, so the comparisons
are to rounding, not bit for bit."""
import numpy as np
import pytest

from lnrnn.kernels import bn_sync
import test_values100_bn_lstm as lstm
import test_values100_bn_rnn as rnn
from thread_ranks import run_ranks

PERM = np.array([6, 2, 0, 3, 5, 4, 1])  # lengths in this order: 0, 1, 4, 2, 2, 3, 3 (the last row active)
GROUPS = {"one process": [slice(0, 7)], "two ranks": [slice(0, 1), slice(1, 7)],
          "three ranks": [slice(0, 1), slice(1, 3), slice(3, 7)]}
I = 3
ROW_ARGS = ("x", "h0", "c0")  # the arguments that hold rows of the batch (x on axis 1)


def rows_of(p, sl):
    """The parameters with the batch's rows PERM[sl] (x along axis 1, h0 and c0 along axis 0)."""
    q = dict(p)
    for k in ROW_ARGS:
        if k in q:
            q[k] = np.ascontiguousarray(q[k][:, PERM[sl]] if k == "x" else q[k][PERM[sl]])
    return q


def in_group(slices, job):
    """job(reduce, r, sl) on one thread per rank, rank r holding rows sl -> the results in rank order."""
    return run_ranks(len(slices), lambda reduce, r: job(reduce, r, slices[r]))


def err(got, want):
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    assert got.shape == want.shape, (got.shape, want.shape)
    return float(np.max(np.abs(got - want) / (1.0 + np.abs(want)), initial=0.0))


@pytest.fixture(scope="module")
def lstm_case():
    p, run, dy = lstm.problem(11000, I)
    run_d = [r.copy() for r in run]
    y_d, c_d = lstm.definition(p, run_d, True)
    return p, run, dy, y_d, c_d, run_d, lstm.central_differences(p, run, True, dy)


@pytest.mark.parametrize("group", list(GROUPS))
def test_bn_lstm_in_a_group_against_the_definition(lstm_case, group):
    p, run, dy, y_d, c_d, run_d, num = lstm_case
    lengths = lstm.LENGTHS[PERM]

    def job(reduce, r, sl):
        q, run_k = rows_of(p, sl), [a.copy() for a in run]
        out = bn_sync.bn_lstm_forward(reduce, *[q[k] for k in lstm.KEYS], *run_k, True, lstm.MOM, lstm.EPS,
                                      lengths=lengths[sl].copy())
        grads = bn_sync.bn_lstm_backward(reduce, np.ascontiguousarray(dy[:, PERM[sl]]), out[3],
                                         *[q[k] for k in ("x", "h0", "c0", "Wx", "Wh", "gx", "gh", "gc")])
        return out, grads, run_k

    results = in_group(GROUPS[group], job)
    for r, (sl, (out, grads, run_k)) in enumerate(zip(GROUPS[group], results)):
        rows = PERM[sl]
        y, hT, cT, saved = out
        assert err(y, y_d[:, rows]) < 1e-10, f"rank {r}: y"
        assert err(saved[7], c_d[:, rows]) < 1e-10, f"rank {r}: c"
        assert err(hT, y_d[-1, rows]) < 1e-10 and err(cT, c_d[-1, rows]) < 1e-10, f"rank {r}: hT, cT"
        np.testing.assert_array_equal(saved[-1], (np.arange(lstm.T)[:, None] < lstm.LENGTHS[None, :]).sum(1),
                                      err_msg=f"rank {r}: the group's active rows per step")
        for k, (g, w) in enumerate(zip(run_k, run_d)):
            assert err(g, w) < 1e-11, f"rank {r}: running array {k}"
        for name in ROW_ARGS:
            want = num[name][:, rows] if name == "x" else num[name][rows]
            assert err(grads[lstm.NAMES.index(name)], want) < 1e-6, f"rank {r}: d{name}"
    for j, name in enumerate(lstm.NAMES):
        if name in ROW_ARGS:
            continue
        total = sum(res[1][j] for res in results)
        assert np.abs(num[name]).max() > 1e-4, name
        assert err(total, num[name]) < 1e-6, f"d{name} summed over the ranks: {err(total, num[name]):.3g}"


@pytest.fixture(scope="module")
def rnn_case():
    p, run, dy = rnn.problem(11010, I)
    run_d = [r.copy() for r in run]
    y_d = rnn.definition(p, run_d, True)
    return p, run, dy, y_d, run_d, rnn.central_differences(p, run, True, dy)


@pytest.mark.parametrize("group", list(GROUPS))
def test_bn_rnn_in_a_group_against_the_definition(rnn_case, group):
    p, run, dy, y_d, run_d, num = rnn_case
    lengths = rnn.LENGTHS[PERM]

    def job(reduce, r, sl):
        q, run_k = rows_of(p, sl), [a.copy() for a in run]
        out = bn_sync.bn_rnn_forward(reduce, *[q[k] for k in rnn.KEYS], *run_k, True, rnn.MOM, rnn.EPS,
                                     lengths=lengths[sl].copy())
        grads = bn_sync.bn_rnn_backward(reduce, np.ascontiguousarray(dy[:, PERM[sl]]), out[2],
                                        *[q[k] for k in ("x", "h0", "Wx", "Wh", "gx", "gh")])
        return out, grads, run_k

    results = in_group(GROUPS[group], job)
    for r, (sl, (out, grads, run_k)) in enumerate(zip(GROUPS[group], results)):
        rows = PERM[sl]
        y, hT, saved = out
        assert err(y, y_d[:, rows]) < 1e-10, f"rank {r}: y"
        assert err(hT, y_d[-1, rows]) < 1e-10, f"rank {r}: hT"
        for k, (g, w) in enumerate(zip(run_k, run_d)):
            assert err(g, w) < 1e-11, f"rank {r}: running array {k}"
        for name in ("x", "h0"):
            want = num[name][:, rows] if name == "x" else num[name][rows]
            assert err(grads[rnn.BWD_NAMES.index(name)], want) < 1e-6, f"rank {r}: d{name}"
    for j, name in enumerate(rnn.BWD_NAMES):
        if name in ("x", "h0"):
            continue
        total = sum(res[1][j] for res in results)
        assert np.abs(num[name]).max() > 1e-4, name
        assert err(total, num[name]) < 1e-6, f"d{name} summed over the ranks: {err(total, num[name]):.3g}"
