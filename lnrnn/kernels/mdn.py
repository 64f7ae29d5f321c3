"""Mixture density output (Graves 2013, "Generating Sequences With Recurrent Neural Networks", sec. 4):
negative log-likelihood of a pen point under M bivariate Gaussians and an end-of-stroke Bernoulli,
forward and backward (CPU twin; ``mdn_cuda.py`` is the CUDA twin, ``reference.mdn_*`` the spec).

Shapes: N rows (N = T*B points), M components, K = 6M + 1 outputs per row.
    yhat   (N,K)  the head's linear output, columns  [ e | pi (M) | mu1 (M) | mu2 (M) | s1 (M) | s2 (M) | rho (M) ]
    target (N,3)  the next point: dx, dy, pen (1: the pen lifts after it)
    valid  (N,)   1 where the row is scored, 0 for padding (its loss and gradient are exactly 0)

Transforms (each bounded so that no value overflows in float32):
    e    = sigmoid(e_hat)                          end-of-stroke probability
    pi   = softmax(pi_hat)                         mixture weights
    s1,2 = exp(clip(s_hat, -SMAX, SMAX))           standard deviations; the clip's derivative is 0 outside
    rho  = RHO * tanh(rho_hat)                     correlations, |rho| <= RHO < 1
Loss per row:  -log sum_k pi_k N(dx, dy | mu_k, s_k, rho_k) - [pen log e + (1 - pen) log(1 - e)]
with the sum as a log-sum-exp over components. With gamma_k the responsibilities (posterior of
component k), C = 1 / (1 - rho^2), z1 = (dx - mu1) / s1, z2 = (dy - mu2) / s2, Z = z1^2 + z2^2 - 2 rho z1 z2:
    dL/de_hat   = e - pen
    dL/dpi_hat  = pi - gamma
    dL/dmu1     = -gamma C (z1 - rho z2) / s1          dL/dmu2 = -gamma C (z2 - rho z1) / s2
    dL/ds1_hat  = -gamma (C z1 (z1 - rho z2) - 1)      dL/ds2_hat = -gamma (C z2 (z2 - rho z1) - 1)   (0 where clipped)
    dL/drho_hat = -gamma (C rho + C z1 z2 - C^2 rho Z) RHO (1 - tanh(rho_hat)^2)
Rows are independent: the prange over rows writes only
its own rows (no reduction across threads).

saved (forward returns it, backward takes it back): (gamma (N,M), z1 (N,M), z2 (N,M), e (N,), pi (N,M), valid (N,)).
"""
import numpy as np
from numba import njit, prange

from lnrnn.config import JIT, PJIT
from lnrnn.kernels.codes import MDN_RHO, MDN_SMAX

SMAX = MDN_SMAX   # log-sigma is clipped to [-SMAX, SMAX]
RHO = MDN_RHO     # |rho| <= RHO (exactly +-1 would make the Gaussian degenerate)


@njit(**JIT)
def _row_forward(yh, tg, M, gamma, z1, z2, pi):
    """One row: yh (K,), tg (3,) -> (nll, e); fills gamma, z1, z2, pi (M,)."""
    dt = yh.dtype.type  # constants in the row's dtype, so float32 rows stay float32
    one, half, two = dt(1.0), dt(0.5), dt(2.0)
    smax, rmax, log2pi = dt(SMAX), dt(RHO), dt(np.log(2 * np.pi))
    e = one / (one + np.exp(-yh[0]))
    # log pi: log-softmax of pi_hat
    pmax = yh[1]
    for k in range(1, M):
        pmax = max(pmax, yh[1 + k])
    psum = yh.dtype.type(0.0)
    for k in range(M):
        psum += np.exp(yh[1 + k] - pmax)
    lse_pi = pmax + np.log(psum)
    for k in range(M):
        pi[k] = np.exp(yh[1 + k] - lse_pi)
    # per-component log pi_k + log N_k, kept in gamma
    x1, x2 = tg[0], tg[1]
    lmax = dt(-np.inf)
    for k in range(M):
        ls1 = min(max(yh[1 + 3 * M + k], -smax), smax)
        ls2 = min(max(yh[1 + 4 * M + k], -smax), smax)
        rho = rmax * np.tanh(yh[1 + 5 * M + k])
        a = (x1 - yh[1 + M + k]) * np.exp(-ls1)
        b = (x2 - yh[1 + 2 * M + k]) * np.exp(-ls2)
        z1[k] = a
        z2[k] = b
        omr = one - rho * rho
        Z = a * a + b * b - two * rho * a * b
        gamma[k] = (yh[1 + k] - lse_pi) - log2pi - ls1 - ls2 - half * np.log(omr) - half * Z / omr
        lmax = max(lmax, gamma[k])  # the stored (rounded) value: exp(gamma[k] - lmax) = 1 for the largest
    s = dt(0.0)
    for k in range(M):
        s += np.exp(gamma[k] - lmax)
    lse = lmax + np.log(s)
    for k in range(M):
        gamma[k] = np.exp(gamma[k] - lse)
    # Bernoulli term: log e = -softplus(-e_hat), log(1-e) = -softplus(e_hat), computed stably
    eh = yh[0]
    sp_pos = max(eh, dt(0.0)) + np.log1p(np.exp(-abs(eh)))    # softplus(e_hat)
    sp_neg = sp_pos - eh                                  # softplus(-e_hat)
    nll = -lse + tg[2] * sp_neg + (one - tg[2]) * sp_pos
    return nll, e


