"""Time one LN-LSTM training step (forward + BPTT backward, float32) on a GPU: lnrnn's CUDA twins
against PyTorch on the same GPU.

    python bench/gpu_step.py                     # S1 S2 S3, median of 10 after warm-up
    python bench/gpu_step.py --shapes S2 --reps 20
    python bench/gpu_step.py --bn-only --reps 5  # the BN cells alone: graph path and per-step launches
    python bench/gpu_step.py --shapes S1 --persistent-only --persistent-blocks 16 32 64   # the variant's blocks
    NUMBA_ENABLE_CUDASIM=1 python bench/gpu_step.py --tiny    # smoke test of this script, no GPU

Rows
    lnrnn CUDA LN-LSTM      lstm_forward + lstm_backward of lnrnn.kernels.lstm_cuda, device arrays
                            in and out (no host round trip inside the step)
    ..., persistent fwd     the same step with the forward's recurrence on the persistent kernel
                            (dev/lstm_persistent_cuda.py, a variant the package does not ship; one block
                            per SM); when it does not fit the row says so and is skipped
    ..., persistent fwd+bwd the same step with the backward's time loop on the persistent BPTT too
    ln-lstm fwd / ln-lstm persistent fwd
                            the forward alone on each path, timed with CUDA events in this process;
                            before timing, the two forwards' float32 outputs and saved tensors are
                            compared (max abs difference printed; float32 over hundreds of steps
                            differs by rounding that the dynamics grow, so it is printed, not judged;
                            the float64 tests in tests/dev/test_cuda_persistent.py judge agreement)
    ln-lstm bwd / ln-lstm persistent bwd
                            lstm_backward alone on each path (the same saved tensors of lstm_cuda's
                            forward), CUDA events; the two backwards' float32 gradients are compared
                            first (printed, not judged; tests/dev/test_cuda_persistent_bwd.py judges)
    PyTorch eager LN-LSTM   written the way users write it: nn.Linear + nn.LayerNorm modules, a Python
                            loop over T, autograd for BPTT (needs torch with CUDA)
    torch.nn.LSTM           cuDNN's fused LSTM, no layer norm: the speed a normalization-free cell gets
Before timing, lnrnn's CUDA step is validated in float64 against the CPU twin (forward output and every
gradient) and, when torch is present, against the eager PyTorch LN-LSTM (output): float32 runs of
hundreds of steps drift apart by rounding alone (measured on an H100: 1.8 relative at S1's 784 steps
between two correct float32 implementations), so agreement is checked where rounding is 1e-16. Timing
is in float32. The script exits non-zero when a validation fails; it asserts nothing about time.
"""
import argparse
import contextlib
import os
import statistics
import sys
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import numpy as np  # noqa: E402

from bench.torch_ln_lstm import SHAPES, ln_lstm_cell, ln_lstm_step  # noqa: E402
from lnrnn import backend  # noqa: E402

TINY = {"tiny": (3, 5, 2, 6, "simulator smoke test")}
FWD = ("x", "h0", "c0", "Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc")
CHECK_T = 200  # time steps of the float64 agreement check
TOL64 = 1e-6  # float64: max |a - b| / max |b| accepted between implementations (chaotic growth of 1e-16)


def problem(T, B, I, H, seed=0):
    rng = np.random.default_rng(seed)
    G = 4 * H
    f = np.float32
    p = dict(x=rng.standard_normal((T, B, I)).astype(f), h0=np.zeros((B, H), f), c0=np.zeros((B, H), f),
             Wx=(rng.uniform(-1, 1, (I, G)) * np.sqrt(6 / (I + H))).astype(f),
             Wh=(rng.standard_normal((H, G)) / np.sqrt(H)).astype(f), b=np.zeros(G, f),
             gx=np.ones(G, f), bx=np.zeros(G, f), gh=np.ones(G, f), bh=np.zeros(G, f), gc=np.ones(H, f),
             bc=np.zeros(H, f))
    p["b"][H:2 * H] = 1.0
    dy = (rng.standard_normal((T, B, H)) / (T * B)).astype(f)
    return p, dy


def rel(a, b):
    return float(np.max(np.abs(a - b)) / max(np.max(np.abs(b)), 1e-30))


def median_ms(fn, sync, reps, warmup=2):
    for _ in range(warmup):
        fn()
    sync()
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        sync()
        times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times)


# ------------------------------------------------------------------------------------------------
# lnrnn
# ------------------------------------------------------------------------------------------------
def lnrnn_step_fn(p, dy, norm="ln", path="auto", blas=None, persistent=False, persistent_bwd=False):
    """One step of lnrnn's CUDA LSTM twin on device-resident arrays. path: lstm_cuda's time loop
    (config.CUDA_LOOP_PATH: "graph", "seq", "step" or "auto"); blas: the library of graphs_cuda
    (config.CUDA_BLAS; None: as configured); persistent: the LN forward on dev/lstm_persistent_cuda.py's
    recurrence (else lstm_cuda's); persistent_bwd: the same for the backward's time loop."""
    from dev import lstm_persistent_cuda
    from lnrnn.kernels import lstm_cuda
    from lnrnn.kernels.cuda.arrays_cuda import to_device

    d = {k: to_device(v) for k, v in p.items()}
    ddy = to_device(dy)
    args = [d[k] for k in FWD]
    bargs = (ddy, d["x"], d["h0"], d["c0"], d["Wx"], d["Wh"], d["gx"], d["gh"], d["gc"])
    code = lstm_cuda.NORM_LN if norm == "ln" else lstm_cuda.NORM_NONE

    def step():
        with configured(path, blas):
            y, hT, cT, saved = _lstm_forward(args, code, persistent)
            if persistent_bwd:
                grads = lstm_persistent_cuda.lstm_backward(bargs[0], saved, *bargs[1:])
            else:
                grads = lstm_cuda.lstm_backward(bargs[0], saved, *bargs[1:], code)
        return y, grads

    return step


