"""The per-block models of a BN update under --reproducible (lnrnn/training/distributed.py: block_models) on a
one-layer and a two-layer BN model: n models of the model's own config, each layer with the model's gate clip and
the head with its output clip, on the host, with parameters, gradients and BN statistics of their own; built once
and kept on the model (a later call for fewer gives the first ones, for more adds only the missing ones)."""
import numpy as np
import pytest

from lnrnn.model.models import build_model
from lnrnn.training.distributed import block_models

MDN = {"kind": "mdn", "components": 2, "per_step": True}


def bn_model(layers, head):
    cfg = dict(cell="lstm", norm="bn", input_size=3, hidden_size=4, num_layers=layers, dtype="float64",
               forget_bias=1.0, head=head)
    return build_model(cfg, seed=2, clip_gates=0.7)


@pytest.mark.parametrize("layers", [1, 2])
def test_block_models_take_the_models_config_and_clips(layers):
    model = bn_model(layers, MDN)
    model.head.clip_output = 5.0
    twins = block_models(model, 3)
    assert len(twins) == 3 and len({id(m) for m in twins}) == 3 and model not in twins
    for m in twins:
        assert m.config == model.config
        assert [lay.clip_gates for lay in m.stack.layers] == [0.7] * layers
        assert m.head.clip_output == 5.0
        assert list(m.params) == list(model.params) and list(m.buffers) == list(model.buffers)
        for views in ("params", "grads", "buffers"):
            theirs = getattr(model, views)
            for name, b in getattr(m, views).items():
                a = theirs[name]
                assert isinstance(b, np.ndarray) and (b.shape, b.dtype) == (a.shape, a.dtype), name  # on the host
                assert not np.shares_memory(a, b), name                                           # its own


def test_block_models_are_kept_on_the_model():
    model = bn_model(1, {"kind": "classifier", "outputs": 3, "per_step": False})
    first = block_models(model, 2)
    assert block_models(model, 1) == first[:1]
    more = block_models(model, 4)
    assert more[:2] == first and len(more) == 4 and len({id(m) for m in more}) == 4
    assert block_models(model, 4) == more
