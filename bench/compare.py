"""One LN-LSTM training step (forward + BPTT, float32) in lnrnn and in the tools users would otherwise
pick, at the three shapes of the issue tracker, side by side with ratios.

    pip install -e ".[bench]"          # torch==2.13.0 (local CPU build on our machines); jax optional
    python bench/compare.py            # all shapes, median of 5
    python bench/compare.py --shapes S2 --reps 10 --skip-compile

Rows: PyTorch eager LN-LSTM written the way users write it (per-step nn.LayerNorm, autograd);
torch.compile'd LN-LSTM cell (with --compile); JAX lax.scan LN-LSTM (if jax is importable);
torch.nn.LSTM (oneDNN fused, no layer norm); the GEMM floor (bench/step.py); lnrnn.

Before timing, the LN-LSTM implementations are run on the same weights and inputs and must agree
(outputs and weight gradients) to float32 precision; the script stops if they do not. It also
checks that the machine is quiet (load average and the spread of a fixed workload) and says so.
A benchmark, not a test: it prints figures.
"""
import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import lnrnn  # noqa: E402,F401  (single-threaded BLAS inside lnrnn's threads)
import numba  # noqa: E402
import numpy as np  # noqa: E402

from bench.step import SHAPES, gemm_floor  # noqa: E402
from lnrnn.layers import RecurrentLayer  # noqa: E402


def median_ms(fn, reps, warmup=1):
    for _ in range(warmup):
        fn()
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts) * 1e3


def quiet_check():
    """Load average and the relative spread of a fixed 0.1 s NumPy workload."""
    a = np.random.default_rng(0).standard_normal((256, 256)).astype(np.float32)
    ts = []
    for _ in range(7):
        t0 = time.perf_counter()
        for _ in range(40):
            a = np.tanh(a @ a.T * 1e-2)
        ts.append(time.perf_counter() - t0)
    spread = (max(ts) - min(ts)) / statistics.median(ts)
    load = os.getloadavg()[0]
    ok = load < 1.5 and spread < 0.25
    return ok, f"load average {load:.2f}, fixed-workload spread {spread:.0%}" + ("" if ok else "  <- NOT QUIET: figures unreliable")


# ------------------------------------------------------------------------------------------------
# PyTorch
# ------------------------------------------------------------------------------------------------
def torch_models(torch, I, H, p):
    nn = torch.nn

    class LNLSTMCell(nn.Module):
        """The LN-LSTM cell as users write it: Linear + LayerNorm modules, autograd does BPTT."""

        def __init__(self):
            super().__init__()
            self.wx = nn.Linear(I, 4 * H, bias=False)
            self.wh = nn.Linear(H, 4 * H, bias=False)
            self.ln_x, self.ln_h, self.ln_c = nn.LayerNorm(4 * H), nn.LayerNorm(4 * H), nn.LayerNorm(H)
            self.b = nn.Parameter(torch.zeros(4 * H))

        def forward(self, x, h, c):
            a = self.ln_h(self.wh(h)) + self.ln_x(self.wx(x)) + self.b
            i, f, g, o = a.chunk(4, 1)
            c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
            h = torch.sigmoid(o) * torch.tanh(self.ln_c(c))
            return h, c

    cell = LNLSTMCell()
    with torch.no_grad():  # port lnrnn's weights (layout documented in lnrnn.kernels)
        cell.wx.weight.copy_(torch.from_numpy(p["Wx"].T.copy()))
        cell.wh.weight.copy_(torch.from_numpy(p["Wh"].T.copy()))
        cell.b.copy_(torch.from_numpy(p["b"]))
        for ln, g, b in ((cell.ln_x, "gx", "bx"), (cell.ln_h, "gh", "bh"), (cell.ln_c, "gc", "bc")):
            ln.weight.copy_(torch.from_numpy(p[g]))
            ln.bias.copy_(torch.from_numpy(p[b]))
    return cell


def torch_step(torch, cell, x, dy):
    T, B, _ = x.shape
    H = dy.shape[2]
    h = torch.zeros(B, H)
    c = torch.zeros(B, H)
    hs = []
    for t in range(T):
        h, c = cell(x[t], h, c)
        hs.append(h)
    y = torch.stack(hs)
    cell.zero_grad()
    (y * dy).sum().backward()
    return y


