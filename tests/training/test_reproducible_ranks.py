"""`lnrnn train --reproducible` gives the same bits on any number of MPI ranks as in one process.

Every cell (LSTM and RNN, plain, LN and BN) in float64 and float32 trains UPDATES updates on the digits
task (blank-prefixed: the LN cells amplify round-off there fastest; the BN cells draw initial-state noise
there, from the global batch's draw), plus a two-layer LN-LSTM with truncated
BPTT on the handwriting-like synthetic strokes (mixture density head, sequences of unequal lengths, 4
blocks of 8 rows), once in one process and once under ``mpiexec -n N`` for N = 2, 3; every run's parameters,
optimizer slots, epoch-end checkpoints and recorded metrics must be the same bytes (the child and the
comparison are tests/repro_child.py's and tests/kernels/test_reproducible.py's). B = 128 with --block-rows 16
is 4 blocks of 32 (distributed.data_blocks, each split again into the kernels' blocks of 16): 3 ranks take
2, 1 and 1 blocks, 2 ranks 2 each. The ranks run on one thread, the
single process on two: threads and ranks are crossed too. (``mpiexec -n 1`` is not among them: one rank is
distributed.SINGLE, the one process's path, and one thread against two is tests/kernels/test_reproducible.py's.) Evaluation batches of 100 (4 of the 360
validation images) are dealt out over the ranks, so the validation figures are compared across ranks too.

That the comparison can fail is shown on the same children: without --reproducible (one Allreduce of the
ranks' shard gradients) the LN-LSTM in float64 on 2 ranks is not the same bits as in one process.

The digits runs train on SPLIT's 285 images (3 batches an epoch, the last of 29 rows as the default split's
1437 end: one block, fewer than the ranks) and validate on its 360; UPDATES = 8 crosses two epoch ends and
goes on into the third epoch. Each of the strokes run's STROKE_UPDATES batches runs all the truncated-BPTT
segments of its lines, which end in different segments, whatever the number of updates. Rows of training
metrics every LOG_EVERY updates are compared too. (More updates reach no other code: 26 digits updates on the
default split, or 20 strokes updates, take a run about twice the CPU time, in each of the six processes.)

Time: the three children run one after the other; most of their time goes to importing lnrnn and compiling
or loading kernels in their six processes, a digits run trains in about a CPU-second (AMD EPYC, 2 cores).
"""
import json
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

import lnrnn
from lnrnn.errors import UserError
from lnrnn.training import distributed
from lnrnn.training.runconfig import TrainConfig
from test_reproducible import CHILD, ROOT, first_difference, of_run, run_difference

MPIEXEC = shutil.which("mpiexec", path=os.path.dirname(sys.executable)) or shutil.which("mpiexec")
try:
    import mpi4py  # noqa: F401
    HAVE_MPI = MPIEXEC is not None
except ImportError:
    HAVE_MPI = False
needs_mpi = pytest.mark.skipif(not HAVE_MPI and not os.environ.get("LNRNN_REQUIRE_EXTRAS"),
                               reason="needs the mpi extra (pip install -e '.[mpi]')")

RANKS = (2, 3)
CELLS = ("rnn", "lstm", "ln-rnn", "ln-lstm", "bn-rnn", "bn-lstm")
DTYPES = ("float64", "float32")
BATCH = 128
SPLIT = "285/360"  # digits: train/validation images (2 x 128 + 29 rows an epoch)
UPDATES = 8  # the digits runs: two epoch ends of 3 batches, then 2 updates of the third epoch
STROKE_UPDATES = 6  # the strokes run's batches of 32 lines
LOG_EVERY = 2  # updates.jsonl: a row of training metrics every this many updates
SEED = 3
CHILD_TIMEOUT_S = 600
CONTROL = "default-ln-lstm-float64"   # the same run without --reproducible
STROKES = "strokes-ln-lstm-2-layers"


