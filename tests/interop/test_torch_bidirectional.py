"""lnrnn.torch's bidirectional stacks (``LSTM(..., bidirectional=True)``, ``RNN`` likewise).

The judges: ``torch.nn.LSTM`` / ``nn.RNN(bidirectional=True)`` themselves for the plain cells (their state_dict
loads as it is and gives their outputs, h_n, c_n and gradients, dense and packed ragged); lnrnn's own
``RecurrentStack(bidirectional=True)`` (tests/model/test_layers_models_bidirectional.py judges it against two
unidirectional layers) for the normalized ones, BN's running statistics included; ``torch.autograd.gradcheck``
(float64 central differences) of two-layer LN and BN stacks on ragged rows; ``torch.library.opcheck`` of every op
call a bidirectional module makes (reversed inputs, lengths).

torch is an optional extra: without it these tests skip, unless LNRNN_REQUIRE_EXTRAS=1 (CI)."""
import os
from types import SimpleNamespace

import numpy as np
import pytest

if os.environ.get("LNRNN_REQUIRE_EXTRAS") == "1":
    import torch
else:
    torch = pytest.importorskip("torch")

import lnrnn.interop.torch as it  # noqa: E402
import lnrnn.torch as lt  # noqa: E402
from lnrnn.interop.export import exported_tensors  # noqa: E402
from lnrnn.model import cells  # noqa: E402
from lnrnn.model.layers import RecurrentStack  # noqa: E402

F64 = torch.float64
pack = torch.nn.utils.rnn.pack_padded_sequence


def _module(name, I=2, H=2, layers=2, seed=0, **kw):
    """A bidirectional stack of cell ``name`` with every parameter moved off its initial value."""
    spec = cells.get(name)
    torch.manual_seed(seed)
    cls = lt.LSTM if spec.cell == "lstm" else lt.RNN
    m = cls(I, H, num_layers=layers, norm=None if spec.norm == "none" else spec.norm, dtype=F64,
            bidirectional=True, **kw)
    g = torch.Generator().manual_seed(seed + 1)
    with torch.no_grad():
        for p in m.parameters():
            p.add_(torch.rand(p.shape, generator=g, dtype=F64) * 0.6 - 0.3)
    return m


def _finals(spec, final):
    return tuple(final) if spec.nstate == 2 else (final,)


def _hx(spec, states):
    return tuple(states) if spec.nstate == 2 else states[0]


@pytest.mark.parametrize("kind", ["lstm", "rnn"])
@pytest.mark.parametrize("batch_first", [False, True])
def test_a_bidirectional_torch_state_dict_gives_its_outputs_states_and_gradients(kind, batch_first):
    """nn.LSTM(bidirectional=True)'s weights: out (T,B,2H) = [forward | backward], h_n/c_n (2L,B,H) in its
    layer-major, direction-minor order, and the gradients of x, h0, c0 and every parameter, to 1e-12."""
    T, B, I, H, L = 5, 3, 3, 4, 2
    spec = cells.get(kind)
    ref = (torch.nn.LSTM if kind == "lstm" else torch.nn.RNN)(I, H, num_layers=L, bidirectional=True, dtype=F64,
                                                               batch_first=batch_first)
    ours = (lt.LSTM if kind == "lstm" else lt.RNN)(I, H, num_layers=L, norm=None, bidirectional=True, dtype=F64,
                                                  batch_first=batch_first)
    ours.load_state_dict(ref.state_dict(), strict=True)
    assert [n for n, _ in ours.named_parameters()] == [n for n, _ in ref.named_parameters()]
    g = torch.Generator().manual_seed(8)
    x = torch.randn((B, T, I) if batch_first else (T, B, I), dtype=F64, generator=g)
    st = [torch.randn(2 * L, B, H, dtype=F64, generator=g) for _ in range(spec.nstate)]
    wy = torch.randn((B, T, 2 * H) if batch_first else (T, B, 2 * H), dtype=F64, generator=g)
    wh = torch.randn(2 * L, B, H, dtype=F64, generator=g)
    grads = []
    for m in (ref, ours):
        xs, ss = x.clone().requires_grad_(), [s.clone().requires_grad_() for s in st]
        out, final = m(xs, _hx(spec, ss))
        ((out * wy).sum() + (_finals(spec, final)[0] * wh).sum()).backward()
        grads.append([out, *_finals(spec, final), xs.grad, *(s.grad for s in ss), *(p.grad for p in m.parameters())])
    for a, b in zip(*grads):
        torch.testing.assert_close(b, a, rtol=0, atol=1e-12)


