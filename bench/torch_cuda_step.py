"""Time one training step of lnrnn.torch's modules on CUDA tensors against PyTorch's LSTMs on the same GPU.

    python bench/torch_cuda_step.py                       # S1 S2 S3, median of 5 after warm-up
    python bench/torch_cuda_step.py --shapes S2 --reps 20
    python bench/torch_cuda_step.py --device cpu --tiny   # smoke test of this script, no GPU

One step: forward, a loss sum(out * w) on the outputs (w fixed, random), backward, and an Adam step over
the module's parameters; float32, x (T,B,I) time-major, zero initial states.

Rows
    lnrnn.torch LN-LSTM     lnrnn.torch.LSTM(norm='ln'): lnrnn's CUDA twins behind torch.library ops
    lnrnn.torch LSTM        lnrnn.torch.LSTM(norm=None), the same path without layer normalization
    torch.nn.LSTM           cuDNN's fused LSTM, no layer norm: the speed a normalization-free cell gets
    PyTorch eager LN-LSTM   nn.Linear + nn.LayerNorm modules, a Python loop over T, autograd for BPTT
                            (``bench/torch_ln_lstm.py``), holding the lnrnn LN-LSTM's initial weights
Before timing, each shape's LN-LSTM is checked in float64 at a tiny size (T, B cut down; the shape's I
and H): lnrnn.torch's forward output and input gradient on the device equal the CPU module's, and its
output equals the eager LN-LSTM's. GPU times are CUDA events around the whole step on the current
stream (host waits inside the step included); on the CPU, wall clock. The script exits non-zero when
a check or a shape fails; it asserts nothing about time.
"""
import argparse
import copy
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.torch_ln_lstm import SHAPES, ln_lstm_cell  # noqa: E402

WARMUP = 2          # untimed steps first: Numba compiles the kernels, cuDNN and Adam set up their state
CHECK_TB = (6, 4)   # the float64 check's T and B (the shape's own I and H)
TOL64 = 1e-9        # float64: max |a - b| / max |b| accepted between the device and the CPU
BASELINE = "torch.nn.LSTM"


def tiny(T, B, I, H):
    """A shape cut down so that every row runs in a moment (--tiny)."""
    return min(T, 6), min(B, 3), min(I, 3), min(H, 5)


def lnrnn_module(torch, norm, I, H, dtype, dev, seed=0):
    import lnrnn.torch as lt
    torch.manual_seed(seed)
    return lt.LSTM(I, H, norm=norm, dtype=dtype).to(dev)


def ln_weights(m):
    """The lnrnn.torch LN-LSTM's layer 0 in lnrnn's layout {Wx, Wh, b, gx, bx, gh, bh, gc, bc} (NumPy)."""
    return {n: p.detach().cpu().numpy() for n, p in zip(m.spec.param_names, m.layer_params(0))}


def eager_forward(torch, cell, x):
    """The eager LN-LSTM cell over x (T,B,I) from zero states -> y (T,B,H)."""
    T, B, _ = x.shape
    H = cell.ln_c.normalized_shape[0]
    h = c = x.new_zeros((B, H))
    hs = []
    for t in range(T):
        h, c = cell(x[t], h, c)
        hs.append(h)
    return torch.stack(hs)


def rel(a, b):
    return float((a - b).abs().max() / b.abs().max().clamp_min(1e-300))


def check(torch, dev, I, H):
    """float64 at T, B = CHECK_TB: (relative difference device vs CPU of out and dx, eager vs lnrnn of out)."""
    T, B = CHECK_TB
    cpu = lnrnn_module(torch, "ln", I, H, torch.float64, "cpu")
    gpu = copy.deepcopy(cpu).to(dev)
    g = torch.Generator().manual_seed(1)
    x = torch.randn(T, B, I, dtype=torch.float64, generator=g)
    w = torch.randn(T, B, H, dtype=torch.float64, generator=g)
    got = []
    for m, d in ((cpu, "cpu"), (gpu, dev)):
        xs = x.detach().clone().to(d).requires_grad_()
        out, _ = m(xs)
        (out * w.to(d)).sum().backward()
        got.append((out.detach().cpu(), xs.grad.cpu()))
    cell = ln_lstm_cell(torch, ln_weights(cpu), "cpu")
    with torch.no_grad():
        eager = eager_forward(torch, cell, x)
    return rel(got[1][0], got[0][0]), rel(got[1][1], got[0][1]), rel(eager, got[0][0])


def module_step(torch, m, x, w):
    """One training step of a module returning (out, state): forward, loss, backward, Adam."""
    opt = torch.optim.Adam(m.parameters(), lr=1e-3)

    def step():
        opt.zero_grad(set_to_none=True)
        out, _ = m(x)
        (out * w).sum().backward()
        opt.step()
    return step


