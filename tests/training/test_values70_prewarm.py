"""lnrnn/training/prewarm.py: one child per kind of backward loop (cell, norm, dtype) in an armed update, however
many training forwards of that kind run before its backward waits (layers of other sizes, later chunks of
truncated BPTT), counted against the kinds seen; a kind in the cache starts none."""
import numpy as np

from lnrnn.training import prewarm
from test_prewarm import fake_layer, spawns  # noqa: F401  (the fixture: Popen recorded, a cold cache)


def test_every_forward_of_a_cold_kind_after_the_first_starts_nothing(spawns):  # noqa: F811
    layers = [fake_layer(I=1, H=8), fake_layer(I=8, H=8), fake_layer(I=8, H=4), fake_layer(cell="rnn", norm="ln"),
              fake_layer(cell="rnn", norm="ln", I=4, H=4)]
    with prewarm.armed():
        for _ in range(3):   # three chunks of truncated BPTT, each a forward of every layer
            for layer in layers:
                prewarm.layer_forward(layer)
    kinds = list(dict.fromkeys((ly.cell, ly.norm, np.dtype(ly.dtype).name) for ly in layers))
    assert [(s["cell"], s["norm"], s["dtype"]) for s in spawns] == kinds
    assert len(spawns) == 2


def test_a_kind_in_the_cache_starts_no_child(spawns, monkeypatch):  # noqa: F811
    monkeypatch.setattr(prewarm, "_in_cache", lambda fn: fn is fake_layer().spec.backward_loop)
    with prewarm.armed():
        for _ in range(2):
            prewarm.layer_forward(fake_layer())                     # bn-lstm: in the cache
            prewarm.layer_forward(fake_layer(cell="rnn", norm="ln"))
    assert [(s["cell"], s["norm"]) for s in spawns] == [("rnn", "ln")]
