"""lnrnn/training/distributed.py: what one update hands back to every rank besides the gradient. The stop votes
ride the update's Allreduce (the module docstring, "Stopping together"): after ``loss_and_grad`` and
``loss_and_grad_blocks`` every rank holds the group's sum of the votes, whichever rank cast them, so all ranks
stop after the same update. Every rank's model then holds the global batch's count and sums (what the trainer
adds into the epoch's means), equal to one process's. "Ranks" are threads
(tests/training/test_values_distributed_options2.ThreadRank)."""
import numpy as np
import pytest

from lnrnn.kernels.cpu.threads import block_rows
from lnrnn.model.models import build_model
from lnrnn.training import distributed
from test_values_distributed_options2 import on_ranks

T, B, I, H = 5, 5, 3, 4
HEAD = {"kind": "classifier", "outputs": 3, "per_step": True}
LENGTHS = np.array([5, 2, 0, 4, 3])
VOTES = [np.array([1.0, 0.0, 0.0]), np.array([0.0, 1.0, 0.0]), np.array([1.0, 0.0, 1.0])]   # rank r's own


def model():
    cfg = dict(cell="lstm", norm="ln", input_size=I, hidden_size=H, num_layers=2, dtype="float64",
               forget_bias=1.0, state_noise=0.3, head=HEAD)
    return build_model(cfg, seed=4)


def batch(seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, HEAD["outputs"], (B, T))
    y[0, 1] = -1                                       # an unscored step
    return rng.standard_normal((T, B, I)), y


@pytest.mark.parametrize("blocks", [False, True], ids=["allreduce", "reproducible"])
@pytest.mark.parametrize("n", [2, 3])
def test_every_rank_holds_the_groups_votes_and_the_global_count(n, blocks):
    x, y = batch()
    one = model()
    one.loss_and_grad(x, y, LENGTHS, noise_key=7)
    ranks = [model() for _ in range(n)]
    votes = [v.copy() for v in VOTES[:n]]

    def work(group):
        run = distributed.loss_and_grad_blocks if blocks else distributed.loss_and_grad
        with block_rows(1):
            return run(group, ranks[group.rank], x, y, LENGTHS, None, 7, votes[group.rank])

    on_ranks(n, work)
    want = np.sum(VOTES[:n], axis=0)
    for r in range(n):
        np.testing.assert_array_equal(votes[r], want)
        assert ranks[r].last_count == one.last_count == one.scored_count(y, LENGTHS, T, B)
        for k, v in one.last_sums.items():
            assert ranks[r].last_sums[k] == pytest.approx(v, rel=1e-12), k
