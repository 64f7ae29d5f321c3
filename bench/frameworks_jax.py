"""One training step of an LN-LSTM classifier in JAX, on lnrnn's kernels (``lnrnn.jax``) and on a
``lax.scan`` LN-LSTM, both under ``jax.jit``, at the three shapes of bench/torch_ln_lstm.py, in one run.

    pip install -e ".[jax]"
    python bench/frameworks_jax.py                       # S1-S3, float32, median of 5
    python bench/frameworks_jax.py --shapes S2 --reps 10

The step: a one-layer LN-LSTM over x (T,B,I), a linear head on h_n, softmax cross-entropy over 10
classes, value_and_grad, and one Adam update of every parameter: ``jax.jit`` of the whole step, with
the LSTM as ``lnrnn.jax.apply`` (a custom_vjp over lnrnn's forward and hand-written BPTT; with its
residuals passed through JAX, and with remat=True, where the backward reruns the forward instead) or as
a ``lax.scan`` of the same equations (lnrnn.kernels, norm='ln') written here, differentiated by JAX.
Before timing, the two steps run once in float64 on the same weights and must agree (loss to 1e-10,
every gradient to 1e-8 relative); the script stops if they do not. A benchmark, not a test: it prints
figures (medians of --reps timed steps after one warm-up step, which compiles).
"""
import argparse
import os
import platform
import statistics
import subprocess
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

import lnrnn.jax as lj  # noqa: E402

# float64 for the agreement check needs 64-bit JAX for the whole process (the callbacks run on another
# thread); the timed steps are float32 by their arrays' dtype
jax.config.update("jax_enable_x64", True)
from lnrnn.config import EPS  # noqa: E402

SHAPES = {"S1": (784, 64, 1, 128), "S2": (28, 128, 28, 256), "S3": (300, 32, 3, 400)}  # T, B, I, H
CLASSES = 10


def _ln(z, g, b):
    m = z.mean(-1, keepdims=True)
    v = ((z - m) ** 2).mean(-1, keepdims=True)
    return (z - m) / jnp.sqrt(v + EPS) * g + b


def scan_ln_lstm(p, x):
    """lnrnn's LN-LSTM (lnrnn.kernels, norm='ln') in lax.scan under the export names -> h_n (B,H)."""
    Wx, Wh = p["weight_ih_l0"].T, p["weight_hh_l0"].T                        # (I,G), (H,G)
    b = p["bias_ih_l0"] + p["bias_hh_l0"]
    xp = _ln(x @ Wx, p["norm_ih_weight_l0"], p["norm_ih_bias_l0"])          # (T,B,G): all steps at once
    B, H = x.shape[1], Wh.shape[0]

    def step(carry, xt):
        h, c = carry                                                         # (B,H) each
        a = _ln(h @ Wh, p["norm_hh_weight_l0"], p["norm_hh_bias_l0"]) + xt + b  # gates [i|f|g|o]
        i, f, g, o = jnp.split(a, 4, axis=-1)
        c = jax.nn.sigmoid(f) * c + jax.nn.sigmoid(i) * jnp.tanh(g)
        h = jax.nn.sigmoid(o) * jnp.tanh(_ln(c, p["norm_cell_weight_l0"], p["norm_cell_bias_l0"]))
        return (h, c), None

    h0 = jnp.zeros((B, H), x.dtype)
    (h, _), _ = jax.lax.scan(step, (h0, h0), xp)
    return h


def lnrnn_ln_lstm(p, x, remat=False):
    _, (h_n, _) = lj.apply(p, x, cell="lstm", norm="ln", remat=remat)
    return h_n[-1]


def lnrnn_ln_lstm_remat(p, x):
    return lnrnn_ln_lstm(p, x, remat=True)


def make_step(lstm, lr=1e-3, b1=0.9, b2=0.999, eps=1e-8):
    """jit(params, adam state, x, labels) -> (loss, grads, new params, new adam state)."""
    def loss_fn(params, x, labels):
        h = lstm(params["rnn"], x)                                          # (B,H)
        logits = h @ params["head"]["W"] + params["head"]["b"]              # (B,C)
        return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), labels[:, None], axis=1))

    def step(params, opt, x, labels):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, labels)
        t = opt["t"] + 1
        m = jax.tree.map(lambda m, g: b1 * m + (1 - b1) * g, opt["m"], grads)
        v = jax.tree.map(lambda v, g: b2 * v + (1 - b2) * g * g, opt["v"], grads)
        new = jax.tree.map(lambda p, m, v: p - lr * (m / (1 - b1 ** t)) / (jnp.sqrt(v / (1 - b2 ** t)) + eps),
                           params, m, v)
        return loss, grads, new, {"t": t, "m": m, "v": v}
    return jax.jit(step)


