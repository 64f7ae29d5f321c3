"""Data-parallel training across processes and machines on MPI (mpi4py; the ``mpi`` extra).

    mpiexec -n 4 lnrnn train --cell bn-lstm --batch-size 64 ...     (srun -n 4 ... on a Slurm cluster)

Design. MPI is the engine HPC clusters already run, so lnrnn adds no communication layer of its
own: a ``Group`` wraps ``MPI.COMM_WORLD`` (or stands alone, size 1, when no launcher started us) and
offers the three things training needs, each a collective every rank calls in the same order:
    allreduce(buf)   sum a 1-D float buffer in place over the ranks (one MPI Allreduce)
    bcast(obj)       rank 0's object on every rank
    fail(exc)        bring the whole group down with one line (below)
Each global batch of B sequences (the one a single process would draw: the same permutation, seeded
by --seed, on every rank) is split into contiguous row shards, rank r taking rows [lo_r, hi_r) with
sizes differing by at most one (``shard``); every rank sees different rows, and over an epoch every
sample exactly once. Each rank runs forward and backward on its shard, normalizing by the scored units
of the whole global batch (``SequenceModel.loss_and_grad(total=...)``), so that the ranks' gradients
*sum* to the single-process one; a shard of unequal size is thereby weighted by its rows (or, for the
handwriting task's variable-length sequences, by its scored steps). One Allreduce per update then sums
the flat gradient buffer, and a second one of a few float64 numbers the batch's metric sums and the stop
votes (below; in the gradient's dtype a float32 run's sums lost digits); every rank
steps the optimizer on the same numbers and stays identical. BatchNorm cells reduce their per-step
batch statistics and backward sums across the ranks (``kernels.bn_sync``), so their statistics are
the global batch's: single-process semantics. LayerNorm needs nothing. Initial-state noise is drawn for
the global batch and each rank takes its rows. A rank whose shard is empty (a last batch of an epoch
with fewer sequences than ranks) runs one sequence of length 0: it scores nothing and adds zero to
every sum, but takes part in every collective.

The same bits on any number of ranks (--reproducible). The update above equals one
process only up to summation order: each rank adds its own shard's partials, and an Allreduce adds the
ranks' sums in an order of its own, so a run on 2 ranks parts from the same run on 1 (the LN cells
amplify 1e-16 into O(1) within a few dozen updates). With --reproducible the unit of work is a
fixed row block of the batch instead (``data_blocks``: two of the kernels' blocks, by B and --block-rows
alone): ranks own whole blocks (``rank_blocks``), every block runs as its own forward and backward (its rows,
lengths, initial states and text; normalized by the whole batch's scored units), and each block's flat
gradient and metric sums are gathered to every rank (``Group.allgather_rows``, an Allgatherv: it moves
numbers without adding them) and added in block order (``loss_and_grad_blocks``). One process runs the
same blocks and adds them alike, so 1, 2 or N ranks (and any thread count) give the same bits.

BN cells under --reproducible. Their per-step statistics span the whole batch, so a block cannot run
alone: every block runs on a model of its own (``block_models``: the same parameters and BN statistics,
its own gradients and activations) as a coroutine of its own (a greenlet), through ``kernels.bn_sync``
(the cells whose time loop calls ``reduce(buf)`` for each step's sums). ``BlockRing`` runs a rank's
blocks one after the other: a block that reaches a reduction leaves its buffer and yields to the next;
after the rank's last block the ring gathers every rank's block buffers (Allgatherv), adds them in block
order and hands the sums back, block 0 first. So every statistic is added over the same blocks in the
same order whatever the number of ranks, and each block's gradient is added as above. Everything runs
on the calling thread (greenlets switch stacks, not threads), so the kernels keep every core as in any
update. The cost is bn_sync's Python loop over the steps and a switch per block at every reduction
(docs/performance.md).

Evaluation: the evaluation batches are dealt round robin over the ranks (batch i to rank i mod N,
with the same state-noise key i as in one process); each batch's sums and count take a row of their own,
nonzero on one rank only, so the Allreduce that collects them adds only zeros (exact), and the rows are
then added in batch order as one process adds them: the same figures to the bit, N times faster.

Writes: rank 0 alone locks the run folder and writes logs, pictures and checkpoints; the other ranks
read the checkpoint on --resume (the run folder must be on a file system every rank sees, as a
cluster's home or scratch is). A checkpoint records the number of ranks. Resuming with another number
of ranks is allowed and says so: the global batch is the same and only its split changes, so the run
continues the same updates up to floating-point summation order (with --reproducible: to the bit).

Stopping together: a signal (Ctrl-C, SIGTERM from Slurm) or --time-budget may come to one rank only.
Every update's Allreduce carries each rank's vote to stop, so all ranks stop after the same update
(rank 0 saves the checkpoint).

Faults: an error on one rank while the others wait inside a collective would hang the job until the
scheduler's time limit. ``failing_together`` catches any error of a rank of a group, prints one line
and calls MPI Abort, which ends every rank at once with the error's exit code. An error that every
rank meets alike (a bad option, a diverged loss: they follow from the same numbers) should be printed
once: rank 0 reports at once, the others wait ``config.MPI_FAIL_GRACE_S`` first, so that rank 0's
Abort usually ends them before they print. The reporting rank waits ``config.MPI_FLUSH_S`` between its
line and Abort: Abort stops the launcher's forwarding of output, and a line printed just before it
could be lost. A rank that dies outright (killed, out of memory) is the launcher's to detect:
mpiexec and srun end the others.
"""
import contextlib
import os
import sys
import time
import traceback

