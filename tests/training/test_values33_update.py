"""lnrnn/training/update.py's host update on a real model with a stand-in trainer: its gradient is the one of
the path the run's settings name, to the bit. In one process with --reproducible, the block-by-block update
(``distributed.loss_and_grad_blocks``, whose bits are those of any number of ranks), not the plain one; either
way the initial-state noise is drawn for the trainer's update number (``t.step``, the key the distributed
paths and a resumed run use), not the batch's index within the epoch."""
from types import SimpleNamespace as NS

import numpy as np
import pytest

from lnrnn.kernels.cpu.threads import block_rows
from lnrnn.model.models import build_model
from lnrnn.training import distributed
from lnrnn.training.update import HostUpdate

T, B, I, H = 5, 6, 3, 4
LENGTHS = np.array([5, 2, 0, 4, 3, 5])
STEP, BATCH_IN_EPOCH = 9, 2


def model():
    cfg = dict(cell="lstm", norm="ln", input_size=I, hidden_size=H, num_layers=2, dtype="float64",
               forget_bias=1.0, state_noise=0.3, head={"kind": "classifier", "outputs": 3, "per_step": True})
    return build_model(cfg, seed=4)


def batch():
    rng = np.random.default_rng(1)
    return rng.standard_normal((T, B, I)), rng.integers(0, 3, (B, T))


def stand_in(m, reproducible):
    """What HostUpdate.loss_and_grad reads of a trainer (its first update already made: nothing to prewarm)."""
    cast = []
    t = NS(cfg=NS(task="adding", reproducible=reproducible, tbptt=None, clip=0.0), group=distributed.SINGLE,
           first_update_s=1.0, stopping=NS(cast_votes=lambda: cast.append(1)), step=STEP,
           batch_in_epoch=BATCH_IN_EPOCH, epoch=1, votes=np.zeros(3), model=m)
    return t, cast


def grads_of(run):
    m = model()
    run(m)
    return m.flat[1].data.copy()


@pytest.mark.parametrize("reproducible", [False, True], ids=["plain", "reproducible"])
def test_the_host_update_runs_the_named_path_with_the_update_number_as_noise_key(reproducible):
    x, y = batch()
    with block_rows(1):
        t, cast = stand_in(model(), reproducible)
        means = HostUpdate(t).loss_and_grad(x, y, LENGTHS)
        got = t.model.flat[1].data.copy()
        blocks = grads_of(lambda m: distributed.loss_and_grad_blocks(distributed.SINGLE, m, x, y, LENGTHS, None, STEP,
                                                                     np.zeros(3)))
        plain = grads_of(lambda m: m.loss_and_grad(x, y, LENGTHS, noise_key=STEP))
        other_key = grads_of(lambda m: m.loss_and_grad(x, y, LENGTHS, noise_key=BATCH_IN_EPOCH))
    assert not np.array_equal(blocks, plain)             # the two paths differ in their last bits here
    assert np.abs(other_key - plain).max() > 1e-6        # and the noise key matters
    np.testing.assert_array_equal(got, blocks if reproducible else plain)
    assert cast == ([1] if reproducible else [])         # the group's stop votes are cast on that path only
    assert means["loss"] == pytest.approx(t.model.last_sums["loss"] / t.model.last_count, rel=1e-12)