@pytest.mark.parametrize("kind", ["lstm", "rnn"])
def test_packed_ragged_sequences_give_torchs_outputs_and_final_states(kind):
    """Ragged rows (unsorted lengths, one of length 1): the backward direction starts at each row's last
    valid step, and its h_n/c_n are its states after the row's first step, as nn.LSTM's."""
    T, B, I, H, L = 6, 4, 3, 2, 2
    spec = cells.get(kind)
    ref = (torch.nn.LSTM if kind == "lstm" else torch.nn.RNN)(I, H, num_layers=L, bidirectional=True, dtype=F64)
    ours = (lt.LSTM if kind == "lstm" else lt.RNN)(I, H, num_layers=L, norm=None, bidirectional=True, dtype=F64)
    ours.load_state_dict(ref.state_dict(), strict=True)
    lengths = torch.tensor([3, 6, 1, 4])
    g = torch.Generator().manual_seed(9)
    x = torch.randn(T, B, I, dtype=F64, generator=g)
    st = [torch.randn(2 * L, B, H, dtype=F64, generator=g) for _ in range(spec.nstate)]
    packed = pack(x, lengths, enforce_sorted=False)
    (p_ref, f_ref), (p_ours, f_ours) = ref(packed, _hx(spec, st)), ours(packed, _hx(spec, st))
    torch.testing.assert_close(p_ours.data, p_ref.data, rtol=0, atol=1e-12)
    for a, b in zip(_finals(spec, f_ours), _finals(spec, f_ref)):
        torch.testing.assert_close(a, b, rtol=0, atol=1e-12)
    out, final = ours(x, _hx(spec, st), lengths=lengths)          # the padded form: zeros past each row's end
    padded, _ = torch.nn.utils.rnn.pad_packed_sequence(p_ref, total_length=T)
    torch.testing.assert_close(out, padded, rtol=0, atol=1e-12)
    for a, b in zip(_finals(spec, final), _finals(spec, f_ref)):
        torch.testing.assert_close(a, b, rtol=0, atol=1e-12)


@pytest.mark.parametrize("name", ["ln-lstm", "bn-lstm", "ln-rnn", "bn-rnn"])
def test_equals_lnrnns_bidirectional_stack_with_its_running_statistics(name):
    """The weights of lnrnn's RecurrentStack(bidirectional=True) (its export: *_reverse names, loaded as
    from_run loads a run's, config and all): out, the
    final states (stack order: layer k forward, layer k backward), BN's running statistics after a
    training forward and dL/dx on ragged rows equal the stack's, in float64."""
    spec = cells.get(name)
    T, B, I, H, L = 5, 3, 4, 3, 2
    stack = RecurrentStack(spec.cell, spec.norm, I, H, num_layers=L, dtype=np.float64, seed=2, max_steps=T,
                           bidirectional=True)
    rng = np.random.default_rng(3)
    for v in stack.params.values():
        v += rng.uniform(-0.3, 0.3, v.shape)
    tensors = exported_tensors(SimpleNamespace(params={"rnn." + k: v for k, v in stack.params.items()},
                                               buffers={"rnn." + k: v for k, v in stack.buffers.items()}))
    m, head = it._from_tensors(stack.config, tensors)      # what from_run / load_exported build from a run
    assert head is None and m.bidirectional and not m.training
    m.train()
    x = rng.standard_normal((T, B, I))
    lengths = np.array([5, 2, 4])
    y, states = stack.forward(x.copy(), training=True, lengths=lengths)
    xt = torch.from_numpy(x.copy()).requires_grad_()
    out, final = m(xt, lengths=torch.from_numpy(lengths))
    np.testing.assert_allclose(out.detach().numpy(), y * (np.arange(T)[:, None] < lengths)[:, :, None],
                               rtol=0, atol=1e-13)
    for i, f in enumerate(_finals(spec, final)):
        np.testing.assert_allclose(f.detach().numpy(), np.stack([s[i] for s in states]), rtol=0, atol=1e-13)
    after = exported_tensors(SimpleNamespace(params={}, buffers={"rnn." + k: v for k, v in stack.buffers.items()}))
    for k, v in after.items():
        np.testing.assert_allclose(m.get_buffer(k[len("rnn."):]).numpy(), v, rtol=0, atol=1e-13)
    dy = rng.standard_normal(y.shape)
    (out * torch.from_numpy(dy)).sum().backward()
    np.testing.assert_allclose(xt.grad.numpy(), stack.backward(dy), rtol=0, atol=1e-12)


@pytest.mark.parametrize("name", ["ln-lstm", "bn-lstm", "ln-rnn", "bn-rnn"])
def test_gradcheck_two_bidirectional_layers_ragged_with_initial_states_and_h_n(name):
    """dx, dh0, (dc0) and every parameter's gradient of both directions against float64 finite
    differences of out and h_n, over ragged rows with one of length 0 (BN: batch statistics)."""
    spec = cells.get(name)
    T, B, I, H = 4, 4, 2, 2
    m = _module(name, I, H)
    names = [n for n, _ in m.named_parameters()]
    params = [p.detach().clone().requires_grad_() for p in m.parameters()]
    g = torch.Generator().manual_seed(5)
    x = torch.randn(T, B, I, dtype=F64, generator=g).requires_grad_()
    states = [(torch.rand((4, B, H), generator=g, dtype=F64) - 0.5).requires_grad_() for _ in range(spec.nstate)]
    lengths = torch.tensor([4, 3, 0, 2])

    def f(x, *args):
        st, ps = args[:spec.nstate], args[spec.nstate:]
        out, final = torch.func.functional_call(m, dict(zip(names, ps)), (x, _hx(spec, st)), {"lengths": lengths})
        return out, _finals(spec, final)[0]

    assert torch.autograd.gradcheck(f, (x, *states, *params))


