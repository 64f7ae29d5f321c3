"""The synthesis stack (lnrnn/model/window.py) in float64 against lnrnn.reference and central differences: a
BatchNorm window layer at inference reads each step's own running rows (means and variances of the x, h and
cell sides, all different, eps 0.3) as the NumPy reference does; a stack of three layers (the window layer and
two above it, each reading x, the layer below's h and w) has dx and every weight gradient equal to central
differences of sum(dy y), so the layers' backward runs top down and each middle layer's dL/dy holds the share
from the layer above; the window layer with clip_gates set bounds dL/da as the reference's backward with the
same bound (one that bites).

T = 4, B = 3, I = 2, H = 3, K = 2, C = 4, U = 5; texts of 2, 5 and 1 characters."""
import numpy as np

from lnrnn import reference as ref
from lnrnn.model.window import WindowStack
from gradcheck_util import numeric_grad

T, B, I, H, K, C, U = 4, 3, 2, 3, 2, 4, 5
ULEN = np.array([2, 5, 1], np.int64)
TOL, TOL_GRAD = 1e-10, 1e-6


def make(norm, num_layers=1, **kw):
    return drawn_stack(norm, num_layers, C, seed=6, draw_seed=106, centres=(0.2, -0.5, -0.3), running=True, **kw)


def drawn_stack(norm, num_layers, C, seed, draw_seed, centres, names=("gx", "gh", "gc", "bc"), running=False, **kw):
    """A float64 LSTM window stack on this file's I, H and K and C codes, drawn from draw_seed: the window layer's
    Wp and bp about the centres (draw_window), each layer's norm parameters among names (draw_norms) and, with
    running, then its BatchNorm running rows (means 0.7 N(0, 1), variances U(0.3, 2))."""
    s = WindowStack("lstm", norm, I, H, num_layers=num_layers, alphabet_size=C, window=K, dtype=np.float64,
                    seed=seed, **kw)
    rng = np.random.default_rng(draw_seed)
    draw_window(s.layers[0], rng, centres)
    for L in s.layers:
        draw_norms(L, rng, names)
        for n, v in (L.buffers.items() if running else ()):
            v[...] = rng.uniform(0.3, 2.0, v.shape) if n.startswith("rv") else rng.normal(0.0, 0.7, v.shape)
    return s