def _lstm_forward(args, code, persistent, nblocks=None):
    """lstm_forward on the device arrays args (FWD's order): dev/lstm_persistent_cuda.py's recurrence
    (persistent, LN; nblocks blocks, None: its default, one per SM) or lstm_cuda's with norm code."""
    from dev import lstm_persistent_cuda
    from lnrnn.kernels import lstm_cuda
    if persistent:
        return lstm_persistent_cuda.lstm_forward(*args, 1e-5, nblocks=nblocks)
    return lstm_cuda.lstm_forward(*args, code, 1e-5)


@contextlib.contextmanager
def configured(path, blas):
    """config.CUDA_LOOP_PATH = path and (unless None) config.CUDA_BLAS = blas while inside."""
    from lnrnn import config
    old = config.CUDA_LOOP_PATH, config.CUDA_BLAS
    config.CUDA_LOOP_PATH = path
    if blas is not None:
        config.CUDA_BLAS = blas
    try:
        yield
    finally:
        config.CUDA_LOOP_PATH, config.CUDA_BLAS = old


def lnrnn_forward_fn(p, persistent=False, norm="ln", path="auto", blas=None, nblocks=None):
    """The forward alone on device-resident arrays, dev/lstm_persistent_cuda.py's (persistent, LN, on nblocks
    blocks) or lstm_cuda's on the given path; returns (y, saved) as device arrays."""
    from lnrnn.kernels import lstm_cuda
    from lnrnn.kernels.cuda.arrays_cuda import to_device

    args = [to_device(p[k]) for k in FWD]
    code = lstm_cuda.NORM_LN if norm == "ln" else lstm_cuda.NORM_NONE

    def fwd():
        with configured(path, blas):
            y, _, _, saved = _lstm_forward(args, code, persistent, nblocks)
        return y, saved

    return fwd


def lnrnn_backward_fn(p, dy, persistent=False, norm="ln", path="auto", blas=None, nblocks=None):
    """The backward alone, on the saved tensors of one lstm_cuda forward (same path): dev/lstm_persistent_cuda.py's
    BPTT (persistent, on nblocks blocks) or lstm_cuda's; returns the gradients as device arrays."""
    from dev import lstm_persistent_cuda
    from lnrnn.kernels import lstm_cuda
    from lnrnn.kernels.cuda.arrays_cuda import to_device

    d = {k: to_device(v) for k, v in p.items()}
    ddy = to_device(dy)
    code = lstm_cuda.NORM_LN if norm == "ln" else lstm_cuda.NORM_NONE
    with configured(path, blas):
        saved = lstm_cuda.lstm_forward(*[d[k] for k in FWD], code, 1e-5)[3]
    args = (ddy, saved, d["x"], d["h0"], d["c0"], d["Wx"], d["Wh"], d["gx"], d["gh"], d["gc"])

    def bwd():
        with configured(path, blas):
            if persistent:
                return lstm_persistent_cuda.lstm_backward(*args, nblocks=nblocks)
            return lstm_cuda.lstm_backward(*args, code)

    return bwd


def persistent_fits(p, backward=False):
    from dev import lstm_persistent_cuda

    T, B, _ = p["x"].shape
    return lstm_persistent_cuda.fits(T, B, p["h0"].shape[1], p["x"].dtype, backward=backward)


def forward_agreement(p):
    """Max abs difference between the persistent forward's and lstm_cuda's forward's y and every saved
    tensor (float32, this shape): {name: diff}."""
    from lnrnn.kernels.cuda.arrays_cuda import to_host

    (y1, s1), (y0, s0) = (to_host(lnrnn_forward_fn(p, True, path="seq", blas="off")()),
                          to_host(lnrnn_forward_fn(p, False, path="seq", blas="off")()))
    names = ("y", "gates", "c", "tc", "y(saved)", "xp", "hhat", "chat", "rstd")
    return {n: float(np.max(np.abs(a.astype(np.float64) - b), initial=0.0))
            for n, a, b in zip(names, (y1,) + tuple(s1), (y0,) + tuple(s0))}


def backward_agreement(p, dy):
    """Max abs difference between the persistent BPTT's and lstm_cuda's backward's gradients (float32,
    this shape, the same saved tensors): {name: diff}."""
    from lnrnn.kernels.cuda.arrays_cuda import to_host

    g1, g0 = (to_host(lnrnn_backward_fn(p, dy, True, path="seq", blas="off")()),
              to_host(lnrnn_backward_fn(p, dy, False, path="seq", blas="off")()))
    return {n: float(np.max(np.abs(a.astype(np.float64) - b), initial=0.0)) for n, a, b in zip(FWD, g1, g0)}


def median_event_ms(fn, reps, warmup=2):
    """Median over reps of fn's time between two CUDA events on the default stream (launches queued by
    fn included; host work that does not wait on the device is not)."""
    from numba import cuda

    if backend.simulator_enabled():  # no event timing there: wall time, for the script's smoke test
        return median_ms(fn, cuda.synchronize, reps, warmup)
    for _ in range(warmup):
        fn()
    cuda.synchronize()
    times = []
    for _ in range(reps):
        e0, e1 = cuda.event(), cuda.event()
        e0.record()
        fn()
        e1.record()
        e1.synchronize()
        times.append(cuda.event_elapsed_time(e0, e1))
    return statistics.median(times)