# ------------------------------------------------------------------------------------------------
# JAX
# ------------------------------------------------------------------------------------------------
def jax_step_fn(jax, jnp):
    def ln(z, g, b):
        m = z.mean(-1, keepdims=True)
        v = ((z - m) ** 2).mean(-1, keepdims=True)
        return (z - m) / jnp.sqrt(v + 1e-5) * g + b

    def loss(p, x, dy):
        H = p["Wh"].shape[0]
        xp = ln(x @ p["Wx"], p["gx"], p["bx"])

        def step(carry, xt):
            h, c = carry
            a = ln(h @ p["Wh"], p["gh"], p["bh"]) + xt + p["b"]
            i, f, g, o = jnp.split(a, 4, axis=-1)
            c = jax.nn.sigmoid(f) * c + jax.nn.sigmoid(i) * jnp.tanh(g)
            h = jax.nn.sigmoid(o) * jnp.tanh(ln(c, p["gc"], p["bc"]))
            return (h, c), h

        B = x.shape[1]
        _, y = jax.lax.scan(step, (jnp.zeros((B, H)), jnp.zeros((B, H))), xp)
        return (y * dy).sum(), y

    return jax.jit(jax.value_and_grad(loss, has_aux=True))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shapes", nargs="+", default=list(SHAPES), choices=list(SHAPES))
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--threads", type=int, default=numba.get_num_threads())
    ap.add_argument("--compile", action="store_true", help="also time a torch.compile'd cell (slow to compile)")
    args = ap.parse_args(argv)
    numba.set_num_threads(args.threads)
    try:
        import torch
        torch.set_num_threads(args.threads)
    except ImportError:
        torch = None
    try:
        import jax
        import jax.numpy as jnp
    except ImportError:
        jax = None
    ok, quiet = quiet_check()
    print(f"float32, {args.threads} threads, median of {args.reps}; {quiet}")
    print(f"torch {torch.__version__ if torch else 'not installed'}, jax {jax.__version__ if jax else 'not installed'}, "
          f"numba {numba.__version__}")
    rows = {}
    rng = np.random.default_rng(0)
    for name in args.shapes:
        T, B, I, H, _ = SHAPES[name]
        layer = RecurrentLayer("lstm", "ln", I, H, dtype=np.float32, seed=0)
        p = layer.params
        for k in ("gx", "bx", "gh", "bh", "gc", "bc"):  # non-trivial LN parameters for the agreement check
            p[k] += (0.1 * rng.standard_normal(p[k].shape)).astype(np.float32)
        x = rng.standard_normal((T, B, I)).astype(np.float32)
        dy = (0.01 * rng.standard_normal((T, B, H))).astype(np.float32)

        def lnrnn_step():
            y, _ = layer.forward(x)
            layer.zero_grad()
            layer.backward(dy)
            return y

        y_ref = lnrnn_step()
        gWh_ref = layer.grads["Wh"].copy()
        r = rows.setdefault(name, {})
        r["lnrnn LN-LSTM"] = median_ms(lnrnn_step, args.reps)
        hs = rng.standard_normal((T, B, H)).astype(np.float32)
        dHW = rng.standard_normal((T, B, 4 * H)).astype(np.float32)
        nch = numba.get_num_threads()
        r["GEMM floor (OpenBLAS)"] = median_ms(lambda: gemm_floor(x, p["Wx"], p["Wh"], hs, dHW, nch), args.reps)
        if torch is not None:
            cell = torch_models(torch, I, H, p)
            xt, dyt = torch.from_numpy(x), torch.from_numpy(dy)
            yt = torch_step(torch, cell, xt, dyt).detach().numpy()
            err_y = np.abs(yt - y_ref).max()
            err_g = np.abs(cell.wh.weight.grad.numpy().T - gWh_ref).max() / np.abs(gWh_ref).max()
            if err_y > 1e-4 or err_g > 1e-3:
                sys.exit(f"{name}: PyTorch and lnrnn LN-LSTM disagree (max |dy| {err_y:.1e}, dWh {err_g:.1e})")
            print(f"{name}: PyTorch eager and lnrnn agree: max |y diff| {err_y:.1e}, dWh rel {err_g:.1e}")
            r["PyTorch eager LN-LSTM"] = median_ms(lambda: torch_step(torch, cell, xt, dyt), args.reps)
            if args.compile:
                ccell = torch.compile(cell)
                r["torch.compile LN-LSTM cell"] = median_ms(lambda: torch_step(torch, ccell, xt, dyt), args.reps,
                                                            warmup=2)
            lstm = torch.nn.LSTM(I, H)

            def cudnn_like():
                y, _ = lstm(xt)
                lstm.zero_grad()
                (y * dyt).sum().backward()

            r["torch.nn.LSTM (no LN)"] = median_ms(cudnn_like, args.reps)
        if jax is not None:
            f = jax_step_fn(jax, jnp)
            pj = {k: jnp.asarray(v) for k, v in p.items()}
            (loss, yj), gj = f(pj, jnp.asarray(x), jnp.asarray(dy))
            err = float(np.abs(np.asarray(yj) - y_ref).max())
            if err > 1e-4:
                sys.exit(f"{name}: JAX and lnrnn LN-LSTM disagree (max |dy| {err:.1e})")
            r["JAX lax.scan LN-LSTM"] = median_ms(
                lambda: jax.block_until_ready(f(pj, jnp.asarray(x), jnp.asarray(dy))), args.reps)
    labels = list(dict.fromkeys(k for r in rows.values() for k in r))
    print()
    print(f"| ms (median) | " + " | ".join(f"{n} T{SHAPES[n][0]} B{SHAPES[n][1]} I{SHAPES[n][2]} H{SHAPES[n][3]}"
                                           for n in rows) + " |")
    print("|---|" + "---|" * len(rows))
    for lab in labels:
        print(f"| {lab} | " + " | ".join(f"{rows[n].get(lab, float('nan')):.0f}" for n in rows) + " |")
    print()
    for other in ("torch.nn.LSTM (no LN)", "PyTorch eager LN-LSTM", "GEMM floor (OpenBLAS)"):
        if all(other in rows[n] for n in rows):
            print(f"lnrnn / {other}: " + ", ".join(f"{n} {rows[n]['lnrnn LN-LSTM'] / rows[n][other]:.2f}x"
                                                   for n in rows))
    if not ok:
        print("warning: the machine was not quiet; rerun for figures worth reporting")


if __name__ == "__main__":
    main()
