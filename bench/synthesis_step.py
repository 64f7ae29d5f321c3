"""The cost of the synthesis network's attention window: one training step of Graves's synthesis model
(float32, the mixture density head included) against its GEMM floor, and the window's share of it.

    python bench/synthesis_step.py                       # 3 x 400 LN-LSTM, K=10, M=20, T=500, U=40, B=8 and 32
    python bench/synthesis_step.py --batch 8 --reps 5 --cell lstm --norm none

Timed in turns in one process (step, floor, window layer, plain layer, ...; medians), so that load on a
shared machine moves them alike:
  step          SequenceModel.loss_and_grad of the whole model (forward, head, backward) on one batch
  floor         only the matrix products of the three layers' BPTT steps (bench/step.py's gemm_floor,
                one per layer at its input width: I + C for layer 1, I + H + C above), through the same
                BLAS as lnrnn
  window layer  layer 1 and its window (the window op), forward + backward
  plain layer   the same cell without the window at the same input width I + C, run by the cell's own
                whole-sequence kernels (x Wx over all T*B rows at once)
The window's share of the step is (window layer - plain layer) / step: what running layer 1 as one
recurrence with its window costs beyond an ordinary first layer. The text: U characters of an
alphabet of C (codes drawn at random), every row the same length.

With --device cuda it times instead one training update (loss_and_grad, then an Adam step on the host
parameters) of the same model on the GPU (the window op's and the LSTM cells' CUDA twins, the MDN head
on the host: ``lnrnn.model.window.WindowStack``) and on the CPU, in turns, after checking that the first
update's losses agree (float32: to 1e-3 relative), and prints both times and their ratio:

    python bench/synthesis_step.py --device cuda --batch 32 --reps 3     # 3 x 400, K=10, B=32, T=500

A benchmark, not a test: it prints figures and asserts nothing.
"""
import argparse
import os
import platform
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import lnrnn  # noqa: E402,F401  (single-threaded BLAS before NumPy loads)
import numba  # noqa: E402
import numpy as np  # noqa: E402

from bench.step import gemm_floor, paired_times  # noqa: E402
from lnrnn.kernels.cpu.blas import BLAS, cpuinfo  # noqa: E402
from lnrnn.model.layers import RecurrentLayer  # noqa: E402
from lnrnn.model.models import build_model  # noqa: E402


def cpu_name():
    return cpuinfo("model name") or platform.processor() or "unknown CPU"


