"""Evaluation pass of pixel MNIST: the inference forward (keep=False: lstm_infer/rnn_infer, nothing
saved) against the training forward it replaced (keep=True: saved (T,B,*) arrays filled and dropped),
in one process, in turns, so that both see the same machine.

    python bench/eval_pass.py                                   # LN-LSTM and LSTM, H128, 1024 images, B256
    python bench/eval_pass.py --cells ln-lstm --images 512 --repeats 5 --whole
    python bench/eval_pass.py --chunk-rows 1000000                # each batch one whole-sequence chunk

Each figure: wall and process-CPU seconds of ``model.evaluate`` over --images test images in batches
of --batch (time chunks of config.INFER_CHUNK_ROWS rows, as ``lnrnn eval`` and the trainer run it),
best of --repeats; then the peak of NumPy's traced memory (tracemalloc) for one batch, chunked and,
with --whole, as one whole-sequence forward (the stack directly, no chunks). The load average is
printed beside the figures: on a shared machine only the ratio of the two modes in one run counts.
"""
import argparse
import os
import time
import tracemalloc

import numpy as np

from lnrnn.model import models
from lnrnn.data.idx import load_mnist_split
from lnrnn.model.models import build_model, head_config

DATA = os.path.join(os.path.dirname(__file__), "..", "..", "shared", "data", "mnist")


def forced_keep(model, forced):
    """Make every stack forward of ``model`` use keep=forced (True: the behaviour before the infer path)."""
    stack = model.stack
    forward = type(stack).forward

    def run(x, state=None, training=True, on_device=False, lengths=None, t0=0, keep=True):
        return forward(stack, x, state, training, on_device, lengths, t0, keep=forced)
    stack.forward = run


def timed(fn):
    w, c = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - w, time.process_time() - c


def traced_peak(fn):
    tracemalloc.start()
    fn()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cells", nargs="+", default=["ln-lstm", "lstm"], help="cells to run")
    ap.add_argument("--hidden", type=int, default=128, help="H")
    ap.add_argument("--images", type=int, default=1024, help="test images evaluated per pass")
    ap.add_argument("--batch", type=int, default=256, help="B, sequences per evaluation batch")
    ap.add_argument("--repeats", type=int, default=3, help="passes per mode (best reported)")
    ap.add_argument("--whole", action="store_true", help="also the peak memory of one whole-sequence forward")
    ap.add_argument("--chunk-rows", type=int, default=None,
                    help="rows per inference time chunk (default config.INFER_CHUNK_ROWS)")
    ap.add_argument("--data-dir", default=DATA, help="directory of the MNIST t10k IDX files")
    args = ap.parse_args()
    if args.chunk_rows:
        models.INFER_CHUNK_ROWS = args.chunk_rows
    images, labels = load_mnist_split(args.data_dir, "t10k")
    n = args.images
    x = np.ascontiguousarray((images[:n].reshape(n, -1).T / 255.0).astype(np.float32)[:, :, None])  # (784,N,1)
    y = labels[:n].astype(np.int64)
    print(f"pixel MNIST eval: {n} images, B{args.batch}, H{args.hidden}, float32, chunks of "
          f"{models.infer_chunk_steps(args.batch, 784)} steps; load average {os.getloadavg()}")
    for name in args.cells:
        from lnrnn.model.cells import get
        spec = get(name)
        cfg = dict(cell=spec.cell, norm=spec.norm, input_size=1, hidden_size=args.hidden, num_layers=1,
                   dtype="float32", forget_bias=1.0, head=head_config("ce", 10))
        pair = {}
        for keep in (True, False):
            m = build_model(cfg, seed=0)
            forced_keep(m, keep)
            pair[keep] = m
        batches = lambda: models.batches_of(x, y, batch_size=args.batch)  # noqa: E731
        res = {}
        for keep in (True, False):  # compile and warm both
            res[keep] = [pair[keep].evaluate(batches())]
        for k in res[True][0]:  # the infer kernels' outputs are the forward's (bit for bit, by their contract)
            assert np.isclose(res[True][0][k], res[False][0][k], rtol=1e-5), (res[True][0], res[False][0])
        best = {True: (np.inf, np.inf), False: (np.inf, np.inf)}
        for _ in range(args.repeats):
            for keep in (True, False):
                w, c = timed(lambda: pair[keep].evaluate(batches()))
                best[keep] = (min(best[keep][0], w), min(best[keep][1], c))
        xb = np.ascontiguousarray(x[:, :args.batch])
        peaks = {k: traced_peak(lambda: pair[k].loss_sums(xb, y[:args.batch])) for k in (True, False)}
        line = (f"{name:8s} keep=True (before) wall {best[True][0]:.3f} s cpu {best[True][1]:.3f} s | "
                f"keep=False (infer) wall {best[False][0]:.3f} s cpu {best[False][1]:.3f} s | "
                f"ratio wall {best[False][0] / best[True][0]:.3f} cpu {best[False][1] / best[True][1]:.3f} | "
                f"peak traced MB per batch, chunked: {peaks[True] / 2**20:.1f} -> {peaks[False] / 2**20:.1f}")
        if args.whole:
            stack = pair[True].stack
            forward = type(stack).forward
            whole = {k: traced_peak(lambda: forward(stack, xb, training=False, keep=k)) for k in (True, False)}
            line += f"; whole sequence: {whole[True] / 2**20:.1f} -> {whole[False] / 2**20:.1f}"
        same = "equal" if res[True][0] == res[False][0] else "equal to rounding"
        print(line + f"  (metrics {same}: {res[True][0]}; load {os.getloadavg()[0]:.2f})", flush=True)


if __name__ == "__main__":
    main()
