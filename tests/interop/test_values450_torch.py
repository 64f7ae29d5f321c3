"""lnrnn.torch keeps a forward's activations for a backward only when one can follow (lnrnn/interop/torch.py: the
operator's `keep`): gradients enabled and something requiring one (a parameter, the input or a state). Watched at
the layer operator, for the LSTM and RNN cells and the stacks: parameters that want gradients keep; under
torch.no_grad or inference_mode nothing is kept; with the parameters frozen, only an input or a state that wants a
gradient keeps. The outputs are the same bits whether kept or not."""
import os

import pytest

if os.environ.get("LNRNN_REQUIRE_EXTRAS") == "1":
    import torch
else:
    torch = pytest.importorskip("torch")

import lnrnn.interop.torch as it  # noqa: E402
import lnrnn.torch as lt  # noqa: E402

F64 = torch.float64
MODULES = {"LSTMCell": lambda: lt.LSTMCell(3, 4, dtype=F64), "RNNCell": lambda: lt.RNNCell(3, 4, dtype=F64),
           "LSTM": lambda: lt.LSTM(3, 4, num_layers=2, dtype=F64), "RNN": lambda: lt.RNN(3, 4, dtype=F64)}


@pytest.fixture
def keeps(monkeypatch):
    seen = []
    real = it.layer_forward

    def watch(*args):
        seen.append(args[-1])
        return real(*args)
    monkeypatch.setattr(it, "layer_forward", watch)
    return seen


def run(name, frozen=False, x_grad=False, h_grad=False, mode=None):
    torch.manual_seed(0)
    m = MODULES[name]()
    for p in m.parameters():
        p.requires_grad_(not frozen)
    cell = name.endswith("Cell")
    x = torch.randn((5, 3) if cell else (2, 5, 3), dtype=F64, requires_grad=x_grad)
    h = torch.randn((5, 4) if cell else (m.num_layers, 5, 4), dtype=F64, requires_grad=h_grad)
    hx = (h, torch.zeros_like(h)) if name.startswith("LSTM") else h
    with (mode() if mode else torch.enable_grad()):
        out = m(x, hx)
    first = out[0] if isinstance(out, tuple) else out
    return first.detach().clone()


@pytest.mark.parametrize("name", list(MODULES))
def test_activations_are_kept_only_when_a_backward_can_follow(keeps, name):
    cases = [(dict(), True), (dict(mode=torch.no_grad), False), (dict(mode=torch.inference_mode), False),
             (dict(frozen=True), False), (dict(frozen=True, x_grad=True), True), (dict(frozen=True, h_grad=True), True)]
    outs = []
    for kw, want in cases:
        keeps.clear()
        outs.append(run(name, **kw))
        assert keeps and set(keeps) == {want}, (kw, keeps)
    assert all(torch.equal(outs[0], o) for o in outs[1:])