import numpy as np

from lnrnn.config import BLOCK_ROWS, MPI_FAIL_GRACE_S, MPI_FLUSH_S
from lnrnn.errors import UserError
from lnrnn.kernels.cpu.threads import batch_blocks, block_rows, chunk_bounds

# Environment variables by which MPI launchers announce the size of the job: Open MPI's mpirun,
# MPICH/Intel MPI's Hydra (PMI), PMIx launchers, and Slurm's srun (for the step it launched).
SIZE_VARS = ("OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "SLURM_STEP_NUM_TASKS")
RANK_VARS = ("OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID")
INSTALL_HINT = "pip install 'lnrnn[mpi]'"


def launched_size():
    """How many processes an MPI launcher says it started (1 when none did)."""
    for v in SIZE_VARS:
        s = os.environ.get(v, "")
        if s.isdigit() and int(s) > 1:
            return int(s)
    return 1


def launched_rank():
    """This process's rank as the launcher announced it (0 when none did)."""
    for v in RANK_VARS:
        s = os.environ.get(v, "")
        if s.isdigit():
            return int(s)
    return 0


def shard(B, size, rank):
    """[lo, hi): rank's rows of a global batch of B (sizes differ by at most one; the first B % size
    ranks hold the larger shards)."""
    base, extra = divmod(B, size)
    lo = rank * base + min(rank, extra)
    return lo, lo + base + (rank < extra)


class Group:
    """The processes of one data-parallel run (see the module docstring); size 1 without MPI."""

    def __init__(self, comm=None):
        self.comm = comm
        self.rank = 0 if comm is None else comm.Get_rank()
        self.size = 1 if comm is None else comm.Get_size()

    @property
    def root(self):
        return self.rank == 0

    def allreduce(self, buf):
        """Sum the 1-D array buf over the ranks, in place (the identity in one process)."""
        if self.comm is not None:
            from mpi4py import MPI
            self.comm.Allreduce(MPI.IN_PLACE, buf, op=MPI.SUM)

    def allgather_rows(self, rows, counts):
        """Every rank's rows stacked in rank order: rows (n_r, W) of this rank, counts[r] = n_r of every
        rank -> (sum(counts), W). A gather moves the numbers unchanged, so the result is the same bits on
        every rank and for any number of ranks (an Allreduce promises no order of its additions)."""
        if self.comm is None:
            return rows
        out = np.empty((int(sum(counts)),) + rows.shape[1:], rows.dtype)
        width = int(np.prod(rows.shape[1:], dtype=np.int64))
        self.comm.Allgatherv(np.ascontiguousarray(rows), [out, [int(c) * width for c in counts]])
        return out

    def bcast(self, obj):
        return obj if self.comm is None else self.comm.bcast(obj, root=0)

    def describe(self):
        return f"rank {self.rank} of {self.size}"

    def fail(self, exc):
        """Report exc in one line and end every rank of the group with its exit code (MPI Abort)."""
        if isinstance(exc, UserError):
            line, code = f"Error: {exc}", exc.exit_code
        elif isinstance(exc, KeyboardInterrupt):
            line, code = "Error: interrupted.", 130
        elif isinstance(exc, SystemExit):
            line, code = None, exc.code if isinstance(exc.code, int) else 1
        else:  # a bug in lnrnn: keep its traceback
            line, code = "".join(traceback.format_exception(exc)).rstrip(), 1
        if not self.root:
            time.sleep(MPI_FAIL_GRACE_S)  # an error every rank meets is rank 0's to print
            if line is not None and isinstance(exc, UserError):
                line = f"Error ({self.describe()}): {exc}"
        if line is not None:
            print(line, file=sys.stderr, flush=True)
        sys.stdout.flush()
        time.sleep(MPI_FLUSH_S)  # let the launcher forward the line: Abort stops its forwarding mid-way
        self.comm.Abort(code)


SINGLE = Group()


def init():
    """The group this process belongs to: ``SINGLE`` unless an MPI launcher started several processes.
    UserError (one line) when one did but mpi4py is missing, or when MPI sees another number of
    processes than the launcher started (an mpiexec of another MPI than mpi4py's, or srun without
    its --mpi plugin)."""
    size = launched_size()
    if size == 1:
        return SINGLE
    try:
        from mpi4py import MPI
    except ImportError:
        raise UserError(f"lnrnn was started as {size} processes by an MPI launcher, but mpi4py is not installed; "
                        f"install it with {INSTALL_HINT} (or run one process, without the launcher).") from None
    comm = MPI.COMM_WORLD
    if comm.Get_size() != size:
        raise UserError(f"the launcher started {size} processes but MPI sees {comm.Get_size()}: use the mpiexec "
                        f"of the MPI that mpi4py was built with (the one {INSTALL_HINT} puts beside python), or "
                        "srun --mpi=pmi2 (or pmix) on Slurm.")
    return Group(comm) if comm.Get_size() > 1 else SINGLE


@contextlib.contextmanager
def failing_together(group):
    """Around a rank's whole run: any error on a rank of a group ends the group (``Group.fail``);
    in one process, errors pass unchanged."""
    if group.size == 1:
        yield
        return
    try:
        yield
    except BaseException as e:  # noqa: B036 (Ctrl-C and SystemExit must end the group too)
        group.fail(e)


# ---- one update and one evaluation, split over the group ----

def shard_batch(group, model, x, targets, lengths, noise_key, text=None):
    """This rank's part of a global batch -> (x, targets, lengths, state, total): rows [lo, hi) of x
    (T,B,I), targets and lengths; the matching rows of the global batch's initial-state noise; total =
    the global batch's scored units (the loss's normalizer). An empty shard is one sequence of length 0."""
    T, B = x.shape[0], x.shape[1]
    total = model.scored_count(targets, lengths, T, B)
    state = model.noise_state(B, (1, int(noise_key))) if model.state_noise else None
    lo, hi = shard(B, group.size, group.rank)
    rows = slice(lo, hi) if hi > lo else slice(0, 1)
    xs = np.ascontiguousarray(x[:, rows])
    ts = targets[rows]
    if hi > lo:
        ls = None if lengths is None else np.asarray(lengths)[rows]
    else:
        ls = np.zeros(1, np.int64)
    if state is not None:
        state = [tuple(np.ascontiguousarray(s[rows]) for s in layer) for layer in state]
    if text is not None:  # the rows' texts (a conditioned model)
        text = (np.ascontiguousarray(text[0][rows]), np.asarray(text[1])[rows] if hi > lo else np.zeros(1, np.int64))
    return xs, ts, ls, state, total, text


def loss_and_grad(group, model, x, targets, lengths, tbptt, noise_key, votes, text=None):
    """One update's forward and backward of a global batch over the group; afterwards every rank holds
    the global gradient in ``model.flat[1]``, ``model.last_sums``/``last_count`` are the global batch's,
    and the result is {metric: mean} of the global batch. votes (k,) float: this rank's stop votes,
    summed over the group in place. Two Allreduces: the flat gradient in its own dtype, and the metric
    sums with the votes in float64, as one process keeps its sums (in a float32 gradient's message a
    float32 run's loss and accuracy sums lost digits: 16.055038 for 16.0550389)."""
    xs, ts, ls, state, total, tx = shard_batch(group, model, x, targets, lengths, noise_key, text)
    model.loss_and_grad(xs, ts, ls, tbptt=tbptt, state=state, total=total, text=tx)
    group.allreduce(model.flat[1].data)   # (P,) the flat gradient, in place
    keys = list(model.last_sums)
    K = len(keys)
    buf = np.empty(K + len(votes), np.float64)   # (K + votes,): the metric sums, then the stop votes
    buf[:K] = [model.last_sums[k] for k in keys]
    buf[K:] = votes
    group.allreduce(buf)
    votes[...] = buf[K:]
    model.last_sums = {k: float(v) for k, v in zip(keys, buf[:K])}
    model.last_count = total
    return model.head.mean(model.last_sums, total)


def data_blocks(B):
    """How many blocks --reproducible splits a global batch of B rows into (rows chunk_bounds(B, n, k)):
    half as many as the kernels' fixed blocks (``kernels.cpu.threads.batch_blocks``), at least one; by B and
    the run's --block-rows alone. Half, because a block's own call splits its rows again into the
    kernels' blocks (at least two): its products then keep the kernels' block size, and one process
    runs about the products it runs without --reproducible."""
    return max(1, batch_blocks(B) // 2)


def rank_blocks(group, B):
    """The global batch's blocks (``data_blocks``) and this rank's share of them -> (nb, k0, k1, counts):
    rank r runs blocks [k0, k1) (``shard`` over blocks), counts[r] = how many blocks each rank runs."""
    nb = data_blocks(B)
    bounds = [shard(nb, group.size, r) for r in range(group.size)]
    return (nb,) + bounds[group.rank] + ([hi - lo for lo, hi in bounds],)


def block_models(model, n):
    """n models that each run one block of a BN model's batch under --reproducible (the module docstring):
    the same config, gate clip and output clip as ``model``, their own gradients, activations and BN
    statistics; built once and kept on ``model``. Their parameters and BN statistics are copied from
    ``model`` before every update (``loss_and_grad_blocks``)."""
    from lnrnn.model.models import build_model
    made = model.__dict__.setdefault("_block_models", [])
    while len(made) < n:
        twin = build_model(model.config, device="cpu", clip_gates=model.stack.layers[0].clip_gates)
        if hasattr(model.head, "clip_output"):
            twin.head.clip_output = model.head.clip_output
        made.append(twin)
    return made[:n]


class BlockRing:
    """A rank's blocks of one BN update, each a greenlet, run one at a time (the module docstring).
    ``run(work)`` calls work(j, reduce_j) for j in range(n) = this rank's blocks; reduce_j(buf) is the
    cells' reduction: it returns with buf = the sum over every block of the group of that call's buffer,
    added in block order. Every block must reach the same reductions in the same order (they run the same
    model on the same steps); one that does not is an error, not a hang. counts[r]: the blocks of rank r;
    a rank that owns none runs one stand-in (n = 1) that takes part in every gather and adds nothing."""

    def __init__(self, group, counts):
        self.group, self.counts = group, counts
        self.own = counts[group.rank]
        self.n = max(self.own, 1)
        self.slots = [None] * self.n   # each block's buffer of the current reduction
        self.calls = [0] * self.n      # reductions each block has reached
        self.result = None             # the current reduction's sums, (L,)
        self.main = None

    def reducer(self, j):
        def reduce(buf):
            self.slots[j] = buf
            self.calls[j] += 1
            self.main.switch()   # back to run(): the next block, or the sums
            buf[...] = self.result
        return reduce

    def _combine(self):
        """The current reduction's sums: this rank's block buffers and every other rank's, in block order."""
        mine = np.stack(self.slots)[:self.own]                                # (own blocks, L)
        rows = self.group.allgather_rows(mine, self.counts)                   # (nb, L) in block order
        out = rows[0].copy()
        for k in range(1, rows.shape[0]):
            out += rows[k]
        return out

    def run(self, work):
        from greenlet import greenlet, getcurrent
        self.main = getcurrent()
        blocks = [greenlet(lambda j=j: work(j, self.reducer(j))) for j in range(self.n)]
        while True:
            for g in blocks:
                g.switch()   # runs block j to its next reduction or to its end; its error comes out here
            done = [g.dead for g in blocks]
            if all(done):
                return
            if any(done) or len(set(self.calls)) != 1:
                raise RuntimeError("the blocks of a BatchNorm update reached their statistics' reductions a "
                                   f"different number of times ({self.calls}, finished {done})")
            self.result = self._combine()


def loss_and_grad_blocks(group, model, x, targets, lengths, tbptt, noise_key, votes, text=None):
    """``loss_and_grad`` made independent of the number of ranks (--reproducible; the module docstring):
    every fixed block of the global batch runs as its own forward and backward (a rank runs its own
    blocks), and the blocks' flat gradients and metric sums, gathered to every rank, are added in block
    order. One process runs every block and adds them alike: the same bits for 1, 2 or N ranks. A BN
    model's blocks run together, on models of their own, their statistics added by a ``BlockRing``."""
    T, B = x.shape[0], x.shape[1]
    total = model.scored_count(targets, lengths, T, B)
    state = model.noise_state(B, (1, int(noise_key))) if model.state_noise else None
    nb, k0, k1, counts = rank_blocks(group, B)
    grads = model.flat[1].data
    keys = list(model.head.sum_keys)
    gpart = np.empty((k1 - k0, grads.size), grads.dtype)   # (own blocks, P): each block's gradient
    spart = np.empty((k1 - k0, len(keys)))                 # (own blocks, K): each block's metric sums
    bn = model.config["norm"] == "bn"   # BatchNorm statistics span the batch: the blocks run together
    runners = block_models(model, max(k1 - k0, 1)) if bn else [model] * (k1 - k0)

    def block(j, reduce=None):
        m = runners[j]
        if reduce is not None:
            m.stack.set_batch_reduce(reduce)
        if k1 == k0:   # a BN rank without blocks: one sequence of length 0 takes part in every reduction
            m.loss_and_grad(np.ascontiguousarray(x[:, :1]), targets[:1], np.zeros(1, np.int64), tbptt=tbptt,
                            state=m.stack.zero_state(1), total=total)
            return
        k = k0 + j
        lo, hi = chunk_bounds(B, nb, k)
        rows = slice(lo, hi)
        st = None if state is None else [tuple(np.ascontiguousarray(s[rows]) for s in layer) for layer in state]
        tx = None if text is None else (np.ascontiguousarray(text[0][rows]), np.asarray(text[1])[rows])
        m.loss_and_grad(np.ascontiguousarray(x[:, rows]), targets[rows],
                        None if lengths is None else np.asarray(lengths)[rows], tbptt=tbptt, state=st,
                        total=total, text=tx)
        gpart[j] = m.flat[1].data
        spart[j] = [m.last_sums[name] for name in keys]

    if bn:
        for m in runners:   # this update's parameters and BN statistics
            m.flat[0].data[...] = model.flat[0].data
            m.stack.load_buffers({name: v.copy() for name, v in model.stack.buffers.items()})
        BlockRing(group, counts).run(block)
        # every block updated its statistics alike, from the group's sums: block 0's are the update's
        model.stack.load_buffers({name: v.copy() for name, v in runners[0].stack.buffers.items()})
    else:
        for j in range(k1 - k0):
            block(j)
    gall = group.allgather_rows(gpart, counts)   # (nb, P) in block order, the same on every rank
    sall = group.allgather_rows(spart, counts)   # (nb, K)
    group.allreduce(votes)                       # 0/1 votes: exact in any order
    grads[...] = gall[0]
    sums = sall[0].copy()
    for k in range(1, nb):
        grads += gall[k]
        sums += sall[k]
    model.last_sums = {m: float(v) for m, v in zip(keys, sums)}
    model.last_count = total
    return model.head.mean(model.last_sums, total)


def evaluate(group, model, batches):
    """{metric: mean} over the batches of one evaluation, batch i run by rank i mod N (inference, noise
    key i as in one process); the sums and counts of every batch are added in batch order, as one process
    adds them (``SequenceModel.evaluate``): the same figures, to the bit, on any number of ranks.
    batches: a list of callables returning (x, targets, lengths[, text]) (only this rank's are called)."""
    keys = list(model.head.sum_keys)
    acc = np.zeros((len(batches), len(keys) + 1))   # (batches, metric sums... + count) in float64
    for i in range(group.rank, len(batches), group.size):
        x, t, lengths, *text = batches[i]()
        sums, c = model.loss_sums(x, t, lengths, noise_key=i, text=text[0] if text else None)
        acc[i, :-1] = [sums[k] for k in keys]
        acc[i, -1] = c
    # row i is nonzero on rank i mod N alone: adding zeros is exact, so this sum has no order to depend on
    group.allreduce(acc.reshape(-1))
    tot = np.zeros(len(keys) + 1)
    for row in acc:
        tot += row
    return model.head.mean(dict(zip(keys, tot[:-1])), int(round(tot[-1])))


# ---- the trainer's checks and notes ----

def check_config(cfg, size):
    """UserError (one line) for a training config a group of ``size`` ranks cannot run."""
    if size == 1:
        return
    if cfg.device != "cpu":
        raise UserError(f"--device {cfg.device}: training across MPI processes runs on the CPU only; drop "
                        "--device cuda, or run one process without the launcher.")
    if cfg.reproducible:
        with block_rows(cfg.block_rows):
            nb = data_blocks(cfg.batch_size)
        if nb < size:
            raise UserError(f"--reproducible gives each of the {size} MPI processes whole blocks of a batch, but "
                            f"--batch-size {cfg.batch_size} with --block-rows {cfg.block_rows} makes {nb} "
                            f"block{'s' * (nb != 1)}; use a larger --batch-size, a smaller --block-rows, "
                            f"or at most {nb} process{'es' * (nb != 1)}.")
    if cfg.batch_size < size:
        raise UserError(f"--batch-size {cfg.batch_size} is smaller than the {size} MPI processes: each rank needs a "
                        f"share of every batch; use --batch-size {size} or more, or fewer processes.")


def describe_split(size, B, reproducible=False, rows=BLOCK_ROWS):
    """One line on how a batch of B is split over ``size`` ranks (rows: the run's --block-rows)."""
    if reproducible:
        with block_rows(rows):
            nb = data_blocks(B)
        lo, hi = shard(nb, size, size - 1), shard(nb, size, 0)
        each = f"{hi[1] - hi[0]}" if (hi[1] - hi[0]) == (lo[1] - lo[0]) else f"{lo[1] - lo[0]}-{hi[1] - hi[0]}"
        return (f"Data parallel over {size} MPI processes, reproducible: each batch of {B} is {nb} blocks, {each} "
                "a process; their gradients are gathered and added in block order (the same bits as one process); "
                "rank 0 writes the run folder.")
    lo, hi = shard(B, size, size - 1), shard(B, size, 0)
    each = f"{hi[1] - hi[0]}" if (hi[1] - hi[0]) == (lo[1] - lo[0]) else f"{lo[1] - lo[0]}-{hi[1] - hi[0]}"
    return (f"Data parallel over {size} MPI processes: each batch of {B} is split into shards of {each} "
            "sequences (their gradients summed by an Allreduce per update); rank 0 writes the run folder.")


def resume_note(saved_ranks, size, B, reproducible=False):
    """What resuming a run trained on ``saved_ranks`` processes on ``size`` means (None: the same number)."""
    if saved_ranks == size:
        return None
    if reproducible:
        return (f"The run was trained as {saved_ranks} process{'es' * (saved_ranks != 1)} and resumes as {size}: "
                "with --reproducible the updates are the same bits.")
    return (f"The run was trained as {saved_ranks} process{'es' * (saved_ranks != 1)} and resumes as {size}: each "
            f"global batch of {B} is now split {size} way{'s' * (size != 1)}; the updates are the same up to "
            "floating-point summation order (BatchNorm statistics are the global batch's either way).")


class NullLog:
    """What the ranks other than 0 hold in place of the run folder's update log: they write nothing."""

    def append(self, row):
        pass

    def sync(self):
        pass

    def close(self):
        pass
