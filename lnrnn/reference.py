"""Plain NumPy forward and backward of every op: the readable specification.

Nothing here is fast. Every compiled kernel (CPU and CUDA) is tested against these functions, and
these functions are themselves gradient-checked by finite differences. Shape letters and gate order
are defined once in ``lnrnn.kernels``. Each backward takes the upstream gradient first and returns
the gradients in the order of the forward's inputs.
"""
import numpy as np

from lnrnn.config import EPS


def sigmoid(z):
    with np.errstate(over="ignore"):  # exp(-z) = inf for z < -709 gives the right 0
        return 1.0 / (1.0 + np.exp(-z))


# ----------------------------------------------------------------------------------------------
# LayerNorm over the last axis
# ----------------------------------------------------------------------------------------------
def layernorm_forward(x, gain, bias, eps=EPS):
    """x (..., F) -> y (..., F), mean (...), rstd (...)."""
    mean = x.mean(axis=-1)
    var = ((x - mean[..., None]) ** 2).mean(axis=-1)  # biased
    rstd = 1.0 / np.sqrt(var + eps)
    xhat = (x - mean[..., None]) * rstd[..., None]
    return xhat * gain + bias, mean, rstd


def layernorm_backward(dy, x, mean, rstd, gain):
    """-> dx (..., F), dgain (F,), dbias (F,)."""
    xhat = (x - mean[..., None]) * rstd[..., None]
    dxhat = dy * gain
    dx = rstd[..., None] * (dxhat - dxhat.mean(-1, keepdims=True) - xhat * (dxhat * xhat).mean(-1, keepdims=True))
    red = tuple(range(dy.ndim - 1))
    return dx, (dy * xhat).sum(axis=red), dy.sum(axis=red)


# ----------------------------------------------------------------------------------------------
# LSTM, norm 'none' or 'ln' (Ba et al. 2016, supplementary eqs. 20-22). Gate order [i|f|g|o].
# ----------------------------------------------------------------------------------------------
def clip_gate_grads(da, clip):
    """Graves's (2013, sec. 4) LSTM derivative clip, the spec of every LSTM backward's ``clip``: at each
    step dL/d(gate preactivations) da (B,G) is clipped element-wise to [-clip, clip] before it reaches
    the bias, the normalizations, h_{t-1}, x and the weights (dL/dc_{t-1} is not clipped). 0 or inf:
    off. What comes out is not the gradient of any loss (no finite-difference check can judge it):
    the kernels are tested against these backwards with the same clip."""
    if 0.0 < clip < np.inf:
        return np.clip(da, -clip, clip)
    return da


def lstm_forward(x, h0, c0, Wx, Wh, b, gx, bx, gh, bh, gc, bc, norm, eps=EPS):
    """x (T,B,I), h0/c0 (B,H) -> y (T,B,H), hT, cT, cache (list of per-step dicts)."""
    T = x.shape[0]
    H = h0.shape[1]
    h, c = h0, c0
    ys, cache = [], []
    for t in range(T):
        xw, hw = x[t] @ Wx, h @ Wh  # (B,G) each
        if norm == "ln":
            xn, mx, rx = layernorm_forward(xw, gx, bx, eps)
            hn, mh, rh = layernorm_forward(hw, gh, bh, eps)
            a = hn + xn + b
        else:
            a = hw + xw + b
        i, f = sigmoid(a[:, :H]), sigmoid(a[:, H:2 * H])
        g, o = np.tanh(a[:, 2 * H:3 * H]), sigmoid(a[:, 3 * H:])
        c_new = f * c + i * g
        if norm == "ln":
            cn, mc, rc = layernorm_forward(c_new, gc, bc, eps)
        else:
            cn = c_new
        tc = np.tanh(cn)
        h_new = o * tc
        step = dict(x=x[t], h=h, c=c, i=i, f=f, g=g, o=o, tc=tc, c_new=c_new, pre=a)  # pre: gate pre-activations
        if norm == "ln":
            step.update(xw=xw, mx=mx, rx=rx, hw=hw, mh=mh, rh=rh, mc=mc, rc=rc)
        cache.append(step)
        ys.append(h_new)
        h, c = h_new, c_new
    return np.stack(ys), h, c, cache


