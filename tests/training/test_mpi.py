"""Data-parallel training on MPI (lnrnn.training.distributed) and the synchronized BatchNorm cells (kernels.bn_sync).

The kernel tests need no MPI: two "ranks" are two threads whose reduce callback sums their buffers at a
barrier. The mpiexec tests run ``mpiexec -n 2`` from the ``mpi`` extra (installed by .ci/run) and skip
when mpi4py or mpiexec is absent. Every comparison is float64, to 1e-9 relative or better.
"""
import glob
import os
import shutil
import subprocess
import sys
import threading
import time

import numpy as np
import pytest
from click.testing import CliRunner

from lnrnn.training import distributed
from lnrnn.cli import main
from lnrnn.errors import UserError
from lnrnn.kernels import bn_lstm, bn_rnn, bn_sync
from lnrnn.training.runconfig import TrainConfig
from lnrnn.training.rundir import read_jsonl
from bn_problems import bn_problem
from gradcheck_util import numeric_grad, rel_error, sample_idx

ARGS_LSTM = ["x", "h0", "c0", "Wx", "Wh", "gx", "gh", "gc"]   # the backward's inputs, in order
ARGS_RNN = ["x", "h0", "Wx", "Wh", "gx", "gh"]
FUSED = {"lstm": (bn_lstm.bn_lstm_forward, bn_lstm.bn_lstm_backward),
         "rnn": (bn_rnn.bn_rnn_forward, bn_rnn.bn_rnn_backward)}
SYNC = {"lstm": (bn_sync.bn_lstm_forward, bn_sync.bn_lstm_backward),
        "rnn": (bn_sync.bn_rnn_forward, bn_sync.bn_rnn_backward)}
LENGTHS = np.array([5, 3, 0, 5, 2, 5, 4])  # B = 7: a padded row, an empty one, rows ending early


def identity(buf):
    pass


def _problem(cell, seed=0):
    rng = np.random.default_rng(seed)
    return bn_problem(rng, cell, T=5, B=7, I=3, H=4, Ts=6)


def _close(a, b, tol):
    for u, v in zip(a, b):
        if u is None or isinstance(u, (bool, np.bool_)):
            continue
        u, v = np.asarray(u), np.asarray(v)
        assert np.abs(u - v).max() <= tol * max(np.abs(u).max(), 1.0), (np.abs(u - v).max(), u.shape)


# ---- the synchronized kernels in one process (reduce = identity) equal the fused ones ----

@pytest.mark.parametrize("cell", ["lstm", "rnn"])
@pytest.mark.parametrize("lengths", [None, LENGTHS], ids=["full", "masked"])
def test_sync_kernels_equal_fused_in_one_process(cell, lengths):
    a, run, dy = _problem(cell)
    run_f, run_s = [r.copy() for r in run], [r.copy() for r in run]
    out_f = FUSED[cell][0](*a.values(), *run_f, True, 0.1, 1e-5, lengths=lengths)
    out_s = SYNC[cell][0](identity, *a.values(), *run_s, True, 0.1, 1e-5, lengths=lengths)
    _close(out_f[:-1], out_s[:-1], 1e-12)           # y and final states
    # every saved array (same layout; + counts) but the first: x Wx here, the fused kernels' per-step input
    # statistics at this narrow I (config.FOLD_MAX_I: BN_t of x Wx without x Wx, batchnorm.fold_stats)
    _close(out_f[-1][1:], out_s[-1][1:-1], 1e-12)
    _close(run_f, run_s, 1e-12)                     # running statistics
    bargs = [a[k] for k in (ARGS_LSTM if cell == "lstm" else ARGS_RNN)]
    _close(FUSED[cell][1](dy, out_f[-1], *bargs), SYNC[cell][1](identity, dy, out_s[-1], *bargs), 1e-12)


def test_sync_kernels_inference_is_the_fused_one():
    a, run, dy = _problem("lstm")
    out_f = bn_lstm.bn_lstm_forward(*a.values(), *run, False, 0.1, 1e-5)
    calls = []
    out_s = bn_sync.bn_lstm_forward(calls.append, *a.values(), *run, False, 0.1, 1e-5)
    _close(out_f[:-1], out_s[:-1], 0.0)
    assert calls == []   # running statistics: nothing crosses ranks (they may evaluate different batches)


