"""The NumPy spec (lnrnn/reference.py) judged without any kernel: the soft window of one step (Graves 2013,
sec. 5.1) against the same equations written out in PyTorch, forward and autograd backward, with texts that
end before the last character; the window layer's BN running rows against each side's batch statistics by
hand, and its inference against the rows by hand; the mixture density NLL against torch.distributions."""
import numpy as np
import torch

from lnrnn import reference as ref
from lnrnn.kernels.masks import step_mask

MOM, EPS = 0.1, 1e-5


def window_problem(rng, B=4, H=3, K=2, C=6, U=5):
    """One window step: h (B,H), Wp, bp, kappa_prev (B,K), chars (B,U), ulen (B,), the upstream dw, dkappa.
    Row b's text ends at ulen[b] = 0, 2, 5 (all U), 3; the code just past each ended text (chars[b, ulen[b]])
    is C - 1, which no text holds: a character read past the end shows up in w[:, C - 1]."""
    ulen = np.array([0, 2, U, 3])[:B]
    chars = rng.integers(0, C - 1, (B, U))
    for b in range(B):
        if ulen[b] < U:
            chars[b, ulen[b]] = C - 1
    # alpha ~ 1, beta ~ 0.5, kappa ~ 1.5 after the step: the window covers the first characters and the end
    bp = np.concatenate([0.1 * rng.standard_normal(K), -0.7 + 0.1 * rng.standard_normal(K),
                         0.1 * rng.standard_normal(K)])
    return dict(h=rng.standard_normal((B, H)), Wp=0.3 * rng.standard_normal((H, 3 * K)), bp=bp,
                kappa_prev=rng.uniform(0.0, 1.5, (B, K)), chars=chars, ulen=ulen, C=C,
                dw=rng.standard_normal((B, C)), dkappa=rng.standard_normal((B, K)))


def torch_window(h, Wp, bp, kappa_prev, chars, ulen, C):
    """The equations one position at a time: phi(u) = sum_k alpha_k exp(-beta_k (kappa_k - u)^2) for the
    1-based u = 1..ulen[b], w[b, chars[b, u-1]] += phi(u)."""
    K = Wp.shape[1] // 3
    B, U = chars.shape
    p = h @ Wp + bp
    alpha, beta = torch.exp(p[:, :K]), torch.exp(p[:, K:2 * K])
    kappa = kappa_prev + torch.exp(p[:, 2 * K:])
    rows_w, rows_phi = [], []
    for b in range(B):
        w_b = [torch.zeros((), dtype=h.dtype) for _ in range(C)]
        phi_b = [torch.zeros((), dtype=h.dtype) for _ in range(U)]
        for u in range(1, int(ulen[b]) + 1):
            phi = (alpha[b] * torch.exp(-beta[b] * (kappa[b] - u) ** 2)).sum()
            phi_b[u - 1] = phi
            c = int(chars[b, u - 1])
            w_b[c] = w_b[c] + phi
        rows_w.append(torch.stack(w_b))
        rows_phi.append(torch.stack(phi_b))
    return torch.stack(rows_w), torch.stack(rows_phi), kappa