def lstm_backward(dy, cache, Wx, Wh, gx, gh, gc, norm, clip=0.0, record=None):
    """dy (T,B,H) -> dx, dh0, dc0, dWx, dWh, db, dgx, dbx, dgh, dbh, dgc, dbc. ``record``: a list that
    gets dL/dh_t (B,H) for t = T-1 .. 0 (the total derivative: direct plus through later steps).
    ``clip``: Graves's bound on dL/d(preactivation) (clip_gate_grads); 0: off."""
    T = dy.shape[0]
    grads = {k: np.zeros_like(v) for k, v in dict(Wx=Wx, Wh=Wh, gx=gx, gh=gh, gc=gc).items()}
    for k, n in (("db", Wx.shape[1]), ("dbx", Wx.shape[1]), ("dbh", Wx.shape[1]), ("dbc", gc.shape[0])):
        grads[k] = np.zeros(n, dtype=dy.dtype)
    dx = np.zeros(dy.shape[:2] + (Wx.shape[0],), dtype=dy.dtype)
    dh_next = np.zeros_like(dy[0])
    dc_next = np.zeros_like(dy[0])
    for t in reversed(range(T)):
        s = cache[t]
        dh = dy[t] + dh_next
        if record is not None:
            record.append(dh)
        do = dh * s["tc"]
        dcn = dh * s["o"] * (1.0 - s["tc"] ** 2)
        if norm == "ln":
            dc, dgc, dbc = layernorm_backward(dcn, s["c_new"], s["mc"], s["rc"], gc)
            grads["gc"] += dgc
            grads["dbc"] += dbc
        else:
            dc = dcn
        dc = dc + dc_next
        di, df, dg = dc * s["g"], dc * s["c"], dc * s["i"]
        dc_next = dc * s["f"]
        da = np.concatenate([di * s["i"] * (1 - s["i"]), df * s["f"] * (1 - s["f"]),
                             dg * (1 - s["g"] ** 2), do * s["o"] * (1 - s["o"])], axis=1)  # (B,G)
        da = clip_gate_grads(da, clip)
        grads["db"] += da.sum(0)
        if norm == "ln":
            dxw, dgx, dbx = layernorm_backward(da, s["xw"], s["mx"], s["rx"], gx)
            dhw, dgh, dbh = layernorm_backward(da, s["hw"], s["mh"], s["rh"], gh)
            grads["gx"] += dgx
            grads["dbx"] += dbx
            grads["gh"] += dgh
            grads["dbh"] += dbh
        else:
            dxw, dhw = da, da
        grads["Wx"] += s["x"].T @ dxw
        grads["Wh"] += s["h"].T @ dhw
        dx[t] = dxw @ Wx.T
        dh_next = dhw @ Wh.T
    return (dx, dh_next, dc_next, grads["Wx"], grads["Wh"], grads["db"], grads["gx"], grads["dbx"],
            grads["gh"], grads["dbh"], grads["gc"], grads["dbc"])


# ----------------------------------------------------------------------------------------------
# Vanilla RNN, norm 'none' or 'ln' (Ba et al. 2016 eq. 4: a = x Wx + h Wh normalized jointly).
# ----------------------------------------------------------------------------------------------
def rnn_forward(x, h0, Wx, Wh, b, g, norm, eps=EPS):
    """x (T,B,I), h0 (B,H) -> y (T,B,H), hT, cache. With norm='ln', b is the LN bias and g its gain."""
    h = h0
    ys, cache = [], []
    for t in range(x.shape[0]):
        a = x[t] @ Wx + h @ Wh
        if norm == "ln":
            z, m, r = layernorm_forward(a, g, b, eps)
        else:
            z, m, r = a + b, None, None
        h_new = np.tanh(z)
        cache.append(dict(x=x[t], h=h, a=a, m=m, r=r, y=h_new, pre=z))  # pre: the tanh argument
        ys.append(h_new)
        h = h_new
    return np.stack(ys), h, cache


def rnn_backward(dy, cache, Wx, Wh, g, norm, record=None):
    """dy (T,B,H) -> dx, dh0, dWx, dWh, db, dg. ``record``: as in lstm_backward."""
    dWx, dWh = np.zeros_like(Wx), np.zeros_like(Wh)
    db, dg = np.zeros(Wh.shape[1], dy.dtype), np.zeros_like(g)
    dx = np.zeros(dy.shape[:2] + (Wx.shape[0],), dtype=dy.dtype)
    dh_next = np.zeros_like(dy[0])
    for t in reversed(range(dy.shape[0])):
        s = cache[t]
        if record is not None:
            record.append(dy[t] + dh_next)
        dz = (dy[t] + dh_next) * (1.0 - s["y"] ** 2)
        if norm == "ln":
            da, dgt, dbt = layernorm_backward(dz, s["a"], s["m"], s["r"], g)
            dg += dgt
            db += dbt
        else:
            da = dz
            db += dz.sum(0)
        dWx += s["x"].T @ da
        dWh += s["h"].T @ da
        dx[t] = da @ Wx.T
        dh_next = da @ Wh.T
    return dx, dh_next, dWx, dWh, db, dg


