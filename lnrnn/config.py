"""One place for every tunable of lnrnn: numerics, compilation flags, threading.

Kernels import their decorator flags from here; nothing else hard-codes them.
"""
import os

# Layer/batch normalization epsilon, added to the (biased) variance inside the square root.
EPS = 1e-5
# BatchNorm running-average momentum: running = (1 - m) * running + m * batch_statistic.
BN_MOMENTUM = 0.1
# Initial BatchNorm gain for the recurrent-BN cells (Cooijmans et al. 2016, section 4).
BN_GAIN_INIT = 0.1
# Default std of the per-example initial-state noise of BN cells on tasks whose sequences all begin with
# the same inputs (Cooijmans et al. 2016, sec. 5.1, their --noise 0.1): see lnrnn.model.models.
BN_STATE_NOISE = 0.1
# MPI groups (lnrnn.training.distributed): a rank other than 0 that fails waits this many seconds before it
# reports and aborts the group, so that an error every rank meets is printed once, by rank 0.
MPI_FAIL_GRACE_S = 2.0
# ... and the rank that reports waits this long between printing its line and MPI Abort: Abort ends the
# launcher's output forwarding at once, and MPICH's mpiexec lost a line printed just before it
# (3 runs in 24 here: the user saw no error at all).
MPI_FLUSH_S = 0.5

# Numba compilation flags. fastmath is limited to flags that keep IEEE values (no nnan/ninf/afn):
# reassociation lets LLVM vectorise the LayerNorm sums and contraction use FMA; results move by a
# few ulp. No nsz (signed zeros ignored): where LLVM vectorises a loop that writes one array and reads
# another, it keeps the scalar loop too, for buffers that lie a few vectors apart, and with nsz the two
# could round differently (a - b - c as a - (b + c) in one of them), so the bits depended on where
# malloc put a kernel's buffers (an LN-RNN backward moved by an ulp between two calls in one process:
# tests/kernels/test_placement.py); without it, the LN-LSTM step's time against its GEMM floor was the
# same (bench/step.py, S1-S3). An edit here recompiles every kernel (compiling.kernel_stamp).
FASTMATH = {"reassoc", "contract"}
# cache=True writes compiled code next to the sources (or NUMBA_CACHE_DIR) so later runs skip the compile.
CACHE = os.environ.get("LNRNN_NO_CACHE", "") == ""