def validate_against_cpu(p, dy, step):
    from lnrnn.kernels import lstm
    from lnrnn.kernels.cuda.arrays_cuda import to_host

    y, grads = to_host(step())
    yc, _, _, saved = lstm.lstm_forward(*[p[k] for k in FWD], lstm.NORM_LN, p["x"].dtype.type(1e-5),
                                        os.cpu_count() or 1)
    gc = lstm.lstm_backward(dy, saved, p["x"], p["h0"], p["c0"], p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"],
                            lstm.NORM_LN, os.cpu_count() or 1)
    errs = {"y": rel(y, yc)}
    errs.update({n: rel(a, b) for n, a, b in zip(FWD, grads, gc)})
    return errs, y


# ------------------------------------------------------------------------------------------------
# PyTorch (CUDA)
# ------------------------------------------------------------------------------------------------
def torch_eager(torch, p, dy, dev="cuda"):
    cell = ln_lstm_cell(torch, p, dev)
    x = torch.from_numpy(p["x"]).to(dev)
    tdy = torch.from_numpy(dy).to(dev)
    return lambda: ln_lstm_step(torch, cell, x, tdy)


def torch_cudnn(torch, p, dy, dev="cuda"):
    I, G = p["Wx"].shape
    H = G // 4
    lstm = torch.nn.LSTM(I, H).to(dev)
    x = torch.from_numpy(p["x"]).to(dev)
    tdy = torch.from_numpy(dy).to(dev)

    def step():
        y, _ = lstm(x)
        lstm.zero_grad()
        (y * tdy).sum().backward()
        return y

    return step


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shapes", nargs="+", default=list(SHAPES), choices=list(SHAPES), help="shapes to time")
    ap.add_argument("--reps", type=int, default=10, help="timed repetitions (median reported)")
    ap.add_argument("--per-step", action="store_true", help="also time the per-step path (two launches "
                                                             "per time step), slow")
    ap.add_argument("--persistent", action="store_true", help="also check and time dev/lstm_persistent_cuda.py")
    ap.add_argument("--persistent-blocks", type=int, nargs="*", default=[], metavar="NB",
                    help="also time dev/lstm_persistent_cuda.py's forward and BPTT alone on each number of blocks "
                         "(CUDA events), beside the graph path's")
    ap.add_argument("--persistent-only", action="store_true", help="the --persistent-blocks rows alone, beside the "
                    "graph path's forward and backward (no checks, no other rows)")
    ap.add_argument("--rnn", action="store_true", help="also the RNN and LN-RNN twins against torch.nn.RNN")
    ap.add_argument("--bn", action="store_true", help="also the BN-LSTM and BN-RNN twins (graph path and per-step "
                                                      "launches) against torch.nn.LSTM and torch.nn.RNN")
    ap.add_argument("--bn-only", action="store_true", help="the BN rows alone (--bn without the LSTM's rows)")
    ap.add_argument("--overhead", action="store_true", help="where a graph-path call's time goes beside its replay "
                                                            "(events, host time, cProfile)")
    ap.add_argument("--threads", type=int, nargs="*", default=[], help="also the graph path's LN-LSTM step with "
                    "these threads a block of its fused step kernels (by default lstm_cuda.step_threads(H))")
    ap.add_argument("--tiny", action="store_true", help="one tiny shape, no timing: checks this script "
                                                        "(e.g. under NUMBA_ENABLE_CUDASIM=1)")
    args = ap.parse_args(argv)

    ok, how = backend.cuda_usable()
    if not ok:
        print(f"CUDA is not usable here: {how}.", file=sys.stderr)
        return 2
    print(f"lnrnn CUDA backend: {how}")
    from numba import cuda
    tdev = "cuda"
    try:
        import torch
        if not torch.cuda.is_available() and args.tiny:
            print(f"torch {torch.__version__} without CUDA: PyTorch rows run on the CPU (--tiny: no timing)")
            tdev = "cpu"
        elif not torch.cuda.is_available():
            print(f"torch {torch.__version__} is installed without a usable CUDA device: PyTorch rows skipped")
            torch = None
        else:
            print(f"torch {torch.__version__}, cuDNN {torch.backends.cudnn.version()}, "
                  f"{torch.cuda.get_device_name(0)}")
    except ImportError:
        print("torch is not installed: PyTorch rows skipped")
        torch = None

    shapes = TINY if args.tiny else {k: SHAPES[k] for k in args.shapes}
    failed = False
    for name, (T, B, I, H, what) in shapes.items():
        print(f"\n{name} ({what}): T={T} B={B} I={I} H={H}, float32, one forward + backward")
        try:
            failed |= run_shape(args, torch, tdev, T, B, I, H)
        except Exception as e:  # noqa: BLE001 - a failing shape is reported, and the next one still runs
            failed = True
            print(f"  {name} FAILED: {type(e).__name__}: {e}")
            traceback.print_exc(limit=-4, file=sys.stdout)
        sys.stdout.flush()
    return 1 if failed else 0


