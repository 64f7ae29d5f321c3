"""The synthesis stack (lnrnn/model/window.py) in float64 against lnrnn.reference and central differences, over
ragged texts (an empty one, one of one character, a full one): the window layer given (h, c) alone runs from
zero kappa and w as the reference does, with the plain, LN and BatchNorm (training) cells; a two-layer stack,
plain and LN, has dx and every weight gradient equal to central differences of sum(dy y). The stack keeps the
window's K Gaussians and the alphabet's C codes apart (Wp (H,3K), Wx (I+C,4H), config); synchronized BatchNorm
is refused by the window layer's own norm, whatever the layers above use.

T = 3, B = 3, I = 2, H = 3, K = 2, C = 5, U = 4; texts of 0, 1 and 4 characters."""
import numpy as np
import pytest

from lnrnn import reference as ref
from lnrnn.model.window import WindowStack
from gradcheck_util import numeric_grad

T, B, I, H, K, C, U = 3, 3, 2, 3, 2, 5, 4
ULEN = np.array([0, 1, 4], np.int64)
TOL, TOL_GRAD = 1e-10, 1e-6


def make(norm, num_layers=1, **kw):
    s = WindowStack("lstm", norm, I, H, num_layers=num_layers, alphabet_size=C, window=K, dtype=np.float64,
                    seed=13, max_steps=T + 1, **kw)
    rng = np.random.default_rng(133)
    L1 = s.layers[0]
    L1.params["Wp"][...] = 0.4 * rng.standard_normal((H, 3 * K))
    L1.params["bp"][...] = np.concatenate([0.2 + 0.2 * rng.standard_normal(K), -0.6 + 0.2 * rng.standard_normal(K),
                                           -0.2 + 0.2 * rng.standard_normal(K)])
    for L in s.layers:
        for n in ("gx", "gh", "gc", "bc", "bx", "bh"):
            if n in L.params:
                L.params[n][...] = (1.0 if n[0] == "g" else 0.0) + 0.3 * rng.standard_normal(L.params[n].shape)
    return s


def problem(seed):
    rng = np.random.default_rng(seed)
    codes = rng.integers(0, C, (B, U)).astype(np.int64)
    codes[:, 0] = C - 1                                     # the last code (>= K) is read by every row with text
    h0, c0 = 0.5 * rng.standard_normal((B, H)), 0.5 * rng.standard_normal((B, H))
    return rng.standard_normal((T, B, I)), (codes, ULEN.copy()), (h0, c0)


def ref_args(L):
    p, G = L.params, 4 * H
    get = lambda n, fill, w: p[n] if n in p else np.full(w, fill)  # noqa: E731
    return (p["Wx"], p["Wh"], p["b"], get("gx", 1.0, G), get("bx", 0.0, G), get("gh", 1.0, G), get("bh", 0.0, G),
            get("gc", 1.0, H), get("bc", 0.0, H), p["Wp"], p["bp"])


@pytest.mark.parametrize("norm", ["none", "ln", "bn"])
def test_window_layer_from_h_and_c_alone_equals_the_reference(norm):
    s = make(norm)
    L1 = s.layers[0]
    x, (codes, ulen), (h0, c0) = problem(1)
    if norm == "bn":
        bufs = [L1.buffers[n].copy() for n in ("rmx", "rvx", "rmh", "rvh", "rmc", "rvc")]
    else:
        bufs = [np.zeros((T + 1, 4 * H))] * 6
    want = ref.window_lstm_forward(x, h0, c0, np.zeros((B, K)), np.zeros((B, C)), codes, ulen, *ref_args(L1), *bufs,
                                   norm, training=True, eps=L1.eps)
    y, w, final = L1.forward_text(x, (codes, ulen), (h0, c0), training=True)
    for name, g, e in zip(("y", "w", "h", "c", "kappa", "w_T"), (y, w) + tuple(final), want[:6]):
        np.testing.assert_allclose(g, e, rtol=TOL, atol=TOL, err_msg=name)
    np.testing.assert_allclose(L1.phi, want[6], rtol=TOL, atol=TOL, err_msg="phi")
    assert np.all(want[6][:, 0] == 0.0)                      # the empty text: no weight anywhere
    assert np.all(w[:, 0] == 0.0) and np.all(w[:, 1, :C - 1] == 0.0)   # one character: only its code weighted


@pytest.mark.parametrize("norm", ["none", "ln"])
def test_two_layer_stack_gradients_over_ragged_texts_equal_central_differences(norm):
    s = make(norm, num_layers=2)
    x, text, (h0, c0) = problem(2)
    rng = np.random.default_rng(23)
    state = [(h0, c0), (0.5 * rng.standard_normal((B, H)), 0.5 * rng.standard_normal((B, H)))]
    dy = rng.standard_normal((T, B, 2 * H))
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


def test_the_stack_keeps_window_and_alphabet_apart():
    s = make("ln", num_layers=2)
    L1, L2 = s.layers
    assert (s.K, s.C, L1.K, L1.C) == (K, C, K, C)
    assert L1.params["Wp"].shape == (H, 3 * K) and L1.params["bp"].shape == (3 * K,)
    assert L1.params["Wx"].shape == (I + C, 4 * H)
    assert L2.params["Wx"].shape == (I + H + C, 4 * H)
    assert s.config["window"] == K and s.config["alphabet_size"] == C


def test_synchronized_batchnorm_is_refused_by_the_window_layers_norm():
    with pytest.raises(ValueError, match="synchronized BatchNorm"):
        make("ln", num_layers=2, window_norm="bn").set_batch_reduce(lambda buf: None)
    make("bn", num_layers=2, window_norm="ln").set_batch_reduce(lambda buf: None)   # BN above an LN window
