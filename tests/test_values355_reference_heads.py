"""The NumPy spec's heads (lnrnn/reference.py), fourth value pass, against computations written independently in
the test in float64: the mixture density at K 1 and 3 against torch.distributions (a Bernoulli of the end-of-stroke
logit, pen down and pen up in the same batch, mixture logits whose largest entry sits in a different row for each
component, a row left out by valid); Graves's window at K 1 and 3 over texts of 0, 1 and U characters with kappa_0
far from 0, forward and backward against the window written in torch ops and autograd (dL/dkappa from later steps
fed in); CTC over input lengths 0, 1, 3 and T in one batch with empty, one-label, repeated, distinct and impossible
labels against torch.nn.functional.ctc_loss with zero_infinity and its gradient by autograd."""
import numpy as np
import pytest
import torch

from lnrnn import reference as ref
from test_values176_reference_cells import close, tt
from test_values304_reference_heads import ctc_and_torch, window_case
from test_values330_reference_heads import mixture_by_torch


@pytest.mark.parametrize("M", [1, 3])
def test_mixture_density_at_one_and_three_components_with_both_pen_states_matches_torch(M):
    rng = np.random.default_rng(3560 + M)
    N = 6
    y = rng.standard_normal((N, 6 * M + 1)) * 0.7
    y[:, 0] = [2.5, -1.5, 0.8, -3.0, 1.2, -0.4]               # end-of-stroke logits of both signs
    y[:, 1:1 + M] = rng.standard_normal((N, M)) * 2.0
    for k in range(M):                                      # each component's largest logit in its own row
        y[k, 1 + k] = 6.0 + k
    target = np.column_stack([rng.standard_normal(N) * 0.8, rng.standard_normal(N) * 0.8,
                              [1, 0, 1, 0, 0, 1]]).astype(np.float64)
    valid = np.array([1, 1, 1, 0, 1, 1])
    got = ref.mdn_nll(y, target, valid, M)
    want = mixture_by_torch(y, target, M) * valid
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12, err_msg=f"M={M}")
    assert got[3] == 0.0


def window_by_torch(h, Wp, bp, kappa0, chars, ulen, C):
    """Graves's eqs. 46-51 in torch ops, position by position -> (tensors) w (B,C), kappa (B,K), inputs."""
    Th, TW, Tb, Tk = tt(h), tt(Wp), tt(bp), tt(kappa0)
    K = Wp.shape[1] // 3
    p = Th @ TW + Tb
    alpha, beta, kappa = torch.exp(p[:, :K]), torch.exp(p[:, K:2 * K]), Tk + torch.exp(p[:, 2 * K:])
    rows = []
    for b in range(h.shape[0]):
        wb = [torch.zeros((), dtype=torch.float64) for _ in range(C)]
        for u in range(1, int(ulen[b]) + 1):
            wb[chars[b, u - 1]] = wb[chars[b, u - 1]] + (alpha[b] * torch.exp(-beta[b] * (kappa[b] - u) ** 2)).sum()
        rows.append(torch.stack(wb))
    return torch.stack(rows), kappa, (Th, Tk, TW, Tb)


@pytest.mark.parametrize("K", [1, 3])
def test_window_at_one_and_three_components_over_texts_of_0_1_and_U_characters_matches_autograd(K):
    rng = np.random.default_rng(3563 + K)
    B, U, H, C = 3, 5, 4, 6
    h, Wp, bp, kappa0, chars = window_case(rng, B, U, K, H, C)
    kappa0 = kappa0 + 1.5                                   # far from 0: kappa and exp(k_hat) differ
    ulen = np.array([U, 1, 0])
    dw = rng.standard_normal((B, C))
    dkappa = rng.standard_normal((B, K)) * 0.7
    w, phi, kappa, cache = ref.window_forward(h, Wp, bp, kappa0, chars, ulen, C)
    dh, dk0, dWp, dbp = ref.window_backward(dw, dkappa, cache, Wp, chars)
    W, KAP, (Th, Tk, TW, Tb) = window_by_torch(h, Wp, bp, kappa0, chars, ulen, C)
    ((W * torch.tensor(dw)).sum() + (KAP * torch.tensor(dkappa)).sum()).backward()
    close(w, W, "w", 1e-12)
    close(kappa, KAP, "kappa", 1e-12)
    assert not np.any(w[2]) and not np.any(phi[1, 1:]) and not np.any(phi[2])
    for name, got, want in (("dh", dh, Th.grad), ("dkappa0", dk0, Tk.grad), ("dWp", dWp, TW.grad),
                            ("dbp", dbp, Tb.grad)):
        close(got, want, f"{name} K={K}", 1e-10)


def test_ctc_over_lengths_0_1_3_T_with_empty_repeated_distinct_and_impossible_labels_matches_torch():
    rng = np.random.default_rng(3566)
    T, B, C = 5, 7, 5
    logits = rng.standard_normal((T, B, C)) * 1.3
    input_lengths = np.array([0, 1, 5, 3, 2, 5, 5])
    label_lengths = np.array([0, 1, 2, 2, 2, 3, 0])
    # rows: nothing, one label in one step, a repeat 2 2 in T steps and in exactly 3 (the least it needs),
    # the same repeat in 2 (impossible: loss 0, gradient 0), three distinct labels 1 3 4, T steps of blank
    labels = np.array([[0, 0, 0], [4, 0, 0], [2, 2, 0], [2, 2, 0], [2, 2, 0], [1, 3, 4], [0, 0, 0]])
    loss, d, want, grad = ctc_and_torch(logits, labels, input_lengths, label_lengths,
                                        np.array([0.6, 1.3, -0.7, 1.1, 0.9, 0.8, -1.2]))
    close(loss, want, "loss", 1e-10)
    close(d, grad, "dlogits", 1e-10)
    assert loss[0] == 0.0 and loss[4] == 0.0 and not np.any(d[:, 4]) and not np.any(d[:, 0])
    assert not np.any(d[1:, 1]) and not np.any(d[3:, 3])    # nothing past each row's input length