# BatchNorm over a whole sequence (batchnorm.bn_forward/bn_backward): prange over at most this many
# chunks of time steps (a constant, not the thread count, so the kernels stay cacheable).
BN_TIME_CHUNKS = 8
# The CPU CTC kernel (lnrnn/kernels/ctc.py): prange over at most this many fixed chunks of batch rows, each
# with its own scratch (a row's softmax and alpha, about 0.5 MB at T 300, C 80, labels of 60), run one row
# after another so the scratch stays in cache; a row's values do not depend on its chunk.
CTC_ROW_CHUNKS = 8
# BN cells split their time loop over threads (each its own batch rows, meeting at barriers within every
# step: lnrnn/kernels/bn_lstm.py, bn_rnn.py) from this many B*G elements of a step on (batch x gate width, G = 4H
# for the LSTM, H for the RNN); below, one thread. Measured on a 2-core x86-64 VM, T=28 float32 MKL,
# forward + backward: BN-LSTM B32 H64 (8192) 1.03x the serial time, B64 H64 0.96x, B64 H128 0.79x,
# B128 H256 0.69x; BN-RNN B64 H128 (8192) 0.83x, B128 H256 0.78x, below 4096 1.2x. At 16384 the BN-RNN
# ran S1 (B64 H128, 8192) and S3 (B32 H400, 12800) on one thread: S3 step 1.69x -> 1.29x its floor with
# two parts, S1 forward 66.6 -> 56 ms. (Measured with the earlier split by hidden units.)
BN_PAR_MIN_WORK = 8192
# Polls of a waiting part at a step barrier (kernels.cpu.threads.barrier) between sched_yield calls: spinning
# costs nothing while every part has a core (0.14 us per barrier on 2 cores); the yield gives the core
# back when a part was descheduled (more parts than cores, or a busy machine).
BARRIER_SPINS = 2000
# LSTM inputs at most this wide (pixel MNIST I=1, strokes I=3) skip the GEMMs x Wx, dL/dx and dWx over
# all T*B rows: each row's I*G products run inside the time loop instead, while the row is in cache, and
# the (T,B,G) gradient of x Wx is never stored (lnrnn/kernels/lstm.py).
FOLD_MAX_I = 4
# The LSTM backward never stores dL/d(h_{t-1} Wh) for the whole sequence: each thread gathers this many
# of its rows (with the matching h_{t-1}) and adds their share of dWh with one GEMM (lnrnn/kernels/lstm.py).
# Measured (A/B in one process, CPU time vs the floor): 256 rows cost S2 LN-LSTM 1.16 -> 1.22x and S3
# LSTM +2% (small GEMMs, and an H x G partial added per block); 4096 (S1: 128 steps per block, 8 MB per
# thread; S2: the whole sequence) kept S2 and S3 where they were and S1 at the same gain (1.31 -> 1.23x).
DWH_BLOCK_ROWS = 4096
# ... unless the partial of dWh (H,G) fits in this many bytes (one core's L2 cache: 1 MB on Zen 4, 2 MB on
# recent Xeons) and that of a wide input's dWx (I,G), whose x blocks never outgrow the dWh blocks, in a
# quarter of it: then each block is cut to a quarter of it (S1: 128 x 512 float32 is a 256 KB partial;
# blocks of 128 rows, 4 steps, 256 KB of gathered rows; S2: a 1 MB partial, blocks of 64 rows, two steps),
# so the gathered rows are still in L2 when their product reads them, where a 4096-row block (8 MB) went
# out to memory and came back. Measured on Zen 4 (2 cores, float32, lstm_backward alone, medians of 9-21
# in turns in one process): S1 LN-LSTM 0.91-0.93x the backward's time with blocks of 64 to 384 rows, the
# plain LSTM 0.91x; T500 B32 I63 H128 0.97-0.98x at 128 rows. Where the partials are larger it was no gain
# or a loss (S3 1.00-1.05x at 128-256 rows; the synthesis network's upper layers at B32 1.02-1.08x, a
# 2.5 MB partial read and written per block; T500 B32 I319 H160, whose dWx partial is 0.8 MB, 1.04-1.11x).
# With the blocks on rgemm's transposed product (lnrnn/kernels/lstm.py; its A rows read from one address,
# rgemm._tile_unit_add), medians of 21 in turns: S2 LN-LSTM 0.96x the backward's time with 1792-row
# blocks on MKL (a 1 MB partial), the plain LSTM 0.94x, T300 B32 I3 H256 (1 MB) 0.95x; at S3 (2.5 MB)
# blocks of one and two steps took 1.10x and 1.04x (medians of 11).
DWH_L2_BYTES = 1 << 20
# ... and, on a host whose measurement chose it (lnrnn/kernels/cpu/rec_choice.py, blas.DWH: rgemm per step and
# rgemm's transposed block product measured faster than the BLAS's GEMM on 4096-row blocks), partials of dWh
# up to this many bytes (S3 and the synthesis network: H 400, 2.5 MB in float32) too, in blocks of a quarter
# of it (S3: 160 rows of a 16-row chunk, 10 steps, 1 MB) on rgemm: each block reads and writes the partial
# once, but its rows are still in cache when the product reads them, and rgemm's product ran at about twice
# MKL's speed there. On the AMD EPYC Zen 5 host (2 cores): the S3 LN-LSTM training step 0.78-0.83x its time
# (bench/results/dwh-l2-zen5.txt); on Zen 4, blocks of one or two steps on rgemm had cost 1.04-1.10x. A wide
# input's dWx partial within the same bytes goes with them (the synthesis network's upper layers, I 463:
# 3 MB), its x blocks on rgemm too; the same rule cuts the RNN, BN and window cells' dWh after their time
# loops (blas.grad_blocks; bench/ab_weight_grad.py).
DWH_BIG_BYTES = 4 << 20
# ... and where a block's product is the BLAS's GEMM (not rgemm's transposed one), blocks of about this many rows
# where the L2 rule gives fewer: as many blocks as steps of this many rows would fill (rounded up), the steps
# spread evenly over them (S2, 32-row chunks, T 28: 4 blocks of 7 steps, 224 rows, not 8, 8, 8, 4). MKL's GEMM
# over 64 rows (S2's L2 blocks of two steps) runs well below its speed over hundreds. On an Intel Xeon
# (AVX-512, 2 cores, MKL per step; bench/ab_lstm.py, in turns in one process, medians of 21;
# bench/results/dwh-blas-rows-xeon.txt): the S2 backward 0.88x its time with LN (the step 0.92x), 0.91x
# without (0.95x); 8-step blocks took 0.94x with LN, 14-step ones 0.98x; S1 (128 -> 256 rows) 0.97-0.99x.
DWH_BLAS_MIN_ROWS = 256
# A wide input's dWx and dx likewise: each thread gathers this many rows of dL/d(x_t Wx) and x_t (never
# more than a dWh block) for one GEMM each (lnrnn/kernels/lstm.py), where it took two GEMMs per step.
# Measured (A/B of lstm_backward in one process, medians): 128 to 4096 rows all cut the backward of the
# synthesis network's upper layer (T500 B8 I463 H400, 4 rows per chunk) to 0.32-0.37x; the S2 LN-LSTM
# backward stays at 0.95-0.99x with 128 or 256 rows, 0.95-1.06x at 512, 1.01-1.14x at 1024-4096 (its
# G-wide block outgrows L2).
DWX_BLOCK_ROWS = 256
# Reproducibility: every CPU kernel splits a batch of B rows into fixed blocks (kernels.cpu.threads.batch_blocks:
# a power of two of them, at least this many rows a block), and threads take whole blocks. A block's rows,
# partial sums and BLAS shapes never depend on the thread count, and partials are added in block order:
# for a given seed, batch size and dtype, training gives the same bits on any number of threads. Smaller
# blocks let more threads share a small batch, at smaller per-step GEMMs (docs/performance.md).
BLOCK_ROWS = 32
# Per-chunk scratch and partial sums of the LSTM/RNN kernels keep this many elements (64 bytes or more, a
# cache line) between two chunks' parts: two chunk threads writing one line in turns (false sharing)
# made the S1 LSTM and RNN steps several % slower whenever both threads ran at once.
CHUNK_GAP = 16
# CUDA GEMM and column-reduction tile edge (blocks of TILE x TILE threads).
CUDA_TILE = 16

