"""lnrnn/training/distributed.py against what it must say and compute, worked out here:

- The launcher's process count is read from each launcher's own variable, alone in the environment.
- Group.fail on any rank: Ctrl-C prints "Error: interrupted." (no rank prefix: that is for a user's error) and
  aborts with 130, the shell's status for SIGINT; a user's error on rank 1 names the rank.
- resume_note and describe_split word for word, with the plurals and the uneven shards (10 rows on 4 processes:
  shards of 2 and 3) counted here.
- --reproducible's blocks on two thread ranks (tests/training/test_values_distributed_options2's ThreadRank) equal
  one plain call over the whole batch, in float64 with masks, truncated BPTT and state noise: an LN-LSTM of 5 rows
  in 2 blocks, one a rank (rank 1's block numbered 0 among its own), and a BN-LSTM of 3 rows in 1 block, which
  leaves rank 1 without a block (its stand-in of length 0 takes part in every reduction)."""
import numpy as np
import pytest

from lnrnn.errors import UserError
from lnrnn.kernels.cpu.threads import block_rows
from lnrnn.training import distributed
from test_mpi import _Comm
from test_values20_distributed import batch, close, model, on_ranks

ALL_SIZE_VARS = ("OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "SLURM_STEP_NUM_TASKS")


@pytest.mark.parametrize("var", ALL_SIZE_VARS)
def test_each_launchers_size_variable_alone_is_read(monkeypatch, var):
    for v in ALL_SIZE_VARS:
        monkeypatch.delenv(v, raising=False)
    assert distributed.launched_size() == 1
    monkeypatch.setenv(var, "3")
    assert distributed.launched_size() == 3


@pytest.mark.parametrize("rank", [0, 1])
@pytest.mark.parametrize("exc, line, code", [
    (KeyboardInterrupt(), "Error: interrupted.", 130),
    (UserError("no such file"), "Error{where}: no such file", 2),
])
def test_fail_prints_one_line_and_aborts_with_its_code(monkeypatch, capsys, rank, exc, line, code):
    log = []
    monkeypatch.setattr(distributed.time, "sleep", lambda s: None)
    distributed.Group(_Comm(rank, log)).fail(exc)
    where = f" (rank {rank} of 2)" if rank else ""
    assert capsys.readouterr().err == line.format(where=where) + "\n"
    assert log == [("abort", code)]


def test_resume_note_word_for_word():
    assert distributed.resume_note(2, 2, 8) is None
    assert distributed.resume_note(1, 2, 8) == (
        "The run was trained as 1 process and resumes as 2: each global batch of 8 is now split 2 ways; the updates "
        "are the same up to floating-point summation order (BatchNorm statistics are the global batch's either way).")
    assert distributed.resume_note(3, 1, 8).startswith(
        "The run was trained as 3 processes and resumes as 1: each global batch of 8 is now split 1 way; ")


@pytest.mark.parametrize("size, B, each", [(4, 10, "2-3"), (2, 8, "4")])
def test_describe_split_names_the_shards_counted_here(size, B, each):
    sizes = sorted({len(s) for s in np.array_split(np.arange(B), size)})
    assert "-".join(map(str, sizes)) == each
    assert distributed.describe_split(size, B) == (
        f"Data parallel over {size} MPI processes: each batch of {B} is split into shards of {each} sequences (their "
        "gradients summed by an Allreduce per update); rank 0 writes the run folder.")


def plain(norm, x, y, lengths, tbptt, key):
    one = model(norm)
    means = one.loss_and_grad(x, y, lengths, tbptt=tbptt, noise_key=key)
    return one, means


def on_two_ranks(norm, x, y, lengths, tbptt, key):
    ranks = [model(norm) for _ in range(2)]

    def work(group):
        with block_rows(1):
            return distributed.loss_and_grad_blocks(group, ranks[group.rank], x, y, lengths, tbptt, key, np.zeros(1))
    return ranks, on_ranks(2, work)


@pytest.mark.parametrize("norm, B, lengths, nb", [("ln", 5, [5, 0, 4, 1, 3], 2), ("bn", 3, [2, 5, 0], 1)])
def test_reproducible_blocks_on_two_thread_ranks_are_one_plain_call(norm, B, lengths, nb):
    x, y = batch(B, seed=7)
    y[0, 1] = -1                               # an unscored step inside a row
    lengths = np.array(lengths)
    with block_rows(1):
        assert distributed.data_blocks(B) == nb
    one, want = plain(norm, x, y, lengths, 2, 9)
    ranks, got = on_two_ranks(norm, x, y, lengths, 2, 9)
    for r, (m, means) in enumerate(zip(ranks, got)):
        assert means.keys() == want.keys()
        for k in want:
            assert means[k] == pytest.approx(want[k], rel=1e-10), (r, k)
        assert m.last_count == one.last_count
        close(m.flat[1].data, one.flat[1].data)
        np.testing.assert_array_equal(m.flat[1].data, ranks[0].flat[1].data)
        for k, v in one.stack.buffers.items():
            close(m.stack.buffers[k], v)
