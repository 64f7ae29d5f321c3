"""Two versions of lnrnn/kernels/lstm.py (or, with --cell rnn, of rnn.py) timed in turns in one process:
forward, backward and the whole step (lstm_forward + lstm_backward, float32, the batch's fixed row blocks
on the threads Numba has), with a check that both give the same bits. One process and alternating turns
put the host's load on both alike, where two processes in a row can differ by 5-10% on a shared VM.

    git show HEAD~1:lnrnn/kernels/lstm.py > lstm_old.py
    python bench/ab_lstm.py old=lstm_old.py new=lnrnn/kernels/lstm.py --shape S2 --reps 21
    python bench/ab_lstm.py old=lstm_old.py new=lnrnn/kernels/lstm.py --shape S3 --norm none
    python bench/ab_lstm.py old=lstm_old.py new=lnrnn/kernels/lstm.py --dims 500 32 463 400
    git show HEAD~1:lnrnn/kernels/rnn.py > rnn_old.py
    python bench/ab_lstm.py old=rnn_old.py new=lnrnn/kernels/rnn.py --cell rnn --shape S1 --norm ln

Each file is loaded as a module of its own (lnrnn.kernels.ab_<name>) beside the installed lnrnn, whose
other modules it imports: only the file's own code differs between the two. A benchmark: it prints
figures and asserts nothing about time.
"""
import argparse
import importlib.util
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import lnrnn  # noqa: E402  (sets single-threaded BLAS before NumPy loads)
import numpy as np  # noqa: E402

from bench.torch_ln_lstm import SHAPES  # noqa: E402
from lnrnn.kernels.cpu.threads import batch_blocks  # noqa: E402


def load(name, path):
    """lstm.py (or rnn.py) at path as the module lnrnn.kernels.ab_<name>; the installed module itself where
    path is its own file (loaded under a second name, its kernels would share the installed ones' cache
    files, and each name would compile them afresh for the other: lnrnn.compiling.drop_unreadable_index)."""
    for own in ("lstm", "rnn"):
        mod = importlib.import_module("lnrnn.kernels." + own)
        if os.path.realpath(path) == os.path.realpath(mod.__file__):
            return mod
    spec = importlib.util.spec_from_file_location("lnrnn.kernels.ab_" + name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


def problem(dims, cell="lstm", seed=0):
    """The arguments of lstm_forward (rnn_forward for cell rnn) without norm, eps and nchunks, and dy,
    float32, at dims (T, B, I, H)."""
    T, B, I, H = dims
    G = 4 * H if cell == "lstm" else H
    rng = np.random.default_rng(seed)
    f = np.float32
    x = rng.standard_normal((T, B, I)).astype(f)
    dy = (0.01 * rng.standard_normal((T, B, H))).astype(f)
    Wx = (rng.standard_normal((I, G)) / np.sqrt(I)).astype(f)
    Wh = (rng.standard_normal((H, G)) / np.sqrt(H)).astype(f)
    zG, oG = np.zeros(G, f), np.ones(G, f)
    if cell == "rnn":
        return (x, np.zeros((B, H), f), Wx, Wh, zG, oG), dy
    args = (x, np.zeros((B, H), f), np.zeros((B, H), f), Wx, Wh, zG, oG, zG, oG, zG, np.ones(H, f), np.zeros(H, f))
    return args, dy


def step(mod, args, dy, norm, nch):
    """(forward s, backward s, outputs) of one lstm_forward + lstm_backward of mod (rnn_* for rnn.py)."""
    if hasattr(mod, "rnn_forward"):
        x, h0, Wx, Wh, _, g = args
        t0 = time.perf_counter()
        y, _, saved = mod.rnn_forward(*args, norm, 1e-5, nch)
        t1 = time.perf_counter()
        grads = mod.rnn_backward(dy, saved, x, h0, Wx, Wh, g, norm, nch)
        t2 = time.perf_counter()
        return t1 - t0, t2 - t1, (y,) + tuple(grads)
    x, h0, c0, Wx, Wh, _, gx, _, gh, _, gc, _ = args
    t0 = time.perf_counter()
    y, _, _, saved = mod.lstm_forward(*args, norm, 1e-5, nch)
    t1 = time.perf_counter()
    grads = mod.lstm_backward(dy, saved, x, h0, c0, Wx, Wh, gx, gh, gc, norm, nch)
    t2 = time.perf_counter()
    return t1 - t0, t2 - t1, (y,) + tuple(grads)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+", metavar="NAME=PATH", help="two or more versions of lstm.py (rnn.py)")
    ap.add_argument("--cell", default="lstm", choices=["lstm", "rnn"], help="the files' cell: lstm.py or rnn.py")
    ap.add_argument("--shape", default="S2", choices=sorted(SHAPES))
    ap.add_argument("--dims", nargs=4, type=int, metavar=("T", "B", "I", "H"),
                    help="another shape instead of --shape (the synthesis network's upper layers: 500 32 463 400)")
    ap.add_argument("--norm", default="ln", choices=["ln", "none"])
    ap.add_argument("--reps", type=int, default=21)
    a = ap.parse_args(argv)
    pairs = [f.split("=", 1) for f in a.files]
    if any(len(p) != 2 for p in pairs) or len(pairs) < 2:
        ap.error("give two or more files as NAME=PATH")
    mods = [(name, load(name, path)) for name, path in pairs]
    dims = tuple(a.dims) if a.dims else SHAPES[a.shape][:4]
    if min(dims) < 1:
        ap.error("--dims: T, B, I and H must be positive")
    args, dy = problem(dims, a.cell)
    norm = 1 if a.norm == "ln" else 0
    nch = batch_blocks(args[0].shape[1])
    times = {name: [] for name, _ in mods}
    with lnrnn.kernel_threads():
        first = [step(mod, args, dy, norm, nch)[2] for _, mod in mods]  # compiles each
        for (name, _), out in zip(mods[1:], first[1:]):
            same = all(np.array_equal(u, v) for u, v in zip(out, first[0]))
            print(f"{name}: the same bits as {mods[0][0]}: {same}")
        for r in range(a.reps):
            for name, mod in (mods if r % 2 == 0 else mods[::-1]):
                times[name].append(step(mod, args, dy, norm, nch)[:2])
    T, B, I, H = dims
    kind = ("LN-" if norm else "") + a.cell.upper()
    print(f"{'' if a.dims else a.shape + ' '}T{T} B{B} I{I} H{H} {kind}, {nch} blocks, medians of {a.reps} (ms):")
    for name, v in times.items():
        fw, bw = [1e3 * f for f, _ in v], [1e3 * b for _, b in v]
        st = [f + b for f, b in zip(fw, bw)]
        print(f"  {name:10s} forward {statistics.median(fw):7.2f}  backward {statistics.median(bw):7.2f}  "
              f"step {statistics.median(st):7.2f} (fastest {min(st):7.2f})")


if __name__ == "__main__":
    main()