# ----------------------------------------------------------------------------------------------
# BatchNorm with per-time-step statistics, and the recurrent-BN cells (Cooijmans et al. 2016)
# ----------------------------------------------------------------------------------------------
# x (T,B,F): at each step t every feature is normalized over the batch B (biased variance, eps
# inside the sqrt). running_mean/var (Ts,F): training updates row t for t < Ts with the unbiased
# batch variance; steps t >= Ts are not recorded. Inference uses row min(t, Ts-1).
#
# Masks (sequences of different lengths, right-padded; lnrnn.kernels.masks): lengths (B,), row b is
# active at step t iff t < lengths[b]; None = every row active. In training, the statistics of step t
# count only its n_t active rows (mean and biased variance over them; n_t = 0 gives mean 0, variance
# 0, and leaves the running row alone; the running variance uses n_t/(n_t-1)). Padded rows are still
# normalized with those statistics (finite values nobody should read). In the backward a padded
# (row, step) is outside the loss: its upstream gradient is ignored, its dL/d(BN input) is zero, and
# it adds nothing to any parameter gradient. Inference (population statistics) ignores lengths in the
# forward and masks the backward the same way.
from lnrnn.config import BN_MOMENTUM  # noqa: E402  (section appended after the file's imports)
from lnrnn.kernels.masks import step_mask  # noqa: E402


def _bn_stats(x_t, rm, rv, t, training, momentum, eps, active=None):
    """x_t (B,F) one step -> mean (F,), rstd (F,); updates rm[t], rv[t] in place (training, t < Ts,
    at least one active row). active (B,) bool: the rows that count (None: all)."""
    Ts = rm.shape[0]
    if not training:
        row = min(t, Ts - 1)
        return rm[row].copy(), 1.0 / np.sqrt(rv[row] + eps)
    xa = x_t if active is None else x_t[active]
    n = xa.shape[0]
    if n == 0:  # no row runs at this step
        return np.zeros(x_t.shape[1], x_t.dtype), np.full(x_t.shape[1], 1.0 / np.sqrt(eps), x_t.dtype)
    mean = xa.mean(axis=0)
    var = ((xa - mean) ** 2).mean(axis=0)  # biased
    if t < Ts:
        rm[t] = (1 - momentum) * rm[t] + momentum * mean
        rv[t] = (1 - momentum) * rv[t] + momentum * var * n / max(n - 1, 1)
    return mean, 1.0 / np.sqrt(var + eps)


def _bn_step_backward(dy_t, x_t, mean, rstd, gain, training, active=None):
    """One step: dy_t, x_t (B,F) -> dx_t (B,F), dgain (F,), dbias (F,). active (B,) bool: padded rows
    (False) are outside the loss: their dy is ignored and their dx is zero."""
    if active is not None:
        dy_t = np.where(active[:, None], dy_t, 0.0)
    xhat = (x_t - mean) * rstd
    dxhat = dy_t * gain
    if training:
        n = max(x_t.shape[0] if active is None else int(active.sum()), 1)
        dx = rstd * (dxhat - dxhat.sum(axis=0) / n - xhat * (dxhat * xhat).sum(axis=0) / n)
    else:
        dx = rstd * dxhat
    if active is not None:
        dx = np.where(active[:, None], dx, 0.0)
    return dx, (dy_t * xhat).sum(axis=0), dy_t.sum(axis=0)


def batchnorm_forward_train(x, gain, bias, running_mean, running_var, momentum=BN_MOMENTUM, eps=EPS,
                            lengths=None):
    """x (T,B,F) -> y (T,B,F), mean (T,F), rstd (T,F); running stats (Ts,F) updated in place;
    lengths (B,) or None (see the masks note above)."""
    T, B, F = x.shape
    active = step_mask(lengths, T, B)
    y = np.empty_like(x)
    mean = np.empty((T, F), dtype=x.dtype)
    rstd = np.empty_like(mean)
    for t in range(T):
        mean[t], rstd[t] = _bn_stats(x[t], running_mean, running_var, t, True, momentum, eps, active[t])
        y[t] = (x[t] - mean[t]) * rstd[t] * gain + bias
    return y, mean, rstd


def batchnorm_forward_infer(x, gain, bias, running_mean, running_var, eps=EPS):
    """x (T,B,F) -> y (T,B,F), step t normalized with running row min(t, Ts-1)."""
    y = np.empty_like(x)
    for t in range(x.shape[0]):
        mean, rstd = _bn_stats(x[t], running_mean, running_var, t, False, 0.0, eps)
        y[t] = (x[t] - mean) * rstd * gain + bias
    return y


def batchnorm_backward(dy, x, mean, rstd, gain, training=True, lengths=None):
    """Training-mode backward (training=False: the affine inference map). -> dx, dgain, dbias."""
    T, B, _ = x.shape
    active = step_mask(lengths, T, B)
    dx = np.empty_like(x)
    dgain = np.zeros_like(gain)
    dbias = np.zeros_like(gain)
    for t in range(T):
        dx[t], dg, db = _bn_step_backward(dy[t], x[t], mean[t], rstd[t], gain, training, active[t])
        dgain += dg
        dbias += db
    return dx, dgain, dbias


