"""lnrnn.torch.LSTMCell / RNNCell against one step of the eager cell of test_values49_torch (torch ops,
torch's autograd): h' and c' with and without a given state, batched and unbatched ((I,) -> (H,)), in float64
and float32, and the gradients of every parameter when neither the input nor the state takes one (training a
cell's weights on data)."""
import os

import pytest

if os.environ.get("LNRNN_REQUIRE_EXTRAS") == "1":
    import torch
else:
    torch = pytest.importorskip("torch")

import lnrnn.torch as lt  # noqa: E402
from test_values49_torch import F32, F64, _close, _perturbed, _rand, _step  # noqa: E402


def _eager_step(m, x, hx):
    """m's step in torch ops: x (B,I), hx [h (B,H)(, c)] -> [h'(, c')]."""
    kind = "lstm" if isinstance(m, lt.LSTMCell) else "rnn"
    h, c = hx[0], hx[1] if kind == "lstm" else None
    h2, c2 = _step(kind, m.norm, lambda stem: getattr(m, stem), x, h, c, {}, 0, False, None)
    return [h2, c2] if kind == "lstm" else [h2]


CELLS = [(lt.LSTMCell, "ln"), (lt.LSTMCell, None), (lt.RNNCell, "ln"), (lt.RNNCell, None)]


@pytest.mark.parametrize("cls,norm", CELLS)
@pytest.mark.parametrize("dtype", [F64, F32])
@pytest.mark.parametrize("give_hx", [False, True])
def test_cell_step_and_parameter_gradients_against_eager(cls, norm, dtype, give_hx):
    """x and hx take no gradient: the parameters' gradients alone are asked for."""
    B, I, H = 3, 4, 2
    torch.manual_seed(5)
    m = _perturbed(cls(I, H, norm=norm, dtype=dtype))
    n = 2 if cls is lt.LSTMCell else 1
    x = _rand((B, I), 20, dtype)
    hx = [_rand((B, H), 21 + i, dtype) for i in range(n)] if give_hx else [torch.zeros((B, H), dtype=dtype)] * n
    w = [_rand((B, H), 30 + i, dtype) for i in range(n)]
    params = list(m.parameters())
    want = _eager_step(m, x, hx)
    ge = torch.autograd.grad(sum((s * wi).sum() for s, wi in zip(want, w)), params)
    got = m(x, (tuple(hx) if n == 2 else hx[0]) if give_hx else None)
    got = list(got) if n == 2 else [got]
    for s, se in zip(got, want):
        assert s.shape == (B, H) and s.dtype == dtype
        _close(s, se, dtype)
    g = torch.autograd.grad(sum((s * wi).sum() for s, wi in zip(got, w)), params)
    for (name, _), a, b in zip(m.named_parameters(), g, ge):
        assert a.shape == b.shape, name
        _close(a, b, dtype)


@pytest.mark.parametrize("cls,norm", CELLS)
def test_unbatched_cell_step_is_the_batch_of_one(cls, norm):
    I, H = 3, 4
    torch.manual_seed(6)
    m = _perturbed(cls(I, H, norm=norm, dtype=F64))
    n = 2 if cls is lt.LSTMCell else 1
    x = _rand((I,), 22)
    hx = [_rand((H,), 23 + i) for i in range(n)]
    want = _eager_step(m, x[None], [h[None] for h in hx])
    got = m(x, tuple(hx) if n == 2 else hx[0])
    got = list(got) if n == 2 else [got]
    for s, se in zip(got, want):
        assert s.shape == (H,)
        _close(s, se[0], F64)
    got0 = m(x)
    got0 = list(got0) if n == 2 else [got0]
    for s, se in zip(got0, _eager_step(m, x[None], [torch.zeros((1, H), dtype=F64)] * n)):
        assert s.shape == (H,)
        _close(s, se[0], F64)


def test_a_float16_cell_state_is_refused_by_its_name():
    m = lt.LSTMCell(2, 3, norm=None, dtype=F64)
    h, c = torch.zeros((1, 3), dtype=torch.float16), torch.zeros((1, 3), dtype=F64)
    with pytest.raises(TypeError, match="LSTMCell: c is torch.float16"):
        m(torch.zeros((1, 2), dtype=F64), (c, h))
