"""lnrnn.torch: PyTorch modules on lnrnn's kernels through torch.library custom ops.

The judges: ``torch.autograd.gradcheck`` (float64 finite differences) of whole two-layer stacks of every
cell with padded rows, initial states and h_n in the loss; ``torch.library.opcheck`` of the ops;
``torch.nn.LSTM`` / ``nn.RNN`` themselves for the plain cells (their state_dict loads as it is and gives
their outputs and gradients); lnrnn's own layers and trained runs (``lnrnn export``, ``from_run``) for the
normalized ones; ``torch.compile(fullgraph=True)`` against eager.

torch is an optional extra: without it these tests skip, unless LNRNN_REQUIRE_EXTRAS=1 (CI), where a
missing torch fails them."""
import os
import subprocess
import sys

import numpy as np
import pytest

if os.environ.get("LNRNN_REQUIRE_EXTRAS") == "1":
    import torch  # CI installs the extras: a missing torch is a failure there, not a skip
else:
    torch = pytest.importorskip("torch")

import lnrnn.torch as lt  # noqa: E402
from lnrnn import backend, cells  # noqa: E402
from lnrnn.interop import functional as F  # noqa: E402

CELLS = list(cells.CELLS)
F64 = torch.float64


def _norm(spec):
    return None if spec.norm == "none" else spec.norm


def _module(name, I=2, H=2, layers=2, dtype=F64, seed=0, **kw):
    """A stack of cell ``name`` with every parameter moved off its initial value (gains 1, biases 0)."""
    spec = cells.get(name)
    torch.manual_seed(seed)
    cls = lt.LSTM if spec.cell == "lstm" else lt.RNN
    m = cls(I, H, num_layers=layers, norm=_norm(spec), dtype=dtype, **kw)
    g = torch.Generator().manual_seed(seed + 1)
    with torch.no_grad():
        for p in m.parameters():
            p.add_(torch.rand(p.shape, generator=g, dtype=dtype) * 0.6 - 0.3)
    return m


def _random_stats(m, T, seed=3):
    """Population statistics of T steps with values a run could have (means around 0, variances 0.5..1.5)."""
    g = torch.Generator().manual_seed(seed)
    for name, b in list(m.named_buffers()):
        v = torch.rand((T, b.shape[1]), generator=g, dtype=b.dtype)
        setattr(m, name, v - 0.5 if "mean" in name else v + 0.5)


def _states(spec, L, B, H, seed=4, dtype=F64):
    g = torch.Generator().manual_seed(seed)
    return [(torch.rand((L, B, H), generator=g, dtype=dtype) - 0.5).requires_grad_() for _ in range(spec.nstate)]


def _hx(spec, states):
    return tuple(states) if spec.nstate == 2 else states[0]


def _h_n(spec, final):
    return final[0] if spec.nstate == 2 else final


# ---- gradients ----

@pytest.mark.parametrize("name", CELLS)
@pytest.mark.parametrize("mode", ["train", "eval", "skip"])
def test_gradcheck_two_layers_padded_with_initial_states_and_h_n(name, mode):
    """dx, dh0, (dc0) and every parameter's gradient against float64 finite differences of out and h_n,
    over a padded batch with a row of length 0. eval: BN with population statistics (the other cells
    have no mode: skipped there); skip: Graves's skip connections."""
    spec = cells.get(name)
    if mode == "eval" and spec.norm != "bn":
        pytest.skip("only BatchNorm cells differ between train() and eval()")
    T, B, I, H = 4, 4, 2, 2
    m = _module(name, I, H, skip=mode == "skip")
    if mode == "eval":
        _random_stats(m, T - 1)  # fewer rows than steps: the last row serves the last step
        m.eval()
    names = [n for n, _ in m.named_parameters()]
    params = [p.detach().clone().requires_grad_() for p in m.parameters()]
    x = torch.randn(T, B, I, dtype=F64, generator=torch.Generator().manual_seed(5)).requires_grad_()
    states = _states(spec, 2, B, H)
    lengths = torch.tensor([4, 3, 0, 4])

    def f(x, *args):
        st, ps = args[:spec.nstate], args[spec.nstate:]
        out, final = torch.func.functional_call(m, dict(zip(names, ps)), (x, _hx(spec, st)), {"lengths": lengths})
        return out, _h_n(spec, final)

    assert torch.autograd.gradcheck(f, (x, *states, *params))


@pytest.mark.parametrize("name", CELLS)
@pytest.mark.parametrize("masked", [False, True])
def test_opcheck_of_the_layer_ops(name, masked):
    spec = cells.get(name)
    T, B, I, H = 3, 3, 2, 3
    m = _module(name, I, H, layers=1)
    m._grow_buffers(0, T)  # training reads and updates BN statistics of every step
    g = torch.Generator().manual_seed(6)
    x = torch.randn(T, B, I, dtype=F64, generator=g).requires_grad_()
    state = [torch.randn(B, H, dtype=F64, generator=g).requires_grad_() for _ in range(spec.nstate)]
    params = [p.detach().clone().requires_grad_() for p in m.layer_params(0)]
    lengths = torch.tensor([3, 1, 0]) if masked else None
    args = (x, state, params, m.layer_buffers(0), lengths, name, True, True)
    torch.library.opcheck(lt.layer_forward, args)
    y, final, res, _ = lt.layer_forward(*args)
    dy, dh = torch.randn_like(y), torch.randn_like(final[0])
    bargs = ([r.detach() for r in res], x.detach(), [s.detach() for s in state], [p.detach() for p in params],
             y.detach(), dy, [dh], lengths, name, True)
    torch.library.opcheck(lt.layer_backward, bargs)


@pytest.mark.parametrize("name", ["lstm", "ln-lstm", "bn-lstm"])
def test_a_gradient_of_c_n_is_refused_in_one_sentence_and_h_n_is_not(name):
    spec = cells.get(name)
    m = _module(name, 2, 3)
    x = torch.randn(4, 2, 2, dtype=F64, requires_grad=True)
    out, (h_n, c_n) = m(x)
    assert c_n.requires_grad
    with pytest.raises(NotImplementedError, match="c_n"):
        c_n.sum().backward(retain_graph=True)
    (out.sum() + h_n.sum() + 0 * c_n.sum()).backward()   # a zero dc_n is no gradient at all
    assert x.grad is not None and torch.isfinite(x.grad).all() and spec.nstate == 2
