"""lnrnn.torch.LSTMCell and RNNCell: one step, ``torch.nn.LSTMCell`` / ``nn.RNNCell``-shaped.

The judges: torch's own cells for norm None (their state_dict loads as it is and gives their h', c' and
gradients, c' in the loss too); ``torch.autograd.gradcheck`` (float64 central differences) of the LN
cells with h' and c' in the loss; ``torch.library.opcheck`` of the one-step op call (c' differentiable);
``torch.compile(fullgraph=True)`` against eager; one step equals the first step of the sequence module.

torch is an optional extra: without it these tests skip, unless LNRNN_REQUIRE_EXTRAS=1 (CI)."""
import os

import pytest

if os.environ.get("LNRNN_REQUIRE_EXTRAS") == "1":
    import torch
else:
    torch = pytest.importorskip("torch")

import lnrnn.interop.torch as it  # noqa: E402
import lnrnn.torch as lt  # noqa: E402

F64 = torch.float64


def _cell(kind, norm, I=3, H=2, seed=0):
    """A cell with every parameter moved off its initial value (gains 1, biases 0)."""
    torch.manual_seed(seed)
    m = (lt.LSTMCell if kind == "lstm" else lt.RNNCell)(I, H, norm=norm, dtype=F64)
    g = torch.Generator().manual_seed(seed + 1)
    with torch.no_grad():
        for p in m.parameters():
            p.add_(torch.rand(p.shape, generator=g, dtype=F64) * 0.6 - 0.3)
    return m


def _outs(out):
    return out if isinstance(out, tuple) else (out,)


@pytest.mark.parametrize("kind", ["lstm", "rnn"])
def test_a_torch_cells_state_dict_gives_its_step_and_gradients(kind):
    """nn.LSTMCell's (nn.RNNCell's) weights: h', c' and the gradients of input, h, c and every parameter
    of a loss on h' and c', to 1e-12 in float64; batched and unbatched; hx None is zeros."""
    B, I, H = 5, 3, 4
    ref = (torch.nn.LSTMCell if kind == "lstm" else torch.nn.RNNCell)(I, H, dtype=F64)
    ours = (lt.LSTMCell if kind == "lstm" else lt.RNNCell)(I, H, norm=None, dtype=F64)
    ours.load_state_dict(ref.state_dict(), strict=True)
    assert [n for n, _ in ours.named_parameters()] == [n for n, _ in ref.named_parameters()]
    g = torch.Generator().manual_seed(8)
    x = torch.randn(B, I, dtype=F64, generator=g)
    st = [torch.randn(B, H, dtype=F64, generator=g) for _ in range(2 if kind == "lstm" else 1)]
    w = [torch.randn(B, H, dtype=F64, generator=g) for _ in st]
    got = []
    for m in (ref, ours):
        xs, ss = x.clone().requires_grad_(), [s.clone().requires_grad_() for s in st]
        out = _outs(m(xs, tuple(ss) if kind == "lstm" else ss[0]))
        sum((o * wi).sum() for o, wi in zip(out, w)).backward()
        got.append([*out, xs.grad, *(s.grad for s in ss), *(p.grad for p in m.parameters())])
        with torch.no_grad():
            got[-1] += [*_outs(m(x[1], tuple(s[1] for s in st) if kind == "lstm" else st[0][1])), *_outs(m(x))]
    for a, b in zip(*got):
        torch.testing.assert_close(b, a, rtol=0, atol=1e-12)


@pytest.mark.parametrize("kind", ["lstm", "rnn"])
@pytest.mark.parametrize("norm", [None, "ln"])
def test_gradcheck_of_one_step_with_h_and_c_in_the_loss(kind, norm):
    m = _cell(kind, norm)
    names = [n for n, _ in m.named_parameters()]
    params = [p.detach().clone().requires_grad_() for p in m.parameters()]
    g = torch.Generator().manual_seed(5)
    x = torch.randn(5, 3, dtype=F64, generator=g).requires_grad_()   # B = 5: the rows split into blocks
    st = [(torch.rand((5, 2), generator=g, dtype=F64) - 0.5).requires_grad_() for _ in range(2 if kind == "lstm" else 1)]

    def f(x, *args):
        s, ps = args[:len(st)], args[len(st):]
        return torch.func.functional_call(m, dict(zip(names, ps)), (x, tuple(s) if kind == "lstm" else s[0]))

    assert torch.autograd.gradcheck(f, (x, *st, *params))


