"""One training step in PyTorch on lnrnn's kernels, against PyTorch's own and against lnrnn's trainer step.

    python bench/frameworks.py                      # S1 S2 S3, float32, median of 5 after a warm-up
    python bench/frameworks.py --shapes S2 --reps 9
    python bench/frameworks.py --skip-eager         # leave out the (slow) eager LN-LSTM

A step is what a training loop runs per batch: a one-layer recurrent stack, a linear head on the last
step, softmax cross-entropy over 10 classes, the backward, an Adam update. Rows, all float32 on the CPU:

    lnrnn.torch LN-LSTM   lnrnn.torch.LSTM(norm="ln") + nn.Linear, torch.optim.Adam   (the binding)
    lnrnn trainer step    lnrnn's own model (SequenceModel: the same kernels) loss_and_grad + lnrnn's Adam
    torch.nn.LSTM         the same PyTorch model on nn.LSTM (no normalization; oneDNN/ATen's fused LSTM)
    eager LN-LSTM         the same on bench/torch_ln_lstm.py's nn.Module cell (Linear + LayerNorm, a
                          Python loop over T, autograd BPTT): how PyTorch users write an LN-LSTM today

The rows run in turns within one process (one step of each, then again), so load on a shared machine
shifts them alike; the table gives each row's median and its ratio to lnrnn's trainer step. The
binding's target: at most 1.05x the trainer step (what it adds: the custom ops' dispatch, the
transposed weight copies, torch's autograd and Adam over the same kernels).

A benchmark, not a test: it prints figures and asserts nothing about time.
"""
import argparse
import os
import platform
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import lnrnn  # noqa: E402
import numba  # noqa: E402
import numpy as np  # noqa: E402
import torch  # noqa: E402

import lnrnn.torch as lt  # noqa: E402
from bench.torch_ln_lstm import SHAPES, ln_lstm_cell  # noqa: E402
from lnrnn.model.models import build_model, head_config  # noqa: E402
from lnrnn.training.optim import Adam  # noqa: E402

CLASSES = 10


def cpu_model():
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, check=True).stdout
        for line in out.splitlines():
            if line.startswith("Model name:"):
                return line.split(":", 1)[1].strip()
    except (OSError, subprocess.CalledProcessError):
        pass
    return platform.processor() or "unknown CPU"


def torch_step(stack, head, x, labels):
    """A PyTorch training step of stack + head: forward, cross-entropy on the last step, backward, Adam."""
    params = list(stack.parameters()) + list(head.parameters())
    opt = torch.optim.Adam(params, lr=1e-3)

    def step():
        opt.zero_grad(set_to_none=True)
        out = stack(x)[0]
        loss = torch.nn.functional.cross_entropy(head(out[-1]), labels)
        loss.backward()
        opt.step()
        return loss.item()
    return step


def eager_ln_lstm_step(p, head, x, labels):
    cell = ln_lstm_cell(torch, p)
    opt = torch.optim.Adam(list(cell.parameters()) + list(head.parameters()), lr=1e-3)
    T, B, _ = x.shape
    H = p["Wh"].shape[0]

    def step():
        opt.zero_grad(set_to_none=True)
        h = c = torch.zeros(B, H)
        for t in range(T):
            h, c = cell(x[t], h, c)
        loss = torch.nn.functional.cross_entropy(head(h), labels)
        loss.backward()
        opt.step()
        return loss.item()
    return step


def lnrnn_step(model, x, labels):
    """lnrnn's trainer step: loss_and_grad over the flat gradient buffer, Adam over the flat parameters,
    inside kernel_threads as the trainer runs (gradient clipping left out: the PyTorch rows have none)."""
    opt = Adam(lr=1e-3)
    params, grads = model.flat[0].data, model.flat[1].data

    def step():
        with lnrnn.kernel_threads():
            loss = model.loss_and_grad(x, labels)["loss"]
            opt.step(params, grads)
        return loss
    return step


def build(shape, skip_eager):
    T, B, I, H, _ = SHAPES[shape]
    rng = np.random.default_rng(0)
    x = rng.standard_normal((T, B, I)).astype(np.float32)
    labels = rng.integers(0, CLASSES, B)
    model = build_model(dict(cell="lstm", norm="ln", input_size=I, hidden_size=H, num_layers=1, dtype="float32",
                             forget_bias=1.0, head=head_config("ce", CLASSES)))
    torch.manual_seed(0)
    xt, yt = torch.from_numpy(x), torch.from_numpy(labels)
    binding = lt.LSTM(I, H, norm="ln", dtype=torch.float32)
    binding.load_state_dict({k[len("rnn."):]: torch.from_numpy(v) for k, v in _exported(model).items()
                             if k.startswith("rnn.")})
    rows = {"lnrnn.torch LN-LSTM": torch_step(binding, torch.nn.Linear(H, CLASSES), xt, yt),
            "lnrnn trainer step": lnrnn_step(model, x, labels),
            "torch.nn.LSTM": torch_step(torch.nn.LSTM(I, H), torch.nn.Linear(H, CLASSES), xt, yt)}
    if not skip_eager:
        p = dict(model.stack.layers[0].params)
        rows["eager LN-LSTM"] = eager_ln_lstm_step({k: v.copy() for k, v in p.items()},
                                                   torch.nn.Linear(H, CLASSES), xt, yt)
    return rows


def _exported(model):
    from lnrnn.interop.export import exported_tensors
    return exported_tensors(model)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shapes", nargs="+", default=list(SHAPES), choices=list(SHAPES))
    ap.add_argument("--reps", type=int, default=5, help="timed turns per row (after one warm-up step each)")
    ap.add_argument("--skip-eager", action="store_true", help="leave out the eager LN-LSTM row")
    args = ap.parse_args()
    print(f"CPU: {cpu_model()} ({os.cpu_count()} logical CPUs); torch {torch.__version__} with "
          f"{torch.get_num_threads()} threads; numba {numba.__version__} with {numba.get_num_threads()} threads; "
          f"float32, one layer, median of {args.reps}")
    for shape in args.shapes:
        T, B, I, H, what = SHAPES[shape]
        rows = build(shape, args.skip_eager)
        for fn in rows.values():
            fn()                                                   # warm-up: compiles, allocates
        times = {name: [] for name in rows}
        for _ in range(args.reps):
            for name, fn in rows.items():
                t0 = time.perf_counter()
                fn()
                times[name].append(1e3 * (time.perf_counter() - t0))
        base = statistics.median(times["lnrnn trainer step"])
        print(f"\n{shape} (T{T} B{B} I{I} H{H}, {what})")
        print(f"  {'row':<22} {'median ms':>10} {'min ms':>9} {'vs trainer':>11}")
        for name, ts in times.items():
            med = statistics.median(ts)
            print(f"  {name:<22} {med:>10.1f} {min(ts):>9.1f} {med / base:>10.2f}x")


if __name__ == "__main__":
    main()
