"""One CPU training update of a bidirectional reader (a stack of bidirectional LSTM layers and a CTC head) next to
its GEMM floor, with the share of the CTC head (its loss, gradient and decoding) in the update.

    python bench/reader_step.py                          # 2 x 128 LN-LSTM both ways, B 8, T 300, 76 classes
    python bench/reader_step.py --norm none --batch 32 --reps 9
    NUMBA_NUM_THREADS=1 python bench/reader_step.py      # one thread: the shares a loaded machine moves least

What `lnrnn train --head ctc --bidirectional` runs per batch, on inputs of the reader's size (I = 3: dx, dy,
pen), ragged rows (every row's length between T/2 and T, the longest T) and labels of up to --labels classes
(1..C-1, padded with -1). Timed in turns in one process, medians of --reps, float32:
  update   model.loss_and_grad (forward, the CTC loss, its best-path edit distances, BPTT both ways, every
           layer) + gradient-norm clipping + an Adam step: the host update of the trainer
  floor    only the matrix products the update cannot avoid: for every layer and direction, the floor of
           bench/step.py (x Wx over all T*B rows, T recurrent products forward, T backward, dWx, dx, dWh;
           Wh packed once per batch chunk, the BLAS lnrnn uses), and the head's three (h W, dh = d W^T,
           dW = h^T d over the T*B rows)
  stack    the bidirectional stack alone, forward + backward (what the floor's layers bound)
  head     the CTC head alone: its linear map, ctc_forward, best path and edit distances, ctc_backward and
           the linear map's gradient
  ctc      ctc_forward + ctc_backward on the head's logits (the loss and its gradient, no decoding)
  decode   best path of the batch's log-probabilities (what the update's edit distances read)
Printed: each median (wall and process CPU time, all threads), update / floor, and the shares of the head,
the CTC loss and decoding in the update (by CPU time, which load moves less than wall time). The floor runs at
the rows the update's kernels run (every row T steps: the floor has no lengths), so a ragged batch's update
can come out near or under it. A benchmark, not a test: it prints figures and asserts nothing.
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

from bench.blstm_ctc_update import model, problem  # noqa: E402  (the same ragged batch and reader)
from bench.step import FLOOR, gemm_floor, paired_times  # noqa: E402
from lnrnn.kernels.cpu.blas import BLAS, cpuinfo  # noqa: E402
from lnrnn.kernels.cpu.gemm import matmul, matmul_tn  # noqa: E402
from lnrnn.kernels.ctc import ctc_backward, ctc_forward  # noqa: E402
from lnrnn.model.decode import best_path_array  # noqa: E402
from lnrnn.model.functional import running_mask  # noqa: E402
from lnrnn.training.optim import clip_grad_norm, make_optimizer  # noqa: E402


def floor_operands(args, rng):
    """Per layer and direction (x (T,B,I), Wx (I,4H), Wh (H,4H), hs (T,B,H), dHW (T,B,4H)) stand-ins of the
    stack's shapes, and the head's (h (T*B,2H), W (2H,C), d (T*B,C))."""
    T, B, H, C = args.steps, args.batch, args.hidden, args.classes
    f32 = np.float32
    layers = []
    for k in range(args.layers):
        I = 3 if k == 0 else 2 * H
        for _ in range(2):
            layers.append((rng.standard_normal((T, B, I)).astype(f32), rng.standard_normal((I, 4 * H)).astype(f32),
                           rng.standard_normal((H, 4 * H)).astype(f32), rng.standard_normal((T, B, H)).astype(f32),
                           rng.standard_normal((T, B, 4 * H)).astype(f32)))
    head = (rng.standard_normal((T * B, 2 * H)).astype(f32), rng.standard_normal((2 * H, C)).astype(f32),
            rng.standard_normal((T * B, C)).astype(f32))
    return layers, head


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--norm", default="ln", choices=["none", "ln", "bn"])
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--layers", type=int, default=2)
    ap.add_argument("--steps", type=int, default=300)
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--classes", type=int, default=76, help="the blank and 75 characters (the Hershey alphabet)")
    ap.add_argument("--labels", type=int, default=40)
    ap.add_argument("--reps", type=int, default=7)
    args = ap.parse_args(argv)
    rng = np.random.default_rng(0)
    x, labels, lengths = problem(args, rng)
    m = model(args, "cpu")
    opt = make_optimizer("adam", 1e-4)
    nch = numba.get_num_threads()
    layers, (hh, hw, hd) = floor_operands(args, rng)
    valid = running_mask(lengths, args.steps, bool)                            # (T,B)
    h = (0.5 * rng.standard_normal((args.steps, args.batch, 2 * args.hidden))).astype(np.float32)
    h[~valid] = 0.0
    il = lengths
    ll = np.count_nonzero(labels >= 0, axis=1).astype(np.int64)
    logits = np.ascontiguousarray(m.head.linear(h))                           # (T,B,C)
    g = np.ones(args.batch, np.float32)
    logp = ctc_forward(logits, labels, il, ll)[1][0]                           # (T,B,C) log-softmax

    def update():
        m.loss_and_grad(x, labels, lengths)
        clip_grad_norm(m.flat[1].data, 1.0)
        opt.step(m.flat[0].data, m.flat[1].data)

    def floor():
        for op in layers:
            gemm_floor(*op, nch)
        matmul(hh, hw, nch)
        matmul(hd, np.ascontiguousarray(hw.T), nch)
        matmul_tn(hh, hd, nch)

    def stack():
        m.stack.forward(x, lengths=lengths)
        m.stack.backward(np.zeros_like(h))

    def head():
        _, _, cache = m.head.forward(h, labels, valid)
        m.head.backward(cache, 1.0 / args.batch)

    def ctc():
        _, saved = ctc_forward(logits, labels, il, ll)
        ctc_backward(g, saved, labels, il, ll)

    def decode():
        best_path_array(logp, il)

    names = ["update", "floor", "stack", "head", "ctc", "decode"]
    cpu = []
    wall = paired_times([update, floor, stack, head, ctc, decode], args.reps, cpu)
    w = {n: statistics.median(t) for n, t in zip(names, wall)}
    c = {n: statistics.median(t) for n, t in zip(names, cpu)}
    print(f"{cpuinfo('model name') or platform.processor() or 'unknown CPU'}, {os.cpu_count()} logical CPUs, {nch} threads, {BLAS}; {platform.python_version()}; "
          f"load average {os.getloadavg()[0]:.1f}")
    print(f"BLSTM-CTC reader update: {args.layers} x {args.hidden} {args.norm}-LSTM both ways, I 3, B {args.batch}, "
          f"T {args.steps} (rows {lengths.min()}-{lengths.max()} steps), C {args.classes}, labels <= {args.labels}, "
          f"float32, medians of {args.reps}")
    for n in names:
        print(f"  {n:7s} {w[n]:9.1f} ms wall  {c[n]:9.1f} ms CPU")
    print(f"  update / {FLOOR}: {w['update'] / w['floor']:.2f}x wall, {c['update'] / c['floor']:.2f}x CPU")
    print(f"  stack / floor of its layers and head: {c['stack'] / c['floor']:.2f}x CPU")
    for n in ("head", "ctc", "decode"):
        print(f"  {n} share of the update (CPU): {100 * c[n] / c['update']:.1f}%   (wall: {100 * w[n] / w['update']:.1f}%)")
    print(f"  ctc + decode share of the update (CPU): {100 * (c['ctc'] + c['decode']) / c['update']:.1f}%")


if __name__ == "__main__":
    main()
