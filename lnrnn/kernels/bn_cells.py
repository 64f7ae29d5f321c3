"""Recurrent BatchNorm cells (Cooijmans et al. 2016): BN-LSTM and BN-RNN, whole-sequence forward
and backpropagation through time (CPU twin).

Equations, gate order [i|f|g|o] and shape letters: see ``lnrnn.kernels``. BN_t normalizes each feature
over the batch with separate statistics per step t (``batchnorm.py``); the running statistics
rm*/rv* (Ts,G) or (Ts,H) follow the rules there: training updates row t in place for t < Ts (steps
t >= Ts are not recorded; the layer grows the arrays first), inference uses row min(t, Ts-1).

Layout of the work
    1. xw = x @ Wx over all T*B rows (one GEMM); BN_t of xw for all T at once (prange over feature
       chunks). The gate bias b is folded in as the bias of that BN: xn = BN_t(xw; gx, b).
    2. Time loop (serial: BN couples the batch at every step). Per step one GEMM hw = h_{t-1} @ Wh,
       then everything else is independent across hidden units j: the statistics of the columns
       j, H+j, 2H+j, 3H+j of hw, the gates, c_t[:, j] and its statistics. The step body is written
       per chunk of at most ``CHUNK`` hidden units (batchnorm.CHUNK) and can run those chunks under
       prange; by default (``par_min`` = PAR_MIN_WORK) it runs them on the calling thread, see
       "Threading" below.
    3. Backward runs the same chunks in reverse time; per step one GEMM dh_{t-1} = dhw_t @ Wh^T. Gain
       gradients are accumulated per column, and every column belongs to one chunk: no shared +=.
       After the loop: BN_t backward of the x side over all T (gives dxw, dgx and db), then
       dWx = X^T dxw, dx = dxw Wx^T and dWh = Hprev^T dhw, each one GEMM over all T*B rows.

Threading
    BN couples the batch at every step, so the time loop is serial and the only parallel split inside
    a step is over hidden units: one thread-pool entry per step (T per sequence, forward and backward).
    Measured on the 2-core development machine (float32, T=20, I=16, min of 15 interleaved reps,
    machine shared with other jobs, load average 5-6): per-step prange won once, by 4% (BN-RNN fwd,
    B=32 H=64), and otherwise lost, e.g. BN-RNN B=64 H=128 fwd 7.8 ms serial vs 8.6 ms prange, bwd
    3.3 vs 7.8 ms; B=256 H=512 fwd 120 vs 192 ms;
    the BN-LSTM lost by 1.3x-25x because waiting for a descheduled worker at every step's barrier
    costs milliseconds. So the default PAR_MIN_WORK keeps steps serial; pass ``par_min`` (minimum
    B*H for a parallel step, 0 = always) to use the prange path on a many-core, quiet machine.
    Parallel work that remains: the x-side BN (prange over feature chunks, once per sequence) and
    the GEMMs (BLAS threads).

Inference mode (training=False) uses the running statistics, so saved mean/rstd hold the constants
actually used and the backward is the exact derivative of the affine normalization.

saved of bn_lstm_forward (the tuple bn_lstm_backward takes back):
    xw     (T,B,G)  x @ Wx, before BN
    mean_x (T,G)    statistics used for xw (batch, or running in inference)
    rstd_x (T,G)    1/sqrt(var + eps) for xw
    hw     (T,B,G)  h_{t-1} @ Wh, before BN
    mean_h (T,G)
    rstd_h (T,G)
    gates  (T,B,G)  activated gates [i|f|g|o]
    c      (T,B,H)  cell state c_t (the carried, unnormalized one)
    mean_c (T,H)
    rstd_c (T,H)
    tc     (T,B,H)  tanh(BN_t(c_t; gc, bc))
    y      (T,B,H)  h_t (the same array the forward returns as y)
    training (bool) the mode the statistics came from
saved of bn_rnn_forward:
    (xw (T,B,H), mean_x (T,H), rstd_x (T,H), hw (T,B,H), mean_h (T,H), rstd_h (T,H), y (T,B,H), training)
"""
import numba
import numpy as np
from numba import njit, prange

