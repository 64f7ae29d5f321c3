"""The NumPy spec's heads (lnrnn/reference.py), third value pass, against computations written independently in
the test in float64: the mixture density at K 1 and 3 against torch.distributions' bivariate normal from its
scale_tril and a Bernoulli, every sigma distinct and some log sigmas at and past the clip bound of 10, a row left
out by valid; Graves's window at K 1 and 3 with phi written position by position (zero past each row's text) and
its backward by autograd; CTC over input lengths 0, 1 and T in one batch with empty, repeated and impossible
repeated labels against torch.nn.functional.ctc_loss with zero_infinity and its gradient by autograd."""
import numpy as np
import torch
from torch.distributions import Bernoulli, MultivariateNormal

from lnrnn import reference as ref
from test_values176_reference_cells import close, tt
from test_values304_reference_heads import ctc_and_torch, window_case

RHO_MAX = 1.0 - 1e-4


def mixture_by_torch(y, target, M):
    y, t = torch.tensor(y), torch.tensor(target)
    logpi = torch.log_softmax(y[:, 1:1 + M], 1)
    mu = torch.stack([y[:, 1 + M:1 + 2 * M], y[:, 1 + 2 * M:1 + 3 * M]], -1)          # (N,M,2)
    s1 = torch.exp(torch.clamp(y[:, 1 + 3 * M:1 + 4 * M], -10.0, 10.0))
    s2 = torch.exp(torch.clamp(y[:, 1 + 4 * M:1 + 5 * M], -10.0, 10.0))
    rho = RHO_MAX * torch.tanh(y[:, 1 + 5 * M:1 + 6 * M])
    L = torch.zeros(y.shape[0], M, 2, 2, dtype=torch.float64)
    L[..., 0, 0], L[..., 1, 0], L[..., 1, 1] = s1, rho * s2, s2 * torch.sqrt(1 - rho ** 2)
    logd = MultivariateNormal(mu, scale_tril=L).log_prob(t[:, None, :2])                # (N,M)
    pen = Bernoulli(logits=y[:, 0]).log_prob(t[:, 2])
    return (-torch.logsumexp(logpi + logd, 1) - pen).numpy()


def test_mixture_density_at_one_and_three_components_against_torch_distributions_with_sigmas_clipped():
    rng = np.random.default_rng(3305)
    for M in (1, 3):
        N = 5
        y = rng.standard_normal((N, 6 * M + 1)) * 0.6
        y[:, 1 + 3 * M:1 + 4 * M] = rng.uniform(-1.2, -0.2, (N, M))      # log sigma1
        y[:, 1 + 4 * M:1 + 5 * M] = rng.uniform(0.3, 1.1, (N, M))        # log sigma2, apart from sigma1
        y[0, 1 + 3 * M] = 10.0                                          # at the bound
        y[1, 1 + 4 * M] = 12.5                                          # past it: sigma2 = e^10
        y[2, 1 + 3 * M] = -10.0                                         # at the lower bound, the point on mu
        target = np.column_stack([rng.standard_normal(N) * 0.7, rng.standard_normal(N) * 0.7 + 1.5,
                                  [1.0, 0.0, 1.0, 0.0, 1.0]])
        target[2, 0] = y[2, 1 + M]
        valid = np.array([1, 1, 1, 1, 0])
        got = ref.mdn_nll(y, target, valid, M)
        want = mixture_by_torch(y, target, M)
        np.testing.assert_allclose(got[:4], want[:4], rtol=1e-9, err_msg=f"M={M}")
        assert got[4] == 0.0


def phi_by_hand(h, Wp, bp, kappa0, U, ulen):
    K = Wp.shape[1] // 3
    p = h @ Wp + bp
    alpha, beta, kappa = np.exp(p[:, :K]), np.exp(p[:, K:2 * K]), kappa0 + np.exp(p[:, 2 * K:])
    phi = np.zeros((h.shape[0], U))
    for b in range(h.shape[0]):
        for u in range(int(ulen[b])):                    # positions 1..ulen[b], nothing past the text
            phi[b, u] = sum(alpha[b, k] * np.exp(-beta[b, k] * (kappa[b, k] - (u + 1)) ** 2) for k in range(K))
    return phi, kappa


