"""lnrnn/training/distributed.py in one process against the plain update, a shard's rows and fail's documented lines.

--reproducible in one process (block rows 1, B = 5: two blocks of rows 3 and 2) equals one plain call of the whole
batch to round-off, float64: LayerNorm with truncated BPTT, masks, state noise and the synthesis window's text
(each block's rows of x, targets, lengths, noise and text); BatchNorm over two updates, the parameters stepped
by hand between them (every block's model runs the update's parameters and statistics, not the first update's).
shard_batch for rank 1 of 2 (rows 3 and 4 of 5) and rank 5 of 6 (an empty shard: one sequence of length 0),
with and without text, against the rows sliced here and the global batch's scored units. Group.fail with a
stand-in communicator (its sleeps stubbed): a UserError is 'Error: ...' and its exit code, on rank 1 'Error
(rank 1 of 2): ...'; Ctrl-C is 'Error: interrupted.' and 130; SystemExit prints nothing and aborts with its
code (1 for a code that is not a number); a bug keeps its traceback and aborts with 1."""
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn.errors import UserError
from lnrnn.kernels.cpu.threads import block_rows
from lnrnn.model.models import build_model
from lnrnn.training import distributed
from test_values124_distributed_group import Comm
from test_values43_distributed_shards import (B, LAST, LENGTHS, MDN, PER_STEP, Solo, batch, close, config, same_means,
                                  whole)


# ---- --reproducible in one process ----

@pytest.mark.parametrize("cell,head,tbptt,text", [("ln-lstm", MDN, 4, True), ("ln-rnn", PER_STEP, 2, False)],
                         ids=["ln-lstm-mdn-tbptt4-text", "ln-rnn-step-tbptt2"])
def test_reproducible_blocks_are_one_plain_update(cell, head, tbptt, text):
    cfg = config(cell, head, text=text)
    x, y, tx = batch(head, text, seed=4)
    x = np.concatenate([x, x[:3] * 0.5])    # T = 9 > B: a block sliced along time would not even fail
    y = np.concatenate([y, y[:, :3]], axis=1)     # targets (B, T[, 3]) on the new steps too
    lengths = LENGTHS + np.array([3, 0, 0, 2, 1])
    one, want = whole(cfg, x, y, lengths, tbptt, 6, tx)
    m = build_model(cfg, seed=3)
    with block_rows(1):
        assert distributed.data_blocks(B) == 2
        got = distributed.loss_and_grad_blocks(distributed.SINGLE, m, x, y, lengths, tbptt, 6, np.zeros(3),
                                               text=tx)
    close(m.flat[1].data, one.flat[1].data, "gradient", tol=1e-9)
    same_means(got, want, one.last_count, "means", tol=1e-9)
    assert m.last_count == one.last_count


def test_reproducible_batchnorm_blocks_follow_the_parameters_over_two_updates():
    cfg = config("bn-rnn", PER_STEP)
    one, blocks = build_model(cfg, seed=5), build_model(cfg, seed=5)
    with block_rows(1):
        for update, seed in ((1, 7), (2, 8)):
            x, y, _ = batch(PER_STEP, seed=seed)
            want = one.loss_and_grad(x, y, LENGTHS, tbptt=3, noise_key=update)
            got = distributed.loss_and_grad_blocks(distributed.SINGLE, blocks, x, y, LENGTHS, 3, update, np.zeros(3))
            close(blocks.flat[1].data, one.flat[1].data, f"update {update}'s gradient", tol=1e-9)
            same_means(got, want, one.last_count, f"update {update}'s means", tol=1e-9)
            for k, v in one.buffers.items():
                close(blocks.buffers[k], v, f"update {update}'s {k}", tol=1e-9)
            for m in (one, blocks):   # a step of plain SGD, the same on both
                m.flat[0].data[...] -= 0.5 * m.flat[1].data


# ---- one rank's shard ----

