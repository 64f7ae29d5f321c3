"""The last-step heads' objectives on the device: softmax cross-entropy and squared error, forward and
backward in one pass (a training update needs both). The spec is the host heads' NumPy
(``lnrnn.model.heads.ClassifierHead`` / ``RegressionHead``): the same operations in the same order, so
float64 agrees to rounding (the linear layer before them is gemm_cuda's, whose sums run in another order).

Shapes: B rows, O outputs (C classes).
    hw      (B,O)  h W, the linear layer without its bias (the bias is added here, as the host adds it)
    b       (O,)   the bias
    labels  (B,)   int64 class, or -1 / a False mask entry: not scored      (softmax_xent)
    target  (B,O)  the regression target                                    (squared_error)
    mask    (B,)   the dtype's 1 where the row is scored, 0 where not
    d       (B,O)  <- scale * dL/d(logits or predictions) (0 on rows not scored)
    rows    (B,2)  float64 <- per row [loss, 1 if correct (or within tolerance) else 0] (0 on rows not scored)
``add_bias`` (hw += b), ``nll_rows`` (rows <- [nll, nll]) and ``clip_and_scale`` (--clip-output): for a head
whose objective is another module's (the mixture density, mdn_cuda). ``ctc_rows``: the CTC head's per-row
sums (ctc_cuda's loss, and the edit distance of the best-path transcription to the labels, the host's
``decode.best_path_array`` and ``textmetrics.label_edit_distances``).
One thread per row (grid-stride): rows are independent, and O is a head's handful of classes or outputs.
The batch's sums are ``gemm_cuda.colsum(rows)`` (float64, as the host sums them), left on the device.
"""
import math
from functools import lru_cache

import numpy as np

from lnrnn.kernels.codes import CTC_BLANK
from lnrnn.kernels.cuda.arrays_cuda import empty, grid_1d, nbtype
from lnrnn.kernels.cuda.cuda_env import numpy_compat

numpy_compat()  # before numba-cuda compiles anything (NumPy >= 2.5)
from numba import cuda, float64  # noqa: E402


@lru_cache(maxsize=None)
def _kernels(dtype):
    dt = nbtype(dtype)
    zero, one = dt(0.0), dt(1.0)
    blank = CTC_BLANK

    @cuda.jit
    def xent(hw, b, labels, mask, scale, d, rows):
        B, C = hw.shape
        for r in range(cuda.grid(1), B, cuda.gridsize(1)):
            lab = labels[r]
            on = mask[r] != zero and lab >= 0
            safe = lab if on else 0
            # the row's maximum: the shift of the log-softmax, and the prediction (first index of it)
            zmax = hw[r, 0] + b[0]
            best = 0
            for c in range(1, C):
                z = hw[r, c] + b[c]
                if z > zmax:
                    zmax = z
                    best = c
            s = zero
            for c in range(C):
                s += math.exp((hw[r, c] + b[c]) - zmax)
            lse = math.log(s)
            g = scale if on else zero
            for c in range(C):
                logp = ((hw[r, c] + b[c]) - zmax) - lse
                p = math.exp(logp)
                if c == safe:
                    p = p - one
                    if on:
                        rows[r, 0] = float64(-logp)
                d[r, c] = p * g
            if not on:
                rows[r, 0] = 0.0
            rows[r, 1] = 1.0 if (on and best == lab) else 0.0

    @cuda.jit
    def sqerr(hw, b, target, mask, scale, tolerance, d, rows):
        B, O = hw.shape
        for r in range(cuda.grid(1), B, cuda.gridsize(1)):
            m = mask[r]
            s = 0.0
            within = m != zero
            for o in range(O):
                err = ((hw[r, o] + b[o]) - target[r, o]) * m
                e64 = float64(err)
                s += e64 * e64
                if not abs(err) < tolerance:
                    within = False
                d[r, o] = (dt(2.0) * scale) * err
            rows[r, 0] = s
            rows[r, 1] = 1.0 if within else 0.0

    @cuda.jit
    def bias(hw, b):
        B, O = hw.shape
        for q in range(cuda.grid(1), B * O, cuda.gridsize(1)):
            r = q // O
            o = q - r * O
            hw[r, o] = hw[r, o] + b[o]

    @cuda.jit
    def nll2(nll, rows):
        for r in range(cuda.grid(1), nll.shape[0], cuda.gridsize(1)):
            v = float64(nll[r])
            rows[r, 0] = v
            rows[r, 1] = v

    @cuda.jit
    def clip_scale(d, bound, scale):
        for q in range(cuda.grid(1), d.shape[0] * d.shape[1], cuda.gridsize(1)):
            r = q // d.shape[1]
            o = q - r * d.shape[1]
            v = d[r, o]
            if v > bound:
                v = bound
            elif v < -bound:
                v = -bound
            d[r, o] = v * scale

    @cuda.jit
    def ctc2(loss, logp, labels, input_lengths, label_lengths, hyp, dist, rows):
        """Row b: rows[b] <- [loss[b], edit distance of the best path to the labels] where input_lengths[b] > 0,
        else [0, 0]; hyp (B,T), dist (B,2,T+1) int64 scratch (the row's transcription, two rows of the
        Levenshtein table)."""
        B, C = logp.shape[1], logp.shape[2]
        for r in range(cuda.grid(1), B, cuda.gridsize(1)):
            Tb, Lb = input_lengths[r], label_lengths[r]
            if Tb <= 0:
                rows[r, 0] = 0.0
                rows[r, 1] = 0.0
                continue
            n, before = 0, -1                  # the transcription: argmax per step, repeats merged, blanks dropped
            for t in range(Tb):
                best, m = 0, logp[t, r, 0]
                for c in range(1, C):
                    if logp[t, r, c] > m:      # the first index of the maximum, as np.argmax
                        best, m = c, logp[t, r, c]
                if best != blank and best != before:
                    hyp[r, n] = best
                    n += 1
                before = best
            for j in range(n + 1):
                dist[r, 0, j] = j
            for i in range(1, Lb + 1):
                a, o = i % 2, 1 - i % 2        # this row of the table, the one before
                dist[r, a, 0] = i
                for j in range(1, n + 1):
                    v = min(dist[r, o, j] + 1, dist[r, a, j - 1] + 1)
                    dist[r, a, j] = min(v, dist[r, o, j - 1] + (1 if labels[r, i - 1] != hyp[r, j - 1] else 0))
            rows[r, 0] = float64(loss[r])
            rows[r, 1] = float64(dist[r, Lb % 2, n])

    return xent, sqerr, bias, nll2, clip_scale, ctc2