def eager_step(torch, cell, x, w):
    opt = torch.optim.Adam(cell.parameters(), lr=1e-3)

    def step():
        opt.zero_grad(set_to_none=True)
        (eager_forward(torch, cell, x) * w).sum().backward()
        opt.step()
    return step


def variants(torch, dev, T, B, I, H):
    """{row name: a () -> None training step} on float32 tensors of the shape, built lazily (one failing
    variant does not stop the others)."""
    g = torch.Generator().manual_seed(2)
    x = torch.randn(T, B, I, generator=g).to(dev)
    w = torch.randn(T, B, H, generator=g).to(dev)

    def lnrnn_ln():
        return module_step(torch, lnrnn_module(torch, "ln", I, H, torch.float32, dev), x, w)

    def lnrnn_plain():
        return module_step(torch, lnrnn_module(torch, None, I, H, torch.float32, dev), x, w)

    def cudnn():
        torch.manual_seed(0)
        return module_step(torch, torch.nn.LSTM(I, H).to(dev), x, w)

    def eager():
        p = ln_weights(lnrnn_module(torch, "ln", I, H, torch.float32, "cpu"))
        return eager_step(torch, ln_lstm_cell(torch, p, dev), x, w)

    return {"lnrnn.torch LN-LSTM": lnrnn_ln, "lnrnn.torch LSTM": lnrnn_plain, BASELINE: cudnn,
            "PyTorch eager LN-LSTM": eager}


def median_ms(torch, dev, step, reps):
    """Median milliseconds of ``reps`` steps after WARMUP untimed ones: CUDA events on the GPU, wall clock
    on the CPU."""
    for _ in range(WARMUP):
        step()
    times = []
    if dev == "cuda":
        torch.cuda.synchronize()
        for _ in range(reps):
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            step()
            end.record()
            end.synchronize()
            times.append(start.elapsed_time(end))
    else:
        for _ in range(reps):
            t0 = time.perf_counter()
            step()
            times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times)


def run_shape(torch, args, name, T, B, I, H):
    """The check and the timings of one shape -> ({row: ms}, whether the check failed)."""
    d_out, d_dx, d_eager = check(torch, args.device, I, H)
    bad = max(d_out, d_dx, d_eager) > TOL64 or d_out != d_out or d_dx != d_dx or d_eager != d_eager
    print(f"  check (float64, T={CHECK_TB[0]} B={CHECK_TB[1]} I={I} H={H}): {args.device} vs CPU out {d_out:.1e}, "
          f"dx {d_dx:.1e}; eager LN-LSTM vs lnrnn out {d_eager:.1e} {'FAILED' if bad else 'ok'}")
    rows = {}
    for row, build in variants(torch, args.device, T, B, I, H).items():
        try:
            rows[row] = median_ms(torch, args.device, build(), args.reps)
            print(f"  {row:<24} {rows[row]:10.2f} ms")
        except Exception as e:  # noqa: BLE001 - a failing row is reported, and the next one still runs
            print(f"  {row} FAILED: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}")
        sys.stdout.flush()
    return rows, bad


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shapes", nargs="+", default=list(SHAPES), choices=list(SHAPES), help="shapes to time")
    ap.add_argument("--reps", type=int, default=5, help="timed steps per row (median reported)")
    ap.add_argument("--device", default="cuda", choices=["cuda", "cpu"],
                    help="where the tensors live (cpu: the same code on CPU tensors, a smoke test)")
    ap.add_argument("--tiny", action="store_true", help="every shape cut to a tiny size: checks this script")
    args = ap.parse_args(argv)

    import torch
    if args.device == "cuda" and not torch.cuda.is_available():
        print(f"torch {torch.__version__} sees no CUDA device: run with --device cpu --tiny for a smoke test.",
              file=sys.stderr)
        return 2
    where = torch.cuda.get_device_name(0) if args.device == "cuda" else "CPU"
    print(f"torch {torch.__version__}, cuDNN {torch.backends.cudnn.version()}, {where}; float32, one training "
          f"step (forward, backward, Adam), median of {args.reps} after {WARMUP} warm-up steps")
    table, failed = {}, False
    for name in args.shapes:
        T, B, I, H, what = SHAPES[name]
        if args.tiny:
            T, B, I, H = tiny(T, B, I, H)
        print(f"\n{name} ({what}): T={T} B={B} I={I} H={H}")
        try:
            table[name], bad = run_shape(torch, args, name, T, B, I, H)
            failed |= bad
        except Exception as e:  # noqa: BLE001 - a failing shape is reported, and the next one still runs
            failed = True
            print(f"  {name} FAILED: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}")
        sys.stdout.flush()

    print(f"\n{'shape':<6} {'variant':<24} {'ms':>10} {'x ' + BASELINE:>18}")
    for name, rows in table.items():
        base = rows.get(BASELINE)
        for row, ms in rows.items():
            ratio = f"{ms / base:.2f}" if base else "-"
            print(f"{name:<6} {row:<24} {ms:10.2f} {ratio:>18}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