def runs():
    """[(name, TrainConfig fields)] every child trains."""
    base = dict(batch_size=BATCH, seed=SEED, max_steps=UPDATES, log_every=LOG_EVERY, best_metric="none", keep=10,
                save_every_seconds=0.0, hidden=32, eval_batch_size=100, block_rows=16)
    digits = dict(base, task="digits", split=SPLIT)
    out = [(f"{c}-{d}", dict(digits, cell=c, dtype=d, reproducible=True)) for c in CELLS for d in DTYPES]
    out.append((STROKES, dict(base, task="strokes-synthetic", cell="ln-lstm", dtype="float64", layers=2, tbptt=16,
                              hidden=16, batch_size=32, block_rows=4, max_steps=STROKE_UPDATES,
                              reproducible=True)))
    out.append((CONTROL, dict(digits, cell="ln-lstm", dtype="float64", reproducible=False)))
    return out


def run_child(root, tag, spec, ranks, threads):
    """One child: every run of spec, in one process (ranks None) or under mpiexec -n ranks -> its arrays."""
    npz, work = root / f"{tag}.npz", root / tag
    work.mkdir()
    path = os.pathsep.join(p for p in (ROOT, os.environ.get("PYTHONPATH")) if p)
    env = {**os.environ, "NUMBA_NUM_THREADS": str(threads), "PYTHONPATH": path}
    cmd = ([MPIEXEC, "-n", str(ranks)] if ranks else []) + [sys.executable, CHILD, str(spec), str(npz), str(work)]
    r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=CHILD_TIMEOUT_S, cwd=ROOT)
    assert r.returncode == 0, f"the {tag} child failed:\n{r.stdout}\n{r.stderr[-4000:]}"
    with np.load(npz, allow_pickle=False) as z:
        arrays = {k: z[k] for k in z.files}
    assert int(arrays["ranks"]) == (ranks or 1), f"the {tag} child ran as {int(arrays['ranks'])} ranks"
    assert str(arrays["package"]) == os.path.dirname(lnrnn.__file__), f"the {tag} child imported another lnrnn"
    return arrays


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """{"one": the arrays of one process on 2 threads, N: those of mpiexec -n N (1 thread a rank)}."""
    root = tmp_path_factory.mktemp("reproducible-ranks")
    spec = root / "spec.json"
    spec.write_text(json.dumps({"runs": [{"name": n, "cfg": c} for n, c in runs()]}))
    results = {"one": run_child(root, "one", spec, None, 2)}
    for n in RANKS:
        results[n] = run_child(root, f"ranks-{n}", spec, n, 1)
    return results


@needs_mpi
@pytest.mark.parametrize("ranks", RANKS)
def test_reproducible_training_is_the_same_bits_on_any_number_of_ranks(trained, ranks):
    one = trained["one"]
    failures = []
    for name, _ in runs():
        if name == CONTROL:
            continue
        final, initial = of_run(one, name, "final"), of_run(one, name, "initial")
        # not a trivial run: it trained, and every parameter moved
        assert any(k.startswith("optim/") for k in final), name
        still = [k for k in final if k.startswith("param/") and np.array_equal(final[k], initial[k])]
        assert not still, f"{name}: parameters the updates left at their initial values: {still}"
        bad = run_difference(trained[ranks], one, name)
        if bad is not None:
            failures.append(f"{name}: {bad}")
    assert not failures, f"mpiexec -n {ranks} vs one process: " + "; ".join(failures)


@needs_mpi
def test_without_reproducible_two_ranks_part_from_one_process(trained):
    """The check above can fail: the default data-parallel update (one Allreduce of each rank's shard
    gradient) adds in another order than one process, and the LN-LSTM amplifies the difference."""
    assert first_difference(of_run(trained[2], CONTROL, "final"), of_run(trained["one"], CONTROL, "final")) is not None


def test_reproducible_refuses_what_it_cannot_promise():
    """One line for a group with fewer blocks than ranks and for CUDA."""
    from lnrnn.training.plan import validate, resolve_defaults
    cfg = TrainConfig(cell="ln-lstm", batch_size=128, reproducible=True)   # 2 blocks of 64
    distributed.check_config(cfg, 2)
    with pytest.raises(UserError, match="makes 2 blocks"):
        distributed.check_config(cfg, 3)
    distributed.check_config(TrainConfig(cell="ln-lstm", batch_size=128, block_rows=16, reproducible=True), 3)
    distributed.check_config(TrainConfig(cell="ln-lstm", batch_size=64), 3)   # the default split: rows, not blocks
    validate(resolve_defaults(TrainConfig(cell="bn-lstm", reproducible=True)))
    with pytest.raises(UserError, match="CPU"):
        validate(resolve_defaults(TrainConfig(cell="lstm", reproducible=True, device="cuda")))