from lnrnn.config import BN_PAR_MIN_WORK, JIT, PJIT
from lnrnn.kernels.batchnorm import bn_backward, bn_col_backward, bn_col_stats, bn_forward, n_chunks
from lnrnn.kernels.blas import rec_mul, rec_pack
from lnrnn.kernels.common import chunk_bounds, matmul, projection_grads, sigmoid_row

# Default of the trailing ``par_min`` argument (see lnrnn.config.BN_PAR_MIN_WORK).
PAR_MIN_WORK = BN_PAR_MIN_WORK


def time_loop(loop):
    """A cell's time loop, whose argument ``nch`` is the number of hidden-unit chunks per step, compiled
    twice: serial (cached; ``prange`` there is a plain ``range``) for nch == 1, and with prange over each
    step's chunks for nch > 1 (only when par_min asks for it; not cached, as its compiled code would
    share the serial one's cache entry). The public functions are Python: they allocate, call the loop
    and the threaded GEMMs (common.matmul, projection_grads), so the serial path compiles no parallel
    code at all (a prange body compiles three times: 38 s to the first BN-LSTM step before)."""
    serial, parallel = njit(**JIT)(loop), njit(**dict(PJIT, cache=False))(loop)

    def run(*args, nch):
        (serial if nch == 1 else parallel)(*args, nch)
    run.__doc__ = loop.__doc__
    return run


@njit(**JIT)
def step_chunks(B, H, par_min):
    """Hidden-unit chunks per step: 1 (serial, no thread pool) when B*H < par_min, else n_chunks(H)."""
    return n_chunks(H) if B * H >= par_min else 1


# ---------------------------------------------------------------------------------------------
# BN-LSTM
# ---------------------------------------------------------------------------------------------
@njit(**JIT)
def _lstm_fwd_chunk(j0, j1, hw_t, xn_t, cprev, gh, gc, bc, training, update_h, update_c, rmh_r, rvh_r, rmc_r, rvc_r,
                    momentum, eps, mean_h_t, rstd_h_t, gates_t, c_t, mean_c_t, rstd_c_t, tc_t, y_t):
    """One step, hidden units [j0, j1). hw_t, xn_t, gates_t (B,G); cprev, c_t, tc_t, y_t (B,H);
    mean_h_t/rstd_h_t (G,), mean_c_t/rstd_c_t (H,) written for this chunk's columns only."""
    B, G = hw_t.shape
    H = G // 4
    w = j1 - j0
    one = hw_t.dtype.type(1.0)
    two = hw_t.dtype.type(2.0)
    z = np.empty(4 * w, dtype=hw_t.dtype)  # one row's preactivations of this chunk, blocks [i|f|g|o]
    kb = np.empty(8 * w, dtype=np.int32)   # scratch of sigmoid_row
    for q in range(4):
        bn_col_stats(hw_t, q * H + j0, q * H + j1, training, update_h, rmh_r, rvh_r, momentum, eps,
                     mean_h_t, rstd_h_t)
    for b in range(B):
        for q in range(4):
            for j in range(w):
                k = q * H + j0 + j
                z[q * w + j] = gh[k] * (hw_t[b, k] - mean_h_t[k]) * rstd_h_t[k] + xn_t[b, k]
        for j in range(2 * w, 3 * w):  # the g block as tanh(v) = 2 sigmoid(2v) - 1
            z[j] *= two
        sigmoid_row(z, z, kb)  # vectorised (lnrnn.kernels.common); libm's scalar expf/tanhf cost 3-6x more
        for j in range(w):
            i = z[j]
            f = z[w + j]
            g = two * z[2 * w + j] - one
            gates_t[b, j0 + j] = i
            gates_t[b, H + j0 + j] = f
            gates_t[b, 2 * H + j0 + j] = g
            gates_t[b, 3 * H + j0 + j] = z[3 * w + j]
            c_t[b, j0 + j] = f * cprev[b, j0 + j] + i * g
    bn_col_stats(c_t, j0, j1, training, update_c, rmc_r, rvc_r, momentum, eps, mean_c_t, rstd_c_t)
    for b in range(B):
        for j in range(w):
            k = j0 + j
            z[j] = two * (gc[k] * (c_t[b, k] - mean_c_t[k]) * rstd_c_t[k] + bc[k])
        sigmoid_row(z[:w], z[:w], kb)
        for j in range(w):
            k = j0 + j
            tcv = two * z[j] - one
            tc_t[b, k] = tcv
            y_t[b, k] = gates_t[b, 3 * H + k] * tcv


