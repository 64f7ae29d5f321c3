"""The synthesis stack (lnrnn/model/window.py) against lnrnn.reference, the kernel's own phi and hand
computations, in float64. The stop rule's phi(t, U+1) (``step_end``), recomputed in NumPy beside the kernel,
is the kernel's phi on column U of the same step run over a text one character longer, over three steps whose
kappa accumulates. A fresh stack's window biases are 0 for alpha and beta and -3 for kappa; with Wp zeroed its
window is worked out by hand: kappa_t = (t+1) exp(-3) on each of the K components, phi(t, u) =
K exp(-(kappa_t - u)^2). A BatchNorm window layer in training without lengths is the reference's over every
step (the last step's statistics too) and so are its running rows after; a step called without t reads the
running rows of step 0. A text using the alphabet's last code runs as the reference's; a forward with lengths
gives each row's final c and kappa of the reference run over the row's own steps. The refusal of badly shaped
codes quotes the codes' shape.

T = 4, B = 3, I = 2, H = 3, K = 2, C = 4, U = 5 (test_values120_window_model)."""
import numpy as np
import pytest

from lnrnn import reference as ref
from lnrnn.model.window import WindowStack, check_text
from test_values120_window_model import B, C, H, I, K, T, U, drawn_stack, problem, ref_args

TOL = 1e-10
BN_ROWS = ("rmx", "rvx", "rmh", "rvh", "rmc", "rvc")


def make(norm, num_layers=1, **kw):
    return drawn_stack(norm, num_layers, C, seed=3, draw_seed=226, centres=(0.3, -0.6, -0.1), running=True, **kw)


def test_step_end_is_the_kernels_phi_one_character_further_as_kappa_accumulates():
    s = make("ln", num_layers=2)
    x, (codes, ulen), state = problem(5)
    longer = np.concatenate([codes, np.full((B, 1), C - 1, np.int64)], axis=1)     # (B,U+1)
    longer[np.arange(B), ulen] = C - 1                                            # character ulen+1 of each row
    st = [state, (np.zeros((B, H)), np.zeros((B, H)))]
    for t in range(3):
        _, nxt = s.step(x[t], st, t=t, text=(codes, ulen))
        end = s.step_end.copy()
        s.forward(x[t][None], st, training=False, t0=t, keep=False, text=(longer, ulen + 1))
        np.testing.assert_allclose(end, s.phi[0][np.arange(B), ulen], rtol=TOL, atol=1e-14)
        st = nxt
    assert np.all(np.asarray(st[0][2]) > np.asarray(state[2]))                # kappa moved on every step


def test_a_fresh_window_starts_at_alpha_beta_one_and_walks_exp_minus_three_a_step():
    s = WindowStack("lstm", "ln", I, H, num_layers=1, alphabet_size=C, window=K, dtype=np.float64, seed=9)
    L1 = s.layers[0]
    np.testing.assert_array_equal(L1.params["bp"], [0.0] * (2 * K) + [-3.0] * K)
    L1.params["Wp"][...] = 0.0
    x, (codes, ulen), _ = problem(2)
    kappa = np.asarray(s.forward(x, None, training=False, text=(codes, ulen))[1][0][2])
    np.testing.assert_allclose(kappa, np.full((B, K), T * np.exp(-3.0)), rtol=TOL)
    u = np.arange(1, U + 1)
    for t in range(T):
        want = K * np.exp(-((t + 1) * np.exp(-3.0) - u) ** 2)                  # (U,) alpha = beta = 1
        for b in range(B):
            np.testing.assert_allclose(s.phi[t, b, :ulen[b]], want[:ulen[b]], rtol=TOL)
            np.testing.assert_array_equal(s.phi[t, b, ulen[b]:], 0.0)


def test_bn_training_without_lengths_is_the_reference_over_every_step():
    s = make("bn", max_steps=T)
    L1 = s.layers[0]
    x, (codes, ulen), state = problem(3)
    bufs = [L1.buffers[n].copy() for n in BN_ROWS]
    y, w, final = L1.forward_text(x, (codes, ulen), state, training=True)
    want = ref.window_lstm_forward(x, *state, codes, ulen, *ref_args(L1), *bufs, "bn", training=True)
    for got, exp in zip((y, w) + tuple(final), want[:6]):
        np.testing.assert_allclose(got, exp, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(L1.phi, want[6], rtol=1e-9, atol=1e-12)
    for n, exp in zip(BN_ROWS, bufs):
        np.testing.assert_allclose(L1.buffers[n], exp, rtol=1e-9, atol=1e-12)


def test_a_step_without_t_reads_the_running_rows_of_step_zero():
    s = make("bn", eps=0.3, max_steps=T)
    L1 = s.layers[0]
    x, (codes, ulen), state = problem(4)
    bufs = [L1.buffers[n].copy() for n in BN_ROWS]
    assert not np.allclose(bufs[0][0], bufs[0][1])                             # every step's rows differ
    y, _ = s.step(x[0], [state], text=(codes, ulen))
    want = ref.window_lstm_forward(x[:1], *state, codes, ulen, *ref_args(L1), *bufs, "bn", training=False, eps=0.3)
    np.testing.assert_allclose(y, want[0][0], rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(s.step_phi, want[6][0], rtol=1e-9, atol=1e-12)


def test_a_text_using_the_alphabets_last_code_runs_as_the_reference():
    s = make("ln")
    L1 = s.layers[0]
    x, (codes, ulen), state = problem(6)
    codes[:, 0] = C - 1
    y, w, _ = L1.forward_text(x, (codes, ulen), state, training=False, keep=False)
    want = ref.window_lstm_forward(x, *state, codes, ulen, *ref_args(L1), *(np.zeros((1, 4 * H)),) * 6, "ln")
    np.testing.assert_allclose(y, want[0], rtol=TOL, atol=1e-12)
    np.testing.assert_allclose(w, want[1], rtol=TOL, atol=1e-12)
    assert np.all(w[:, :, C - 1] > 0)                                       # the last code's column is read


def test_a_forward_with_lengths_ends_each_rows_c_and_kappa_at_its_own_last_step():
    s = make("none")
    L1 = s.layers[0]
    x, (codes, ulen), state = problem(7)
    lengths = np.array([3, 1, 4], np.int64)
    _, _, (hT, cT, kT, wT) = L1.forward_text(x, (codes, ulen), state, training=False, lengths=lengths)
    none = (np.zeros((1, 4 * H)),) * 6
    for b in range(B):
        row = tuple(a[b:b + 1] for a in state)
        want = ref.window_lstm_forward(x[:lengths[b], b:b + 1], *row, codes[b:b + 1], ulen[b:b + 1],
                                       *ref_args(L1), *none, "none")
        np.testing.assert_allclose(cT[b], want[3][0], rtol=TOL, atol=1e-12)
        np.testing.assert_allclose(kT[b], want[4][0], rtol=TOL, atol=1e-12)


def test_codes_of_the_wrong_shape_are_refused_with_the_codes_shape():
    with pytest.raises(ValueError) as e:
        check_text((np.zeros(3, np.int64), np.array([1, 1])), 2, 5)
    assert str(e.value) == "text codes must be a (2,U) integer array with U >= 1, got (3,)"
