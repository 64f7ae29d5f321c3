"""lnrnn/training/distributed.py against what it must say, worked out here:

- Each launcher's rank variable, alone in the environment, is this process's rank.
- Group.fail on a rank (a stand-in communicator): a bug in lnrnn prints its traceback and aborts with 1 (no rank
  prefix, on rank 1 either); a user's error aborts with its own exit code (a diverged run's 3, not the 2 of
  UserError).
- init() under a launcher of 2 with an MPI (a stand-in mpi4py) that sees 3 refuses word for word, naming both
  counts; one that sees 2 gives a group of that communicator.
- --reproducible on 2 processes with --batch-size 2 and --block-rows 2: the kernels split 2 rows into 2 blocks
  ("two from B = 2 on"), so there is 1 data block (two kernel blocks each): the refusal names 1 block and at most
  1 process, word for word.
- describe_split --reproducible with --block-rows 8 and a batch of 64: 8 kernel blocks of 8 rows (the largest power
  of two with at least 8 rows a block), 4 data blocks, 2 a process."""
import sys
import types

import pytest

from lnrnn.errors import TrainingDiverged, UserError
from lnrnn.training import distributed
from lnrnn.training.runconfig import TrainConfig
from test_mpi import _Comm

ALL_RANK_VARS = ("OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID")
ALL_SIZE_VARS = ("OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "SLURM_STEP_NUM_TASKS")


@pytest.mark.parametrize("var", ALL_RANK_VARS)
def test_each_launchers_rank_variable_alone_is_read(monkeypatch, var):
    for v in ALL_RANK_VARS:
        monkeypatch.delenv(v, raising=False)
    assert distributed.launched_rank() == 0
    monkeypatch.setenv(var, "3")
    assert distributed.launched_rank() == 3


@pytest.mark.parametrize("rank", [0, 1])
def test_a_bug_prints_its_traceback_and_aborts_with_1(monkeypatch, capsys, rank):
    log = []
    monkeypatch.setattr(distributed.time, "sleep", lambda s: None)
    try:
        raise RuntimeError("an index out of range")
    except RuntimeError as e:
        exc = e
    distributed.Group(_Comm(rank, log)).fail(exc)
    err = capsys.readouterr().err
    assert err.startswith("Traceback (most recent call last):\n")
    assert err.endswith("\nRuntimeError: an index out of range\n")
    assert "Error" not in err.splitlines()[0]
    assert log == [("abort", 1)]


def test_a_users_error_aborts_with_its_own_exit_code(monkeypatch, capsys):
    log = []
    monkeypatch.setattr(distributed.time, "sleep", lambda s: None)
    distributed.Group(_Comm(0, log)).fail(TrainingDiverged("the loss became NaN"))
    assert capsys.readouterr().err == "Error: the loss became NaN\n"
    assert log == [("abort", 3)]


class _World(_Comm):
    """A communicator of n processes."""

    def __init__(self, n):
        super().__init__(0, [])
        self.n = n

    def Get_size(self):
        return self.n


def _launched(monkeypatch, n_launched, n_mpi):
    for v in ALL_SIZE_VARS:
        monkeypatch.delenv(v, raising=False)
    monkeypatch.setenv("PMI_SIZE", str(n_launched))
    mpi4py = types.ModuleType("mpi4py")
    mpi4py.MPI = types.SimpleNamespace(COMM_WORLD=_World(n_mpi))
    monkeypatch.setitem(sys.modules, "mpi4py", mpi4py)
    return mpi4py.MPI.COMM_WORLD


def test_init_refuses_an_mpi_that_sees_another_count_word_for_word(monkeypatch):
    _launched(monkeypatch, 2, 3)
    with pytest.raises(UserError) as e:
        distributed.init()
    assert str(e.value) == (
        "the launcher started 2 processes but MPI sees 3: use the mpiexec of the MPI that mpi4py was built with "
        "(the one pip install 'lnrnn[mpi]' puts beside python), or srun --mpi=pmi2 (or pmix) on Slurm.")


def test_init_under_a_launcher_wraps_the_world(monkeypatch):
    world = _launched(monkeypatch, 2, 2)
    g = distributed.init()
    assert g.comm is world and (g.rank, g.size, g.root) == (0, 2, True)


def test_reproducible_refusal_counts_the_data_blocks_word_for_word():
    c = TrainConfig(reproducible=True, batch_size=2, block_rows=2)
    with pytest.raises(UserError) as e:
        distributed.check_config(c, 2)
    assert str(e.value) == (
        "--reproducible gives each of the 2 MPI processes whole blocks of a batch, but --batch-size 2 with "
        "--block-rows 2 makes 1 block; use a larger --batch-size, a smaller --block-rows, or at most 1 process.")


def test_describe_split_reproducible_follows_the_block_rows_given():
    rows, B, size = 8, 64, 2
    kernel_blocks = 1
    while 2 * kernel_blocks <= B and B // (2 * kernel_blocks) >= rows:  # the largest power of two with >= rows rows
        kernel_blocks *= 2
    nb = kernel_blocks // 2
    assert (kernel_blocks, nb) == (8, 4)
    assert distributed.describe_split(size, B, True, rows=rows) == (
        f"Data parallel over {size} MPI processes, reproducible: each batch of {B} is {nb} blocks, {nb // size} a "
        "process; their gradients are gathered and added in block order (the same bits as one process); rank 0 "
        "writes the run folder.")