def bn_lstm_forward(x, h0, c0, Wx, Wh, b, gx, gh, gc, bc, rmx, rvx, rmh, rvh, rmc, rvc,
                    training, momentum, eps, par_min=PAR_MIN_WORK):
    """x (T,B,I), h0/c0 (B,H), Wx (I,G), Wh (H,G), b/gx/gh (G,), gc/bc (H,),
    rmx/rvx/rmh/rvh (Ts,G), rmc/rvc (Ts,H) (updated in place when training)
    -> y (T,B,H), hT (B,H), cT (B,H), saved (see module docstring)."""
    T, B, I = x.shape
    H = h0.shape[1]
    G = 4 * H
    dt = x.dtype
    xw = matmul(x.reshape(T * B, I), Wx, numba.get_num_threads()).reshape(T, B, G)
    xn, mean_x, rstd_x = bn_forward(xw, gx, b, rmx, rvx, training, momentum, eps)  # BN_t(xw; gx, 0) + b
    hw = np.empty((T, B, G), dtype=dt)
    mean_h = np.empty((T, G), dtype=dt)
    rstd_h = np.empty((T, G), dtype=dt)
    gates = np.empty((T, B, G), dtype=dt)
    c = np.empty((T, B, H), dtype=dt)
    mean_c = np.empty((T, H), dtype=dt)
    rstd_c = np.empty((T, H), dtype=dt)
    tc = np.empty((T, B, H), dtype=dt)
    y = np.empty((T, B, H), dtype=dt)
    _lstm_fwd_steps(xn, h0, c0, Wh, gh, gc, bc, rmh, rvh, rmc, rvc, training, momentum, eps,
                    hw, mean_h, rstd_h, gates, c, mean_c, rstd_c, tc, y, nch=step_chunks(B, H, par_min))
    saved = (xw, mean_x, rstd_x, hw, mean_h, rstd_h, gates, c, mean_c, rstd_c, tc, y, training)
    return y, y[T - 1].copy(), c[T - 1].copy(), saved


def _lstm_fwd_steps_py(xn, h0, c0, Wh, gh, gc, bc, rmh, rvh, rmc, rvc, training, momentum, eps,
                       hw, mean_h, rstd_h, gates, c, mean_c, rstd_c, tc, y, nch):
    """The forward time loop: per step the recurrent GEMM, then the step's nch hidden-unit chunks."""
    T, B, G = xn.shape
    H = G // 4
    Tsh, Tsc = rmh.shape[0], rmc.shape[0]
    P = rec_pack(Wh, B)  # Wh packed once for the B-row products (MKL; np.dot without it)
    for t in range(T):
        if t == 0:
            rec_mul(h0, Wh, P, hw[0])
        else:
            rec_mul(y[t - 1], Wh, P, hw[t])
        cprev = c0 if t == 0 else c[t - 1]
        rh, rc = min(t, Tsh - 1), min(t, Tsc - 1)
        for q in prange(nch):
            j0, j1 = chunk_bounds(H, nch, q)
            _lstm_fwd_chunk(j0, j1, hw[t], xn[t], cprev, gh, gc, bc, training, t < Tsh, t < Tsc,
                            rmh[rh], rvh[rh], rmc[rc], rvc[rc], momentum, eps,
                            mean_h[t], rstd_h[t], gates[t], c[t], mean_c[t], rstd_c[t], tc[t], y[t])


_lstm_fwd_steps = time_loop(_lstm_fwd_steps_py)