def test_window_at_one_and_three_components_against_phi_written_out_and_autograd():
    rng = np.random.default_rng(3306)
    B, U, H, C = 3, 4, 3, 5
    ulen = np.array([4, 1, 2])
    for K in (1, 3):
        h, Wp, bp, kappa0, chars = window_case(rng, B, U, K, H, C)
        chars[0] = [2, 4, 2, 0]                          # a repeated character sums its two phis
        w, phi, kappa, cache = ref.window_forward(h, Wp, bp, kappa0, chars, ulen, C)
        want_phi, want_kappa = phi_by_hand(h, Wp, bp, kappa0, U, ulen)
        close(phi, want_phi, f"phi K={K}", 1e-12)
        close(kappa, want_kappa, f"kappa K={K}", 1e-12)
        want_w = np.zeros((B, C))
        for b in range(B):
            for u in range(ulen[b]):
                want_w[b, chars[b, u]] += want_phi[b, u]
        close(w, want_w, f"w K={K}", 1e-12)
        # the backward by autograd of the same window written in torch ops
        Th, TWp, Tbp, Tk0 = tt(h), tt(Wp), tt(bp), tt(kappa0)
        p = Th @ TWp + Tbp
        al, be, ka = torch.exp(p[:, :K]), torch.exp(p[:, K:2 * K]), Tk0 + torch.exp(p[:, 2 * K:])
        pos = torch.arange(1, U + 1, dtype=torch.float64)
        ph = (al[:, :, None] * torch.exp(-be[:, :, None] * (ka[:, :, None] - pos) ** 2)).sum(1)
        ph = ph * torch.tensor(np.arange(U)[None, :] < ulen[:, None], dtype=torch.float64)
        onehot = torch.tensor(np.eye(C)[chars])                             # (B,U,C)
        Tw = (ph[:, :, None] * onehot).sum(1)
        dw, dkap = rng.standard_normal((B, C)), rng.standard_normal((B, K))
        ((Tw * torch.tensor(dw)).sum() + (ka * torch.tensor(dkap)).sum()).backward()
        dh, dk0, dWp, dbp = ref.window_backward(dw, dkap, cache, Wp, chars)
        for name, got, want in (("h", dh, Th.grad), ("kappa0", dk0, Tk0.grad), ("Wp", dWp, TWp.grad),
                                ("bp", dbp, Tbp.grad)):
            close(got, want, f"d{name} K={K}", 1e-10)


def test_ctc_over_lengths_0_1_and_T_with_empty_repeated_and_impossible_labels_matches_torch():
    rng = np.random.default_rng(3307)
    T, B, C = 4, 6, 8                   # C past every extended position: a class read at s is a value
    logits = rng.standard_normal((T, B, C)) * 1.4
    input_lengths = np.array([0, 1, 4, 4, 2, 4])
    label_lengths = np.array([0, 0, 0, 2, 2, 3])
    # rows: nothing at all, one step of blank, T steps of blank, a repeat 3 3 (needs 3 steps),
    # the same repeat in 2 steps (impossible: loss 0, gradient 0), 1 1 2 in 4 steps
    labels = np.array([[0, 0, 0], [0, 0, 0], [0, 0, 0], [3, 3, 0], [3, 3, 0], [1, 1, 2]])
    loss, d, want, grad = ctc_and_torch(logits, labels, input_lengths, label_lengths,
                                        np.array([0.5, 1.2, -0.8, 1.1, 0.9, 0.7]))
    close(loss, want, "loss", 1e-10)
    assert loss[0] == 0.0 and loss[4] == 0.0
    close(d, grad, "dlogits", 1e-10)
    assert not np.any(d[:, 4]) and not np.any(d[:, 0])
