"""lnrnn/training/update.py and distributed.py, eighteenth pass: one update of a batch with NaN data, a group's
stop votes cast before the blocks run, a BatchNorm batch in blocks against one call, the launcher's size checked
against MPI's both ways, a failing rank's line on stderr, and the split's sentence word for word.

    NaN data     a batch whose x holds a NaN is the data's fault: DataError naming the task, batch 2 of epoch 3
                 (batch_in_epoch 1, epoch 2 counted from 0), never a diverged run
    votes        --reproducible in one process under a SIGINT that was requested: the update's votes are
                 [1, 1, 0] (signalled, by SIGINT, no budget), cast before the blocks' allreduce
    BN blocks    bn-lstm, 11 ragged rows in 4 blocks (block rows 1), truncated BPTT chunks of 3, state noise, in
                 float64: the gradient and running statistics are one call's on the whole batch, and the same
                 for a group of 2 thread ranks over halves (3 and 2 rows) of an LN-LSTM text model's batch
    launcher     2 processes announced, MPI seeing 4 (or 1): refused word for word
    split        7 rows over 2 ranks: shards of 4 and 3 (the first 7 % 2 ranks one more), so '3-4'"""
import signal
import sys
import threading
import types
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn.errors import DataError, UserError
from lnrnn.kernels.cpu.threads import block_rows
from lnrnn.model.models import build_model
from lnrnn.training import distributed
from lnrnn.training.stopping import StopPolicy
from lnrnn.training.update import HostUpdate
from test_values239_distributed_group import Comm
from test_values260_distributed_group import LENGTHS, B, ragged
from test_values_distributed_options import MDN, PER_STEP, ThreadRank, config, problem, thread_group


def fake_trainer(cfg, **kw):
    t = SimpleNamespace(model=build_model(cfg, seed=4), group=distributed.SINGLE, first_update_s=1.0, step=7,
                        votes=np.zeros(3), flag=None, batch_in_epoch=1, epoch=2,
                        cfg=SimpleNamespace(tbptt=None, reproducible=False, task="digits", time_budget=None), **kw)
    t.stopping = StopPolicy(t)

    def diverged(what, value, evaluated=False):
        raise AssertionError(f"diverged: {what} {value}")
    t._diverged = diverged
    return t


def test_a_nan_in_the_batch_is_the_datas_fault_naming_batch_and_epoch():
    cfg = config("ln-lstm", PER_STEP, "float64")
    t = fake_trainer(cfg)
    x, y = ragged(PER_STEP, seed=3)
    x = x.copy()
    x[1, 4, 0] = np.nan
    with pytest.raises(DataError) as e:
        HostUpdate(t).loss_and_grad(x, y, LENGTHS)
    assert str(e.value) == ("the training data of digits hold NaN or infinite values (batch 2 of epoch 3); "
                            "fix the data.")


def test_reproducible_update_casts_the_votes_of_a_requested_sigint():
    cfg = config("ln-rnn", PER_STEP, "float64")
    t = fake_trainer(cfg)
    t.cfg.reproducible = True
    t.flag = SimpleNamespace(requested=True, signum=signal.SIGINT)
    x, y = ragged(PER_STEP, seed=8)
    with block_rows(1):
        HostUpdate(t).loss_and_grad(x, y, LENGTHS)
    np.testing.assert_array_equal(t.votes, [1.0, 1.0, 0.0])


def test_bn_lstm_blocks_with_tbptt_and_noise_are_one_call():
    cfg = config("bn-lstm", PER_STEP, "float64")
    x, y = ragged(PER_STEP, seed=21)
    one = build_model(cfg, seed=9)
    one.loss_and_grad(x, y, LENGTHS, tbptt=3, noise_key=11)
    m = build_model(cfg, seed=9)
    with block_rows(1):
        distributed.loss_and_grad_blocks(distributed.SINGLE, m, x, y, LENGTHS, 3, 11, np.zeros(3))
    assert B == 11
    g, w = m.flat[1].data, one.flat[1].data
    assert np.abs(w).max() > 0
    assert np.abs(g - w).max() <= 1e-12 * np.abs(w).max()
    for k, v in one.stack.buffers.items():
        np.testing.assert_allclose(m.stack.buffers[k], v, rtol=1e-12, atol=1e-14, err_msg=k)


def test_two_thread_ranks_over_halves_of_a_text_batch_are_one_process():
    cfg = config("ln-lstm", MDN, "float64", text=True)
    x, y, lengths, tx = problem(MDN, text=True, seed=4)
    one = build_model(cfg, seed=3)
    want = one.loss_and_grad(x, y, lengths, tbptt=2, noise_key=5, text=tx)
    reduces, models, out = thread_group(2), [build_model(cfg, seed=3) for _ in range(2)], [None] * 2

    def work(r):
        out[r] = distributed.loss_and_grad(ThreadRank(r, 2, reduces[r]), models[r], x, y, lengths, 2, 5,
                                           np.zeros(3), text=tx)
    threads = [threading.Thread(target=work, args=(r,)) for r in range(2)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    w = one.flat[1].data
    for r in range(2):
        assert np.abs(models[r].flat[1].data - w).max() <= 1e-12 * np.abs(w).max()
        for k in want:
            assert abs(out[r][k] - want[k]) <= 1e-12 * max(1.0, abs(want[k])), k


class World:
    def __init__(self, n):
        self.n = n

    def Get_size(self):
        return self.n

    def Get_rank(self):
        return 0


@pytest.mark.parametrize("seen", [4, 1])
def test_mpi_seeing_another_size_than_the_launcher_is_refused(monkeypatch, seen):
    for v in distributed.RANK_VARS + distributed.SIZE_VARS:
        monkeypatch.delenv(v, raising=False)
    monkeypatch.setenv("OMPI_COMM_WORLD_SIZE", "2")
    mod = types.ModuleType("mpi4py")
    mod.MPI = SimpleNamespace(COMM_WORLD=World(seen))
    monkeypatch.setitem(sys.modules, "mpi4py", mod)
    with pytest.raises(UserError) as e:
        distributed.init()
    assert str(e.value) == (f"the launcher started 2 processes but MPI sees {seen}: use the mpiexec of the MPI that "
                            "mpi4py was built with (the one pip install 'lnrnn[mpi]' puts beside python), or "
                            "srun --mpi=pmi2 (or pmix) on Slurm.")


def test_rank_zeros_user_error_goes_to_stderr_with_its_code(monkeypatch, capsys):
    monkeypatch.setattr(distributed.time, "sleep", lambda s: None)
    comm = Comm(0, 2)
    distributed.Group(comm).fail(UserError("no such task"))
    got = capsys.readouterr()
    assert (got.out, got.err) == ("", "Error: no such task\n")
    assert comm.aborted == [UserError.exit_code]


def test_seven_rows_over_two_ranks_are_shards_of_three_to_four():
    assert distributed.describe_split(2, 7) == (
        "Data parallel over 2 MPI processes: each batch of 7 is split into shards of 3-4 sequences (their "
        "gradients summed by an Allreduce per update); rank 0 writes the run folder.")