@njit(**JIT)
def _lstm_bwd_chunk(j0, j1, dy_t, dhn, gates_t, c_t, cprev, mean_c_t, rstd_c_t, tc_t, hw_t, mean_h_t, rstd_h_t,
                    gh, gc, training, dcn, dcbn, dcarry, da_t, dhw_t, dgh, dgc, dbc, dbh, s1c, s2c, s1h, s2h):
    """One step backward, hidden units [j0, j1). dy_t, dhn (B,H): upstream and recurrent dh;
    dcarry (B,H): dc from step t+1 in, dc_{t-1} out; assigns da_t, dhw_t (B,G) columns of the chunk;
    accumulates dgh (G,), dgc/dbc (H,); dcn/dcbn (B,H), dbh (G,), s1*/s2* are scratch."""
    B, G = hw_t.shape
    H = G // 4
    one = hw_t.dtype.type(1.0)
    for b in range(B):
        for j in range(j0, j1):
            tcv = tc_t[b, j]
            dcn[b, j] = (dy_t[b, j] + dhn[b, j]) * gates_t[b, 3 * H + j] * (one - tcv * tcv)
    bn_col_backward(dcn, c_t, mean_c_t, rstd_c_t, gc, j0, j1, training, dcbn, dgc, dbc, s1c, s2c)
    for b in range(B):
        for j in range(j0, j1):
            i = gates_t[b, j]
            f = gates_t[b, H + j]
            g = gates_t[b, 2 * H + j]
            o = gates_t[b, 3 * H + j]
            dc = dcarry[b, j] + dcbn[b, j]
            da_t[b, j] = dc * g * i * (one - i)
            da_t[b, H + j] = dc * cprev[b, j] * f * (one - f)
            da_t[b, 2 * H + j] = dc * i * (one - g * g)
            da_t[b, 3 * H + j] = (dy_t[b, j] + dhn[b, j]) * tc_t[b, j] * o * (one - o)
            dcarry[b, j] = dc * f
    for q in range(4):
        bn_col_backward(da_t, hw_t, mean_h_t, rstd_h_t, gh, q * H + j0, q * H + j1, training,
                        dhw_t, dgh, dbh, s1h, s2h)


def bn_lstm_backward(dy, saved, x, h0, c0, Wx, Wh, gx, gh, gc, par_min=PAR_MIN_WORK):
    """dy (T,B,H) = dL/dy, saved from bn_lstm_forward, inputs as in the forward
    -> dx (T,B,I), dh0 (B,H), dc0 (B,H), dWx (I,G), dWh (H,G), db (G,), dgx (G,), dgh (G,),
       dgc (H,), dbc (H,), all freshly allocated."""
    xw, mean_x, rstd_x, hw, mean_h, rstd_h, gates, c, mean_c, rstd_c, tc, y, training = saved
    T, B, I = x.shape
    H = h0.shape[1]
    G = 4 * H
    dt = x.dtype
    da = np.empty((T, B, G), dtype=dt)   # dL/d(preactivation) = dL/d BN_t(xw; gx, b)
    dhw = np.empty((T, B, G), dtype=dt)  # dL/d(h_{t-1} Wh)
    dhn = np.zeros((B, H), dtype=dt)     # dL/dh_t arriving from step t+1; ends as dh0
    dcarry = np.zeros((B, H), dtype=dt)  # dL/dc_t arriving from step t+1; ends as dc0
    dgh = np.zeros(G, dtype=dt)
    dgc = np.zeros(H, dtype=dt)
    dbc = np.zeros(H, dtype=dt)
    _lstm_bwd_steps(dy, gates, c, c0, mean_c, rstd_c, tc, hw, mean_h, rstd_h, Wh, gh, gc, training,
                    da, dhw, dhn, dcarry, dgh, dgc, dbc, nch=step_chunks(B, H, par_min))
    dxw, dgx, db = bn_backward(da, xw, mean_x, rstd_x, gx, training)
    dx, dWx, dWh = projection_grads(dxw, dhw, x, h0, y, Wx, numba.get_num_threads())
    return dx, dhn, dcarry, dWx, dWh, db, dgx, dgh, dgc, dbc