def bn_lstm_forward(x, h0, c0, Wx, Wh, b, gx, gh, gc, bc, rmx, rvx, rmh, rvh, rmc, rvc,
                    training, momentum=BN_MOMENTUM, eps=EPS, lengths=None):
    """BN-LSTM: a = BN_t(h Wh; gh, 0) + BN_t(x Wx; gx, 0) + b, gates [i|f|g|o],
    c_t = f c_{t-1} + i g, h_t = o tanh(BN_t(c_t; gc, bc)).

    x (T,B,I), h0/c0 (B,H), Wx (I,4H), Wh (H,4H), b/gx/gh (4H,), gc/bc (H,),
    rm*/rv* (Ts,4H) for x and h, (Ts,H) for c; lengths (B,) or None (masks note above).
    -> y (T,B,H), hT, cT, saved (a dict). Padded rows run on (finite values); hT, cT are step T-1's.
    """
    T, B, _ = x.shape
    H = h0.shape[1]
    active = step_mask(lengths, T, B)
    y = np.empty((T, B, H), dtype=x.dtype)
    steps = []
    h, c = h0, c0
    for t in range(T):
        xw, hw = x[t] @ Wx, h @ Wh  # (B,4H) each
        mx, sx = _bn_stats(xw, rmx, rvx, t, training, momentum, eps, active[t])
        mh, sh = _bn_stats(hw, rmh, rvh, t, training, momentum, eps, active[t])
        a = gh * (hw - mh) * sh + gx * (xw - mx) * sx + b
        i, f, g, o = sigmoid(a[:, :H]), sigmoid(a[:, H:2 * H]), np.tanh(a[:, 2 * H:3 * H]), sigmoid(a[:, 3 * H:])
        c_prev, h_prev = c, h
        c = f * c_prev + i * g
        mc, sc = _bn_stats(c, rmc, rvc, t, training, momentum, eps, active[t])
        tc = np.tanh(gc * (c - mc) * sc + bc)
        h = o * tc
        y[t] = h
        steps.append(dict(xw=xw, mx=mx, sx=sx, hw=hw, mh=mh, sh=sh, i=i, f=f, g=g, o=o,
                          c=c, c_prev=c_prev, h_prev=h_prev, mc=mc, sc=sc, tc=tc, pre=a))
    return y, h, c, dict(steps=steps, training=training, active=active)


def bn_lstm_backward(dy, saved, x, h0, c0, Wx, Wh, gx, gh, gc, clip=0.0, record=None):
    """-> dx (T,B,I), dh0 (B,H), dc0 (B,H), dWx, dWh, db, dgx, dgh, dgc, dbc. dy at padded steps is
    ignored (masks note above). ``record``, ``clip``: as in lstm_backward."""
    training, active = saved["training"], saved["active"]
    dx = np.zeros_like(x)
    dWx, dWh = np.zeros_like(Wx), np.zeros_like(Wh)
    db, dgx, dgh = np.zeros_like(gx), np.zeros_like(gx), np.zeros_like(gh)
    dgc, dbc = np.zeros_like(gc), np.zeros_like(gc)
    dh_next, dc_next = np.zeros_like(h0), np.zeros_like(c0)
    for t in reversed(range(x.shape[0])):
        s = saved["steps"][t]
        dh = np.where(active[t][:, None], dy[t], 0.0) + dh_next  # a padded row's dh_next is zero
        if record is not None:
            record.append(dh)
        do = dh * s["tc"]
        dcn = dh * s["o"] * (1 - s["tc"] ** 2)  # w.r.t. BN_t(c) output
        dc_bn, dg_, db_ = _bn_step_backward(dcn, s["c"], s["mc"], s["sc"], gc, training, active[t])
        dgc += dg_
        dbc += db_
        dc = dc_next + dc_bn
        i, f, g, o = s["i"], s["f"], s["g"], s["o"]
        da = np.concatenate([dc * g * i * (1 - i), dc * s["c_prev"] * f * (1 - f),
                             dc * i * (1 - g ** 2), do * o * (1 - o)], axis=1)  # (B,4H)
        da = clip_gate_grads(da, clip)  # a padded row's da is zero already
        db += da.sum(axis=0)
        dhw, dg_, _ = _bn_step_backward(da, s["hw"], s["mh"], s["sh"], gh, training, active[t])
        dgh += dg_
        dxw, dg_, _ = _bn_step_backward(da, s["xw"], s["mx"], s["sx"], gx, training, active[t])
        dgx += dg_
        dWh += s["h_prev"].T @ dhw
        dWx += x[t].T @ dxw
        dx[t] = dxw @ Wx.T
        dh_next = dhw @ Wh.T
        dc_next = dc * f
    return dx, dh_next, dc_next, dWx, dWh, db, dgx, dgh, dgc, dbc