# glibc's malloc hands allocations above its mmap threshold (128 KiB to 32 MiB) fresh pages from the OS
# and returns them on free, so every training step page-faulted its ~0.5 GB of saved activations
# anew (S1 forward 304 -> 162 ms once reused). lnrnn raises the threshold and the trim threshold at
# import so freed buffers are reused, as framework caching allocators do; the process keeps its peak
# memory. Set LNRNN_KEEP_MALLOC=1 to leave malloc alone.
MALLOC_MMAP_THRESHOLD = 1 << 30
MALLOC_TRIM_THRESHOLD = 1 << 31

# Inference (evaluation) runs a batch through the stack in time chunks of at most
# max(1, INFER_CHUNK_ROWS // B) steps, the state carried from chunk to chunk (lnrnn.model.models): the
# plain and LN cells now run their infer kernels, which save nothing (y alone is a batch's size: 0.1 GB
# at B256 T784 H128), but the BN cells' and a masked LSTM's forward saves its BPTT activations, as
# every forward did when this was set: 1.6 GB written and thrown away for a whole
# B256 T784 LN-LSTM batch, and the first such batch of a process grew the heap by 0.8 GB of fresh
# pages (2.4 s of CPU instead of 0.4 on the 2-core machine: the first evaluation of every run). A
# chunk's activations fit in what a training step already holds. Measured (that evaluation, CPU
# seconds of 2 threads): 0.38-0.41 for 1024 to 16384 rows, 0.37-0.38 for one whole-sequence chunk.
INFER_CHUNK_ROWS = 8192

# CUDA launch geometry (the simulator runs one OS thread per CUDA thread: keep tests small).
THREADS_PER_BLOCK = 128
# Sequence kernels (lstm_cuda/rnn_cuda): one block per batch row runs the whole time loop, so a step
# costs no launch. Threads per block: the gate width G rounded up to a warp, at most this many.
CUDA_SEQ_MAX_THREADS = 512
# Use the sequence kernels when their shared memory fits (False: one launch pair per time step, the
# path BN cells and very wide layers take; tests run both).
CUDA_SEQUENCE_KERNELS = True
# Static shared memory a block may use (bytes): the limit of every CUDA GPU since compute 2.0.
CUDA_SHARED_BYTES = 48 * 1024
# Which library runs the CUDA twins' GEMMs on cuBLAS and captures their time loops as CUDA graphs
# (kernels/cuda/graphs_cuda.py): "auto" (torch, else cupy), "torch", "cupy", "off" (numba's own), "eager"
# (the simulator's stand-in). The environment variable LNRNN_CUDA_BLAS overrides it.
CUDA_BLAS = "auto"
# The LSTM and RNN twins' time loop (kernels/cuda/graphs_cuda.loop_path): "auto" (the captured graph where a
# library serves graphs, else the sequence kernels where they fit, else one launch pair a step), or "graph",
# "seq", "step".
CUDA_LOOP_PATH = "auto"
# "auto" takes the graph path from this many steps on. Measured on an H200 (bench/gpu_step.py, float32, LN-LSTM
# forward + backward, docs/performance.md): the graph path 27.8 / 8.6 / 19.5 ms at S1 (T784) / S2 (T28) / S3
# (T300) against the sequence kernels' 36.9 / 8.8 / 55.6; below ~two dozen steps its capture per new length
# and its fixed host work are not yet shown to pay.
CUDA_GRAPH_MIN_STEPS = 24
# At most this many captured time loops (one per shape and dtype) are kept; the oldest goes first.
CUDA_GRAPH_PLANS = 16
# A captured loop of S steps serves a call of T <= S <= T + T // CUDA_GRAPH_SLACK steps (its extra steps cost
# time, not exactness), and ragged lengths share bucketed loops (graphs_cuda.plan_for).
CUDA_GRAPH_SLACK = 16
# Where the CUDA twins' device arrays come from (arrays_cuda.empty; graphs_cuda.pool): "auto" (PyTorch's caching
# allocator when torch is the library above, else numba's), "off" (numba's: a cuMemAlloc for each array, and
# frees that wait for the device). The environment variable LNRNN_CUDA_POOL overrides it.
CUDA_POOL = "auto"