def _lstm_bwd_steps_py(dy, gates, c, c0, mean_c, rstd_c, tc, hw, mean_h, rstd_h, Wh, gh, gc, training,
                       da, dhw, dhn, dcarry, dgh, dgc, dbc, nch):
    """The backward time loop: per step the nch hidden-unit chunks, then dh_{t-1} = dhw_t Wh^T."""
    T, B, H = dy.shape
    G = 4 * H
    dt = dy.dtype
    dcn = np.empty((B, H), dtype=dt)
    dcbn = np.empty((B, H), dtype=dt)
    dbh = np.zeros(G, dtype=dt)  # gradient of the absent h-side bias (scratch, = db)
    s1c = np.empty(H, dtype=dt)
    s2c = np.empty(H, dtype=dt)
    s1h = np.empty(G, dtype=dt)
    s2h = np.empty(G, dtype=dt)
    WhT = np.ascontiguousarray(Wh.T)
    PT = rec_pack(WhT, B)
    for t in range(T - 1, -1, -1):
        cprev = c0 if t == 0 else c[t - 1]
        for q in prange(nch):
            j0, j1 = chunk_bounds(H, nch, q)
            _lstm_bwd_chunk(j0, j1, dy[t], dhn, gates[t], c[t], cprev, mean_c[t], rstd_c[t], tc[t], hw[t],
                            mean_h[t], rstd_h[t], gh, gc, training, dcn, dcbn, dcarry, da[t], dhw[t],
                            dgh, dgc, dbc, dbh, s1c, s2c, s1h, s2h)
        rec_mul(dhw[t], WhT, PT, dhn)


_lstm_bwd_steps = time_loop(_lstm_bwd_steps_py)


# ---------------------------------------------------------------------------------------------
# BN-RNN
# ---------------------------------------------------------------------------------------------
@njit(**JIT)
def _rnn_fwd_chunk(j0, j1, hw_t, xn_t, gh, training, update, rmh_r, rvh_r, momentum, eps,
                   mean_h_t, rstd_h_t, y_t):
    """One step, hidden units [j0, j1): y_t = tanh(BN(hw_t; gh, 0) + xn_t). hw_t, xn_t, y_t (B,H)."""
    B = hw_t.shape[0]
    w = j1 - j0
    one = hw_t.dtype.type(1.0)
    two = hw_t.dtype.type(2.0)
    z = np.empty(w, dtype=hw_t.dtype)
    kb = np.empty(2 * w, dtype=np.int32)  # scratch of sigmoid_row
    bn_col_stats(hw_t, j0, j1, training, update, rmh_r, rvh_r, momentum, eps, mean_h_t, rstd_h_t)
    for b in range(B):
        for j in range(w):
            k = j0 + j
            z[j] = two * (gh[k] * (hw_t[b, k] - mean_h_t[k]) * rstd_h_t[k] + xn_t[b, k])
        sigmoid_row(z, z, kb)  # tanh(v) = 2 sigmoid(2v) - 1, vectorised
        for j in range(w):
            y_t[b, j0 + j] = two * z[j] - one


def bn_rnn_forward(x, h0, Wx, Wh, b, gx, gh, rmx, rvx, rmh, rvh, training, momentum, eps, par_min=PAR_MIN_WORK):
    """x (T,B,I), h0 (B,H), Wx (I,H), Wh (H,H), b/gx/gh (H,), rm*/rv* (Ts,H) (updated in place
    when training) -> y (T,B,H), hT (B,H), saved (see module docstring)."""
    T, B, I = x.shape
    H = h0.shape[1]
    dt = x.dtype
    xw = matmul(x.reshape(T * B, I), Wx, numba.get_num_threads()).reshape(T, B, H)
    xn, mean_x, rstd_x = bn_forward(xw, gx, b, rmx, rvx, training, momentum, eps)
    hw = np.empty((T, B, H), dtype=dt)
    mean_h = np.empty((T, H), dtype=dt)
    rstd_h = np.empty((T, H), dtype=dt)
    y = np.empty((T, B, H), dtype=dt)
    _rnn_fwd_steps(xn, h0, Wh, gh, rmh, rvh, training, momentum, eps, hw, mean_h, rstd_h, y,
                   nch=step_chunks(B, H, par_min))
    saved = (xw, mean_x, rstd_x, hw, mean_h, rstd_h, y, training)
    return y, y[T - 1].copy(), saved