@pytest.mark.parametrize("name", ["lstm", "ln-lstm", "ln-rnn"])
def test_opcheck_of_the_one_step_op_call(name):
    """The op as a cell calls it: x (1,B,I), no lengths, so c_n is differentiable and opcheck seeds it."""
    kind = "lstm" if name.endswith("lstm") else "rnn"
    m = _cell(kind, None if name in ("lstm", "rnn") else "ln")
    g = torch.Generator().manual_seed(6)
    x = torch.randn(1, 4, 3, dtype=F64, generator=g).requires_grad_()
    state = [torch.randn(4, 2, dtype=F64, generator=g).requires_grad_() for _ in range(2 if kind == "lstm" else 1)]
    params = [p.detach().clone().requires_grad_() for p in it._layer_params(m, m.spec, "")]
    args = (x, state, params, [], None, name, True, True)
    torch.library.opcheck(lt.layer_forward, args)
    _, final, _, _ = lt.layer_forward(*args)
    assert all(f.requires_grad for f in final)


@pytest.mark.parametrize("kind", ["lstm", "rnn"])
def test_compiled_fullgraph_cell_equals_eager(kind):
    eager, twin = _cell(kind, "ln"), _cell(kind, "ln")
    torch._dynamo.reset()  # a fresh compile cache: the modules' forward recompiled per configuration in one
                           # worker process would reach dynamo's recompile limit (8), fatal under fullgraph
    compiled = torch.compile(twin, fullgraph=True)
    x = torch.randn(3, 3, dtype=F64)
    st = [torch.randn(3, 2, dtype=F64) for _ in range(2 if kind == "lstm" else 1)]
    results = []
    for m, run in ((eager, eager), (twin, compiled)):
        xs, ss = x.clone().requires_grad_(), [s.clone().requires_grad_() for s in st]
        out = _outs(run(xs, tuple(ss) if kind == "lstm" else ss[0]))
        sum(o.square().sum() for o in out).backward()
        results.append([*out, xs.grad, *(s.grad for s in ss), *(p.grad for p in m.parameters())])
    for a, b in zip(*results):
        torch.testing.assert_close(b, a, rtol=0, atol=1e-13)


def test_a_step_is_the_first_step_of_the_sequence_module():
    """LSTMCell with LSTM(num_layers=1)'s weights (names without _l0) gives its out[0] and c_n at T = 1."""
    seq = lt.LSTM(3, 2, norm="ln", dtype=F64)
    cell = lt.LSTMCell(3, 2, norm="ln", dtype=F64)
    cell.load_state_dict({k[:-len("_l0")]: v for k, v in seq.state_dict().items()}, strict=True)
    x = torch.randn(1, 4, 3, dtype=F64)
    h0, c0 = torch.randn(1, 4, 2, dtype=F64), torch.randn(1, 4, 2, dtype=F64)
    with torch.no_grad():
        out, (h_n, c_n) = seq(x, (h0, c0))
        h, c = cell(x[0], (h0[0], c0[0]))
    torch.testing.assert_close(h, out[0], rtol=0, atol=0)
    torch.testing.assert_close(c, c_n[0], rtol=0, atol=0)


def test_bad_arguments_are_refused_in_one_sentence_naming_them():
    m = lt.LSTMCell(3, 2, dtype=F64)
    with pytest.raises(ValueError, match=r"^LSTMCell: norm='bn' keeps batch statistics for every time step"):
        lt.LSTMCell(3, 2, norm="bn")
    with pytest.raises(ValueError, match=r"^RNNCell: norm='bn'"):
        lt.RNNCell(3, 2, norm="bn")
    with pytest.raises(ValueError, match=r"^LSTMCell: input must be \(B, 3\) with B >= 1 \(or \(3,\)\), not \(4, 5\)\.$"):
        m(torch.zeros(4, 5, dtype=F64))
    with pytest.raises(ValueError, match=r"^LSTMCell: input must be"):
        m(torch.zeros(2, 4, 3, dtype=F64))
    with pytest.raises(ValueError, match=r"^LSTMCell: hx must be \(h, c\), each \(4, 2\), not \(4, 3\), \(4, 2\)\.$"):
        m(torch.zeros(4, 3, dtype=F64), (torch.zeros(4, 3, dtype=F64), torch.zeros(4, 2, dtype=F64)))
    with pytest.raises(ValueError, match=r"^LSTMCell: hx must be \(h, c\)"):
        m(torch.zeros(4, 3, dtype=F64), torch.zeros(4, 2, dtype=F64))
    with pytest.raises(TypeError, match=r"^LSTMCell: input is torch.float16, but lnrnn's kernels run float32 or "
                                        r"float64 only"):
        m(torch.zeros(4, 3, dtype=torch.float16))
    with pytest.raises(TypeError, match=r"^LSTMCell: mixed dtypes \(input torch.float32, h torch.float64"):
        m(torch.zeros(4, 3), (torch.zeros(4, 2, dtype=F64), torch.zeros(4, 2, dtype=F64)))
    with pytest.raises(ValueError, match="nonlinearity='tanh'"):
        lt.RNNCell(3, 2, nonlinearity="relu")
    with pytest.raises(ValueError, match=r"^LSTMCell: hidden_size must be a positive integer, not 0\.$"):
        lt.LSTMCell(3, 0)