def bn_rnn_forward(x, h0, Wx, Wh, b, gx, gh, rmx, rvx, rmh, rvh, training, momentum=BN_MOMENTUM, eps=EPS,
                   lengths=None):
    """BN-RNN: h_t = tanh(BN_t(h Wh; gh, 0) + BN_t(x Wx; gx, 0) + b).

    x (T,B,I), h0 (B,H), Wx (I,H), Wh (H,H), b/gx/gh (H,), rm*/rv* (Ts,H), lengths (B,) or None.
    -> y (T,B,H), hT, saved.
    """
    T, B, _ = x.shape
    active = step_mask(lengths, T, B)
    y = np.empty((T, B, h0.shape[1]), dtype=x.dtype)
    steps = []
    h = h0
    for t in range(T):
        xw, hw = x[t] @ Wx, h @ Wh
        mx, sx = _bn_stats(xw, rmx, rvx, t, training, momentum, eps, active[t])
        mh, sh = _bn_stats(hw, rmh, rvh, t, training, momentum, eps, active[t])
        h_prev = h
        pre = gh * (hw - mh) * sh + gx * (xw - mx) * sx + b
        h = np.tanh(pre)
        y[t] = h
        steps.append(dict(xw=xw, mx=mx, sx=sx, hw=hw, mh=mh, sh=sh, h=h, h_prev=h_prev, pre=pre))
    return y, h, dict(steps=steps, training=training, active=active)


def bn_rnn_backward(dy, saved, x, h0, Wx, Wh, gx, gh, record=None):
    """-> dx (T,B,I), dh0 (B,H), dWx, dWh, db, dgx, dgh. dy at padded steps is ignored. ``record``: as
    in lstm_backward."""
    training, active = saved["training"], saved["active"]
    dx = np.zeros_like(x)
    dWx, dWh = np.zeros_like(Wx), np.zeros_like(Wh)
    db, dgx, dgh = np.zeros_like(gx), np.zeros_like(gx), np.zeros_like(gh)
    dh_next = np.zeros_like(h0)
    for t in reversed(range(x.shape[0])):
        s = saved["steps"][t]
        if record is not None:
            record.append(np.where(active[t][:, None], dy[t] + dh_next, 0.0))
        da = np.where(active[t][:, None], dy[t] + dh_next, 0.0) * (1 - s["h"] ** 2)
        db += da.sum(axis=0)
        dhw, dg_, _ = _bn_step_backward(da, s["hw"], s["mh"], s["sh"], gh, training, active[t])
        dgh += dg_
        dxw, dg_, _ = _bn_step_backward(da, s["xw"], s["mx"], s["sx"], gx, training, active[t])
        dgx += dg_
        dWh += s["h_prev"].T @ dhw
        dWx += x[t].T @ dxw
        dx[t] = dxw @ Wx.T
        dh_next = dhw @ Wh.T
    return dx, dh_next, dWx, dWh, db, dgx, dgh


# ---- mixture density output (kernels/mdn.py): the spec, written the plain way ----

def mdn_nll(yhat, target, valid, M, smax=10.0, rho_max=1.0 - 1e-4):
    """yhat (N,6M+1) [e | pi | mu1 | mu2 | s1 | s2 | rho], target (N,3), valid (N,) -> nll (N,) float64:
    -log sum_k pi_k N2(dx, dy | mu_k, sigma_k, rho_k) - log Bernoulli(pen | e), 0 where not valid.
    Densities are evaluated directly (no log-sum-exp): the kernels must agree wherever this is finite."""
    y = np.asarray(yhat, np.float64)
    t = np.asarray(target, np.float64)
    e = 1.0 / (1.0 + np.exp(-y[:, 0]))
    p = np.exp(y[:, 1:1 + M] - y[:, 1:1 + M].max(axis=1, keepdims=True))
    pi = p / p.sum(axis=1, keepdims=True)
    mu1, mu2 = y[:, 1 + M:1 + 2 * M], y[:, 1 + 2 * M:1 + 3 * M]
    s1 = np.exp(np.clip(y[:, 1 + 3 * M:1 + 4 * M], -smax, smax))
    s2 = np.exp(np.clip(y[:, 1 + 4 * M:1 + 5 * M], -smax, smax))
    rho = rho_max * np.tanh(y[:, 1 + 5 * M:1 + 6 * M])
    dx, dy = t[:, :1] - mu1, t[:, 1:2] - mu2
    q = (dx / s1) ** 2 + (dy / s2) ** 2 - 2 * rho * dx * dy / (s1 * s2)
    dens = np.exp(-q / (2 * (1 - rho ** 2))) / (2 * np.pi * s1 * s2 * np.sqrt(1 - rho ** 2))
    pen = t[:, 2]
    nll = -np.log((pi * dens).sum(axis=1)) - (pen * np.log(e) + (1 - pen) * np.log(1 - e))
    return np.where(np.asarray(valid) != 0, nll, 0.0)


# ----------------------------------------------------------------------------------------------
# The soft window of Graves's synthesis network (Graves 2013, sec. 5.1), and the first layer it
# steers: an LSTM (norm 'none', 'ln' or 'bn') whose input at step t is [x_t | w_{t-1}]
# ----------------------------------------------------------------------------------------------
# Text: chars (B,U) int codes in [0, C) (one-hot c_u), ulen (B,) the characters of each row's text
# (u >= ulen[b] is padding, of any value and never read: it adds nothing to phi, w or any
# gradient). Window parameters Wp (H,3K), bp (3K,): p_t = h_t Wp + bp = [a_hat | b_hat | k_hat]
# (K each), alpha = exp(a_hat), beta = exp(b_hat), kappa_t = kappa_{t-1} + exp(k_hat),
# phi(t, u) = sum_k alpha_k exp(-beta_k (kappa_k - u)^2) over the 1-based positions u = 1..ulen[b],
# w_t = sum_u phi(t, u) c_u (B,C).