def _text():
    codes = np.arange(20, dtype=np.int64).reshape(B, 4) % 5
    return codes, np.array([3, 1, 2, 4, 2])


@pytest.mark.parametrize("with_text", [False, True], ids=["plain", "text"])
def test_a_ranks_shard_is_its_rows_of_the_global_batch(with_text):
    cfg = config("ln-rnn", PER_STEP, noise=0.0)
    model = build_model(cfg, seed=3)
    x, y, _ = batch(PER_STEP, seed=3)
    tx = _text() if with_text else None
    xs, ts, ls, state, total, tt = distributed.shard_batch(Solo(1, 2), model, x, y, LENGTHS, 4, tx)
    np.testing.assert_array_equal(xs, x[:, 3:5])
    np.testing.assert_array_equal(ts, y[3:5])
    np.testing.assert_array_equal(ls, LENGTHS[3:5])
    assert state is None
    mask = np.arange(x.shape[0])[None, :] < LENGTHS[:, None]
    assert total == int(np.sum(mask & (y >= 0)))     # the global batch's scored steps
    if with_text:
        np.testing.assert_array_equal(tt[0], tx[0][3:5])
        np.testing.assert_array_equal(tt[1], tx[1][3:5])
    else:
        assert tt is None


@pytest.mark.parametrize("with_text", [False, True], ids=["plain", "text"])
def test_an_empty_shard_is_one_sequence_of_length_zero(with_text):
    model = build_model(config("ln-rnn", LAST, noise=0.0), seed=3)
    x, y, _ = batch(LAST, seed=3)
    tx = _text() if with_text else None
    xs, ts, ls, state, total, tt = distributed.shard_batch(Solo(5, 6), model, x, y, LENGTHS, 4, tx)
    assert distributed.shard(B, 6, 5) == (5, 5)
    np.testing.assert_array_equal(xs, x[:, :1])
    np.testing.assert_array_equal(ls, [0])
    assert total == int(np.sum(LENGTHS > 0))        # the global batch's scored sequences
    if with_text:
        np.testing.assert_array_equal(tt[0], tx[0][:1])
        np.testing.assert_array_equal(tt[1], [0])
    else:
        assert tt is None


# ---- Group.fail ----

class Refused(UserError):
    exit_code = 3


def _fail(monkeypatch, capsys, exc, rank=0):
    slept = []
    monkeypatch.setattr(distributed, "time", SimpleNamespace(sleep=slept.append))
    comm = Comm(rank, 2)
    distributed.Group(comm).fail(exc)
    err = capsys.readouterr().err
    assert slept == ([distributed.MPI_FAIL_GRACE_S] if rank else []) + [distributed.MPI_FLUSH_S]
    return err, comm.aborted


@pytest.mark.parametrize("exc,rank,line,code", [
    (Refused("no such task"), 0, "Error: no such task\n", 3),
    (Refused("no such task"), 1, "Error (rank 1 of 2): no such task\n", 3),
    (KeyboardInterrupt(), 0, "Error: interrupted.\n", 130),
    (KeyboardInterrupt(), 1, "Error: interrupted.\n", 130),
    (SystemExit(4), 0, "", 4),
    (SystemExit("bye"), 1, "", 1),
], ids=["user-root", "user-rank1", "ctrl-c-root", "ctrl-c-rank1", "exit-4", "exit-text"])
def test_fail_prints_one_line_and_aborts_with_the_errors_code(monkeypatch, capsys, exc, rank, line, code):
    err, aborted = _fail(monkeypatch, capsys, exc, rank)
    assert err == line
    assert aborted == [code]


def test_fail_keeps_a_bugs_traceback(monkeypatch, capsys):
    try:
        raise ZeroDivisionError("a bug")
    except ZeroDivisionError as e:
        exc = e
    err, aborted = _fail(monkeypatch, capsys, exc)
    assert err.startswith("Traceback (most recent call last):") and err.endswith("ZeroDivisionError: a bug\n")
    assert aborted == [1]