def report_registers(H):
    """Registers per thread of the LSTM sequence kernels compiled for this H (what decides whether a block
    of their size can launch: 64K registers a block); silent where the dispatcher cannot say (simulator)."""
    from lnrnn.kernels import lstm_cuda
    from lnrnn.kernels.cuda.arrays_cuda import seq_threads

    tpb = seq_threads(4 * H)
    for dt in (np.float32, np.float64):
        for k in lstm_cuda._seq_kernels(np.dtype(dt), tpb, H):
            try:
                regs = sorted(set(k.get_regs_per_thread().values()))
            except Exception:  # noqa: BLE001 - the simulator's dispatchers do not count registers
                return
            if regs:
                print(f"  registers a thread, {k.__name__} {np.dtype(dt).name} ({tpb} threads a block): {regs}")


def rnn_rows(args, torch, T, B, I, H, libs):
    """The RNN twins (LN and plain) on the graph path of each library and on the sequence kernels, against
    torch.nn.RNN (cuDNN, tanh, no LN); a float64 check of each path against the CPU twin first. True when a
    check failed."""
    from numba import cuda
    from lnrnn.kernels import rnn, rnn_cuda
    from lnrnn.kernels.cuda.arrays_cuda import to_device, to_host

    rng = np.random.default_rng(1)
    f = np.float32
    p = dict(x=rng.standard_normal((T, B, I)).astype(f), h0=np.zeros((B, H), f),
             Wx=(rng.standard_normal((I, H)) / np.sqrt(I)).astype(f), Wh=(rng.standard_normal((H, H)) / np.sqrt(H)).astype(f),
             b=np.zeros(H, f), g=np.ones(H, f))
    dy = (rng.standard_normal((T, B, H)) / (T * B)).astype(f)
    names = ("x", "h0", "Wx", "Wh", "b", "g")

    def fn(pp, ddy, norm, path, lib):
        d = {k: to_device(v) for k, v in pp.items()}
        dd = to_device(ddy)
        code = rnn_cuda.NORM_LN if norm == "ln" else rnn_cuda.NORM_NONE

        def step():
            with configured(path, lib):
                y, _, saved = rnn_cuda.rnn_forward(*[d[k] for k in names], code, 1e-5)
                return y, rnn_cuda.rnn_backward(dd, saved, d["x"], d["h0"], d["Wx"], d["Wh"], d["g"], code)
        return step

    failed = False
    p64 = {k: v[:CHECK_T].astype(np.float64) if k == "x" else v.astype(np.float64) for k, v in p.items()}
    dy64 = dy[:CHECK_T].astype(np.float64)
    yc, _, saved = rnn.rnn_forward(*[p64[k] for k in names], rnn.NORM_LN, 1e-5, os.cpu_count() or 1)
    gc = rnn.rnn_backward(dy64, saved, p64["x"], p64["h0"], p64["Wx"], p64["Wh"], p64["g"], rnn.NORM_LN,
                          os.cpu_count() or 1)
    for path, lib in [("graph", lib) for lib in libs] + [("seq", "off")]:
        y, grads = to_host(fn(p64, dy64, "ln", path, lib)())
        errs = [rel(y, yc)] + [rel(a, b) for a, b in zip(grads, gc)]
        good = max(errs) < TOL64
        failed |= not good
        print(f"  LN-RNN check vs CPU twin (float64, {path} on {lib}): worst relative error {max(errs):.1e} "
              f"{'ok' if good else 'FAILED'}")
    rows = {}
    for lib in libs:
        rows[f"lnrnn LN-RNN, graph ({lib})"] = fn(p, dy, "ln", "graph", lib)
        rows[f"lnrnn RNN, graph ({lib})"] = fn(p, dy, "none", "graph", lib)
    rows["lnrnn LN-RNN, sequence kernels"] = fn(p, dy, "ln", "seq", "off")
    rows["lnrnn RNN, sequence kernels"] = fn(p, dy, "none", "seq", "off")
    syncs = {k: cuda.synchronize for k in rows}
    if torch is not None and torch.cuda.is_available():
        net = torch.nn.RNN(I, H).to("cuda")
        tx, tdy = torch.from_numpy(p["x"]).to("cuda"), torch.from_numpy(dy).to("cuda")

        def cudnn():
            out, _ = net(tx)
            net.zero_grad()
            (out * tdy).sum().backward()
        rows["torch.nn.RNN (cuDNN, tanh, no LN)"] = cudnn
        syncs["torch.nn.RNN (cuDNN, tanh, no LN)"] = torch.cuda.synchronize
    if args.tiny:
        for k, f_ in rows.items():
            f_()
            syncs[k]()
        return failed
    res = {k: median_ms(f_, syncs[k], args.reps) for k, f_ in rows.items()}
    base = "torch.nn.RNN (cuDNN, tanh, no LN)" if "torch.nn.RNN (cuDNN, tanh, no LN)" in res else next(iter(res))
    for k, ms in res.items():
        print(f"  {k:42s} {ms:9.2f} ms   {ms / res[base]:5.2f}x {base}")
    return failed


