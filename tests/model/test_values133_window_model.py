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
# the stack on the same I, H and K; its gradients against central differences, to the same 1e-6
from test_values120_window_model import check_stack_gradients, drawn_stack, ref_args

T, B, I, H, K, C, U = 3, 3, 2, 3, 2, 5, 4
ULEN = np.array([0, 1, 4], np.int64)
TOL = 1e-10


def make(norm, num_layers=1, **kw):
    return drawn_stack(norm, num_layers, C, seed=13, draw_seed=133, centres=(0.2, -0.6, -0.2),
                       names=("gx", "gh", "gc", "bc", "bx", "bh"), max_steps=T + 1, **kw)


def problem(seed):
    rng = np.random.default_rng(seed)
    codes = rng.integers(0, C, (B, U)).astype(np.int64)
    codes[:, 0] = C - 1                                     # the last code (>= K) is read by every row with text
    h0, c0 = 0.5 * rng.standard_normal((B, H)), 0.5 * rng.standard_normal((B, H))
    return rng.standard_normal((T, B, I)), (codes, ULEN.copy()), (h0, c0)


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
    check_stack_gradients(s, x, state, text, rng.standard_normal((T, B, 2 * H)))


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