# error_model="numpy": float division by zero gives inf/nan as in NumPy instead of a Python exception;
# without it every division carries a branch that keeps LLVM from vectorising the loop (sigmoid: 2x).
JIT = dict(cache=CACHE, fastmath=FASTMATH, error_model="numpy")
# A cell's per-chunk time loop (run on threads by kernels.cpu.threads.run_chunks): releases the GIL.
ROWS = dict(JIT, nogil=True)
# PJIT's parallel: only explicit prange loops run in parallel; Numba's automatic parallelization of array
# expressions and allocations (np.zeros becomes a parallel loop of its own) adds compile time, not speed.
PARALLEL = dict(prange=True, numpy=False, comprehension=False, reduction=False, inplace_binop=False, setitem=False,
                stencil=False, fusion=False)
# Kernels that promise their spec's values to the bit (the compiled CTC beam search, lnrnn/model/beam.py: its
# log-add-exps are NumPy's step by step, so exact ties break as the spec's do): no fastmath, whose reassociation
# moved those sums by an ulp in a fifth of random cases.
EXACT_JIT = dict(JIT, fastmath=False)


def __getattr__(name):
    """PJIT (the prange kernels' flags: JIT's, parallel as PARALLEL says) and EXACT_PJIT (the same without
    fastmath), built on first use, their parallel option as Numba's own ParallelOptions, never a dict: Numba reads
    a dict of parallel options by popping each one out of it (numba/core/cpu_options.py), and reads a decorator's
    options more than once in every compilation, so a dict shared by the kernels held for no compilation: every
    kernel ran with Numba's defaults, every automatic parallelization on (tests/kernels/test_values439_config.py).
    Built on first use so that importing this module does not import Numba (lnrnn.reference reads it)."""
    if name not in ("PJIT", "EXACT_PJIT"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from numba.core.cpu_options import ParallelOptions
    pjit = dict(JIT, parallel=ParallelOptions(dict(PARALLEL)))
    globals().update(PJIT=pjit, EXACT_PJIT=dict(pjit, fastmath=False))
    return globals()[name]

# Training settings whose default depends on the task (a TrainConfig field left None takes these):
# Graves's 3 x 400 skip-connected stack for handwriting, with small evaluation batches (a 3 x 400 layer
# keeps ~10 MB of activations per 100-point sequence); the classification tasks' quick defaults otherwise.
TASK_DEFAULTS = {"strokes": dict(hidden=400, layers=3, skip=True, eval_batch_size=32),
                 None: dict(hidden=64, layers=1, skip=False, eval_batch_size=500)}



# Gaussians of the synthesis network's attention window (Graves 2013, sec. 5.1: K = 10), the default of
# --window on tasks whose lines carry text.
WINDOW_DEFAULT = 10
# The window layer's norm by the cell's (--window-norm left out): an LN-LSTM's window layer runs without
# a norm, the layers above with LN. Under LN on layer 1 the window never focuses (phi below 0.3) and the
# lines stop after a few letters; without it the window walks the text and the loss is LN's or better
# (docs/results.md, "The window under layer norm"). The other cells keep their own norm.
WINDOW_NORM_DEFAULT = {"ln": "none"}


def task_defaults(task):
    """The TASK_DEFAULTS row of a task name (every strokes-* task shares one)."""
    return TASK_DEFAULTS["strokes" if str(task).startswith("strokes") else None]

# Commands besides train (lnrnn sample, lnrnn predict).
# lnrnn sample draws at most this many points per sample unless --no-cap is given (a point costs one
# step of the model: 20,000 are minutes for a 3 x 400 LSTM on 2 cores).
SAMPLE_MAX_STEPS = 20_000
# lnrnn predict refuses values further outside the training data's [min, max] than this fraction of its
# width (raw 0..16 digits for a model trained on [0, 1]), unless --force is given.
PREDICT_RANGE_SLACK = 0.1