def bn_rows(args, torch, T, B, I, H, libs):
    """The BN cells (Cooijmans et al.: per-step batch statistics, so batch rows meet at every step) on the graph
    path of each library and on per-step launches (cuBLAS products where a library serves them), training mode,
    against cuDNN's LSTM and RNN (no normalization); a float64 check of each path against the CPU twin first (the
    first CHECK_T steps). True when a check failed."""
    from numba import cuda
    from lnrnn.kernels import bn_lstm, bn_lstm_cuda, bn_rnn, bn_rnn_cuda
    from lnrnn.kernels.cuda.arrays_cuda import to_device, to_host

    rng = np.random.default_rng(2)
    mods = {"lstm": (bn_lstm, bn_lstm_cuda), "rnn": (bn_rnn, bn_rnn_cuda)}

    def problem_bn(cell, dtype, steps):
        G = 4 * H if cell == "lstm" else H
        f = dtype
        p = dict(x=rng.standard_normal((steps, B, I)).astype(f), h0=np.zeros((B, H), f))
        if cell == "lstm":
            p["c0"] = np.zeros((B, H), f)
        p.update(Wx=(rng.standard_normal((I, G)) / np.sqrt(max(I, 1))).astype(f),
                 Wh=(rng.standard_normal((H, G)) / np.sqrt(H)).astype(f), b=np.zeros(G, f),
                 gx=np.full(G, 0.1, f), gh=np.full(G, 0.1, f))
        if cell == "lstm":
            p.update(gc=np.full(H, 0.1, f), bc=np.zeros(H, f))
        widths = [G] * 4 + ([H, H] if cell == "lstm" else [])
        run = [np.zeros((steps, w), f) if k % 2 == 0 else np.ones((steps, w), f) for k, w in enumerate(widths)]
        dy = (rng.standard_normal((steps, B, H)) / (steps * B)).astype(f)
        return p, run, dy

    keys = {"lstm": ("x", "h0", "c0", "Wx", "Wh", "gx", "gh", "gc"), "rnn": ("x", "h0", "Wx", "Wh", "gx", "gh")}

    def fn(cell, p, run, dy, mod, path=None, lib=None, device=True):
        fwd, bwd = getattr(mod, f"bn_{cell}_forward"), getattr(mod, f"bn_{cell}_backward")
        d = {k: to_device(v) for k, v in p.items()} if device else p
        r = [to_device(v) for v in run] if device else run
        dd = to_device(dy) if device else dy

        def step():
            with (configured(path, lib) if path else contextlib.nullcontext()):
                out = fwd(*d.values(), *r, True, 0.1, 1e-5)
                return out[0], bwd(dd, out[-1], *[d[k] for k in keys[cell]])
        return step

    failed = False
    paths = [("graph", lib) for lib in libs] + [("step", libs[0] if libs else "off")]
    for cell in mods:
        cpu, gpu = mods[cell]
        p64, run64, dy64 = problem_bn(cell, np.float64, min(T, CHECK_T))
        yc, gc = fn(cell, p64, [r.copy() for r in run64], dy64, cpu, device=False)()
        for path, lib in paths:
            y, grads = to_host(fn(cell, p64, run64, dy64, gpu, path, lib)())
            errs = [rel(y, yc)] + [rel(a, b) for a, b in zip(grads, gc)]
            good = max(errs) < TOL64
            failed |= not good
            print(f"  BN-{cell.upper()} check vs CPU twin (float64, {path} on {lib}): worst relative error "
                  f"{max(errs):.1e} {'ok' if good else 'FAILED'}")
    rows, syncs = {}, {}
    for cell in mods:
        p, run, dy = problem_bn(cell, np.float32, T)
        for path, lib in paths:
            rows[f"lnrnn BN-{cell.upper()}, {path} ({lib})"] = fn(cell, p, run, dy, mods[cell][1], path, lib)
            syncs[f"lnrnn BN-{cell.upper()}, {path} ({lib})"] = cuda.synchronize
        if torch is not None and torch.cuda.is_available():
            net = (torch.nn.LSTM if cell == "lstm" else torch.nn.RNN)(I, H).to("cuda")
            tx, tdy = torch.from_numpy(p["x"]).to("cuda"), torch.from_numpy(dy).to("cuda")

            def cudnn(net=net, tx=tx, tdy=tdy):
                out, _ = net(tx)
                net.zero_grad()
                (out * tdy).sum().backward()
            name = f"torch.nn.{'LSTM' if cell == 'lstm' else 'RNN'} (cuDNN, no BN)"
            rows[name], syncs[name] = cudnn, torch.cuda.synchronize
    if args.tiny:
        for k, f_ in rows.items():
            f_()
            syncs[k]()
        return failed
    res = {k: median_ms(f_, syncs[k], args.reps) for k, f_ in rows.items()}
    for k, ms in res.items():
        base = f"torch.nn.{'LSTM' if 'LSTM' in k else 'RNN'} (cuDNN, no BN)"
        vs = f"   {ms / res[base]:5.2f}x {base}" if base in res else ""
        print(f"  {k:42s} {ms:9.2f} ms{vs}")
    return failed


def graph_libraries():
    """The libraries that serve graphs_cuda's cuBLAS and graphs here (under the simulator: its stand-in)."""
    from lnrnn.kernels.cuda import graphs_cuda
    libs = []
    for lib in (("eager",) if backend.simulator_enabled() else ("torch", "cupy")):
        with configured("graph", lib):
            prov = graphs_cuda.provider()
            if prov is not None and prov.graphs:
                libs.append(lib)
            else:
                print(f"  graph path on {lib}: not available ({graphs_cuda.describe()})")
    return libs