def test_sync_lstm_gate_clip_equals_fused():
    a, run, dy = _problem("lstm", seed=3)
    dy *= 50.0
    out_f = bn_lstm.bn_lstm_forward(*a.values(), *[r.copy() for r in run], True, 0.1, 1e-5, lengths=LENGTHS)
    out_s = bn_sync.bn_lstm_forward(identity, *a.values(), *[r.copy() for r in run], True, 0.1, 1e-5,
                                    lengths=LENGTHS)
    bargs = [a[k] for k in ARGS_LSTM]
    g_f = bn_lstm.bn_lstm_backward(dy, out_f[-1], *bargs, clip=0.5)
    g_s = bn_sync.bn_lstm_backward(identity, dy, out_s[-1], *bargs, clip=0.5)
    _close(g_f, g_s, 1e-12)
    assert np.abs(np.asarray(g_f[5]) - bn_lstm.bn_lstm_backward(dy, out_f[-1], *bargs)[5]).max() > 1e-6  # it clips


# ---- two ranks as two threads: the group's statistics are the whole batch's ----

def _thread_group(n):
    """n reduce callbacks that sum their buffers over n threads (a barrier-based allreduce)."""
    bar, slots = threading.Barrier(n), [None] * n

    def make(r):
        def reduce(buf):
            slots[r] = buf.copy()
            bar.wait()
            total = sum(slots[1:], slots[0].copy())
            bar.wait()
            buf[...] = total
        return reduce
    return [make(r) for r in range(n)]


