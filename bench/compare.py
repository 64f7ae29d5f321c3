"""One LN-LSTM training step (forward + BPTT, float32) in lnrnn and in the tools users would otherwise
pick, at the three shapes of the issue tracker, side by side with ratios.

    pip install -e ".[bench]"          # torch==2.13.0 (local CPU build on our machines), jax (CPU)
    python bench/compare.py            # all shapes, median of 5
    python bench/compare.py --shapes S2 --reps 10 --compile

Rows: PyTorch eager LN-LSTM written the way users write it (per-step nn.LayerNorm, autograd);
torch.compile'd LN-LSTM cell (with --compile); JAX lax.scan LN-LSTM, jit-compiled value_and_grad (if
jax is importable); torch.nn.LSTM (oneDNN fused, no layer norm); the GEMM floor (bench/step.py),
labelled with the BLAS of its recurrent products (MKL or OpenBLAS, lnrnn.kernels.cpu.blas); lnrnn.

Before timing, lnrnn, the PyTorch LN-LSTM and the JAX LN-LSTM run on the same weights and inputs in
float64 and must agree (outputs to 1e-9, dWh to 1e-8 relative); the script stops if they do not. It
also checks that the machine is quiet (load average and the spread of a fixed workload) and says so.
Each framework is timed in a process of its own (``--worker torch|jax``): lnrnn asks for
single-threaded BLAS and Numba's OpenMP threads spin after a parallel region, both of which would
slow PyTorch down if they shared a process. A benchmark, not a test: it prints figures.

Threads (--threads, default: the CPUs this process may use): lnrnn via numba.set_num_threads, PyTorch
via torch.set_num_threads. XLA's CPU client sizes its own thread pool from the CPUs the process may
run on and has no thread-count setting: in jax/jaxlib 0.10.2, XLA_FLAGS="--xla_cpu_multi_thread_eigen=false
intra_op_parallelism_threads=N" is accepted but changes nothing (a 1024^2 matmul still kept 2 cores
busy). The JAX worker therefore restricts its CPU affinity to the first N CPUs before importing jax
(with N = all CPUs, the default, it changes nothing); only JAX is pinned.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from bench.torch_ln_lstm import SHAPES, ln_lstm_cell, ln_lstm_step  # noqa: E402


def median_ms(fn, reps, warmup=1):
    for _ in range(warmup):
        fn()
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts) * 1e3


def usable_cpus():
    """The CPUs this process may run on (all of them where the OS cannot say)."""
    if hasattr(os, "sched_getaffinity"):
        return os.sched_getaffinity(0)
    return set(range(os.cpu_count()))


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
def torch_worker(npz, reps, threads, compile_too):
    """Time PyTorch on the problem in npz; print one JSON line. Never imports lnrnn or numba."""
    import torch

    torch.set_num_threads(threads)
    d = np.load(npz)
    p = {k[2:]: d[k] for k in d.files if k.startswith("p_")}
    x, dy = d["x"], d["dy"]
    T, B, I = x.shape
    H = dy.shape[2]
    # Agreement in float64 (float32 runs of 784 steps drift apart by rounding alone: lnrnn's own float32
    # and float64 differ by ~6e-3 at S1's last step), then timing in float32.
    c64 = ln_lstm_cell(torch, p).double()
    yt = ln_lstm_step(torch, c64, torch.from_numpy(x.astype(np.float64)),
                    torch.from_numpy(dy.astype(np.float64))).detach().numpy()
    out = {"err_y": float(np.abs(yt - d["y64"]).max()),
           "err_g": float(np.abs(c64.wh.weight.grad.numpy().T - d["gWh64"]).max() / np.abs(d["gWh64"]).max())}
    cell = ln_lstm_cell(torch, p)
    xt, dyt = torch.from_numpy(x), torch.from_numpy(dy)
    out["PyTorch eager LN-LSTM"] = median_ms(lambda: ln_lstm_step(torch, cell, xt, dyt), reps)
    if compile_too:
        ccell = torch.compile(cell)
        out["torch.compile LN-LSTM cell"] = median_ms(lambda: ln_lstm_step(torch, ccell, xt, dyt), reps, warmup=2)
    lstm = torch.nn.LSTM(I, H)

    def fused():
        y, _ = lstm(xt)
        lstm.zero_grad()
        (y * dyt).sum().backward()

    out["torch.nn.LSTM (no LN)"] = median_ms(fused, reps)
    print(json.dumps(out))


# ------------------------------------------------------------------------------------------------
# JAX
# ------------------------------------------------------------------------------------------------
def jax_step_fn(jax, jnp):
    """value_and_grad of sum(y * dy) for the LN-LSTM of bench/torch_ln_lstm.py, jit-compiled:
    f(p, x (T,B,I), dy (T,B,H)) -> ((loss, y (T,B,H)), grads of p). Runs in x's dtype."""
    def ln(z, g, b):
        m = z.mean(-1, keepdims=True)
        v = ((z - m) ** 2).mean(-1, keepdims=True)
        return (z - m) / jnp.sqrt(v + 1e-5) * g + b

    def loss(p, x, dy):
        H = p["Wh"].shape[0]
        xp = ln(x @ p["Wx"], p["gx"], p["bx"])  # (T,B,G) all steps at once

        def step(carry, xt):
            h, c = carry  # (B,H) each
            a = ln(h @ p["Wh"], p["gh"], p["bh"]) + xt + p["b"]  # (B,G), gates [i|f|g|o]
            i, f, g, o = jnp.split(a, 4, axis=-1)
            c = jax.nn.sigmoid(f) * c + jax.nn.sigmoid(i) * jnp.tanh(g)
            h = jax.nn.sigmoid(o) * jnp.tanh(ln(c, p["gc"], p["bc"]))
            return (h, c), h

        B = x.shape[1]
        h0 = jnp.zeros((B, H), x.dtype)  # x's dtype: with x64 enabled a bare zeros would be float64
        _, y = jax.lax.scan(step, (h0, h0), xp)
        return (y * dy).sum(), y

    return jax.jit(jax.value_and_grad(loss, has_aux=True))