def problem(args, B, rng, device="cpu"):
    T, I, U, C, H, K = args.steps, 3, args.chars, args.alphabet, args.hidden, args.window
    cfg = dict(cell="lstm", norm=args.norm, input_size=I, hidden_size=H, num_layers=args.layers, dtype="float32",
               forget_bias=1.0, head={"kind": "mdn", "components": args.components, "per_step": True,
                                      "scale": [1.0, 1.0]}, window=K, alphabet_size=C)
    model = build_model(cfg, seed=0, max_steps=T, device=device)
    x = (0.5 * rng.standard_normal((T, B, I))).astype(np.float32)
    x[..., 2] = rng.random((T, B)) < 0.05
    y = (0.5 * rng.standard_normal((B, T, I))).astype(np.float32)
    y[..., 2] = rng.random((B, T)) < 0.05
    text = (rng.integers(1, C, (B, U)), np.full(B, U, np.int64))
    return model, x, y, text


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--norm", default="ln", choices=["none", "ln", "bn"])
    ap.add_argument("--hidden", type=int, default=400)
    ap.add_argument("--layers", type=int, default=3)
    ap.add_argument("--window", type=int, default=10)
    ap.add_argument("--components", type=int, default=20)
    ap.add_argument("--steps", type=int, default=500)
    ap.add_argument("--chars", type=int, default=40)
    ap.add_argument("--alphabet", type=int, default=60)
    ap.add_argument("--batch", type=int, nargs="+", default=[8, 32])
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--cpu-reps", type=int, default=1, help="--device cuda: timed CPU updates (seconds each)")
    ap.add_argument("--device", default="cpu", choices=["cpu", "cuda"],
                    help="cuda: one update on the GPU against the same update on the CPU (module docstring)")
    args = ap.parse_args(argv)
    rng = np.random.default_rng(0)
    nch = numba.get_num_threads()
    print(f"{cpu_name()}, {os.cpu_count()} logical CPUs, {nch} threads, BLAS {BLAS}; float32")
    if args.device == "cuda":
        return device_updates(args)
    print(f"synthesis model: {args.layers} x {args.hidden} {args.norm}-LSTM (norm '{args.norm}'), window K={args.window}, "
          f"{args.components}-component MDN head; T={args.steps} points, U={args.chars} characters of C={args.alphabet}")
    print(f"{'B':>4} {'step ms':>9} {'floor ms':>9} {'step/floor':>10} {'window layer':>13} {'plain layer':>12} "
          f"{'window share':>13}")
    for B in args.batch:
        model, x, y, text = problem(args, B, rng)
        stack = model.stack
        L1 = stack.layers[0]
        H, I, C = args.hidden, 3, args.alphabet
        T = args.steps
        plain = RecurrentLayer("lstm", args.norm, I + C, H, dtype=np.float32, seed=0, max_steps=T)
        x1 = np.concatenate([x, (0.1 * rng.standard_normal((T, B, C))).astype(np.float32)], axis=2)
        dy = (0.01 * rng.standard_normal((T, B, H))).astype(np.float32)
        dw = (0.01 * rng.standard_normal((T, B, C))).astype(np.float32)
        hs = rng.standard_normal((T, B, H)).astype(np.float32)
        dHW = rng.standard_normal((T, B, 4 * H)).astype(np.float32)
        xs = [x1] + [np.concatenate([x1[..., :I], hs, x1[..., I:]], axis=2)] * (args.layers - 1)
        Ws = [(layer.params["Wx"], layer.params["Wh"]) for layer in stack.layers]

        def step():
            model.loss_and_grad(x, y, text=text)

        def floor():
            for xk, (Wx, Wh) in zip(xs, Ws):
                gemm_floor(xk, Wx, Wh, hs, dHW, nch)

        def window_layer():
            L1.forward_text(x, text)
            L1.backward_text(dy, dw)

        def plain_layer():
            plain.forward(x1)
            plain.backward(dy)

        ts = paired_times([step, floor, window_layer, plain_layer], args.reps)
        s, f, wl, pl = (statistics.median(t) for t in ts)
        print(f"{B:>4} {s:>9.1f} {f:>9.1f} {s / f:>10.2f} {wl:>10.1f} ms {pl:>9.1f} ms {100 * (wl - pl) / s:>12.1f}%")


def device_updates(args):
    """--device cuda: one update (loss_and_grad and an Adam step) of the model on the GPU and on the CPU,
    timed in turns after a check that their first losses agree."""
    from lnrnn.backend import cuda_usable
    from lnrnn.training.optim import Adam

    ok, how = cuda_usable()
    if not ok:
        sys.exit(f"--device cuda: {how}")
    print(f"GPU: {how}")
    print(f"synthesis model: {args.layers} x {args.hidden} {args.norm}-LSTM, window K={args.window}, "
          f"{args.components}-component MDN head (on the host); T={args.steps} points, U={args.chars} characters "
          f"of C={args.alphabet}; one update = loss_and_grad + Adam")
    print(f"{'B':>4} {'cuda ms':>9} {'cpu ms':>9} {'cpu/cuda':>9} {'loss check':>11}")
    for B in args.batch:
        runs = []
        for device in ("cuda", "cpu"):
            model, x, y, text = problem(args, B, np.random.default_rng(B), device)
            runs.append((model, x, y, text, Adam(lr=1e-4)))
        first = [m.loss_and_grad(x, y, text=text)["loss"] for m, x, y, text, _ in runs]
        check = abs(first[0] - first[1]) / max(abs(first[1]), 1e-30)
        verdict = f"{check:.1e}" + ("" if check < 1e-3 else " DIFFERS")

        def update(run):
            model, x, y, text, opt = run
            model.loss_and_grad(x, y, text=text)
            opt.step(model.flat[0].data, model.flat[1].data)

        # the GPU's figure first and on its own line: a part stopped at its time limit (the CPU's update takes
        # seconds at B 32) still leaves it
        g = statistics.median(paired_times([lambda: update(runs[0])], args.reps)[0])
        print(f"  B {B}: the update on the GPU {g:.1f} ms (median of {args.reps}; first losses agree to {verdict})",
              flush=True)
        c = statistics.median(paired_times([lambda: update(runs[1])], max(1, args.cpu_reps))[0])
        print(f"{B:>4} {g:>9.1f} {c:>9.1f} {c / g:>9.2f} {verdict:>11}", flush=True)


if __name__ == "__main__":
    main()