def _rnn_fwd_steps_py(xn, h0, Wh, gh, rmh, rvh, training, momentum, eps, hw, mean_h, rstd_h, y, nch):
    """The forward time loop: per step the recurrent GEMM, then the step's nch hidden-unit chunks."""
    T, B, H = xn.shape
    Ts = rmh.shape[0]
    P = rec_pack(Wh, B)  # Wh packed once for the B-row products (MKL; np.dot without it)
    for t in range(T):
        if t == 0:
            rec_mul(h0, Wh, P, hw[0])
        else:
            rec_mul(y[t - 1], Wh, P, hw[t])
        r = min(t, Ts - 1)
        for q in prange(nch):
            j0, j1 = chunk_bounds(H, nch, q)
            _rnn_fwd_chunk(j0, j1, hw[t], xn[t], gh, training, t < Ts, rmh[r], rvh[r], momentum, eps,
                           mean_h[t], rstd_h[t], y[t])


_rnn_fwd_steps = time_loop(_rnn_fwd_steps_py)


@njit(**JIT)
def _rnn_bwd_chunk(j0, j1, dy_t, dhn, y_t, hw_t, mean_h_t, rstd_h_t, gh, training, da_t, dhw_t, dgh, dbh, s1, s2):
    """One step backward, hidden units [j0, j1): assigns da_t, dhw_t (B,H) columns; accumulates dgh."""
    B = hw_t.shape[0]
    one = hw_t.dtype.type(1.0)
    for b in range(B):
        for j in range(j0, j1):
            h = y_t[b, j]
            da_t[b, j] = (dy_t[b, j] + dhn[b, j]) * (one - h * h)
    bn_col_backward(da_t, hw_t, mean_h_t, rstd_h_t, gh, j0, j1, training, dhw_t, dgh, dbh, s1, s2)


def bn_rnn_backward(dy, saved, x, h0, Wx, Wh, gx, gh, par_min=PAR_MIN_WORK):
    """dy (T,B,H), saved from bn_rnn_forward -> dx (T,B,I), dh0 (B,H), dWx (I,H), dWh (H,H),
    db (H,), dgx (H,), dgh (H,), all freshly allocated."""
    xw, mean_x, rstd_x, hw, mean_h, rstd_h, y, training = saved
    T, B, I = x.shape
    H = h0.shape[1]
    dt = x.dtype
    da = np.empty((T, B, H), dtype=dt)
    dhw = np.empty((T, B, H), dtype=dt)
    dhn = np.zeros((B, H), dtype=dt)
    dgh = np.zeros(H, dtype=dt)
    _rnn_bwd_steps(dy, y, hw, mean_h, rstd_h, Wh, gh, training, da, dhw, dhn, dgh, nch=step_chunks(B, H, par_min))
    dxw, dgx, db = bn_backward(da, xw, mean_x, rstd_x, gx, training)
    dx, dWx, dWh = projection_grads(dxw, dhw, x, h0, y, Wx, numba.get_num_threads())
    return dx, dhn, dWx, dWh, db, dgx, dgh


def _rnn_bwd_steps_py(dy, y, hw, mean_h, rstd_h, Wh, gh, training, da, dhw, dhn, dgh, nch):
    """The backward time loop: per step the nch hidden-unit chunks, then dh_{t-1} = dhw_t Wh^T."""
    T, B, H = dy.shape
    dt = dy.dtype
    dbh = np.zeros(H, dtype=dt)  # scratch
    s1 = np.empty(H, dtype=dt)
    s2 = np.empty(H, dtype=dt)
    WhT = np.ascontiguousarray(Wh.T)
    PT = rec_pack(WhT, B)
    for t in range(T - 1, -1, -1):
        for q in prange(nch):
            j0, j1 = chunk_bounds(H, nch, q)
            _rnn_bwd_chunk(j0, j1, dy[t], dhn, y[t], hw[t], mean_h[t], rstd_h[t], gh, training,
                           da[t], dhw[t], dgh, dbh, s1, s2)
        rec_mul(dhw[t], WhT, PT, dhn)


_rnn_bwd_steps = time_loop(_rnn_bwd_steps_py)