def jax_worker(npz, reps, threads):
    """Time JAX on the problem in npz; print one JSON line. Never imports lnrnn or numba."""
    cpus = sorted(usable_cpus())
    if threads < len(cpus):  # before jax starts: XLA sizes its thread pool from the affinity mask
        os.sched_setaffinity(0, cpus[:threads])
    import jax
    import jax.numpy as jnp

    jax.config.update("jax_enable_x64", True)  # for the float64 agreement check; the timed run is float32
    d = np.load(npz)
    f = jax_step_fn(jax, jnp)
    p64 = {k[2:]: jnp.asarray(d[k], jnp.float64) for k in d.files if k.startswith("p_")}
    (_, y64), g64 = f(p64, jnp.asarray(d["x"], jnp.float64), jnp.asarray(d["dy"], jnp.float64))
    out = {"err_y": float(np.abs(np.asarray(y64) - d["y64"]).max()),
           "err_g": float(np.abs(np.asarray(g64["Wh"]) - d["gWh64"]).max() / np.abs(d["gWh64"]).max())}
    p = {k[2:]: jnp.asarray(d[k]) for k in d.files if k.startswith("p_")}  # float32, as stored
    x, dy = jnp.asarray(d["x"]), jnp.asarray(d["dy"])
    (_, y), _ = f(p, x, dy)
    if y.dtype != jnp.float32:
        raise TypeError(f"the timed JAX step must run in float32, it ran in {y.dtype}")
    out["JAX lax.scan LN-LSTM"] = median_ms(lambda: jax.block_until_ready(f(p, x, dy)), reps)
    print(json.dumps(out))


def run_worker(kind, npz, args):
    cmd = [sys.executable, os.path.abspath(__file__), "--worker", kind, "--npz", npz, "--reps", str(args.reps),
           "--threads", str(args.threads)] + (["--compile"] if args.compile else [])
    # what lnrnn set for itself at import (single-threaded BLAS; sequential MKL when MKL is found; passive
    # OpenMP waiting) is not for the other frameworks: PyTorch runs with its own OpenMP defaults
    lnrnn_only = ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "MKL_THREADING_LAYER", "OMP_WAIT_POLICY")
    env = {k: v for k, v in os.environ.items() if k not in lnrnn_only}
    r = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if r.returncode != 0:
        sys.exit(f"{kind} worker failed:\n{r.stderr[-2000:]}")
    return json.loads(r.stdout.strip().splitlines()[-1])


