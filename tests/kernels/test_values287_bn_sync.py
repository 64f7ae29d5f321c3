"""The synchronised BN-RNN (lnrnn/kernels/bn_sync.py) in one process (reduce: the identity) against
lnrnn.reference's bn_rnn_forward, with running means far from the batch means (so the shifted sums' shift K is
large) and different per side: B = 7 rows (two row blocks of 3 and 4), lengths with 0, 1 and every step in one
batch, fewer h running rows than steps (2 of 4) and x rows for every step, momentum 0.3, eps 0.05, gx and gh
apart. y, hT and every running row against the reference; the backward, in float64, every gradient against
central differences of the reference's loss over the active (row, step)s."""
import numpy as np

from lnrnn import reference as ref
from lnrnn.kernels import bn_sync
from gradcheck_util import numeric_grad

T, B, I, H = 4, 7, 3, 3
LENGTHS = np.array([4, 0, 1, 4, 2, 3, 1], np.int64)
MOM, EPS = 0.3, 0.05
KEYS = ("x", "h0", "Wx", "Wh", "b", "gx", "gh")


def identity(buf):
    pass


def problem(seed):
    rng = np.random.default_rng(seed)
    p = dict(x=rng.standard_normal((T, B, I)) + np.array([2.0, -1.0, 0.5]), h0=0.6 * rng.standard_normal((B, H)),
             Wx=0.7 * rng.standard_normal((I, H)), Wh=0.6 * rng.standard_normal((H, H)),
             b=0.3 * rng.standard_normal(H), gx=rng.uniform(0.5, 0.9, H), gh=rng.uniform(1.3, 1.8, H))
    run = [rng.uniform(4.0, 6.0, (T, H)), rng.uniform(0.5, 2.0, (T, H)),
           -rng.uniform(4.0, 6.0, (2, H)), rng.uniform(0.5, 2.0, (2, H))]
    return p, run, rng.standard_normal((T, B, H))


def test_forward_and_running_rows_against_the_reference():
    p, run, _ = problem(1)
    run_k, run_r = [r.copy() for r in run], [r.copy() for r in run]
    y, hT, saved = bn_sync.bn_rnn_forward(identity, *[p[k] for k in KEYS], *run_k, True, MOM, EPS, lengths=LENGTHS)
    yr, hr, _ = ref.bn_rnn_forward(*[p[k] for k in KEYS], *run_r, True, MOM, EPS, lengths=LENGTHS)
    np.testing.assert_allclose(y, yr, rtol=1e-11, atol=1e-12)
    np.testing.assert_allclose(hT, hr, rtol=1e-11, atol=1e-12)
    for name, a, b_, r0 in zip(("rmx", "rvx", "rmh", "rvh"), run_k, run_r, run):
        np.testing.assert_allclose(a, b_, rtol=1e-11, atol=1e-12, err_msg=name)
        assert (a != r0).all(), name   # every row is a step with active rows: all moved
    np.testing.assert_array_equal(saved[-1], [6, 4, 3, 2])   # the active rows per step, counted by hand


def test_backward_against_central_differences_of_the_reference():
    p, run, dy = problem(2)
    q = {k: v.copy() for k, v in p.items()}
    _, _, saved = bn_sync.bn_rnn_forward(identity, *[q[k] for k in KEYS], *[r.copy() for r in run], True, MOM, EPS,
                                         lengths=LENGTHS)
    grads = bn_sync.bn_rnn_backward(identity, dy, saved, q["x"], q["h0"], q["Wx"], q["Wh"], q["gx"], q["gh"])
    active = np.arange(T)[:, None] < LENGTHS[None, :]

    def loss():
        y, _, _ = ref.bn_rnn_forward(*[q[k] for k in KEYS], *[r.copy() for r in run], True, MOM, EPS,
                                     lengths=LENGTHS)
        return float((dy * y)[active].sum())

    for name, g in zip(KEYS, grads):
        num = numeric_grad(loss, q[name], eps=1e-6, order=2)
        assert np.abs(num).max() > 1e-3, name
        np.testing.assert_allclose(g, num, rtol=1e-6, atol=1e-8, err_msg=f"d{name}")