def problem(shape, dtype, seed=0):
    T, B, I, H = SHAPES[shape]
    rng = np.random.default_rng(seed)
    rnn = lj.init(jax.random.key(seed), "lstm", "ln", I, H, 1, dtype=dtype)
    rnn = {k: v + jnp.asarray(rng.uniform(-0.1, 0.1, v.shape), dtype) for k, v in rnn.items()}  # off gains 1, biases 0
    head = {"W": jnp.asarray(rng.standard_normal((H, CLASSES)) / np.sqrt(H), dtype), "b": jnp.zeros(CLASSES, dtype)}
    params = {"rnn": rnn, "head": head}
    zeros = jax.tree.map(jnp.zeros_like, params)
    opt = {"t": jnp.zeros((), dtype), "m": zeros, "v": zeros}
    x = jnp.asarray(rng.standard_normal((T, B, I)), dtype)
    labels = jnp.asarray(rng.integers(0, CLASSES, B), jnp.int32)
    return params, opt, x, labels


def check_agreement():
    """Both steps in float64 on a small problem: same loss, same gradients."""
    SHAPES["check"] = (12, 5, 3, 8)
    params, opt, x, labels = problem("check", np.float64)
    del SHAPES["check"]
    b = make_step(scan_ln_lstm)(params, opt, x, labels)
    for fn in (lnrnn_ln_lstm, lnrnn_ln_lstm_remat):
        a = make_step(fn)(params, opt, x, labels)
        if abs(float(a[0]) - float(b[0])) > 1e-10:
            sys.exit(f"{fn.__name__} and lax.scan disagree: loss {float(a[0])!r} vs {float(b[0])!r}")
        for (path, ga), gb in zip(jax.tree_util.tree_flatten_with_path(a[1])[0], jax.tree.leaves(b[1])):
            err = float(jnp.max(jnp.abs(ga - gb)) / (jnp.max(jnp.abs(gb)) + 1e-30))
            if err > 1e-8:
                sys.exit(f"{fn.__name__} and lax.scan disagree: gradient {jax.tree_util.keystr(path)} differs by "
                         f"{err:.1e}")


def layer_ms(shape, reps):
    """lnrnn's own LN-LSTM layer, forward + backward on NumPy arrays (no JAX): what the binding adds to."""
    from lnrnn.model.layers import RecurrentLayer
    T, B, I, H = SHAPES[shape]
    layer = RecurrentLayer("lstm", "ln", I, H, dtype=np.float32, seed=0)
    rng = np.random.default_rng(0)
    x = rng.standard_normal((T, B, I)).astype(np.float32)
    dy = np.zeros((T, B, H), np.float32)
    dy[-1] = rng.standard_normal((B, H))  # the head reads h_n = y[T-1]

    def step():
        layer.forward(x)
        layer.backward(dy)
    step()
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        step()
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts) * 1e3


def median_ms(step, args, reps):
    params, opt, x, labels = args
    jax.block_until_ready(step(params, opt, x, labels))  # compiles
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        loss, _, params, opt = step(params, opt, x, labels)
        jax.block_until_ready((loss, params))
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts) * 1e3


def cpu_model():
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, check=True).stdout
        return next(line.split(":", 1)[1].strip() for line in out.splitlines() if line.startswith("Model name"))
    except (OSError, subprocess.CalledProcessError, StopIteration):
        return platform.processor() or "unknown CPU"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shapes", nargs="+", default=list(SHAPES), choices=list(SHAPES), help="shapes to time")
    ap.add_argument("--reps", type=int, default=5, help="timed steps per row (median)")
    args = ap.parse_args(argv)
    check_agreement()
    print(f"{cpu_model()}, {len(os.sched_getaffinity(0)) if hasattr(os, 'sched_getaffinity') else os.cpu_count()} "
          f"CPUs, jax {jax.__version__}, load average {os.getloadavg()[0]:.2f}; float32, median of {args.reps} "
          "steps (LN-LSTM + linear head + cross-entropy + Adam, jit)")
    print("lnrnn.jax (residuals through JAX), lnrnn.jax remat=True, lax.scan: the whole jitted step; lnrnn layer: "
          "RecurrentLayer forward + backward alone (NumPy, no JAX), what the binding's step adds to")
    print(f"{'shape':6s} {'T':>4s} {'B':>4s} {'I':>3s} {'H':>4s} {'lnrnn.jax':>10s} {'remat':>8s} {'lax.scan':>9s} "
          f"{'scan/remat':>11s} {'layer':>8s} {'remat/layer':>12s}   (ms)")
    mine, remat, scan = make_step(lnrnn_ln_lstm), make_step(lnrnn_ln_lstm_remat), make_step(scan_ln_lstm)
    for s in args.shapes:
        prob = problem(s, np.float32)
        a = median_ms(mine, prob, args.reps)
        r = median_ms(remat, prob, args.reps)
        b = median_ms(scan, prob, args.reps)
        c = layer_ms(s, args.reps)
        print(f"{s:6s} {SHAPES[s][0]:4d} {SHAPES[s][1]:4d} {SHAPES[s][2]:3d} {SHAPES[s][3]:4d} {a:10.1f} {r:8.1f} "
              f"{b:9.1f} {b / r:10.2f}x {c:8.1f} {r / c:11.2f}x", flush=True)
    print(f"load average at the end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