def run_shape(args, torch, tdev, T, B, I, H):
    """The checks and timings of one shape (main); True when a validation failed. The graph path on each
    library, the sequence kernels (numba's own GEMM: the kernels before the graph path) and PyTorch; the
    persistent variant last, with --persistent."""
    from numba import cuda
    if args.bn_only:
        return bn_rows(args, torch, T, B, I, H, graph_libraries())
    if args.persistent_only:
        p, dy = problem(T, B, I, H)
        reps = 1 if args.tiny else args.reps
        for lib in graph_libraries()[:1]:  # the package's path beside the variant, same process
            split_row(p, dy, "ln", "LN-LSTM", f"graph ({lib})", "graph", lib, reps)
        persistent_blocks_rows(p, dy, args.persistent_blocks, reps)
        return False
    failed = False
    p, dy = problem(T, B, I, H)
    # the float64 check runs the first CHECK_T steps: beyond a few hundred, rounding differences of
    # 1e-16 grow by the dynamics alone (S1's 784 steps: 1e-5 between lnrnn's CPU twin and PyTorch)
    p64 = {k: v[:CHECK_T].astype(np.float64) if k == "x" else v.astype(np.float64) for k, v in p.items()}
    dy64 = dy[:CHECK_T].astype(np.float64)

    def check(label, **kw):
        errs, y64 = validate_against_cpu(p64, dy64, lnrnn_step_fn(p64, dy64, **kw))
        worst = max(errs, key=errs.get)
        good = errs[worst] < TOL64
        print(f"  check vs CPU twin (float64, {label}): worst relative error {errs[worst]:.1e} ({worst}) "
              f"{'ok' if good else 'FAILED'}")
        return good, y64

    libs = graph_libraries()
    for lib in libs:
        good, _ = check(f"graph on {lib}", path="graph", blas=lib)
        failed |= not good
    good, y64 = check("sequence kernels", path="seq", blas="off")
    failed |= not good
    rows = {}
    for lib in libs:
        for norm, cell in (("ln", "LN-LSTM"), ("none", "LSTM")):
            fn = lnrnn_step_fn(p, dy, norm=norm, path="graph", blas=lib)
            t0 = time.perf_counter()
            fn()
            cuda.synchronize()
            print(f"  first step, {cell} on the graph path ({lib}): {(time.perf_counter() - t0) * 1e3:.0f} ms "
                  "(the forward's and backward's capture included)")
            rows[f"lnrnn {cell}, graph ({lib})"] = (fn, cuda.synchronize)
    rows["lnrnn LN-LSTM, sequence kernels"] = (lnrnn_step_fn(p, dy, path="seq", blas="off"), cuda.synchronize)
    rows["lnrnn LSTM, sequence kernels"] = (lnrnn_step_fn(p, dy, norm="none", path="seq", blas="off"),
                                            cuda.synchronize)
    if libs:
        rows[f"lnrnn LN-LSTM, sequence + cuBLAS ({libs[0]})"] = (lnrnn_step_fn(p, dy, path="seq", blas=libs[0]),
                                                                 cuda.synchronize)
    if args.per_step:
        rows["lnrnn LN-LSTM, per-step launches"] = (lnrnn_step_fn(p, dy, path="step", blas="off"), cuda.synchronize)
    if torch is not None:
        e = rel(torch_eager(torch, p64, dy64, tdev)().detach().cpu().numpy(), y64)
        failed |= not e < TOL64
        print(f"  check vs PyTorch eager LN-LSTM (float64): output relative difference {e:.1e} "
              f"{'ok' if e < TOL64 else 'FAILED'}")
        tsync = torch.cuda.synchronize if tdev == "cuda" else (lambda: None)
        rows["PyTorch eager LN-LSTM"] = (torch_eager(torch, p, dy, tdev), tsync)
        cudnn = torch_cudnn(torch, p, dy, tdev)
        cudnn()
        rows["torch.nn.LSTM (cuDNN, no LN)"] = (cudnn, tsync)
    if args.tiny:
        for name, (fn, sync) in rows.items():  # each row runs once: the script's own check
            fn()
            sync()
        if args.rnn:
            failed |= rnn_rows(args, torch, T, B, I, H, libs)
        if args.bn:
            failed |= bn_rows(args, torch, T, B, I, H, libs)
        if args.overhead and libs:
            graph_overhead(p, dy, libs[0], 1, top=5)
        if args.persistent_blocks:
            persistent_blocks_rows(p, dy, args.persistent_blocks, 1)
        return failed
    res = {}
    try:
        for k, (fn, sync) in rows.items():
            res[k] = median_ms(fn, sync, args.reps)
    finally:
        base_name = "torch.nn.LSTM (cuDNN, no LN)" if "torch.nn.LSTM (cuDNN, no LN)" in res else next(iter(res), None)
        for k, ms in res.items():
            print(f"  {k:42s} {ms:9.2f} ms   {ms / res[base_name]:5.2f}x {base_name}")
        sys.stdout.flush()
    split = [(f"graph ({lib})", "graph", lib) for lib in libs[:1]] + [("sequence kernels", "seq", "off")]
    for label, path, lib in split:  # forward and backward apart, CUDA events, same process
        for norm, cell in (("ln", "LN-LSTM"), ("none", "LSTM")):
            split_row(p, dy, norm, cell, label, path, lib, args.reps)
    if libs and args.threads:
        threads_rows(p, dy, libs[0], args.threads, args.reps)
    report_registers(H)
    if args.rnn:
        failed |= rnn_rows(args, torch, T, B, I, H, libs)
    if args.bn:
        failed |= bn_rows(args, torch, T, B, I, H, libs)
    if args.overhead and libs:
        graph_overhead(p, dy, libs[0], args.reps)
    if args.persistent:
        failed |= run_persistent(args, p, dy, p64, dy64, check)
    if args.persistent_blocks:
        persistent_blocks_rows(p, dy, args.persistent_blocks, args.reps)
    return failed


