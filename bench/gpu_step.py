"""Time one LN-LSTM training step (forward + BPTT backward, float32) on a GPU: lnrnn's CUDA twins
against PyTorch on the same GPU.

    python bench/gpu_step.py                     # S1 S2 S3, median of 10 after warm-up
    python bench/gpu_step.py --shapes S2 --reps 20
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
def lnrnn_step_fn(p, dy, norm="ln", sequence=True, persistent=False, persistent_bwd=False):
    """One step of lnrnn's CUDA LSTM twin on device-resident arrays. sequence=False forces the
    per-step path (two launches per time step; config.CUDA_SEQUENCE_KERNELS); persistent: the LN
    forward on dev/lstm_persistent_cuda.py's recurrence (else lstm_cuda's); persistent_bwd: the same for
    the backward's time loop."""
    from dev import lstm_persistent_cuda
    from lnrnn import config
    from lnrnn.kernels import lstm_cuda
    from lnrnn.kernels.cuda.arrays_cuda import to_device

    d = {k: to_device(v) for k, v in p.items()}
    ddy = to_device(dy)
    args = [d[k] for k in FWD]
    bargs = (ddy, d["x"], d["h0"], d["c0"], d["Wx"], d["Wh"], d["gx"], d["gh"], d["gc"])
    code = lstm_cuda.NORM_LN if norm == "ln" else lstm_cuda.NORM_NONE

    def step():
        old, config.CUDA_SEQUENCE_KERNELS = config.CUDA_SEQUENCE_KERNELS, sequence
        try:
            if persistent:
                y, hT, cT, saved = lstm_persistent_cuda.lstm_forward(*args, 1e-5)
            else:
                y, hT, cT, saved = lstm_cuda.lstm_forward(*args, code, 1e-5)
            if persistent_bwd:
                grads = lstm_persistent_cuda.lstm_backward(bargs[0], saved, *bargs[1:])
            else:
                grads = lstm_cuda.lstm_backward(bargs[0], saved, *bargs[1:], code)
        finally:
            config.CUDA_SEQUENCE_KERNELS = old
        return y, grads

    return step


def lnrnn_forward_fn(p, persistent):
    """The LN forward alone on device-resident arrays, dev/lstm_persistent_cuda.py's (persistent) or
    lstm_cuda's; returns (y, saved) as device arrays."""
    from dev import lstm_persistent_cuda
    from lnrnn.kernels import lstm_cuda
    from lnrnn.kernels.cuda.arrays_cuda import to_device

    args = [to_device(p[k]) for k in FWD]

    def fwd():
        if persistent:
            y, _, _, saved = lstm_persistent_cuda.lstm_forward(*args, 1e-5)
        else:
            y, _, _, saved = lstm_cuda.lstm_forward(*args, lstm_cuda.NORM_LN, 1e-5)
        return y, saved

    return fwd


def lnrnn_backward_fn(p, dy, persistent):
    """The LN backward alone, on the saved tensors of one lstm_cuda forward: dev/lstm_persistent_cuda.py's
    BPTT (persistent) or lstm_cuda's; returns the gradients as device arrays."""
    from dev import lstm_persistent_cuda
    from lnrnn.kernels import lstm_cuda
    from lnrnn.kernels.cuda.arrays_cuda import to_device

    d = {k: to_device(v) for k, v in p.items()}
    ddy = to_device(dy)
    saved = lstm_cuda.lstm_forward(*[d[k] for k in FWD], lstm_cuda.NORM_LN, 1e-5)[3]
    args = (ddy, saved, d["x"], d["h0"], d["c0"], d["Wx"], d["Wh"], d["gx"], d["gh"], d["gc"])

    def bwd():
        if persistent:
            return lstm_persistent_cuda.lstm_backward(*args)
        return lstm_cuda.lstm_backward(*args, lstm_cuda.NORM_LN)

    return bwd


def persistent_fits(p, backward=False):
    from dev import lstm_persistent_cuda

    T, B, _ = p["x"].shape
    return lstm_persistent_cuda.fits(T, B, p["h0"].shape[1], p["x"].dtype, backward=backward)


def forward_agreement(p):
    """Max abs difference between the persistent forward's and lstm_cuda's forward's y and every saved
    tensor (float32, this shape): {name: diff}."""
    from lnrnn.kernels.cuda.arrays_cuda import to_host

    (y1, s1), (y0, s0) = to_host(lnrnn_forward_fn(p, True)()), to_host(lnrnn_forward_fn(p, False)())
    names = ("y", "gates", "c", "tc", "y(saved)", "xp", "hhat", "chat", "rstd")
    return {n: float(np.max(np.abs(a.astype(np.float64) - b), initial=0.0))
            for n, a, b in zip(names, (y1,) + tuple(s1), (y0,) + tuple(s0))}


def backward_agreement(p, dy):
    """Max abs difference between the persistent BPTT's and lstm_cuda's backward's gradients (float32,
    this shape, the same saved tensors): {name: diff}."""
    from lnrnn.kernels.cuda.arrays_cuda import to_host

    g1, g0 = to_host(lnrnn_backward_fn(p, dy, True)()), to_host(lnrnn_backward_fn(p, dy, False)())
    return {n: float(np.max(np.abs(a.astype(np.float64) - b), initial=0.0)) for n, a, b in zip(FWD, g1, g0)}


def median_event_ms(fn, reps, warmup=2):
    """Median over reps of fn's time between two CUDA events on the default stream (launches queued by
    fn included; host work that does not wait on the device is not)."""
    from numba import cuda

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