def window_forward(h, Wp, bp, kappa_prev, chars, ulen, C):
    """One step: h (B,H), kappa_prev (B,K) -> w (B,C), phi (B,U), kappa (B,K), cache."""
    B, U = chars.shape
    K = Wp.shape[1] // 3
    p = h @ Wp + bp                                                    # (B,3K)
    alpha, beta, ek = np.exp(p[:, :K]), np.exp(p[:, K:2 * K]), np.exp(p[:, 2 * K:])
    kappa = kappa_prev + ek
    u = np.arange(1, U + 1, dtype=h.dtype)                             # (U,) 1-based positions
    on = (np.arange(U)[None, :] < np.asarray(ulen)[:, None])           # (B,U) characters of the text
    d = kappa[:, :, None] - u[None, None, :]                           # (B,K,U)
    e = np.exp(-beta[:, :, None] * d ** 2)                             # (B,K,U)
    phi = np.where(on, (alpha[:, :, None] * e).sum(axis=1), 0.0)       # (B,U)
    w = np.zeros((B, C), h.dtype)
    for b in range(B):
        n = int(ulen[b])
        np.add.at(w[b], chars[b, :n], phi[b, :n])
    return w, phi, kappa, dict(h=h, alpha=alpha, beta=beta, ek=ek, kappa=kappa, d=d, e=e, on=on)


def window_backward(dw, dkappa, cache, Wp, chars):
    """dw (B,C) = dL/dw_t, dkappa (B,K) = dL/dkappa_t from later steps -> dh (B,H), dkappa_prev (B,K),
    dWp (H,3K), dbp (3K,)."""
    s = cache
    dphi = np.where(s["on"], np.take_along_axis(dw, np.where(s["on"], chars, 0), axis=1), 0.0)  # (B,U)
    ae = s["alpha"][:, :, None] * s["e"] * dphi[:, None, :]                   # (B,K,U)
    dalpha = (s["e"] * dphi[:, None, :]).sum(axis=2)
    dbeta = -(ae * s["d"] ** 2).sum(axis=2)
    dkap = dkappa - 2.0 * s["beta"] * (ae * s["d"]).sum(axis=2)
    dp = np.concatenate([dalpha * s["alpha"], dbeta * s["beta"], dkap * s["ek"]], axis=1)  # (B,3K)
    return dp @ Wp.T, dkap, s["h"].T @ dp, dp.sum(axis=0)


def window_lstm_forward(x, h0, c0, kappa0, w0, chars, ulen, Wx, Wh, b, gx, bx, gh, bh, gc, bc, Wp, bp,
                        rmx, rvx, rmh, rvh, rmc, rvc, norm, training=True, momentum=BN_MOMENTUM, eps=EPS,
                        lengths=None):
    """The synthesis network's first layer and its window, one recurrence: X_t = [x_t | w_{t-1}]
    (B,I+C), a_t = X_t Wx + h_{t-1} Wh + b ('none'), LN(X_t Wx; gx, bx) + LN(h_{t-1} Wh; gh, bh) + b
    ('ln'), BN_t(X_t Wx; gx, 0) + BN_t(h_{t-1} Wh; gh, 0) + b ('bn'); gates [i|f|g|o],
    c_t = f c_{t-1} + i g, h_t = o tanh(c_t) / tanh(LN(c_t; gc, bc)) / tanh(BN_t(c_t; gc, bc)); then
    the window (window_forward) moves on h_t.

    x (T,B,I), h0/c0 (B,H), kappa0 (B,K), w0 (B,C), Wx (I+C,4H), Wh (H,4H), b/gx/bx/gh/bh (4H,),
    gc/bc (H,), Wp (H,3K), bp (3K,); rm*/rv* as bn_lstm_forward (read for 'bn' only, updated in
    training); lengths (B,) or None (padded steps run on; their dL/dy and dL/dw are ignored).
    -> y (T,B,H), w (T,B,C), hT, cT, kappaT, wT (step T-1's), phi (T,B,U), cache."""
    T, B, _ = x.shape
    H, C = h0.shape[1], w0.shape[1]
    active = step_mask(lengths, T, B)
    h, c, kappa, w = h0, c0, kappa0, w0
    ys, ws, phis, steps = [], [], [], []
    for t in range(T):
        X = np.concatenate([x[t], w], axis=1)                           # (B,I+C)
        xw, hw = X @ Wx, h @ Wh                                         # (B,G) each
        s = dict(X=X, h_prev=h, c_prev=c, xw=xw, hw=hw)
        if norm == "ln":
            xn, s["mx"], s["sx"] = layernorm_forward(xw, gx, bx, eps)
            hn, s["mh"], s["sh"] = layernorm_forward(hw, gh, bh, eps)
            a = xn + hn + b
        elif norm == "bn":
            s["mx"], s["sx"] = _bn_stats(xw, rmx, rvx, t, training, momentum, eps, active[t])
            s["mh"], s["sh"] = _bn_stats(hw, rmh, rvh, t, training, momentum, eps, active[t])
            a = gx * (xw - s["mx"]) * s["sx"] + gh * (hw - s["mh"]) * s["sh"] + b
        else:
            a = xw + hw + b
        i, f = sigmoid(a[:, :H]), sigmoid(a[:, H:2 * H])
        g, o = np.tanh(a[:, 2 * H:3 * H]), sigmoid(a[:, 3 * H:])
        c = f * c + i * g
        if norm == "ln":
            cn, s["mc"], s["sc"] = layernorm_forward(c, gc, bc, eps)
        elif norm == "bn":
            s["mc"], s["sc"] = _bn_stats(c, rmc, rvc, t, training, momentum, eps, active[t])
            cn = gc * (c - s["mc"]) * s["sc"] + bc
        else:
            cn = c
        tc = np.tanh(cn)
        h = o * tc
        w, phi, kappa, s["win"] = window_forward(h, Wp, bp, kappa, chars, ulen, C)
        s.update(i=i, f=f, g=g, o=o, c=c, tc=tc)
        steps.append(s)
        ys.append(h)
        ws.append(w)
        phis.append(phi)
    cache = dict(steps=steps, norm=norm, training=training, active=active, I=x.shape[2])
    return np.stack(ys), np.stack(ws), h, c, kappa, w, np.stack(phis), cache