def split_row(p, dy, norm, cell, label, path, lib, reps):
    """One row of the forward and the backward apart (CUDA events) on one path and library, and per step."""
    T = p["x"].shape[0]
    f = median_event_ms(lnrnn_forward_fn(p, norm=norm, path=path, blas=lib), reps)
    b = median_event_ms(lnrnn_backward_fn(p, dy, norm=norm, path=path, blas=lib), reps)
    print(f"  {cell} {label}: forward {f:.2f} ms, backward {b:.2f} ms (CUDA events); "
          f"{f / T * 1e3:.1f} + {b / T * 1e3:.1f} us a step")


def threads_rows(p, dy, lib, threads, reps):
    """The LN-LSTM step on the graph path with each count of threads a block of the fused step kernels (fresh
    plans: a plan keeps the kernels it captured), forward and backward apart (CUDA events)."""
    from lnrnn import config
    from lnrnn.kernels.cuda import graphs_cuda
    old = config.THREADS_PER_BLOCK, config.CUDA_SEQ_MAX_THREADS
    try:
        for n in threads:
            config.THREADS_PER_BLOCK = config.CUDA_SEQ_MAX_THREADS = n  # lstm_cuda.step_threads(H) is then n
            graphs_cuda.PLANS.clear()
            f = median_event_ms(lnrnn_forward_fn(p, norm="ln", path="graph", blas=lib), reps)
            b = median_event_ms(lnrnn_backward_fn(p, dy, norm="ln", path="graph", blas=lib), reps)
            print(f"  LN-LSTM graph ({lib}), {n} threads a block: forward {f:.2f} ms, backward {b:.2f} ms, "
                  f"together {f + b:.2f} ms (CUDA events)")
    finally:
        config.THREADS_PER_BLOCK, config.CUDA_SEQ_MAX_THREADS = old
        graphs_cuda.PLANS.clear()


def graph_overhead(p, dy, lib, reps, top=22):
    """Where a graph-path call's time goes beside its replay, with the twins' arrays from PyTorch's caching
    allocator (config.CUDA_POOL "auto") and from numba's (cuMemAlloc/cuMemFree: "off"): CUDA events around the
    replay alone and around the whole lstm_forward / lstm_backward, the host's time to enqueue the whole call
    (no sync); then, with the default allocator, cProfile's top functions (own time) over reps calls of each and
    the GPU's timeline of one call (torch.profiler: busy time, kernels by total time, the longest idle gaps)."""
    import cProfile
    import io
    import pstats

    from numba import cuda
    from lnrnn import config
    from lnrnn.kernels import lstm_cuda
    from lnrnn.kernels.cuda import graphs_cuda
    from lnrnn.kernels.cuda.arrays_cuda import to_device

    d = {k: to_device(v) for k, v in p.items()}
    ddy = to_device(dy)
    fwd_args = [d[k] for k in FWD]
    with configured("graph", lib):
        _, _, _, saved = lstm_cuda.lstm_forward(*fwd_args, lstm_cuda.NORM_LN, 1e-5)
        bwd = (ddy, saved, d["x"], d["h0"], d["c0"], d["Wx"], d["Wh"], d["gx"], d["gh"], d["gc"], lstm_cuda.NORM_LN)
        lstm_cuda.lstm_backward(*bwd)
        plans = {k[0].split()[1]: v for k, v in graphs_cuda.PLANS.items() if k[1] == lib and k[0].startswith("lstm ")}
        calls = {"forward": lambda: lstm_cuda.lstm_forward(*fwd_args, lstm_cuda.NORM_LN, 1e-5),
                 "backward": lambda: lstm_cuda.lstm_backward(*bwd)}
        old_pool = config.CUDA_POOL
        try:
            for pool in ("auto", "off"):
                config.CUDA_POOL = pool
                which = "torch's cache" if graphs_cuda.pool() is not None else "numba's cuMemAlloc"
                for kind in ("forward", "backward"):
                    replay = median_event_ms(plans[kind].replay, reps)
                    whole = median_event_ms(calls[kind], reps)
                    cuda.synchronize()
                    host = []
                    for _ in range(reps):
                        t0 = time.perf_counter()
                        calls[kind]()
                        host.append((time.perf_counter() - t0) * 1e3)
                        cuda.synchronize()
                    print(f"  graph {kind} ({lib}, arrays from {which}): replay alone {replay:.2f} ms, the whole call "
                          f"{whole:.2f} ms (CUDA events); the host enqueues the call in {statistics.median(host):.2f} ms")
                sys.stdout.flush()
        finally:
            config.CUDA_POOL = old_pool
        for kind in ("forward", "backward"):
            prof = cProfile.Profile()
            prof.enable()
            for _ in range(reps):
                calls[kind]()
            cuda.synchronize()
            prof.disable()
            out = io.StringIO()
            pstats.Stats(prof, stream=out).strip_dirs().sort_stats("tottime").print_stats(top)
            lines = [ln for ln in out.getvalue().splitlines() if ln.strip()]
            start = next((i for i, ln in enumerate(lines) if ln.lstrip().startswith("ncalls")), 0)
            print(f"  cProfile, {reps} {kind} calls, by own time:")
            for ln in lines[start:start + top + 1]:
                print("    " + ln[:150])
            gpu_timeline(calls[kind], f"graph {kind}")


