"""Plain NumPy forward and backward of every op: the readable specification.

Nothing here is fast. Every compiled kernel (CPU and CUDA) is tested against these functions, and
these functions are themselves gradient-checked by finite differences. Shape letters and gate order
are defined once in ``lnrnn.kernels``. Each backward takes the upstream gradient first and returns
the gradients in the order of the forward's inputs.
"""
import numpy as np

from lnrnn.config import EPS


def sigmoid(z):
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
        step = dict(x=x[t], h=h, c=c, i=i, f=f, g=g, o=o, tc=tc, c_new=c_new)
        if norm == "ln":
            step.update(xw=xw, mx=mx, rx=rx, hw=hw, mh=mh, rh=rh, mc=mc, rc=rc)
        cache.append(step)
        ys.append(h_new)
        h, c = h_new, c_new
    return np.stack(ys), h, c, cache


def lstm_backward(dy, cache, Wx, Wh, gx, gh, gc, norm):
    """dy (T,B,H) -> dx, dh0, dc0, dWx, dWh, db, dgx, dbx, dgh, dbh, dgc, dbc."""
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
        cache.append(dict(x=x[t], h=h, a=a, m=m, r=r, y=h_new))
        ys.append(h_new)
        h = h_new
    return np.stack(ys), h, cache


def rnn_backward(dy, cache, Wx, Wh, g, norm):
    """dy (T,B,H) -> dx, dh0, dWx, dWh, db, dg."""
    dWx, dWh = np.zeros_like(Wx), np.zeros_like(Wh)
    db, dg = np.zeros(Wh.shape[1], dy.dtype), np.zeros_like(g)
    dx = np.zeros(dy.shape[:2] + (Wx.shape[0],), dtype=dy.dtype)
    dh_next = np.zeros_like(dy[0])
    for t in reversed(range(dy.shape[0])):
        s = cache[t]
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