def window_lstm_backward(dy, dw, cache, Wx, Wh, gx, gh, gc, Wp, chars, clip=0.0):
    """dy (T,B,H) = dL/dh_t from above (the layers and head that read h_t), dw (T,B,C) = dL/dw_t from
    the layers above; both ignored at padded steps -> dx (T,B,I), dh0, dc0 (B,H), dkappa0 (B,K),
    dw0 (B,C), dWx, dWh, db, dgx, dbx, dgh, dbh, dgc, dbc, dWp, dbp (dbx, dbh zero for 'bn'; every
    norm gradient zero for 'none'). clip: Graves's bound on dL/d(gate preactivations)."""
    norm, training, active, I = cache["norm"], cache["training"], cache["active"], cache["I"]
    steps = cache["steps"]
    T, B, H = dy.shape
    G = 4 * H
    K = Wp.shape[1] // 3
    dt = dy.dtype
    dx = np.zeros((T, B, I), dt)
    dWx, dWh, dWp = np.zeros_like(Wx), np.zeros_like(Wh), np.zeros_like(Wp)
    db, dgx, dbx, dgh, dbh = (np.zeros(G, dt) for _ in range(5))
    dgc, dbc, dbp = np.zeros(H, dt), np.zeros(H, dt), np.zeros(3 * K, dt)
    dh_next, dc_next = np.zeros((B, H), dt), np.zeros((B, H), dt)
    dkappa, dw_next = np.zeros((B, K), dt), np.zeros((B, dw.shape[2]), dt)
    for t in reversed(range(T)):
        s = steps[t]
        on = active[t][:, None]
        dwt = np.where(on, dw[t], 0.0) + dw_next                       # w_t feeds the layers above and step t+1
        dhw_, dkappa, dWp_, dbp_ = window_backward(dwt, dkappa, s["win"], Wp, chars)
        dWp += dWp_
        dbp += dbp_
        dh = np.where(on, dy[t], 0.0) + dh_next + dhw_
        do = dh * s["tc"]
        dcn = dh * s["o"] * (1.0 - s["tc"] ** 2)
        if norm == "ln":
            dcc, dg_, db_ = layernorm_backward(dcn, s["c"], s["mc"], s["sc"], gc)
        elif norm == "bn":
            dcc, dg_, db_ = _bn_step_backward(dcn, s["c"], s["mc"], s["sc"], gc, training, active[t])
        else:
            dcc, dg_, db_ = dcn, 0.0, 0.0
        dgc += dg_
        dbc += db_
        dc = dcc + dc_next
        i, f, g, o = s["i"], s["f"], s["g"], s["o"]
        da = np.concatenate([dc * g * i * (1 - i), dc * s["c_prev"] * f * (1 - f),
                             dc * i * (1 - g ** 2), do * o * (1 - o)], axis=1)  # (B,G)
        da = clip_gate_grads(da, clip)
        db += da.sum(axis=0)
        if norm == "ln":
            dxw, dg_, db_ = layernorm_backward(da, s["xw"], s["mx"], s["sx"], gx)
            dgx += dg_
            dbx += db_
            dhw, dg_, db_ = layernorm_backward(da, s["hw"], s["mh"], s["sh"], gh)
            dgh += dg_
            dbh += db_
        elif norm == "bn":
            dxw, dg_, _ = _bn_step_backward(da, s["xw"], s["mx"], s["sx"], gx, training, active[t])
            dgx += dg_
            dhw, dg_, _ = _bn_step_backward(da, s["hw"], s["mh"], s["sh"], gh, training, active[t])
            dgh += dg_
        else:
            dxw, dhw = da, da
        dWx += s["X"].T @ dxw
        dWh += s["h_prev"].T @ dhw
        dX = dxw @ Wx.T                                                # (B,I+C)
        dx[t], dw_next = dX[:, :I], dX[:, I:]
        dh_next = dhw @ Wh.T
        dc_next = dc * f
    return (dx, dh_next, dc_next, dkappa, dw_next, dWx, dWh, db, dgx, dbx, dgh, dbh, dgc, dbc, dWp, dbp)


