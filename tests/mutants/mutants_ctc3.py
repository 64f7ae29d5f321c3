"""Planted bugs in the CPU CTC kernel's gradient taken in the forward (lnrnn/kernels/ctc.py: the rows run in
chunks with shared scratch, the blanks' posteriors summed apart from the labels', the backward's scaling by
dloss) (format: tests/mutants/mutants.py).

    python tests/mutants/run.py --only 'ctc3-*'
"""

K = "lnrnn/kernels/ctc.py"
T = "tests/kernels/test_ctc.py"
KERNEL = f"{T}::test_kernel_equals_reference_and_torch"
ALONE = f"{T}::test_kernel_rows_in_a_batch_equal_each_row_alone"

MUTANTS = [
    dict(name="ctc3-blank-posteriors-dropped", file=K,
         old="    dt[CTC_BLANK] -= r * zb\n",
         new="",
         tests=[KERNEL],
         why="the blank's gradient is its softmax alone: the posteriors of the blank positions are never subtracted"),
    dict(name="ctc3-labels-scattered-from-the-wrong-parity", file=K,
         old="_grad_step(d[t, b], y[t], q[lo:], ext[lo:], 1 - lo % 2, hi - lo, z, zb)",
         new="_grad_step(d[t, b], y[t], q[lo:], ext[lo:], lo % 2, hi - lo, z, zb)",
         tests=[KERNEL],
         why="the label posteriors are taken from the blank positions of the band (its first position's parity)"),
    dict(name="ctc3-backward-ignores-dloss", file=K,
         old="                d[t, b, c] = g * grad[t, b, c]",
         new="                d[t, b, c] = grad[t, b, c]",
         tests=[KERNEL],
         why="the backward returns the forward's per-row gradient unscaled by dL/dloss"),
    dict(name="ctc3-backward-dloss-of-row-0", file=K,
         old="            g = dloss[b]\n",
         new="            g = dloss[0]\n",
         tests=[KERNEL],
         why="every row's gradient is scaled by the first row's dL/dloss"),
    dict(name="ctc3-chunks-skip-their-last-row", file=K,
         old="        for b in range(k * B // K, (k + 1) * B // K):",
         new="        for b in range(k * B // K, (k + 1) * B // K - 1):",
         tests=[KERNEL],
         why="a chunk of rows leaves its last row unscored (loss 0, logp and gradient unwritten)"),
    dict(name="ctc3-alpha-above-band-not-cleared", file=K,
         old="            for s in range(hi, min(hi + 2, Sb)):     # read by step t+1 (its band reaches two higher)\n"
             "                at[s + 2] = 0.0\n",
         new="",
         tests=[ALONE],
         why="the next step reads the two positions above alpha's band from the chunk's scratch, left there by the "
             "chunk's previous row"),
    dict(name="ctc3-beta-scratch-kept-from-the-previous-row", file=K,
         old="    for s in range(bt.shape[0]):\n        bt[s] = 0.0\n    lb, limit",
         new="    lb, limit",
         tests=[ALONE],
         why="beta's emission scratch below the band is what the chunk's previous row left there, not 0"),
    dict(name="ctc3-strided-logits-reach-the-loop", file=K,
         old="return _forward(*readonly(*(np.ascontiguousarray(a) for a in",
         new="return _forward(*readonly(*((a) for a in",
         tests=["tests/kernels/test_ctc.py::test_every_layout_and_flag_meets_one_compiled_loop"],
         why="a strided view of the logits compiles a loop of its own, whose softmax sums differ in the last bit "
             "on an AVX-512 host"),
]