def softmax_xent(hw, b, labels, mask, scale, d, rows):
    """d (B,C) <- scale * (softmax(hw + b) - onehot(labels)) on scored rows; rows (B,2) <- [-log p(label),
    correct] (module docstring). All device arrays; scale a Python float."""
    xent = _kernels(hw.dtype)[0]
    blocks, tpb = grid_1d(hw.shape[0])
    xent[blocks, tpb](hw, b, labels, mask, nbtype(hw.dtype)(scale), d, rows)


def squared_error(hw, b, target, mask, scale, tolerance, d, rows):
    """d (B,O) <- 2 scale err with err = (hw + b - target) * mask; rows (B,2) <- [sum err^2, every |err| <
    tolerance] (module docstring). All device arrays; scale and tolerance Python floats."""
    sqerr = _kernels(hw.dtype)[1]
    blocks, tpb = grid_1d(hw.shape[0])
    t = nbtype(hw.dtype)
    sqerr[blocks, tpb](hw, b, target, mask, t(scale), t(tolerance), d, rows)


def add_bias(hw, b):
    """hw (B,O) += b (O,) in place (the mixture density head's linear output, as the host adds its bias)."""
    bias = _kernels(hw.dtype)[2]
    blocks, tpb = grid_1d(hw.size)
    bias[blocks, tpb](hw, b)


def nll_rows(nll, rows):
    """rows (N,2) float64 <- [nll, nll] per row: a per-point loss (mdn_cuda's) in the rows' layout, for both of
    the mixture density head's sums (loss, nats_seq)."""
    nll2 = _kernels(nll.dtype)[3]
    blocks, tpb = grid_1d(nll.shape[0])
    nll2[blocks, tpb](nll, rows)


def clip_and_scale(d, bound, scale):
    """d (N,K) <- clip(d, -bound, bound) * scale in place (Graves's clip of each point's own dL/d(outputs), then the
    batch's normalization: ``MDNHead.backward``'s np.clip and product; a NaN stays NaN). bound, scale: Python
    floats, taken in d's dtype as the host takes them."""
    clip_scale = _kernels(d.dtype)[4]
    blocks, tpb = grid_1d(d.size)
    t = nbtype(d.dtype)
    clip_scale[blocks, tpb](d, t(bound), t(scale))


def ctc_rows(loss, logp, labels, input_lengths, label_lengths, rows):
    """rows (B,2) float64 <- per row [CTC loss, edit distance of the best-path transcription to the labels], 0 on
    rows of no step (the host head's sums leave them out): loss (B,) and logp (T,B,C) from ``ctc_cuda.ctc_forward``,
    labels (B,Lmax), input_lengths, label_lengths (B,) int64. All device arrays."""
    ctc2 = _kernels(logp.dtype)[5]
    T, B = logp.shape[0], logp.shape[1]
    hyp, dist = empty((B, max(T, 1)), np.int64), empty((B, 2, T + 1), np.int64)
    blocks, tpb = grid_1d(B)
    ctc2[blocks, tpb](loss, logp, labels, input_lengths, label_lengths, hyp, dist, rows)