def _split_run(cell, a, run, dy, lengths, cuts):
    """The synchronized kernels on row shards [cuts[r], cuts[r+1]) in threads -> per-rank (out, grads, run)."""
    n = len(cuts) - 1
    reduces, res = _thread_group(n), [None] * n

    def work(r):
        rows = slice(cuts[r], cuts[r + 1])
        ar = {k: np.ascontiguousarray(v[:, rows] if k == "x" else v[rows] if k in ("h0", "c0") else v)
              for k, v in a.items()}
        runs = [x.copy() for x in run]
        lr = None if lengths is None else lengths[rows]
        out = SYNC[cell][0](reduces[r], *ar.values(), *runs, True, 0.1, 1e-5, lengths=lr)
        bargs = [ar[k] for k in (ARGS_LSTM if cell == "lstm" else ARGS_RNN)]
        grads = SYNC[cell][1](reduces[r], np.ascontiguousarray(dy[:, rows]), out[-1], *bargs)
        res[r] = (out, grads, runs)

    threads = [threading.Thread(target=work, args=(r,)) for r in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return res


@pytest.mark.parametrize("cell", ["lstm", "rnn"])
@pytest.mark.parametrize("lengths", [None, LENGTHS], ids=["full", "masked"])
def test_two_ranks_equal_one_process(cell, lengths):
    """Rows 0-3 and 4-6 (uneven shards) on two 'ranks': y, dx and the running statistics are the
    single-process ones on every rank, and the ranks' parameter gradients sum to the single-process ones."""
    a, run, dy = _problem(cell, seed=1)
    run_f = [r.copy() for r in run]
    out_f = FUSED[cell][0](*a.values(), *run_f, True, 0.1, 1e-5, lengths=lengths)
    g_f = FUSED[cell][1](dy, out_f[-1], *[a[k] for k in (ARGS_LSTM if cell == "lstm" else ARGS_RNN)])
    res = _split_run(cell, a, run, dy, lengths, [0, 4, 7])
    _close([out_f[0]], [np.concatenate([r[0][0] for r in res], axis=1)], 1e-12)
    for _, _, runs in res:
        _close(run_f, runs, 1e-12)
    nstate = 2 if cell == "lstm" else 1
    for k in range(1 + nstate):   # dx, dh0 (, dc0): rows of each rank
        _close([g_f[k]], [np.concatenate([r[1][k] for r in res], axis=1 if k == 0 else 0)], 1e-11)
    for k in range(1 + nstate, len(g_f)):
        _close([g_f[k]], [res[0][1][k] + res[1][1][k]], 1e-11)


@pytest.mark.parametrize("cell", ["lstm", "rnn"])
def test_sync_kernels_gradcheck(cell):
    """Central differences of L = sum(y * dy) over the running steps through the synchronized kernels
    (float64, masked: the loss leaves padded steps out, as the backward does)."""
    a, run, dy = _problem(cell, seed=2)
    dy = dy * (np.arange(dy.shape[0])[:, None] < LENGTHS[None, :])[:, :, None]

    def loss():
        out = SYNC[cell][0](identity, *a.values(), *[r.copy() for r in run], True, 0.1, 1e-5, lengths=LENGTHS)
        return float(np.sum(out[0] * dy))

    out = SYNC[cell][0](identity, *a.values(), *[r.copy() for r in run], True, 0.1, 1e-5, lengths=LENGTHS)
    names = ARGS_LSTM if cell == "lstm" else ARGS_RNN
    grads = SYNC[cell][1](identity, dy, out[-1], *[a[k] for k in names])
    nstate = 2 if cell == "lstm" else 1
    by_name = dict(zip(["x", "h0", "c0"][:nstate + 1] + ["Wx", "Wh", "b", "gx", "gh", "gc", "bc"], grads))
    rng = np.random.default_rng(0)
    for name, g in by_name.items():
        idx = sample_idx(a[name], 12, rng)
        num = numeric_grad(loss, a[name], idx=idx)
        assert rel_error(np.asarray(g).reshape(-1)[idx], num) < 1e-6, name


# ---- sharding, configs, notes ----

@pytest.mark.parametrize("B,size", [(16, 2), (7, 2), (10, 3), (2, 3), (1, 4)])
def test_shards_cover_every_row_once(B, size):
    rows = [list(range(*distributed.shard(B, size, r))) for r in range(size)]
    assert sum(rows, []) == list(range(B))
    sizes = [len(r) for r in rows]
    assert max(sizes) - min(sizes) <= 1


def test_group_configs_refused_in_one_line():
    with pytest.raises(UserError, match="CPU only"):
        distributed.check_config(TrainConfig(device="cuda", batch_size=16), 2)
    with pytest.raises(UserError, match="--batch-size 3 is smaller than the 4 MPI processes"):
        distributed.check_config(TrainConfig(batch_size=3), 4)
    distributed.check_config(TrainConfig(device="cuda", batch_size=1), 1)   # one process: anything goes
    assert distributed.resume_note(2, 2, 16) is None
    assert "split 3 ways" in distributed.resume_note(2, 3, 16)


class _Comm:
    """What Group.fail needs of an mpi4py communicator, recording the calls into a shared log."""

    def __init__(self, rank, log):
        self.rank, self.log = rank, log

    def Get_rank(self):
        return self.rank

    def Get_size(self):
        return 2

    def Abort(self, code):
        self.log.append(("abort", code))


@pytest.mark.parametrize("rank", [0, 1])
def test_failing_rank_waits_for_its_line_to_leave_before_abort(monkeypatch, capsys, rank):
    # MPICH's mpiexec stops forwarding output at Abort: a line printed just before it was lost in 3 runs of
    # 24 (CI saw exit 2 and an empty stderr). The line must be out, then MPI_FLUSH_S waited, then Abort;
    # a rank other than 0 first waits MPI_FAIL_GRACE_S, so that rank 0 says an error every rank meets.
    log = []
    monkeypatch.setattr(distributed.time, "sleep", lambda s: log.append(("sleep", s, capsys.readouterr().err)))
    group = distributed.Group(_Comm(rank, log))
    group.fail(UserError("the data are bad"))
    log.append(("after", capsys.readouterr().err))
    line = "Error: the data are bad\n" if rank == 0 else "Error (rank 1 of 2): the data are bad\n"
    grace = [("sleep", distributed.MPI_FAIL_GRACE_S, "")] if rank else []
    assert log == grace + [("sleep", distributed.MPI_FLUSH_S, line), ("abort", 2), ("after", "")]
    assert 0 < distributed.MPI_FLUSH_S < distributed.MPI_FAIL_GRACE_S / 2


def test_launcher_without_mpi4py_says_what_to_install(monkeypatch, tmp_path):
    monkeypatch.setenv("PMI_SIZE", "2")
    monkeypatch.setenv("PMI_RANK", "0")
    monkeypatch.setitem(sys.modules, "mpi4py", None)   # import mpi4py fails
    res = CliRunner().invoke(main, ["train", "--out", str(tmp_path / "run"), "--quiet"])
    assert res.exit_code == 2
    assert "mpi4py is not installed" in res.output and "pip install 'lnrnn[mpi]'" in res.output
    assert len(res.output.strip().splitlines()) == 1
    assert not (tmp_path / "run").exists()


# ---- mpiexec -n 2: two real processes ----

MPIEXEC = shutil.which("mpiexec", path=os.path.dirname(sys.executable)) or shutil.which("mpiexec")
try:
    import mpi4py  # noqa: F401
    HAVE_MPI = MPIEXEC is not None
except ImportError:
    HAVE_MPI = False
needs_mpi = pytest.mark.skipif(not HAVE_MPI, reason="needs the mpi extra (pip install -e '.[mpi]')")
LNRNN = [sys.executable, "-m", "lnrnn.cli"]
ENV = {**os.environ, "NUMBA_NUM_THREADS": "1"}
# 29 digits, batches of 7: shards of 4 and 3, and a last batch of 1 (rank 1's shard is empty)
TINY = ["--hidden", "6", "--split", "29/12", "--batch-size", "7", "--epochs", "2", "--dtype", "float64",
        "--quiet", "--eval-batch-size", "5"]


def _run(cmd, n=None, timeout=240):
    full = ([MPIEXEC, "-n", str(n)] if n else []) + cmd
    t0 = time.perf_counter()
    p = subprocess.run(full, capture_output=True, text=True, timeout=timeout, env=ENV)
    return p, time.perf_counter() - t0


def _params(out):
    npz = np.load(glob.glob(os.path.join(out, "checkpoint-*.npz"))[0])
    return {k: npz[k] for k in npz.files}


def _metrics(out):
    return read_jsonl(os.path.join(out, "metrics.jsonl"))


def _same_run(one, group, tol=1e-9):
    m1, m2 = _metrics(one), _metrics(group)
    assert len(m1) == len(m2) > 0
    for r1, r2 in zip(m1, m2):
        for k in r1:
            if k.startswith(("train_", "val_")) or k in ("epoch", "step", "samples"):
                assert r2[k] == pytest.approx(r1[k], rel=tol, abs=1e-12), k
    p1, p2 = _params(one), _params(group)
    assert p1.keys() == p2.keys()
    for k in p1:   # parameters, BN running statistics and optimizer slots
        assert np.abs(p1[k] - p2[k]).max() <= tol * max(np.abs(p1[k]).max(), 1e-12), k


def _train_args(cell, task):
    args = ["train", "--cell", cell, "--task", task] + TINY
    if task == "strokes-synthetic":
        args += ["--layers", "1", "--no-skip", "--split", "13/6", "--batch-size", "5"]
    return args


@pytest.fixture(scope="module")
def one_process(tmp_path_factory):
    """(cell, task) -> the run folder of ``lnrnn train`` (_train_args) in one process, trained once for
    every test of this module that compares a group with it."""
    runs = {}

    def get(cell, task):
        if (cell, task) not in runs:
            out = str(tmp_path_factory.mktemp("one-process") / f"{cell}-{task}")
            p, _ = _run(LNRNN + _train_args(cell, task) + ["--out", out])
            assert p.returncode == 0, p.stderr
            runs[cell, task] = out
        return runs[cell, task]
    return get


@needs_mpi
@pytest.mark.parametrize("cell,task", [("ln-lstm", "digits"), ("bn-lstm", "digits"), ("bn-rnn", "digits"),
                                       ("bn-lstm", "strokes-synthetic")])
def test_mpiexec_two_ranks_write_the_metrics_of_one_process(tmp_path, one_process, cell, task):
    """mpiexec -n 2 lnrnn train ... = one process with the same global batch: metrics.jsonl and the
    checkpoint's arrays to 1e-9 relative (float64; uneven and empty shards, BN state noise; for the
    strokes task variable lengths weighted by scored steps)."""
    args = _train_args(cell, task)
    one, group = one_process(cell, task), str(tmp_path / "two")
    p2, _ = _run(LNRNN + args + ["--out", group], n=2)
    assert p2.returncode == 0, p2.stderr
    said = p2.stdout + p2.stderr
    assert said.count("Done:") == 1 and said.count("Data parallel over 2 MPI processes") == 1
    _same_run(one, group)


@needs_mpi
def test_mpiexec_resume_same_and_other_number_of_ranks(tmp_path, one_process):
    """2 ranks stop at update 3, resume on 2 ranks to update 6, then on 1 process to the end: the
    same run as one uninterrupted process (the one the two-ranks test compares with); the change of
    ranks is said."""
    args = _train_args("bn-lstm", "digits")
    one, group = one_process("bn-lstm", "digits"), str(tmp_path / "group")
    p, _ = _run(LNRNN + args + ["--out", group, "--max-steps", "3"], n=2)
    assert p.returncode == 0, p.stderr
    p, _ = _run(LNRNN + ["train", "--out", group, "--resume", "--max-steps", "6", "--quiet"], n=2)
    assert p.returncode == 0 and "resumes as" not in p.stdout + p.stderr, p.stderr
    p, _ = _run(LNRNN + ["train", "--out", group, "--resume", "--quiet"])
    assert p.returncode == 0, p.stderr
    assert "trained as 2 processes and resumes as 1" in p.stdout + p.stderr
    _same_run(one, group)


FAULT = """
import sys
from lnrnn.training import distributed
from lnrnn.cli import main
from lnrnn.errors import DataError
real = distributed.loss_and_grad

def planted(group, model, x, targets, lengths, tbptt, noise_key, votes, text=None):
    if group.rank == 1 and noise_key == 2:
        raise DataError("planted fault: rank 1 cannot read its shard")
    return real(group, model, x, targets, lengths, tbptt, noise_key, votes, text)

distributed.loss_and_grad = planted
main(sys.argv[1:], prog_name="lnrnn")
"""


@needs_mpi
def test_mpiexec_one_rank_raising_ends_the_group_with_one_line(tmp_path):
    script = tmp_path / "fault.py"
    script.write_text(FAULT)
    out = str(tmp_path / "run")
    p, seconds = _run([sys.executable, str(script), "train", "--cell", "bn-lstm", "--out", out] + TINY, n=2,
                      timeout=120)
    assert p.returncode == 2
    lines = [ln for ln in p.stderr.splitlines() if "Error" in ln]
    assert lines == ["Error (rank 1 of 2): planted fault: rank 1 cannot read its shard"]
    assert "Traceback" not in p.stderr and "Done:" not in p.stdout
    assert seconds < 60   # no hang until a timeout (compiling aside, the run ends within seconds)


@needs_mpi
def test_mpiexec_error_of_every_rank_is_said_once(tmp_path):
    p, _ = _run(LNRNN + ["train", "--batch-size", "1", "--out", str(tmp_path / "run"), "--quiet"], n=2, timeout=120)
    assert p.returncode == 2
    lines = [ln for ln in p.stderr.splitlines() if "Error" in ln]
    assert lines == ["Error: --batch-size 1 is smaller than the 2 MPI processes: each rank needs a share of every "
                     "batch; use --batch-size 2 or more, or fewer processes."]


# ---- a whole update over two thread-ranks (distributed.loss_and_grad with an in-process group) ----

class _ThreadRank:
    """A Group stand-in: rank r of n whose allreduce is the thread group's."""

    def __init__(self, rank, size, reduce):
        self.rank, self.size, self.allreduce = rank, size, reduce
        self.root = rank == 0


def _model(cell):
    from lnrnn.model.models import build_model
    cfg = dict(cell=cell.split("-")[1], norm=cell.split("-")[0], input_size=2, hidden_size=5, num_layers=2,
               dtype="float64", forget_bias=1.0, head={"kind": "classifier", "outputs": 3, "per_step": False},
               state_noise=0.1)
    return build_model(cfg, seed=4)


@pytest.mark.parametrize("cell", ["ln-lstm", "bn-lstm", "bn-rnn"])
def test_update_over_two_thread_ranks_equals_one_process(cell):
    """Global batch of 5 padded sequences split 3/2: the summed gradient, the metric sums and the BN
    running statistics equal one process's loss_and_grad on the whole batch (state noise of the
    global draw, loss normalized by the global count)."""
    rng = np.random.default_rng(5)
    T, B = 6, 5
    x = rng.standard_normal((T, B, 2))
    y = rng.integers(0, 3, B)
    lengths = np.array([6, 4, 6, 1, 5])
    one = _model(cell)
    means = one.loss_and_grad(x, y, lengths, noise_key=7)
    reduces, models, out = _thread_group(2), [_model(cell), _model(cell)], [None, None]

    def work(r):
        group = _ThreadRank(r, 2, reduces[r])
        models[r].stack.set_batch_reduce(group.allreduce)
        out[r] = distributed.loss_and_grad(group, models[r], x, y, lengths, None, 7, np.zeros(3))

    threads = [threading.Thread(target=work, args=(r,)) for r in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for r in range(2):
        assert out[r] == pytest.approx(means, rel=1e-12)
        assert models[r].last_sums == pytest.approx(one.last_sums, rel=1e-12)
        assert models[r].last_count == one.last_count
        _close([one.flat[1].data], [models[r].flat[1].data], 1e-11)
        _close(list(one.buffers.values()), list(models[r].buffers.values()), 1e-12)


def test_shard_of_an_empty_rank_is_one_sequence_of_length_zero():
    model = _model("ln-lstm")
    x, y = np.ones((4, 1, 2)), np.array([1])
    xs, ys, ls, state, total, _ = distributed.shard_batch(_ThreadRank(1, 2, identity), model, x, y, None, 0)
    assert xs.shape == (4, 1, 2) and list(ls) == [0] and total == 1
    model.loss_and_grad(xs, ys, ls, state=state, total=total)
    assert model.last_count == 0 and not np.any(model.flat[1].data)   # scores nothing, adds nothing
