"""lnrnn/model/heads.py's default seed: every head built without one (a user's ClassifierHead(64, 10), or make_head
without seed=) holds the parameters of seed 0, its first weights drawn from the head's own stream [seed, 7] as the
base class's docstring says, and another seed gives other weights."""
import numpy as np
import pytest

from lnrnn.model.heads import HEADS, make_head

H = 6
ARGS = {"classifier": {"outputs": 3}, "regression": {"outputs": 2}, "mdn": {"components": 2}, "ctc": {"outputs": 4}}


@pytest.mark.parametrize("kind", sorted(HEADS))
def test_a_head_built_without_a_seed_holds_seed_0s_parameters(kind):
    plain = HEADS[kind](H, **ARGS[kind])
    zero = HEADS[kind](H, seed=0, **ARGS[kind])
    one = HEADS[kind](H, seed=1, **ARGS[kind])
    via = make_head({"kind": kind, **ARGS[kind]}, H)
    assert sorted(plain.params) == sorted(zero.params) == sorted(via.params)
    for k in zero.params:
        np.testing.assert_array_equal(plain.params[k], zero.params[k])
        np.testing.assert_array_equal(via.params[k], zero.params[k])
    W = zero.params["W"]
    assert W.dtype == np.float32 and W.shape[0] == H
    assert not np.array_equal(one.params["W"], W)  # the seed reaches the weights
    # the weights' stream, apart from the stack's: uniform in +-1/sqrt(H) from default_rng([seed, 7])
    bound = 1.0 / np.sqrt(H)
    expected = np.random.default_rng([0, 7]).uniform(-bound, bound, W.shape).astype(np.float32)
    np.testing.assert_array_equal(W, expected)
