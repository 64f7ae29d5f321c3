"""The BN cells' CPU kernels (lnrnn/kernels/bn_lstm.py, bn_rnn.py and their parts in bn_parts.py) in float64
with every option on: B = 7 over four row blocks (1, 2, 2, 2 rows) with an empty row and one-step rows, T past
each side's running rows, h0 and c0 given, the x and h sides' gains distinct, narrow (fold) and wide inputs,
training and inference, one part and two. Checked three ways: the saved statistics of every BN_t against
NumPy's mean and variance of the active rows of the saved x_t Wx, hw_t and c_t (or the running rows in
inference), and the saved gates, cell, tanh and h against the cell's equations applied here to those
statistics; y, the final states and every gradient against lnrnn.reference; dWh, dgh (and dgc) against
central differences of the reference's loss. The problems are test_values154_bn_cells', with seeds of their
own."""
import numpy as np
import pytest

from gradcheck_util import numeric_grad
from test_values154_bn_cells import (EPS, GRADS, I_NARROW, I_WIDE, LENGTHS, TS, H, T, err, kernel, loss, problem,
                                     reference)

CASES = [(cell, I, training) for cell in ("lstm", "rnn") for I in (I_NARROW, I_WIDE) for training in (True, False)]
IDS = [f"{c}-{'fold' if i == I_NARROW else 'wide'}-{'training' if t else 'inference'}" for c, i, t in CASES]


def sig(v):
    return 1.0 / (1.0 + np.exp(-v))


def stats(v, act, run_m, run_v, t, training):
    """BN_t's (mean, rstd) of v (B,F) by definition: the active rows' mean and biased variance in training,
    running row min(t, Ts-1) in inference."""
    if not training:
        r = min(t, run_m.shape[0] - 1)
        return run_m[r], 1.0 / np.sqrt(run_v[r] + EPS)
    if not act.any():
        return np.zeros(v.shape[1]), np.full(v.shape[1], 1.0 / np.sqrt(EPS))
    return v[act].mean(0), 1.0 / np.sqrt(v[act].var(0) + EPS)


def check_saved(cell, p, run, out, training):
    """The saved statistics and activations against the cell's equations evaluated here, step by step."""
    saved = out[-1]
    mean_x, rstd_x, hw, mean_h, rstd_h = saved[1:6]
    h_prev = p["h0"]
    c_prev = p.get("c0")
    for t in range(T):
        act = t < LENGTHS
        xw = p["x"][t] @ p["Wx"]
        mx, rx = stats(xw, act, run[0], run[1], t, training)
        assert err(mean_x[t], mx) < 1e-10 and err(rstd_x[t], rx) < 1e-10, f"x side's statistics, step {t}"
        assert err(hw[t], h_prev @ p["Wh"]) < 1e-12, f"hw, step {t}"
        mh, rh = stats(hw[t], act, run[2], run[3], t, training)
        assert err(mean_h[t], mh) < 1e-10 and err(rstd_h[t], rh) < 1e-10, f"h side's statistics, step {t}"
        a = p["gh"] * (hw[t] - mh) * rh + p["gx"] * (xw - mx) * rx + p["b"]
        if cell == "rnn":
            h_prev = np.tanh(a)
            assert err(saved[6][t], h_prev) < 1e-10, f"y, step {t}"
            continue
        gates, c, mean_c, rstd_c, tc, y = saved[6:12]
        h = H[cell]
        i, f, g, o = sig(a[:, :h]), sig(a[:, h:2 * h]), np.tanh(a[:, 2 * h:3 * h]), sig(a[:, 3 * h:])
        assert err(gates[t], np.concatenate([i, f, g, o], 1)) < 1e-10, f"gates [i|f|g|o], step {t}"
        c_prev = f * c_prev + i * g
        assert err(c[t], c_prev) < 1e-10, f"c, step {t}"
        mc, rc = stats(c[t], act, run[4], run[5], t, training)
        assert err(mean_c[t], mc) < 1e-10 and err(rstd_c[t], rc) < 1e-10, f"cell's statistics, step {t}"
        want_tc = np.tanh(p["gc"] * (c[t] - mc) * rc + p["bc"])
        assert err(tc[t], want_tc) < 1e-10, f"tanh(BN(c)), step {t}"
        h_prev = o * want_tc
        assert err(y[t], h_prev) < 1e-10, f"y, step {t}"


@pytest.mark.parametrize("cell,I,training", CASES, ids=IDS)
def test_saved_state_by_definition_and_gradients_against_the_reference(cell, I, training):
    p, run, dy = problem(cell, I, 20100 + I + 10 * training + (cell == "rnn"))
    assert TS[1] < T and TS[0] < T and (LENGTHS == 0).any() and (LENGTHS == 1).any()
    run_r = [r.copy() for r in run]
    out_r, grads_r = reference(cell, p, run_r, training, dy)
    got = []
    for parts in (1, 2):
        run_k = [r.copy() for r in run]
        out, grads = kernel(cell, p, run_k, training, dy, parts)
        check_saved(cell, p, run, out, training)
        assert err(out[0], out_r[0]) < 1e-10, f"y, {parts} parts"
        for k in range(1, len(out) - 1):
            assert err(out[k], out_r[k]) < 1e-10, f"final state {k}, {parts} parts"
        for name, g, w in zip(GRADS[cell], grads, grads_r):
            assert err(g, w) < 1e-9, f"d{name}, {parts} parts: {err(g, w):.3g}"
        got.append([*out[:-1], *grads])
    for k, (a, b) in enumerate(zip(*got)):
        assert np.array_equal(a, b), f"array {k}: two parts differ from one"


@pytest.mark.parametrize("cell", ["lstm", "rnn"])
def test_recurrent_gradients_against_central_differences(cell):
    """dWh, dgh (and dgc) of a wide input in training, on two parts, against central differences of the
    reference's loss over the active (row, step)s."""
    p, run, dy = problem(cell, I_WIDE, 20200 + (cell == "rnn"))
    _, grads = kernel(cell, p, [r.copy() for r in run], True, dy, 2)
    q = {k: v.copy() for k, v in p.items()}
    for name in ("Wh", "gh", "gc") if cell == "lstm" else ("Wh", "gh"):
        num = numeric_grad(lambda: loss(cell, q, run, True, dy), q[name], eps=1e-5, order=2)
        assert np.abs(num).max() > 1e-3, name
        g = grads[GRADS[cell].index(name)]
        assert err(g, num) < 1e-6, f"d{name}: {err(g, num):.3g}"

