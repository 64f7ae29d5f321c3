"""The synthesis stack (lnrnn/model/window.py) in float64 against lnrnn.reference and central differences, with
options away from their defaults: an LN window layer with eps 0.3 has the reference's forward and backward, and
the stack's gradients equal central differences; a BatchNorm window layer in training with momentum 0.25 and eps
0.3 moves its running rows as the reference does; a two-layer BN stack at inference runs its window layer on
its running rows (the reference's inference) and leaves them as they were; synchronized BatchNorm is refused by
the window layer's own norm, whatever the layers above use.

T = 4, B = 3, I = 2, H = 3, K = 2, C = 4, U = 5; texts of 2, 5 and 1 characters (test_values120_window_model)."""
import numpy as np
import pytest

from lnrnn import reference as ref
from test_values120_window_model import C, H, T, check_stack_gradients, drawn_stack, problem, ref_args

TOL = 1e-10
ROWS = ("rmx", "rvx", "rmh", "rvh", "rmc", "rvc")


def make(norm, num_layers=1, **kw):
    return drawn_stack(norm, num_layers, C, seed=7, draw_seed=162, centres=(0.1, -0.4, -0.2), running=True,
                       max_steps=T + 1, **kw)


def test_ln_window_layer_with_its_own_eps_is_the_reference_forward_and_backward():
    s = make("ln", eps=0.3)
    L1 = s.layers[0]
    x, (codes, ulen), state = problem(4)
    y, w, final = L1.forward_text(x, (codes, ulen), state, training=True)
    want = ref.window_lstm_forward(x, *state, codes, ulen, *ref_args(L1), *(np.zeros((T, 4 * H)),) * 6, "ln",
                                   training=True, eps=0.3)
    for name, g, e in zip(("y", "w", "h", "c", "kappa", "w_T"), (y, w) + tuple(final), want[:6]):
        np.testing.assert_allclose(g, e, rtol=TOL, atol=TOL, err_msg=name)
    rng = np.random.default_rng(41)
    dy, dw = rng.standard_normal(y.shape), rng.standard_normal(w.shape)
    s.zero_grad()
    dx, _ = L1.backward_text(dy, dw)
    p = L1.params
    rb = ref.window_lstm_backward(dy, dw, want[7], p["Wx"], p["Wh"], ref_args(L1)[3], ref_args(L1)[5],
                                  ref_args(L1)[7], p["Wp"], codes)
    np.testing.assert_allclose(dx, rb[0], rtol=1e-9, atol=1e-9, err_msg="dx")
    names = ("Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc", "Wp", "bp")
    for n, e in zip(names, rb[5:]):
        if n in L1.grads:
            np.testing.assert_allclose(L1.grads[n], e, rtol=1e-9, atol=1e-9, err_msg=f"d{n}")
    check_stack_gradients(s, x, [state], (codes, ulen), rng.standard_normal((T, 3, H)))


def test_bn_window_layer_in_training_moves_its_running_rows_as_the_reference():
    s = make("bn", eps=0.3, momentum=0.25)
    L1 = s.layers[0]
    x, (codes, ulen), state = problem(5)
    bufs = [L1.buffers[n].copy() for n in ROWS]
    y, w, _ = L1.forward_text(x, (codes, ulen), state, training=True)
    want = ref.window_lstm_forward(x, *state, codes, ulen, *ref_args(L1), *bufs, "bn", training=True,
                                   momentum=0.25, eps=0.3)                    # updates bufs in place
    np.testing.assert_allclose(y, want[0], rtol=TOL, atol=TOL, err_msg="y")
    np.testing.assert_allclose(w, want[1], rtol=TOL, atol=TOL, err_msg="w")
    for n, e in zip(ROWS, bufs):
        np.testing.assert_allclose(L1.buffers[n][:T], e[:T], rtol=TOL, atol=TOL, err_msg=n)


def test_a_bn_stack_at_inference_reads_its_window_layers_running_rows_and_keeps_them():
    s = make("bn", num_layers=2, eps=0.3)
    L1 = s.layers[0]
    x, (codes, ulen), state = problem(6)
    before = {n: L1.buffers[n].copy() for n in ROWS}
    y, states = s.forward(x, [state, None], training=False, text=(codes, ulen))
    want = ref.window_lstm_forward(x, *state, codes, ulen, *ref_args(L1), *(before[n] for n in ROWS), "bn",
                                   training=False, eps=0.3)
    np.testing.assert_allclose(y[:, :, :H], want[0], rtol=TOL, atol=TOL, err_msg="the window layer's h")
    for n in ROWS:
        np.testing.assert_array_equal(L1.buffers[n], before[n], err_msg=n)


def test_synchronized_batchnorm_follows_the_window_layers_norm_not_the_top_layers():
    with pytest.raises(ValueError, match="synchronized BatchNorm"):
        make("ln", num_layers=2, window_norm="bn").set_batch_reduce(lambda buf: None)
    make("bn", num_layers=2, window_norm="ln").set_batch_reduce(lambda buf: None)
