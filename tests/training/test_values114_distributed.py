"""lnrnn/training/distributed.py in one process against the plain update and the launcher's variables.

--reproducible in one process (block rows 1, B = 5: two blocks) with truncated BPTT, masks, state noise and
float64, LayerNorm and BatchNorm cells: the gradient and means equal one plain call's to round-off, so block 1's
gradient is added as well as block 0's, each once. launched_size reads the first variable that names more than
one process (a variable saying 1 does not end the search); launched_rank reads the rank variables, never the
size ones. init without a launcher is the group of one without touching mpi4py: the tests that reach mpi4py
run with it blocked (an ImportError at once), so a bug that sends one process to MPI fails here at once instead
of waiting in MPI_Init for a process manager. failing_together in a group of one lets an error out unchanged
(there is no communicator to abort), in a larger group hands it to the group's fail. check_config's MPI rules
leave one process alone; resume_note speaks whenever the process counts differ, either way, with its plurals
following the counts they name."""
import sys
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn.errors import UserError
from lnrnn.kernels.cpu.threads import block_rows
from lnrnn.model.models import build_model
from lnrnn.training import distributed
from test_values43_distributed_shards import B, LENGTHS, PER_STEP, batch, close, config, same_means

SIZE_VARS, RANK_VARS = distributed.SIZE_VARS, distributed.RANK_VARS


@pytest.fixture
def no_launcher(monkeypatch):
    """No launcher variables, and mpi4py unimportable: reaching it raises ImportError at once."""
    for v in SIZE_VARS + RANK_VARS:
        monkeypatch.delenv(v, raising=False)
    monkeypatch.setitem(sys.modules, "mpi4py", None)
    return monkeypatch


@pytest.mark.parametrize("cell,head,tbptt", [("ln-lstm", PER_STEP, 2), ("bn-rnn", PER_STEP, 3)],
                         ids=["ln-lstm-step-tbptt2", "bn-rnn-step-tbptt3"])
def test_reproducible_blocks_in_one_process_are_the_plain_update(cell, head, tbptt):
    cfg = config(cell, head, "float64")
    x, y, _ = batch(head, seed=9)
    one = build_model(cfg, seed=5)
    want = one.loss_and_grad(x, y, LENGTHS, tbptt=tbptt, noise_key=6)
    m = build_model(cfg, seed=5)
    with block_rows(1):
        assert distributed.data_blocks(B) == 2
        got = distributed.loss_and_grad_blocks(distributed.SINGLE, m, x, y, LENGTHS, tbptt, 6, np.zeros(2))
    close(m.flat[1].data, one.flat[1].data, "gradient", tol=1e-9)
    same_means(got, want, one.last_count, "means")
    assert m.last_count == one.last_count


@pytest.mark.parametrize("env,want", [
    ({}, 1),
    ({SIZE_VARS[0]: "1"}, 1),
    ({SIZE_VARS[0]: "1", SIZE_VARS[1]: "3"}, 3),
    ({SIZE_VARS[0]: "", SIZE_VARS[2]: "4"}, 4),
    ({SIZE_VARS[1]: "x", SIZE_VARS[3]: "2"}, 2),
])
def test_launched_size_is_the_first_variable_naming_more_than_one(no_launcher, env, want):
    for k, v in env.items():
        no_launcher.setenv(k, v)
    assert distributed.launched_size() == want


@pytest.mark.parametrize("env,want", [
    ({}, 0),
    ({RANK_VARS[1]: "2"}, 2),
    ({SIZE_VARS[0]: "4", RANK_VARS[0]: "1"}, 1),
    ({SIZE_VARS[3]: "3", RANK_VARS[2]: "x", RANK_VARS[3]: "2"}, 2),
])
def test_launched_rank_reads_the_rank_variables(no_launcher, env, want):
    for k, v in env.items():
        no_launcher.setenv(k, v)
    assert distributed.launched_rank() == want


def test_init_without_a_launcher_is_the_group_of_one_without_mpi(no_launcher):
    no_launcher.setenv(SIZE_VARS[0], "1")
    g = distributed.init()
    assert g is distributed.SINGLE and (g.rank, g.size, g.root) == (0, 1, True)


def test_init_under_a_launcher_without_mpi4py_says_so(no_launcher):
    no_launcher.setenv(SIZE_VARS[1], "3")
    with pytest.raises(UserError, match=r"^lnrnn was started as 3 processes by an MPI launcher, but mpi4py is not "):
        distributed.init()


def test_failing_together_in_one_process_lets_the_error_out():
    with pytest.raises(UserError, match="the same error"):
        with distributed.failing_together(distributed.SINGLE):
            raise UserError("the same error")
    with distributed.failing_together(distributed.SINGLE):
        done = True
    assert done


def test_failing_together_in_a_group_hands_the_error_to_the_group():
    failed = []
    group = SimpleNamespace(size=2, fail=failed.append)
    err = UserError("a rank's error")
    with distributed.failing_together(group):
        raise err
    assert failed == [err]
    with distributed.failing_together(group):
        pass
    assert failed == [err]


def cfg(**kw):
    return SimpleNamespace(**{"device": "cpu", "reproducible": False, "block_rows": 1, "batch_size": 4, **kw})


def test_check_config_leaves_one_process_alone():
    assert distributed.check_config(cfg(device="cuda", batch_size=1, reproducible=True), 1) is None
    with pytest.raises(UserError, match=r"^--device cuda: training across MPI processes runs on the CPU only"):
        distributed.check_config(cfg(device="cuda"), 2)
    with pytest.raises(UserError, match=r"^--batch-size 1 is smaller than the 2 MPI processes"):
        distributed.check_config(cfg(batch_size=1), 2)
    assert distributed.check_config(cfg(batch_size=2), 2) is None


@pytest.mark.parametrize("saved,size", [(1, 1), (3, 3), (4, 2), (2, 4), (1, 3), (3, 1)])
@pytest.mark.parametrize("reproducible", [False, True])
def test_resume_note_speaks_whenever_the_counts_differ(saved, size, reproducible):
    note = distributed.resume_note(saved, size, 12, reproducible)
    if saved == size:
        assert note is None
        return
    procs = "process" if saved == 1 else "processes"
    assert note.startswith(f"The run was trained as {saved} {procs} and resumes as {size}: ")
    if reproducible:
        assert note.endswith("with --reproducible the updates are the same bits.")
    else:
        ways = "way" if size == 1 else "ways"
        assert f"each global batch of 12 is now split {size} {ways};" in note
