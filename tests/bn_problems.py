"""Random problems for the recurrent BatchNorm cells, shared by the CPU, CUDA and race tests.

Not a test module (no test_ prefix) and free of numba.cuda, so that CPU-only test modules can import
it where CUDA cannot run.
"""
import numpy as np


def bn_problem(rng, cell, T, B, I, H, Ts, dtype=np.float64, var_hi=1.5, var_lo=0.5, mean_sc=0.3):
    """Arguments of bn_<cell>_forward up to the running statistics (a dict in argument order), the
    running statistics (rm*/rv* rows; means normal with scale mean_sc, variances uniform in [var_lo, var_hi)),
    and dy (T,B,H). Drawn from ``rng`` in that order. Ts: the rows of every side's running statistics, or a
    sequence of one count per side (x, h and the LSTM's cell)."""
    G = 4 * H if cell == "lstm" else H
    n = lambda sc, *s: (sc * rng.standard_normal(s)).astype(dtype)  # noqa: E731
    u = lambda hi, *s: rng.uniform(0.5, hi, s).astype(dtype)  # noqa: E731
    a = dict(x=n(1, T, B, I), h0=n(0.5, B, H))
    if cell == "lstm":
        a["c0"] = n(0.5, B, H)
    a.update(Wx=n(0.5, I, G), Wh=n(0.4, H, G), b=n(0.2, G), gx=u(1.5, G), gh=u(1.5, G))
    if cell == "lstm":
        a.update(gc=u(1.5, H), bc=n(0.2, H))
    widths = [G] * 4 + ([H, H] if cell == "lstm" else [])
    rows = [Ts] * 3 if np.isscalar(Ts) else list(Ts)
    run = [n(mean_sc, rows[k // 2], w) if k % 2 == 0 else
           rng.uniform(var_lo, var_hi, (rows[k // 2], w)).astype(dtype) for k, w in enumerate(widths)]
    return a, run, n(1, T, B, H)


def bn_step(z, active, rm, rv, t, training, mom, eps):
    """BN_t of z (B,F) without gain, by its definition: (z - mean) / sqrt(var + eps) with the active rows' mean and
    biased variance (none active: 0 and 0), or in inference the running row min(t, Ts-1); in training the running
    row t < Ts (rm, rv (Ts,F), updated in place) takes the mean and the unbiased variance with momentum mom when a
    row is active."""
    if training:
        rows = z[active]
        n = rows.shape[0]
        mean = rows.mean(axis=0) if n else np.zeros(z.shape[1])
        var = ((rows - mean) ** 2).mean(axis=0) if n else np.zeros(z.shape[1])
        if n and t < rm.shape[0]:
            rm[t] = (1 - mom) * rm[t] + mom * mean
            rv[t] = (1 - mom) * rv[t] + mom * var * n / max(n - 1, 1)
    else:
        r = min(t, rm.shape[0] - 1)
        mean, var = rm[r], rv[r]
    return (z - mean) / np.sqrt(var + eps)