def test_window_step_is_the_equations_forward_and_backward():
    pr = window_problem(np.random.default_rng(31))
    w, phi, kappa, cache = ref.window_forward(pr["h"], pr["Wp"], pr["bp"], pr["kappa_prev"], pr["chars"], pr["ulen"],
                                              pr["C"])
    t = {k: torch.tensor(pr[k], dtype=torch.float64, requires_grad=True) for k in ("h", "Wp", "bp", "kappa_prev")}
    tw, tphi, tkappa = torch_window(t["h"], t["Wp"], t["bp"], t["kappa_prev"], pr["chars"], pr["ulen"], pr["C"])
    assert tw[:, -1].abs().max().item() == 0.0 and tphi.max().item() > 0.1  # past the texts: nothing; inside: weight
    np.testing.assert_allclose(w, tw.detach().numpy(), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(phi, tphi.detach().numpy(), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(kappa, tkappa.detach().numpy(), rtol=1e-14)
    loss = (tw * torch.tensor(pr["dw"])).sum() + (tkappa * torch.tensor(pr["dkappa"])).sum()
    loss.backward()
    dh, dkappa_prev, dWp, dbp = ref.window_backward(pr["dw"], pr["dkappa"], cache, pr["Wp"], pr["chars"])
    for name, got, key in (("dh", dh, "h"), ("dkappa_prev", dkappa_prev, "kappa_prev"), ("dWp", dWp, "Wp"),
                           ("dbp", dbp, "bp")):
        np.testing.assert_allclose(got, t[key].grad.numpy(), rtol=1e-10, atol=1e-12, err_msg=name)


def layer_problem(rng, T=4, B=4, I=2, H=2, K=2, C=5, U=4):
    G = 4 * H
    n = lambda sc, *s: sc * rng.standard_normal(s)  # noqa: E731
    a = dict(x=n(1, T, B, I), h0=n(0.5, B, H), c0=n(0.5, B, H), kappa0=rng.uniform(0, 1, (B, K)),
             w0=rng.uniform(0, 0.5, (B, C)), chars=rng.integers(0, C, (B, U)), ulen=np.array([4, 2, 0, 3])[:B],
             Wx=n(0.5, I + C, G), Wh=n(0.5, H, G), b=n(0.2, G), gx=1 + n(0.1, G), bx=n(0.1, G), gh=1 + n(0.1, G),
             bh=n(0.1, G), gc=1 + n(0.1, H), bc=n(0.1, H), Wp=n(0.3, H, 3 * K),
             bp=np.concatenate([n(0.1, K), -1 + n(0.1, K), -0.5 + n(0.1, K)]))
    # three sides' running rows [rmx, rvx, rmh, rvh, rmc, rvc], Ts = T, each side's own values
    run = [n(0.3, T, G), rng.uniform(0.5, 2, (T, G)), 1 + n(0.3, T, G), rng.uniform(2, 4, (T, G)),
           -1 + n(0.3, T, H), rng.uniform(0.1, 0.4, (T, H))]
    return a, run


def test_window_layer_bn_running_rows_are_each_sides_own():
    """Training: row t of each side's running rows is (1 - m) old + m mean, (1 - m) old + m unbiased variance of
    that side's input over the rows active at t: X_t Wx, h_{t-1} Wh (recomputed here from X_t and h_{t-1}), c_t.
    Inference: the gates from each side's own rows (a written out, against the spec's i, f, g, o)."""
    a, run = layer_problem(np.random.default_rng(32))
    T, B = a["x"].shape[:2]
    H = a["h0"].shape[1]
    lengths = np.array([4, 3, 4, 1])
    act = step_mask(lengths, T, B)
    r = [v.copy() for v in run]
    out = ref.window_lstm_forward(*a.values(), *r, "bn", True, MOM, EPS, lengths)
    steps = out[-1]["steps"]
    for t, s in enumerate(steps):
        sides = (s["X"] @ a["Wx"], s["h_prev"] @ a["Wh"], s["c"])
        for k, v in enumerate(sides):
            va = v[act[t]]
            np.testing.assert_allclose(r[2 * k][t], (1 - MOM) * run[2 * k][t] + MOM * va.mean(0), rtol=1e-12,
                                       err_msg=f"running mean of side {k}, step {t}")
            np.testing.assert_allclose(r[2 * k + 1][t], (1 - MOM) * run[2 * k + 1][t] + MOM * va.var(0, ddof=1),
                                       rtol=1e-12, err_msg=f"running variance of side {k}, step {t}")
    r = [v.copy() for v in run]
    out = ref.window_lstm_forward(*a.values(), *r, "bn", False, MOM, EPS, lengths)
    for k, (got, r0) in enumerate(zip(r, run)):
        np.testing.assert_array_equal(got, r0, err_msg=f"running rows {k} changed in inference")
    for t, s in enumerate(out[-1]["steps"]):
        xw, hw = s["X"] @ a["Wx"], s["h_prev"] @ a["Wh"]
        pre = (a["gx"] * (xw - run[0][t]) / np.sqrt(run[1][t] + EPS)
               + a["gh"] * (hw - run[2][t]) / np.sqrt(run[3][t] + EPS) + a["b"])
        gates = np.concatenate([1 / (1 + np.exp(-pre[:, :2 * H])), np.tanh(pre[:, 2 * H:3 * H]),
                                1 / (1 + np.exp(-pre[:, 3 * H:]))], axis=1)
        np.testing.assert_allclose(np.concatenate([s["i"], s["f"], s["g"], s["o"]], axis=1), gates, rtol=1e-12,
                                   err_msg=f"gates of step {t}")
        cn = a["gc"] * (s["c"] - run[4][t]) / np.sqrt(run[5][t] + EPS) + a["bc"]
        np.testing.assert_allclose(s["tc"], np.tanh(cn), rtol=1e-12, err_msg=f"tanh of the cell, step {t}")


def test_mdn_nll_is_the_mixture_of_torch_distributions():
    """-log sum_k pi_k N2(x | mu_k, Sigma_k) - log Bernoulli(pen | e) with Sigma_k = [[s1^2, rho s1 s2], [rho s1
    s2, s2^2]], strong correlations of both signs, 0 where not valid."""
    rng = np.random.default_rng(33)
    N, M = 7, 3
    y = rng.standard_normal((N, 6 * M + 1))
    y[:, 1 + 3 * M:1 + 5 * M] *= 0.5                               # log sigma
    y[:, 1 + 5 * M:] = rng.choice([-1.5, 1.5], (N, M)) + 0.2 * rng.standard_normal((N, M))  # rho ~ +-0.9
    target = np.concatenate([rng.standard_normal((N, 2)), rng.integers(0, 2, (N, 1))], axis=1)
    valid = np.array([1, 1, 0, 1, 1, 1, 0])
    got = ref.mdn_nll(y, target, valid, M)
    yt, tt = torch.tensor(y), torch.tensor(target)
    e = torch.sigmoid(yt[:, 0])
    logpi = torch.log_softmax(yt[:, 1:1 + M], dim=1)
    mu = torch.stack([yt[:, 1 + M:1 + 2 * M], yt[:, 1 + 2 * M:1 + 3 * M]], dim=2)          # (N,M,2)
    s1, s2 = torch.exp(yt[:, 1 + 3 * M:1 + 4 * M]), torch.exp(yt[:, 1 + 4 * M:1 + 5 * M])
    rho = (1 - 1e-4) * torch.tanh(yt[:, 1 + 5 * M:])
    cov = torch.stack([torch.stack([s1 * s1, rho * s1 * s2], -1), torch.stack([rho * s1 * s2, s2 * s2], -1)], -2)
    mvn = torch.distributions.MultivariateNormal(mu, covariance_matrix=cov)
    logp = torch.logsumexp(logpi + mvn.log_prob(tt[:, None, :2]), dim=1)
    pen = torch.distributions.Bernoulli(probs=e).log_prob(tt[:, 2])
    want = torch.where(torch.tensor(valid) != 0, -(logp + pen), torch.zeros(N, dtype=torch.float64)).numpy()
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)
    assert np.all(got[valid == 0] == 0.0) and np.all(got[valid != 0] != 0.0)