def test_blocks_of_the_ranks_cover_the_batch_once():
    """rank_blocks deals the fixed blocks out whole: every block to one rank, in rank order."""
    class G:
        def __init__(self, rank, size):
            self.rank, self.size = rank, size
    for B in (2, 7, 64, 128, 1000):
        for size in (1, 2, 3, 5):
            got = [distributed.rank_blocks(G(r, size), B) for r in range(size)]
            nb = got[0][0]
            owned = [k for _, k0, k1, _ in got for k in range(k0, k1)]
            assert owned == list(range(nb)), (B, size, owned)
            assert got[0][3] == [k1 - k0 for _, k0, k1, _ in got]


@pytest.mark.parametrize("cell,norm", [("lstm", "ln"), ("lstm", "bn"), ("rnn", "bn")])
@pytest.mark.parametrize("per_step", [False, True], ids=["last-step", "per-step-masked"])
def test_blocks_give_the_gradient_of_one_call(per_step, cell, norm):
    """In one process the blocks' update is the batch's gradient and metrics, up to rounding (float64):
    each block is normalized by the whole batch's scored units, its rows, lengths and initial states
    are its own; BN blocks run together on models of their own with the whole batch's statistics (the
    model's running statistics then move as one call moves them). B = 11 with block rows 1: 4 blocks of
    2-3 rows."""
    from lnrnn.kernels.cpu.threads import block_rows
    from lnrnn.model.models import SequenceClassifier
    rng = np.random.default_rng(0)
    T, B, I, H = 6, 11, 3, 5
    model = SequenceClassifier(cell, norm, input_size=I, hidden_size=H, num_classes=4, per_step=per_step,
                               dtype="float64", seed=1)
    model.state_noise = 0.3
    x = rng.standard_normal((T, B, I))
    y = rng.integers(0, 4, (B, T) if per_step else B)
    lengths = rng.integers(1, T + 1, B) if per_step else None
    before = {k: v.copy() for k, v in model.stack.buffers.items()}
    with block_rows(1):
        assert distributed.data_blocks(B) == 4
        want = model.loss_and_grad(x, y, lengths, noise_key=5)
        g_want, sums_want = model.flat[1].data.copy(), dict(model.last_sums)
        stats_want = {k: v.copy() for k, v in model.stack.buffers.items()}
        model.stack.load_buffers({k: v.copy() for k, v in before.items()})
        got = distributed.loss_and_grad_blocks(distributed.SINGLE, model, x, y, lengths, None, 5, np.zeros(3))
    g_got = model.flat[1].data
    assert bool(stats_want) == (norm == "bn")
    for k, v in stats_want.items():   # the running statistics moved, and as one call moves them
        assert not np.array_equal(v, before[k]), k
        assert np.abs(model.stack.buffers[k] - v).max() <= 1e-12 * max(np.abs(v).max(), 1), k
    assert np.abs(g_got - g_want).max() <= 1e-12 * np.abs(g_want).max(), np.abs(g_got - g_want).max()
    assert np.abs(g_want).max() > 0
    assert got.keys() == want.keys() and all(got[k] == pytest.approx(want[k], rel=1e-12) for k in want)
    assert model.last_sums.keys() == sums_want.keys()
    assert all(model.last_sums[k] == pytest.approx(sums_want[k], rel=1e-12) for k in sums_want)


