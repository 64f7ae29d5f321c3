"""lnrnn/training/update.py and lnrnn/training/train.py on the distributed paths: the options a run names reach the
update a group (or --reproducible) runs.

- The host update of a stand-in trainer around a real model, in a group of 2 coroutine ranks
  (test_values43_distributed_shards.Coroutines) or of one (mpi4py's COMM_SELF), with --reproducible and truncated BPTT:
  every rank's gradient is, to the bit, one process's ``loss_and_grad_blocks`` with the same --tbptt; the
  shards' Allreduce (the path without --reproducible) and whole sequences are checked to give other bits.
- A tiny ``lnrnn train --reproducible --block-rows 1`` run (npz task, float64, two updates): each update's
  blocks are the run's --block-rows' (the gradient of the update, made inside the run, against the same call
  made here under block_rows(1)); the default block rows give other bits on the first batch."""
from types import SimpleNamespace as NS

import numpy as np
import pytest

from lnrnn.kernels.cpu.threads import block_rows
from lnrnn.model.models import build_model
from lnrnn.training import distributed
from lnrnn.training import train as train_mod
from lnrnn.training.runconfig import TrainConfig
from lnrnn.training.update import HostUpdate
from test_values43_distributed_shards import LENGTHS, PER_STEP, Coroutines, batch, config

STEP, TBPTT = 9, 2


def stand_in(m, group, tbptt):
    """What HostUpdate.loss_and_grad reads of a trainer (its first update made: nothing to prewarm)."""
    return NS(cfg=NS(task="npz", reproducible=True, tbptt=tbptt, clip=0.0), group=group, first_update_s=1.0,
              stopping=NS(cast_votes=lambda: None), step=STEP, batch_in_epoch=0, epoch=0, votes=np.zeros(3), model=m)


def grads_of(cfg, run):
    m = build_model(cfg, seed=3)
    with block_rows(1):
        run(m)
    return m.flat[1].data.copy()


@pytest.mark.parametrize("cell", ["ln-lstm", "bn-lstm"])
def test_a_groups_reproducible_update_is_one_process_blocks_with_its_tbptt(cell):
    cfg = config(cell, PER_STEP)
    x, y, _ = batch(PER_STEP, seed=3)
    blocks = grads_of(cfg, lambda m: distributed.loss_and_grad_blocks(distributed.SINGLE, m, x, y, LENGTHS, TBPTT,
                                                                      STEP, np.zeros(3)))
    whole = grads_of(cfg, lambda m: distributed.loss_and_grad_blocks(distributed.SINGLE, m, x, y, LENGTHS, None,
                                                                     STEP, np.zeros(3)))
    assert np.abs(whole - blocks).max() > 1e-6 * np.abs(blocks).max()     # --tbptt changes this update
    ranks = [build_model(cfg, seed=3) for _ in range(2)]
    shards = [build_model(cfg, seed=3) for _ in range(2)]

    def update(group):
        m = ranks[group.rank]
        if cell.startswith("bn"):   # as setup.build does for a group
            m.stack.set_batch_reduce(group.allreduce)
        return HostUpdate(stand_in(m, group, TBPTT)).loss_and_grad(x, y, LENGTHS)

    def shard(group):
        m = shards[group.rank]
        if cell.startswith("bn"):
            m.stack.set_batch_reduce(group.allreduce)
        return distributed.loss_and_grad(group, m, x, y, LENGTHS, TBPTT, STEP, np.zeros(3))

    with block_rows(1):
        Coroutines(2).run(update)
        Coroutines(2).run(shard)
    assert not np.array_equal(shards[0].flat[1].data, blocks)   # the shards' Allreduce: other bits
    for m in ranks:
        np.testing.assert_array_equal(m.flat[1].data, blocks)


def test_a_one_rank_groups_reproducible_update_keeps_its_tbptt():
    MPI = pytest.importorskip("mpi4py.MPI")
    cfg = config("ln-rnn", PER_STEP)
    x, y, _ = batch(PER_STEP, seed=4)
    want = grads_of(cfg, lambda m: distributed.loss_and_grad_blocks(distributed.SINGLE, m, x, y, LENGTHS, TBPTT, STEP,
                                                                    np.zeros(3)))
    whole = grads_of(cfg, lambda m: distributed.loss_and_grad_blocks(distributed.SINGLE, m, x, y, LENGTHS, None, STEP,
                                                                     np.zeros(3)))
    assert np.abs(whole - want).max() > 1e-6 * np.abs(want).max()
    m = build_model(cfg, seed=3)
    with block_rows(1):
        HostUpdate(stand_in(m, distributed.Group(MPI.COMM_SELF), TBPTT)).loss_and_grad(x, y, LENGTHS)
    np.testing.assert_array_equal(m.flat[1].data, want)


N, TN, IN = 10, 5, 2


def npz(tmp_path):
    rng = np.random.default_rng(8)
    lengths = rng.integers(1, TN + 1, N)
    y = rng.integers(0, 3, (N, TN))
    y[np.arange(TN)[None, :] >= lengths[:, None]] = -1
    x = rng.standard_normal((N, TN, IN))
    path = tmp_path / "data.npz"
    np.savez(path, x=x, y=y, lengths=lengths, x_val=x[:3], y_val=y[:3], lengths_val=lengths[:3])
    return path


def test_a_reproducible_run_updates_with_its_block_rows(tmp_path, monkeypatch):
    """Batches of 8 and 2: with --block-rows 1 the first is 4 blocks (the default block rows make it one)."""
    real = distributed.loss_and_grad_blocks
    seen = []

    def checked(group, model, x, y, lengths, tbptt, key, votes, text=None):
        def twin_grads(rows):
            twin = build_model(model.config, seed=model.noise_seed)
            twin.flat[0].data[...] = model.flat[0].data
            with block_rows(rows):
                real(distributed.SINGLE, twin, x, y, lengths, tbptt, key, np.zeros(3), text)
            return twin.flat[1].data.copy()

        own, default = twin_grads(1), twin_grads(32)
        out = real(group, model, x, y, lengths, tbptt, key, votes, text)
        seen.append((x.shape[1], np.array_equal(model.flat[1].data, own), np.array_equal(own, default)))
        return out

    monkeypatch.setattr(distributed, "loss_and_grad_blocks", checked)
    cfg = TrainConfig(task="npz", data_dir=str(npz(tmp_path)), cell="ln-lstm", hidden=3, batch_size=8, epochs=1,
                      seed=2, dtype="float64", block_rows=1, reproducible=True, clip=0.0,
                      out=str(tmp_path / "run"), save_every_seconds=0)
    train_mod.train(cfg, quiet=True, log=lambda m: None)
    assert [b for b, _, _ in seen] == [8, 2]
    assert not seen[0][2]                           # the first batch's blocks matter to its bits
    assert all(same for _, same, _ in seen), seen   # every update ran the run's blocks