def have(module):
    import importlib.util
    return importlib.util.find_spec(module) is not None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shapes", nargs="+", default=list(SHAPES), choices=list(SHAPES))
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--threads", type=int, default=len(usable_cpus()),
                    help="threads for every framework (JAX: by CPU affinity, see above)")
    ap.add_argument("--compile", action="store_true", help="also time a torch.compile'd cell (slow to compile)")
    ap.add_argument("--worker", choices=["torch", "jax"], help=argparse.SUPPRESS)
    ap.add_argument("--npz", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker == "torch":
        return torch_worker(args.npz, args.reps, args.threads, args.compile)
    if args.worker == "jax":
        return jax_worker(args.npz, args.reps, args.threads)

    import lnrnn  # noqa: F401  (single-threaded BLAS inside lnrnn's threads)
    import numba

    from bench.step import FLOOR, gemm_floor
    from lnrnn.model.layers import RecurrentLayer

    numba.set_num_threads(args.threads)
    ok, quiet = quiet_check()
    print(f"float32, {args.threads} threads, median of {args.reps}; {quiet}")
    print(f"numba {numba.__version__}; torch {'found' if have('torch') else 'not installed'}, "
          f"jax {'found' if have('jax') else 'not installed'} (each timed in its own process)")
    rows = {}
    rng = np.random.default_rng(0)
    tmp = tempfile.mkdtemp(prefix="lnrnn-bench-")
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

        y32 = lnrnn_step()
        r = rows.setdefault(name, {})
        r["lnrnn LN-LSTM"] = median_ms(lnrnn_step, args.reps)
        hs = rng.standard_normal((T, B, H)).astype(np.float32)
        dHW = rng.standard_normal((T, B, 4 * H)).astype(np.float32)
        nch = numba.get_num_threads()
        r[FLOOR] = median_ms(lambda: gemm_floor(x, p["Wx"], p["Wh"], hs, dHW, nch), args.reps)
        l64 = RecurrentLayer("lstm", "ln", I, H, dtype=np.float64, seed=0)
        for k in p:
            l64.params[k][...] = p[k]
        y64, _ = l64.forward(x.astype(np.float64))
        l64.backward(dy.astype(np.float64))
        npz = os.path.join(tmp, f"{name}.npz")
        np.savez(npz, x=x, dy=dy, y32=y32, y64=y64, gWh64=l64.grads["Wh"], **{"p_" + k: v for k, v in p.items()})
        if have("torch"):
            t = run_worker("torch", npz, args)
            if t.pop("err_y") > 1e-9 or t.pop("err_g") > 1e-8:
                sys.exit(f"{name}: PyTorch and lnrnn LN-LSTM disagree in float64")
            print(f"{name}: PyTorch eager and lnrnn LN-LSTM agree in float64")
            r.update(t)
        if have("jax"):
            j = run_worker("jax", npz, args)
            ey, eg = j.pop("err_y"), j.pop("err_g")
            if ey > 1e-9 or eg > 1e-8:
                sys.exit(f"{name}: JAX and lnrnn LN-LSTM disagree in float64 (y {ey:.1e}, dWh {eg:.1e} relative)")
            print(f"{name}: JAX and lnrnn LN-LSTM agree in float64")
            r.update(j)
    labels = list(dict.fromkeys(k for r in rows.values() for k in r))
    print()
    print("| ms (median) | " + " | ".join(f"{n} T{SHAPES[n][0]} B{SHAPES[n][1]} I{SHAPES[n][2]} H{SHAPES[n][3]}"
                                          for n in rows) + " |")
    print("|---|" + "---|" * len(rows))
    for lab in labels:
        print(f"| {lab} | " + " | ".join(f"{rows[n].get(lab, float('nan')):.0f}" for n in rows) + " |")
    print()
    for other in ("torch.nn.LSTM (no LN)", "PyTorch eager LN-LSTM", "JAX lax.scan LN-LSTM", FLOOR):
        if all(other in rows[n] for n in rows):
            print(f"lnrnn / {other}: " + ", ".join(f"{n} {rows[n]['lnrnn LN-LSTM'] / rows[n][other]:.2f}x"
                                                   for n in rows))
    if not ok:
        print("warning: the machine was not quiet; rerun for figures worth reporting")


if __name__ == "__main__":
    main()