@needs_mpi
@pytest.mark.parametrize("cell", ["ln-lstm", "bn-lstm"])
def test_resume_on_another_number_of_ranks_continues_the_same_bits(tmp_path, cell):
    """20 updates in one process, resumed under mpiexec -n 2 to 40, end as 40 updates in one process
    (BN: its running statistics too)."""
    args = ["--cell", cell, "--dtype", "float64", "--hidden", "16", "--batch-size", "64", "--block-rows", "16",
            "--reproducible", "--seed", "2", "--best-metric", "none", "--save-every-seconds", "0", "--quiet"]
    lnrnn_cmd = [sys.executable, "-m", "lnrnn.cli", "train"]
    env = {**os.environ, "NUMBA_NUM_THREADS": "1"}

    def run(cmd):
        r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=CHILD_TIMEOUT_S, cwd=ROOT)
        assert r.returncode == 0, f"{' '.join(cmd[-6:])} failed:\n{r.stdout}\n{r.stderr[-3000:]}"
        return r.stdout + r.stderr

    whole, split = tmp_path / "whole", tmp_path / "split"
    run(lnrnn_cmd + args + ["--max-steps", "40", "--out", str(whole)])
    run(lnrnn_cmd + args + ["--max-steps", "20", "--out", str(split)])
    said = run([MPIEXEC, "-n", "2"] + lnrnn_cmd + args + ["--max-steps", "40", "--out", str(split), "--resume"])
    assert "same bits" in said, said

    def final(out):
        from lnrnn.training.checkpoint import load_checkpoint
        meta, arrays = load_checkpoint(str(out))
        assert meta["step"] == 40
        return arrays
    bad = first_difference(final(split), final(whole))
    assert bad is None, f"resumed on 2 ranks vs one process throughout: {bad}"


def ring_of(n):
    """A BlockRing of n blocks in one process."""
    return distributed.BlockRing(distributed.SINGLE, [n])


def test_block_ring_adds_in_block_order_and_runs_one_block_at_a_time():
    """Each reduction returns the blocks' buffers added in block order (float32 sums whose order shows),
    to every block; blocks run one at a time, each to its next reduction, in block order."""
    n, L = 5, 7
    rng = np.random.default_rng(4)
    parts = (rng.standard_normal((3, n, L)) * 10.0 ** rng.integers(-4, 5, (3, n, L))).astype(np.float32)
    seen, trace = {}, []

    def work(j, reduce):
        for r in range(3):
            trace.append(j)
            buf = parts[r, j].copy()
            reduce(buf)
            seen[r, j] = buf
    ring_of(n).run(work)
    assert trace == [j for _ in range(3) for j in range(n)], trace
    order_shows = False
    for r in range(3):
        want, backwards = parts[r, 0].copy(), parts[r, n - 1].copy()
        for j in range(1, n):
            want += parts[r, j]
            backwards += parts[r, n - 1 - j]
        order_shows |= not np.array_equal(want, backwards)
        for j in range(n):
            assert np.array_equal(seen[r, j], want), (r, j)
    assert order_shows   # the buffers are such that another order gives other bits


def test_block_ring_fails_with_one_error_and_never_hangs():
    """A block's error reaches the caller; blocks that reach a different number of reductions are an error."""
    def bad(j, reduce):
        reduce(np.zeros(2))
        if j == 1:
            raise ValueError("block 1 broke")
        reduce(np.zeros(2))
    with pytest.raises(ValueError, match="block 1 broke"):
        ring_of(3).run(bad)

    def uneven(j, reduce):
        for _ in range(2 + (j == 2)):
            reduce(np.zeros(2))
    with pytest.raises(RuntimeError, match="different number of times"):
        ring_of(3).run(uneven)


def test_bn_synthesis_network_is_refused_under_reproducible(tmp_path):
    """The synthesis network keeps its BN statistics to one block: --reproducible with a BN cell there is one
    line and exit code 2, before any file is written. (--split: the task's lines are drawn before the check,
    and the default 2000/200 take most of a minute.)"""
    out = tmp_path / "run"
    r = subprocess.run([sys.executable, "-m", "lnrnn.cli", "train", "--task", "strokes-hershey", "--split", "16/4",
                        "--cell", "bn-lstm", "--hidden", "8", "--layers", "1", "--reproducible", "--max-steps", "1",
                        "--out", str(out)],
                       capture_output=True, text=True, timeout=CHILD_TIMEOUT_S, cwd=ROOT)
    assert r.returncode == 2, r.stderr[-2000:]
    assert r.stderr.strip().startswith("Error:") and "Traceback" not in r.stderr, r.stderr[-2000:]
    assert "synthesis network" in r.stderr and not out.exists()