def draw_window(L1, rng, centres):
    """The window layer's Wp 0.4 N(0, 1) and bp: its three blocks of K (alpha, beta, kappa) about the centres,
    each centre + 0.2 N(0, 1)."""
    Wp = L1.params["Wp"]
    Wp[...] = 0.4 * rng.standard_normal(Wp.shape)
    L1.params["bp"][...] = np.concatenate([c + 0.2 * rng.standard_normal(Wp.shape[1] // 3) for c in centres])


def draw_norms(L, rng, names):
    """The layer's norm parameters among names: gains (g*) 1 + 0.3 N(0, 1), biases 0.3 N(0, 1)."""
    for n in names:
        if n in L.params:
            L.params[n][...] = (1.0 if n[0] == "g" else 0.0) + 0.3 * rng.standard_normal(L.params[n].shape)


def problem(seed, ulen=ULEN):
    """x (T,B,I), the text (codes (B,U), a copy of ulen) and a carried state (h, c, kappa, w), drawn from seed."""
    rng = np.random.default_rng(seed)
    codes = rng.integers(0, C, (B, U)).astype(np.int64)
    state = (0.5 * rng.standard_normal((B, H)), 0.5 * rng.standard_normal((B, H)), rng.uniform(0.0, 2.0, (B, K)),
             0.5 * rng.standard_normal((B, C)))
    return rng.standard_normal((T, B, I)), (codes, ulen.copy()), state


def ref_args(L):
    """The layer's parameters in lnrnn.reference's order (absent norm parameters: unit gains, zero biases)."""
    p = L.params
    H = p["Wh"].shape[0]
    G = 4 * H
    get = lambda n, fill, w: p[n] if n in p else np.full(w, fill)  # noqa: E731
    return (p["Wx"], p["Wh"], p["b"], get("gx", 1.0, G), get("bx", 0.0, G), get("gh", 1.0, G), get("bh", 0.0, G),
            get("gc", 1.0, H), get("bc", 0.0, H), p["Wp"], p["bp"])


def test_bn_inference_reads_each_steps_running_rows_as_the_reference():
    s = make("bn", eps=0.3, max_steps=T + 1)
    L1 = s.layers[0]
    x, (codes, ulen), state = problem(1)
    y, w, final = L1.forward_text(x, (codes, ulen), state, training=False, keep=False)
    bufs = [L1.buffers[n].copy() for n in ("rmx", "rvx", "rmh", "rvh", "rmc", "rvc")]
    want = ref.window_lstm_forward(x, *state, codes, ulen, *ref_args(L1), *bufs, "bn", training=False, eps=0.3)
    for name, g, e in zip(("y", "w", "h", "c", "kappa", "w_T"), (y, w) + tuple(final), want[:6]):
        np.testing.assert_allclose(g, e, rtol=TOL, atol=TOL, err_msg=name)


def check_stack_gradients(s, x, state, text, dy):
    """One backward of the stack s from dy: dx and every weight gradient equal central differences of sum(dy y);
    that loss returned for more checks."""
    s.zero_grad()
    s.forward(x, state, training=True, text=text)
    dx = s.backward(dy)
    got = {k: v.copy() for k, v in s.grads.items()}

    def loss():
        y, _ = s.forward(x, state, training=True, text=text, keep=False)
        return float(np.sum(dy * y))

    np.testing.assert_allclose(dx, numeric_grad(loss, x, eps=1e-6, order=2), rtol=TOL_GRAD, atol=TOL_GRAD,
                               err_msg="dx")
    for name in sorted(got):
        np.testing.assert_allclose(got[name], numeric_grad(loss, s.params[name], eps=1e-6, order=2),
                                   rtol=TOL_GRAD, atol=TOL_GRAD, err_msg=f"d{name}")
    return loss


def test_three_layer_stack_gradients_equal_central_differences():
    s = make("none", num_layers=3)
    x, text, state1 = problem(2)
    rng = np.random.default_rng(22)
    state = [state1] + [(0.5 * rng.standard_normal((B, H)), 0.5 * rng.standard_normal((B, H))) for _ in range(2)]
    dy = rng.standard_normal((T, B, 3 * H))
    loss = check_stack_gradients(s, x, state, text, dy)
    for j, ds in enumerate(s.dstate0[1:], start=1):                 # the upper layers' carried-in h and c
        for name, d, v in zip(("dh0", "dc0"), ds, state[j]):
            np.testing.assert_allclose(d, numeric_grad(loss, v, eps=1e-6, order=2), rtol=TOL_GRAD, atol=TOL_GRAD,
                                       err_msg=f"{name} of layer {j + 1}")


def test_clip_gates_bound_the_window_layers_backward_as_the_reference():
    clip = 0.04
    s = make("ln", clip_gates=clip)
    L1 = s.layers[0]
    x, (codes, ulen), state = problem(3)
    rng = np.random.default_rng(33)
    dy, dw = rng.standard_normal((T, B, H)), rng.standard_normal((T, B, C))
    L1.forward_text(x, (codes, ulen), state, training=True)
    dx, dstate = L1.backward_text(dy, dw)
    args = ref_args(L1)
    fwd = ref.window_lstm_forward(x, *state, codes, ulen, *args, *(np.zeros((1, 4 * H)),) * 6, "ln")
    want = ref.window_lstm_backward(dy, dw, fwd[7], args[0], args[1], args[3], args[5], args[7], args[9], codes,
                                    clip=clip)
    free = ref.window_lstm_backward(dy, dw, fwd[7], args[0], args[1], args[3], args[5], args[7], args[9], codes)
    assert not np.allclose(want[0], free[0], rtol=1e-3, atol=1e-3)       # the bound bites
    np.testing.assert_allclose(dx, want[0], rtol=TOL, atol=TOL, err_msg="dx")
    for name, g, e in zip(("dh0", "dc0", "dkappa0", "dw0"), dstate, want[1:5]):
        np.testing.assert_allclose(g, e, rtol=TOL, atol=TOL, err_msg=name)
    for name, e in zip(("Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc", "Wp", "bp"), want[5:]):
        np.testing.assert_allclose(L1.grads[name], e, rtol=TOL, atol=TOL, err_msg=f"d{name}")