@njit(**PJIT)
def mdn_forward(yhat, target, valid, M):
    """yhat (N,K), target (N,3), valid (N,) -> nll (N,) (0 where not valid), saved."""
    N = yhat.shape[0]
    dt = yhat.dtype
    nll = np.zeros(N, dtype=dt)
    gamma = np.zeros((N, M), dtype=dt)
    z1 = np.zeros((N, M), dtype=dt)
    z2 = np.zeros((N, M), dtype=dt)
    pi = np.zeros((N, M), dtype=dt)
    e = np.zeros(N, dtype=dt)
    for n in prange(N):
        if valid[n] != 0:
            nll[n], e[n] = _row_forward(yhat[n], target[n], M, gamma[n], z1[n], z2[n], pi[n])
    return nll, (gamma, z1, z2, e, pi, valid)


@njit(**JIT)
def _row_backward(yh, tg, M, gm, a_, b_, e, pi, g, d):
    """One row: d (K,) = g * dL/dyhat from the saved gamma (gm), z1 (a_), z2 (b_), e and pi."""
    dt = yh.dtype.type
    one, two, zero = dt(1.0), dt(2.0), dt(0.0)
    smax, rmax = dt(SMAX), dt(RHO)
    d[0] = g * (e - tg[2])
    for k in range(M):
        pik = pi[k]
        gk = gm[k]
        a = a_[k]
        b = b_[k]
        sh1 = yh[1 + 3 * M + k]
        sh2 = yh[1 + 4 * M + k]
        th = np.tanh(yh[1 + 5 * M + k])
        rho = rmax * th
        C = one / (one - rho * rho)
        Z = a * a + b * b - two * rho * a * b
        d[1 + k] = g * (pik - gk)
        d[1 + M + k] = -g * gk * C * (a - rho * b) * np.exp(-min(max(sh1, -smax), smax))
        d[1 + 2 * M + k] = -g * gk * C * (b - rho * a) * np.exp(-min(max(sh2, -smax), smax))
        d[1 + 3 * M + k] = -g * gk * (C * a * (a - rho * b) - one) if -smax < sh1 < smax else zero
        d[1 + 4 * M + k] = -g * gk * (C * b * (b - rho * a) - one) if -smax < sh2 < smax else zero
        # d(-log N)/d rho = -(rho C + C a b - C^2 rho Z); times d rho / d rho_hat = RHO (1 - tanh^2)
        d[1 + 5 * M + k] = -g * gk * (rho * C + C * a * b - C * C * rho * Z) * rmax * (one - th * th)


@njit(**PJIT)
def mdn_backward(dnll, saved, yhat, target, M):
    """dnll (N,) = dL/dnll, saved from mdn_forward -> dyhat (N,K) (0 on rows that are not valid)."""
    gamma, z1, z2, e, pi, valid = saved
    N, K = yhat.shape
    d = np.zeros((N, K), dtype=yhat.dtype)
    for n in prange(N):
        if valid[n] != 0:
            _row_backward(yhat[n], target[n], M, gamma[n], z1[n], z2[n], e[n], pi[n], dnll[n], d[n])
    return d


def mdn_split(yhat, M, bias=0.0):
    """yhat (N,K) -> (e, pi, mu1, mu2, s1, s2, rho), each (N,) or (N,M), with Graves's sampling bias b:
    pi = softmax(pi_hat (1 + b)), s = exp(s_hat - b) (b = 0: the trained distribution)."""
    yhat = np.asarray(yhat, dtype=np.float64)
    e = 1.0 / (1.0 + np.exp(-yhat[:, 0]))
    p = yhat[:, 1:1 + M] * (1.0 + bias)
    p = np.exp(p - p.max(axis=1, keepdims=True))
    pi = p / p.sum(axis=1, keepdims=True)
    mu1, mu2 = yhat[:, 1 + M:1 + 2 * M], yhat[:, 1 + 2 * M:1 + 3 * M]
    s1 = np.exp(np.clip(yhat[:, 1 + 3 * M:1 + 4 * M], -SMAX, SMAX) - bias)
    s2 = np.exp(np.clip(yhat[:, 1 + 4 * M:1 + 5 * M], -SMAX, SMAX) - bias)
    rho = RHO * np.tanh(yhat[:, 1 + 5 * M:1 + 6 * M])
    return e, pi, mu1, mu2, s1, s2, rho


def mdn_sample(yhat, M, rng, bias=0.0):
    """One point per row drawn from the mixture: yhat (N,K) -> (N,3) float64 (dx, dy, pen in {0,1})."""
    e, pi, mu1, mu2, s1, s2, rho = mdn_split(yhat, M, bias)
    N = yhat.shape[0]
    rows = np.arange(N)
    k = (rng.random(N)[:, None] > np.cumsum(pi, axis=1)).sum(axis=1).clip(0, M - 1)  # component per row
    u1, u2 = rng.standard_normal(N), rng.standard_normal(N)
    r = rho[rows, k]
    x1 = mu1[rows, k] + s1[rows, k] * u1
    x2 = mu2[rows, k] + s2[rows, k] * (r * u1 + np.sqrt(1.0 - r * r) * u2)
    pen = (rng.random(N) < e).astype(np.float64)
    return np.stack([x1, x2, pen], axis=1)