def gpu_timeline(fn, label, top=8, gaps=6):
    """The GPU's side of one call of fn (torch.profiler, CUDA activity): the span from its first kernel or copy
    to its last, the time the GPU was busy, the kernels by total time, and the longest idle gaps with what
    came before and after each (host-bound calls show as gaps)."""
    from numba import cuda
    try:
        import torch
        from torch.profiler import ProfilerActivity, profile
        fn()
        cuda.synchronize()
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            fn()
            cuda.synchronize()
        ev = sorted(((e.time_range.start, e.time_range.end, e.name) for e in prof.events()
                     if e.device_type == torch.autograd.DeviceType.CUDA), key=lambda e: e[0])
    except Exception as e:  # noqa: BLE001 - a bench's optional breakdown: say why and go on
        print(f"  timeline of {label}: not available ({type(e).__name__}: {e})")
        return
    if not ev:
        print(f"  timeline of {label}: no GPU events recorded")
        return
    busy, end, holes = 0.0, ev[0][0], []
    for i, (s, e, n) in enumerate(ev):
        if s > end:
            holes.append((s - end, ev[i - 1][2], n))
        busy += max(0.0, e - max(s, end))
        end = max(end, e)
    span = end - ev[0][0]
    print(f"  timeline of one {label} call: {len(ev)} GPU events over {span / 1e3:.2f} ms, busy {busy / 1e3:.2f} ms")
    by = {}
    for s, e, n in ev:
        t, c = by.get(n, (0.0, 0))
        by[n] = (t + e - s, c + 1)
    for n, (t, c) in sorted(by.items(), key=lambda kv: -kv[1][0])[:top]:
        print(f"    {t / 1e3:8.3f} ms  {c:5d}x  {n[:90]}")
    for g, before, after in sorted(holes, reverse=True)[:gaps]:
        print(f"    idle {g:8.1f} us  after {before[:50]}  before {after[:50]}")


def run_persistent(args, p, dy, p64, dy64, check):
    """dev/lstm_persistent_cuda.py's rows (the variant the package does not ship) against the sequence kernels."""
    from numba import cuda
    failed = False
    fits_f, fits_b = persistent_fits(p), persistent_fits(p, backward=True)
    for what, ok in (("fwd", fits_f), ("bwd", fits_b)):
        if not ok:
            print(f"  persistent {what}: does not fit this shape on this device (dev/lstm_persistent_cuda.py fits): "
                  "its rows skipped")
    if fits_f:
        if persistent_fits(p64):
            good, _ = check("persistent fwd", path="seq", blas="off", persistent=True)
            failed |= not good
        diffs = forward_agreement(p)
        worst = max(diffs, key=diffs.get)
        print(f"  persistent fwd vs lstm_cuda fwd (float32): max abs difference {diffs[worst]:.1e} ({worst}); "
              + ", ".join(f"{k} {v:.1e}" for k, v in diffs.items()))
        ms = median_ms(lnrnn_step_fn(p, dy, path="seq", blas="off", persistent=True), cuda.synchronize, args.reps)
        print(f"  lnrnn CUDA LN-LSTM, persistent fwd {ms:9.2f} ms")
    if fits_b:
        diffs = backward_agreement(p, dy)
        worst = max(diffs, key=diffs.get)
        print(f"  persistent bwd vs lstm_cuda bwd (float32): max abs difference {diffs[worst]:.1e} (d{worst}); "
              + ", ".join(f"d{k} {v:.1e}" for k, v in diffs.items()))
    return failed


def persistent_blocks_rows(p, dy, counts, reps):
    """dev/lstm_persistent_cuda.py's forward and BPTT alone (CUDA events) on each number of blocks in counts, to
    find where its cost per step goes: with one block per SM (its default) a block owns one or a few hidden
    units, and every row's LayerNorm statistics are combined over all blocks' partials in a serial loop; fewer,
    wider blocks shorten those loops and stage more of Wh a block. Each row says the block's plan (units, rows
    staged, threads) and the forward's float32 y against the sequence kernels' (printed, not judged: the float64
    tests in tests/dev judge agreement); a count that does not fit is said and skipped."""
    from dev import lstm_persistent_cuda as lp
    from lnrnn.kernels.cuda.arrays_cuda import to_host

    T, B, _ = p["x"].shape
    H, dt = p["h0"].shape[1], p["x"].dtype
    y0 = to_host(lnrnn_forward_fn(p, path="seq", blas="off")()[0]).astype(np.float64)
    for nb in counts:
        fwd_plan, bwd_plan = lp.plan(B, H, dt, nb), lp.plan(B, H, dt, nb, backward=True)
        line = []
        if lp.fits(T, B, H, dt, nb):
            fwd = lnrnn_forward_fn(p, persistent=True, nblocks=nb)
            diff = float(np.max(np.abs(to_host(fwd()[0]) - y0)))
            f = median_event_ms(fwd, reps)
            line.append(f"forward {f:.2f} ms = {f / T * 1e3:.1f} us a step ({fwd_plan[1]} units a block, "
                        f"{fwd_plan[2]} rows staged, {fwd_plan[3]} threads; y vs sequence kernels {diff:.1e})")
        else:
            line.append("forward does not fit")
        if lp.fits(T, B, H, dt, nb, backward=True):
            b = median_event_ms(lnrnn_backward_fn(p, dy, persistent=True, nblocks=nb), reps)
            line.append(f"backward {b:.2f} ms = {b / T * 1e3:.1f} us a step ({bwd_plan[2]} rows staged, "
                        f"{bwd_plan[3]} threads)")
        else:
            line.append("backward does not fit")
        print(f"  persistent LN-LSTM on {nb} blocks: " + "; ".join(line))
        sys.stdout.flush()


if __name__ == "__main__":
    sys.exit(main())