@pytest.mark.parametrize("name", ["ln-lstm", "bn-lstm"])
def test_opcheck_of_every_op_call_a_bidirectional_stack_makes(name, monkeypatch):
    """The ops as a two-layer bidirectional module calls them (reversed inputs, 2H-wide inputs above
    layer 0, ragged lengths): torch.library.opcheck of layer_forward and of the layer_backward each
    call's residuals feed."""
    m = _module(name, 2, 3)
    calls = []
    real = it.layer_forward

    def spy(*args):
        calls.append(args)
        return real(*args)

    monkeypatch.setattr(it, "layer_forward", spy)
    g = torch.Generator().manual_seed(6)
    x = torch.randn(4, 3, 2, dtype=F64, generator=g, requires_grad=True)
    m(x, lengths=torch.tensor([4, 1, 3]))
    assert len(calls) == 4 and calls[2][0].shape == (4, 3, 6)   # 2 layers x 2 directions; layer 1 reads 2H
    for args in calls:
        x_k, state, params, buffers, lengths, cell, training, _ = args
        args = (x_k.detach().requires_grad_(), [s.detach().requires_grad_() for s in state],
                [p.detach().requires_grad_() for p in params], [b.clone() for b in buffers], lengths, cell,
                training, True)
        torch.library.opcheck(real, args)
        y, final, res, _ = real(*args)
        bargs = ([r.detach() for r in res], args[0].detach(), [s.detach() for s in args[1]],
                 [p.detach() for p in args[2]], y.detach(), torch.randn_like(y), [torch.randn_like(final[0])],
                 lengths, cell, training)
        torch.library.opcheck(lt.layer_backward, bargs)


@pytest.mark.parametrize("name", ["lstm", "ln-lstm", "bn-rnn"])
def test_compiled_fullgraph_bidirectional_equals_eager(name):
    spec = cells.get(name)
    T, B, I, H = 5, 3, 3, 2
    eager, twin = _module(name, I, H), _module(name, I, H)
    torch._dynamo.reset()  # a fresh compile cache: the modules' forward recompiled per configuration in one
                           # worker process would reach dynamo's recompile limit (8), fatal under fullgraph
    compiled = torch.compile(twin, fullgraph=True)
    x = torch.randn(T, B, I, dtype=F64)
    lengths = torch.tensor([5, 2, 4])
    results = []
    for m, run in ((eager, eager), (twin, compiled)):
        xs = x.clone().requires_grad_()
        out, final = run(xs, lengths=lengths)
        (out.square().sum() + _finals(spec, final)[0].sum()).backward()
        results.append([out, *_finals(spec, final), xs.grad, *(p.grad for p in m.parameters()), *m.buffers()])
    for a, b in zip(*results):
        torch.testing.assert_close(b, a, rtol=0, atol=1e-13)


def test_bidirectional_skip_stack_reads_both_directions_of_every_layer():
    """With skip connections a bidirectional layer k > 0 reads [x | h_{k-1} (2H)], and out is
    [h_0 (2H) | h_1 (2H)]; its weights are those of lnrnn's stack with skip."""
    T, B, I, H = 4, 2, 3, 2
    m = lt.LSTM(I, H, num_layers=2, norm="ln", bidirectional=True, skip=True, dtype=F64)
    assert m.weight_ih_l1_reverse.shape == (4 * H, I + 2 * H) and m.output_size == 4 * H
    stack = RecurrentStack("lstm", "ln", I, H, num_layers=2, dtype=np.float64, bidirectional=True, skip=True)
    tensors = exported_tensors(SimpleNamespace(params={"rnn." + k: v for k, v in stack.params.items()}, buffers={}))
    m.load_state_dict({k[len("rnn."):]: torch.from_numpy(v.copy()) for k, v in tensors.items()}, strict=True)
    x = np.random.default_rng(4).standard_normal((T, B, I))
    y, _ = stack.forward(x.copy(), training=True)
    with torch.no_grad():
        out, _ = m(torch.from_numpy(x))
    np.testing.assert_allclose(out.numpy(), y, rtol=0, atol=1e-13)


def test_a_hidden_state_of_the_wrong_first_dimension_is_refused_in_one_sentence():
    m = lt.LSTM(3, 2, num_layers=2, bidirectional=True, dtype=F64)
    x = torch.zeros(4, 5, 3, dtype=F64)
    with pytest.raises(ValueError, match=r"^LSTM: hx holds a \(2, 5, 2\) state where \(4, 5, 2\) was expected "
                                         r"\(num_layers \* 2, batch, hidden_size\)\.$"):
        m(x, (torch.zeros(2, 5, 2, dtype=F64), torch.zeros(2, 5, 2, dtype=F64)))
    out, (h_n, c_n) = m(x, (torch.zeros(4, 5, 2, dtype=F64), torch.zeros(4, 5, 2, dtype=F64)))
    assert out.shape == (4, 5, 4) and h_n.shape == c_n.shape == (4, 5, 2)