def run_shape(args, torch, tdev, T, B, I, H):
    """The checks and timings of one shape (main); True when a validation failed. lstm_cuda's own kernels
    and PyTorch first, the persistent forward and backward after: an error there cannot take the table with it."""
    from numba import cuda
    failed = False
    p, dy = problem(T, B, I, H)
    # the float64 check runs the first CHECK_T steps: beyond a few hundred, rounding differences of
    # 1e-16 grow by the dynamics alone (S1's 784 steps: 1e-5 between lnrnn's CPU twin and PyTorch)
    p64 = {k: v[:CHECK_T].astype(np.float64) if k == "x" else v.astype(np.float64) for k, v in p.items()}
    dy64 = dy[:CHECK_T].astype(np.float64)

    def check(label, pers, pers_bwd=False):
        errs, y64 = validate_against_cpu(p64, dy64, lnrnn_step_fn(p64, dy64, persistent=pers,
                                                                  persistent_bwd=pers_bwd))
        worst = max(errs, key=errs.get)
        good = errs[worst] < TOL64
        print(f"  check vs CPU twin (float64{label}): worst relative error {errs[worst]:.1e} ({worst}) "
              f"{'ok' if good else 'FAILED'}")
        return good, y64

    good, y64 = check("", False)
    failed |= not good
    rows = {"lnrnn CUDA LN-LSTM": (lnrnn_step_fn(p, dy, persistent=False), cuda.synchronize),
            "lnrnn CUDA LSTM (no LN)": (lnrnn_step_fn(p, dy, norm="none"), cuda.synchronize)}
    if args.per_step:
        rows["lnrnn LN-LSTM, per-step launches"] = (lnrnn_step_fn(p, dy, sequence=False, persistent=False),
                                                    cuda.synchronize)
    if torch is not None:
        e = rel(torch_eager(torch, p64, dy64, tdev)().detach().cpu().numpy(), y64)
        failed |= not e < TOL64
        print(f"  check vs PyTorch eager LN-LSTM (float64): output relative difference {e:.1e} "
              f"{'ok' if e < TOL64 else 'FAILED'}")
        eager = torch_eager(torch, p, dy, tdev)
        rows["PyTorch eager LN-LSTM"] = (eager, torch.cuda.synchronize)
        cudnn = torch_cudnn(torch, p, dy, tdev)
        cudnn()
        rows["torch.nn.LSTM (cuDNN, no LN)"] = (cudnn, torch.cuda.synchronize)
    res = {} if args.tiny else {k: median_ms(fn, sync, args.reps) for k, (fn, sync) in rows.items()}
    report_registers(H)

    def table():
        base = res["lnrnn CUDA LN-LSTM"]
        for k, ms in res.items():
            print(f"  {k:34s} {ms:9.2f} ms   {ms / base:5.2f}x lnrnn")
        sys.stdout.flush()

    fits_f, fits_b = persistent_fits(p), persistent_fits(p, backward=True)
    for what, ok in (("fwd", fits_f), ("bwd", fits_b)):
        if not ok:
            print(f"  persistent {what}: does not fit this shape on this device (dev/lstm_persistent_cuda.py fits): "
                  "its rows skipped")
    try:
        if fits_f:
            if persistent_fits(p64):
                good, _ = check(", persistent fwd", True)
                failed |= not good
            diffs = forward_agreement(p)
            worst = max(diffs, key=diffs.get)
            print(f"  persistent fwd vs lstm_cuda fwd (float32): max abs difference {diffs[worst]:.1e} ({worst}); "
                  + ", ".join(f"{k} {v:.1e}" for k, v in diffs.items()))
            if res:
                res["lnrnn CUDA LN-LSTM, persistent fwd"] = median_ms(lnrnn_step_fn(p, dy, persistent=True),
                                                                      cuda.synchronize, args.reps)
        if fits_b:
            if persistent_fits(p64, backward=True):
                good, _ = check(", persistent fwd+bwd" if fits_f else ", persistent bwd", fits_f, True)
                failed |= not good
            diffs = backward_agreement(p, dy)
            worst = max(diffs, key=diffs.get)
            print(f"  persistent bwd vs lstm_cuda bwd (float32): max abs difference {diffs[worst]:.1e} (d{worst}); "
                  + ", ".join(f"d{k} {v:.1e}" for k, v in diffs.items()))
            if res and fits_f:
                res["lnrnn CUDA LN-LSTM, persistent fwd+bwd"] = median_ms(
                    lnrnn_step_fn(p, dy, persistent=True, persistent_bwd=True), cuda.synchronize, args.reps)
    finally:
        if res:
            table()
    if res and fits_f:  # the forward alone, CUDA events, same process
        fwd = {"ln-lstm fwd": median_event_ms(lnrnn_forward_fn(p, False), args.reps),
               "ln-lstm persistent fwd": median_event_ms(lnrnn_forward_fn(p, True), args.reps)}
        for k, ms in fwd.items():
            print(f"  {k:34s} {ms:9.2f} ms   {ms / fwd['ln-lstm fwd']:5.2f}x ln-lstm fwd (CUDA events)")
    if res and fits_b:  # the backward alone, CUDA events, same process
        bwd = {"ln-lstm bwd": median_event_ms(lnrnn_backward_fn(p, dy, False), args.reps),
               "ln-lstm persistent bwd": median_event_ms(lnrnn_backward_fn(p, dy, True), args.reps)}
        for k, ms in bwd.items():
            print(f"  {k:34s} {ms:9.2f} ms   {ms / bwd['ln-lstm bwd']:5.2f}x ln-lstm bwd (CUDA events)")
    return failed


if __name__ == "__main__":
    sys.exit(main())
