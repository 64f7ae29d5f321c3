"""One training update of a bidirectional LSTM reader (the CTC head) on the device against the paths before it:
what `lnrnn train --device cuda --bidirectional --head ctc` runs per batch.

    python bench/blstm_ctc_update.py                     # LN-LSTM H128, B32, T300, 80 classes, labels of 40
    python bench/blstm_ctc_update.py --hidden 64 --steps 200 --reps 3 --cpu

Three ways to run one update (float32, ragged rows: lengths from T/2 to T, labels of up to L characters):
  device     SequenceModel.loss_and_grad_on_device (both directions reversed and joined on the device, the CTC
             loss, its gradient and the best-path edit distances there), clipping and RMSProp on the device,
             then the one copy of the (3,) metrics back: the trainer's update on the device
  host head  the same model on 'cuda' through loss_and_grad (each layer on the device, the reversal, the joins
             and the CTC head on the host), clipping and RMSProp on the host: the update before
  cpu        (--cpu) the same model on the CPU (loss_and_grad, host optimizer)
First, one update of each (compiling every kernel) checks that device and host head agree on the loss (to 1e-3
relative: float32) and the edit distances; then they run in turns, --reps times each; printed are the medians.
A benchmark, not a test: it prints figures and asserts nothing about time.
"""
import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import lnrnn  # noqa: E402,F401  (single-threaded BLAS before NumPy loads)
import numpy as np  # noqa: E402

from lnrnn.model.models import build_model  # noqa: E402
from lnrnn.training.optim import clip_grad_norm, make_optimizer  # noqa: E402


def problem(args, rng):
    T, B, C, L = args.steps, args.batch, args.classes, args.labels
    lengths = rng.integers(T // 2, T + 1, B)
    lengths[0] = T
    x = (0.5 * rng.standard_normal((T, B, 3))).astype(np.float32)
    labels = rng.integers(1, C, (B, L))
    ll = rng.integers(L // 2, L + 1, B)
    labels[np.arange(L)[None, :] >= ll[:, None]] = -1                  # padded at the end
    return x, labels, lengths


def model(args, device):
    cfg = dict(cell="lstm", norm=args.norm, input_size=3, hidden_size=args.hidden, num_layers=args.layers,
               dtype="float32", forget_bias=1.0, head={"kind": "ctc", "outputs": args.classes, "per_step": True},
               bidirectional=True)
    return build_model(cfg, seed=0, device=device, max_steps=args.steps)


def device_update(m, opt, metrics, batch, clip):
    from lnrnn.kernels import optim_cuda
    x, labels, lengths = batch
    p, g = m.device_buffers()
    m.loss_and_grad_on_device(x, labels, metrics[:2], lengths=lengths)
    optim_cuda.clip_grad_norm(g.data, clip, metrics[2:])
    opt.step(p.data, g.data)
    return metrics.copy_to_host()                                    # the update's one copy to the host


def host_update(m, opt, batch, clip):
    x, labels, lengths = batch
    m.loss_and_grad(x, labels, lengths)
    norm = clip_grad_norm(m.flat[1].data, clip)
    opt.step(m.flat[0].data, m.flat[1].data)
    return np.array([m.last_sums["loss"], m.last_sums["cer"], norm])


def timed(f):
    t0 = time.perf_counter()
    f()
    return time.perf_counter() - t0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--norm", default="ln", choices=["none", "ln", "bn"])
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--layers", type=int, default=1)
    ap.add_argument("--steps", type=int, default=300)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--classes", type=int, default=80)
    ap.add_argument("--labels", type=int, default=40)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--clip", type=float, default=1.0)
    ap.add_argument("--cpu", action="store_true", help="time the CPU's update too")
    args = ap.parse_args(argv)
    from lnrnn.kernels.cuda import arrays_cuda
    batch = problem(args, np.random.default_rng(0))
    dev, hh = model(args, "cuda"), model(args, "cuda")
    assert dev.device_refusal() is None
    opts = {k: make_optimizer("rmsprop-graves", 1e-4) for k in ("device", "host head", "cpu")}
    metrics = arrays_cuda.zeros((3,), np.float64)
    runs = {"device": lambda: device_update(dev, opts["device"], metrics, batch, args.clip),
            "host head": lambda: host_update(hh, opts["host head"], batch, args.clip)}
    if args.cpu:
        cpu = model(args, "cpu")
        runs["cpu"] = lambda: host_update(cpu, opts["cpu"], batch, args.clip)
    print(f"BLSTM-CTC update: {args.layers} x {args.hidden} {args.norm}-LSTM both ways, B{args.batch} T{args.steps} "
          f"C{args.classes} labels <= {args.labels}, float32")
    first = {}
    for name, f in runs.items():
        t0 = time.perf_counter()
        first[name] = f()
        print(f"  {name:9s} first update (compiling) {time.perf_counter() - t0:7.2f} s")
    a, b = first["device"], first["host head"]
    rel = abs(a[0] - b[0]) / max(abs(b[0]), 1e-30)
    print(f"  check: loss sums {a[0]:.6g} (device) / {b[0]:.6g} (host head), relative {rel:.1e} "
          f"({'ok' if rel < 1e-3 and np.isfinite(a).all() else 'DIFFERS'}); edit distances {a[1]:.0f} / {b[1]:.0f}")
    times = {name: [] for name in runs}
    for _ in range(args.reps):
        for name, f in runs.items():
            times[name].append(timed(f))
    med = {name: statistics.median(v) for name, v in times.items()}
    for name, v in med.items():
        print(f"  {name:9s} {1e3 * v:9.1f} ms per update (median of {args.reps})")
    print(f"  host head / device: {med['host head'] / med['device']:.2f}x")
    if "cpu" in med:
        print(f"  cpu / device: {med['cpu'] / med['device']:.2f}x")


if __name__ == "__main__":
    main()