def window_phi_at(kappa, alpha, beta, u):
    """phi(t, u) of one 1-based position u (the stop rule reads u = U+1): kappa, alpha, beta (..., K)."""
    return (alpha * np.exp(-beta * (kappa - u) ** 2)).sum(axis=-1)


# ----------------------------------------------------------------------------------------------
# Connectionist temporal classification (Graves et al. 2006), kernels/ctc.py: the spec
# ----------------------------------------------------------------------------------------------
CTC_BLANK = 0  # the blank is class 0 (PyTorch's default); labels are classes 1..C-1


def ctc_extend(label):
    """label (L,) -> the extended label (2L+1,): a blank before, between and after the L labels."""
    ext = np.full(2 * len(label) + 1, CTC_BLANK, dtype=np.int64)
    ext[1::2] = label
    return ext


def ctc_forward(logits, labels, input_lengths, label_lengths):
    """logits (T,B,C), labels (B,Lmax) int (entries past label_lengths[b] ignored), input_lengths (B,),
    label_lengths (B,) -> loss (B,) = -log p(label_b | x_b), cache.

    logp = log-softmax of logits over C; alpha[t,s] = log of the probability of all paths through
    steps 0..t that end in position s of the extended label (emission at t included). A row whose label
    needs more steps than its input has (p = 0) gets loss 0 and, in ctc_backward, gradient 0 (PyTorch's
    zero_infinity=True)."""
    T, B, C = logits.shape
    z = logits - logits.max(axis=2, keepdims=True)
    logp = z - np.log(np.exp(z).sum(axis=2, keepdims=True))       # (T,B,C)
    loss = np.zeros(B, logits.dtype)
    rows = []
    for b in range(B):
        Tb, ext = int(input_lengths[b]), ctc_extend(labels[b, :label_lengths[b]])
        S = len(ext)
        alpha = np.full((Tb, S), -np.inf)
        for t in range(Tb):
            for s in range(S):
                e = logp[t, b, ext[s]]
                if t == 0:
                    alpha[t, s] = e if s < 2 else -np.inf
                    continue
                a = alpha[t - 1, s]
                if s >= 1:
                    a = np.logaddexp(a, alpha[t - 1, s - 1])
                if s >= 2 and ext[s] != CTC_BLANK and ext[s] != ext[s - 2]:  # skip a blank, not between repeats
                    a = np.logaddexp(a, alpha[t - 1, s - 2])
                alpha[t, s] = a + e
        if Tb == 0:
            logz = 0.0 if S == 1 else -np.inf
        else:
            logz = alpha[Tb - 1, S - 1] if S == 1 else np.logaddexp(alpha[Tb - 1, S - 1], alpha[Tb - 1, S - 2])
        if np.isfinite(logz):
            loss[b] = -logz
        rows.append((Tb, ext, alpha, logz))
    return loss, (logp, rows)


def ctc_backward(dloss, cache):
    """dloss (B,) -> dlogits (T,B,C) = dloss[b] * (softmax - posterior of each class at each step), 0 past
    input_lengths[b] and on impossible rows. beta[t,s] = log of the probability of steps t+1..Tb-1 given
    position s at step t (emission at t excluded), so alpha + beta - log p is the log posterior of s at t."""
    logp, rows = cache
    T, B, C = logp.shape
    d = np.zeros_like(logp)
    for b, (Tb, ext, alpha, logz) in enumerate(rows):
        if Tb == 0 or not np.isfinite(logz):   # nothing scored, or p = 0
            continue
        S = len(ext)
        beta = np.full((Tb, S), -np.inf)
        beta[Tb - 1, S - 1] = 0.0
        if S > 1:
            beta[Tb - 1, S - 2] = 0.0
        for t in range(Tb - 2, -1, -1):
            for s in range(S):
                nxt = [s] + ([s + 1] if s + 1 < S else [])
                if s + 2 < S and ext[s + 2] != CTC_BLANK and ext[s + 2] != ext[s]:
                    nxt.append(s + 2)
                beta[t, s] = np.logaddexp.reduce([beta[t + 1, k] + logp[t + 1, b, ext[k]] for k in nxt])
        post = np.zeros((Tb, C))
        for s in range(S):
            post[:, ext[s]] += np.exp(alpha[:, s] + beta[:, s] - logz)
        d[:Tb, b] = dloss[b] * (np.exp(logp[:Tb, b]) - post)
    return d
