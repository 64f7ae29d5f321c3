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
import testpaths

import numpy as np
import pytest

if os.environ.get("LNRNN_REQUIRE_EXTRAS") == "1":
    import torch  # CI installs the extras: a missing torch is a failure there, not a skip
else:
    torch = pytest.importorskip("torch")

import lnrnn.torch as lt  # noqa: E402
from lnrnn.interop.export import PARAM_NAMES  # noqa: E402
from lnrnn.model import cells  # noqa: E402
from lnrnn.model import functional as F  # noqa: E402

CELLS = list(cells.CELLS)
F64 = torch.float64


def _names(spec):
    """lnrnn's parameter names of a layer, in the ops' order."""
    return [n for n, _ in spec.param_shapes(1, 1)]


def _stems(spec):
    """[(lnrnn buffer name, the module's buffer name without _l{k})] of a BN cell."""
    return [(p + s, PARAM_NAMES[p + s][0]) for s, _ in spec.buffers for p in ("rm", "rv")]


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
def test_a_gradient_of_c_n_is_refused_where_the_kernels_take_none_and_h_n_is_not(name):
    """c_n takes a gradient for the plain and LN LSTM over full rows (gradcheck below); a BN-LSTM's, or
    a ragged batch's, is refused in one sentence, and a zero one is no gradient at all."""
    spec = cells.get(name)
    m = _module(name, 2, 3)
    x = torch.randn(4, 2, 2, dtype=F64, requires_grad=True)
    for lengths in ((None, torch.tensor([4, 2])) if spec.norm != "bn" else (None,)):
        out, (h_n, c_n) = m(x, lengths=lengths)
        assert c_n.requires_grad
        if spec.norm != "bn" and lengths is None:
            c_n.sum().backward()
            continue
        with pytest.raises(NotImplementedError, match="c_n"):
            c_n.sum().backward(retain_graph=True)
        (out.sum() + h_n.sum() + 0 * c_n.sum()).backward()   # a zero dc_n is no gradient at all


@pytest.mark.parametrize("name", ["lstm", "ln-lstm"])
def test_gradcheck_of_c_n_over_full_rows(name):
    """dx, dh0, dc0 and every parameter's gradient of a loss on out, h_n and c_n, two layers."""
    spec = cells.get(name)
    m = _module(name, 2, 2)
    names = [n for n, _ in m.named_parameters()]
    params = [p.detach().clone().requires_grad_() for p in m.parameters()]
    x = torch.randn(3, 3, 2, dtype=F64, generator=torch.Generator().manual_seed(5)).requires_grad_()
    states = _states(spec, 2, 3, 2)

    def f(x, h0, c0, *ps):
        out, (h_n, c_n) = torch.func.functional_call(m, dict(zip(names, ps)), (x, (h0, c0)))
        return out, h_n, c_n

    assert torch.autograd.gradcheck(f, (x, *states, *params))


# ---- PyTorch's own LSTM and RNN ----

def _torch_twin(kind, I, H, L, **kw):
    torch.manual_seed(7)
    return (torch.nn.LSTM if kind == "lstm" else torch.nn.RNN)(I, H, num_layers=L, dtype=F64, **kw)


@pytest.mark.parametrize("kind", ["lstm", "rnn"])
@pytest.mark.parametrize("batch_first", [False, True])
def test_a_torch_state_dict_loads_strictly_and_gives_its_outputs_and_gradients(kind, batch_first):
    T, B, I, H, L = 5, 3, 3, 4, 2
    ref = _torch_twin(kind, I, H, L, batch_first=batch_first)
    ours = (lt.LSTM if kind == "lstm" else lt.RNN)(I, H, num_layers=L, norm=None, dtype=F64, batch_first=batch_first)
    ours.load_state_dict(ref.state_dict(), strict=True)
    spec = cells.get(kind)
    g = torch.Generator().manual_seed(8)
    x = torch.randn((B, T, I) if batch_first else (T, B, I), dtype=F64, generator=g)
    st = [torch.randn(L, B, H, dtype=F64, generator=g) for _ in range(spec.nstate)]
    wy = torch.randn((B, T, H) if batch_first else (T, B, H), dtype=F64, generator=g)
    wh = torch.randn(L, B, H, dtype=F64, generator=g)
    grads = []
    for m in (ref, ours):
        xs, ss = x.clone().requires_grad_(), [s.clone().requires_grad_() for s in st]
        out, final = m(xs, _hx(spec, ss))
        ((out * wy).sum() + (_h_n(spec, final) * wh).sum()).backward()
        grads.append([out, *(final if spec.nstate == 2 else (final,)), xs.grad, *(s.grad for s in ss),
                      *(p.grad for p in m.parameters())])
    for a, b in zip(*grads):
        torch.testing.assert_close(b, a, rtol=0, atol=1e-12)
    back = _torch_twin(kind, I, H, L, batch_first=batch_first)  # and our state_dict loads into theirs
    back.load_state_dict(ours.state_dict(), strict=True)
    assert all(torch.equal(back.state_dict()[k], v) for k, v in ref.state_dict().items())


@pytest.mark.parametrize("kind", ["lstm", "rnn"])
def test_packed_sequences_as_torch_packs_them(kind):
    T, B, I, H, L = 6, 4, 3, 2, 2
    ref = _torch_twin(kind, I, H, L)
    ours = (lt.LSTM if kind == "lstm" else lt.RNN)(I, H, num_layers=L, norm=None, dtype=F64)
    ours.load_state_dict(ref.state_dict())
    lengths = torch.tensor([3, 6, 1, 4])                    # unsorted, as pack_padded_sequence(enforce_sorted=False)
    x = torch.randn(T, B, I, dtype=F64)
    packed = torch.nn.utils.rnn.pack_padded_sequence(x, lengths, enforce_sorted=False)
    (p_ref, f_ref), (p_ours, f_ours) = ref(packed), ours(packed)
    assert isinstance(p_ours, torch.nn.utils.rnn.PackedSequence)
    for attr in ("batch_sizes", "sorted_indices", "unsorted_indices"):
        assert torch.equal(getattr(p_ours, attr), getattr(p_ref, attr))
    torch.testing.assert_close(p_ours.data, p_ref.data, rtol=0, atol=1e-12)
    for a, b in zip(f_ours if kind == "lstm" else (f_ours,), f_ref if kind == "lstm" else (f_ref,)):
        torch.testing.assert_close(a, b, rtol=0, atol=1e-12)
    out, _ = ours(x, lengths=lengths)                       # the padded form: zeros past each row's end
    padded, _ = torch.nn.utils.rnn.pad_packed_sequence(p_ref, total_length=T)
    torch.testing.assert_close(out, padded, rtol=0, atol=1e-12)


# ---- lengths, BatchNorm modes, lnrnn's own layers ----

@pytest.mark.parametrize("name", CELLS)
def test_each_row_ends_at_its_own_last_step(name):
    """A padded batch gives each row what that row alone, cut to its length, gives (BN in eval mode:
    batch statistics would couple the rows); a row of length 0 keeps its initial state."""
    spec = cells.get(name)
    T, B, I, H = 5, 4, 3, 3
    m = _module(name, I, H)
    if spec.norm == "bn":
        _random_stats(m, T)
        m.eval()
    x = torch.randn(T, B, I, dtype=F64)
    states = [s.detach() for s in _states(spec, 2, B, H)]
    lengths = torch.tensor([5, 2, 0, 4])
    with torch.no_grad():
        out, final = m(x, _hx(spec, states), lengths=lengths)
        final = final if spec.nstate == 2 else (final,)
        for b, n in enumerate(lengths.tolist()):
            assert not out[n:, b].any()
            if n == 0:
                for f, s in zip(final, states):
                    torch.testing.assert_close(f[:, b], s[:, b], rtol=0, atol=0)
                continue
            o1, f1 = m(x[:n, b:b + 1], _hx(spec, [s[:, b:b + 1] for s in states]))
            torch.testing.assert_close(out[:n, b:b + 1], o1, rtol=0, atol=1e-12)
            for f, g in zip(final, f1 if spec.nstate == 2 else (f1,)):
                torch.testing.assert_close(f[:, b:b + 1], g, rtol=0, atol=1e-12)


@pytest.mark.parametrize("name", CELLS)
def test_equals_lnrnn_layers_with_their_running_statistics(name):
    """Training mode, padded: out, final states, BN running statistics and the input gradient are those of
    lnrnn.model.functional (lnrnn's layers: tests/model/test_functional.py) layer by layer."""
    spec = cells.get(name)
    T, B, I, H = 4, 3, 5, 3                                   # I = 5: the wide (unfolded) input path
    m = _module(name, I, H)
    x = torch.randn(T, B, I, dtype=F64, requires_grad=True)
    lengths = np.array([4, 2, 3])
    before = {n: b.clone().numpy() for n, b in m.named_buffers()}
    out, final = m(x, lengths=torch.from_numpy(lengths))
    dy = torch.randn_like(out)
    (out * dy).sum().backward()
    inp, ys, states, dx_ref = x.detach().numpy(), [], [], None
    saved = []
    for k in range(2):
        p = {n: v.detach().numpy() for n, v in zip(_names(spec), m.layer_params(k))}
        bufs = F.grow_buffers({n: before[f"{stem}_l{k}"].copy() for n, stem in _stems(spec)}, T)
        st = tuple(np.zeros((B, H)) for _ in range(spec.nstate))
        y, fin, res = F.layer_forward(name, np.ascontiguousarray(inp), st, p, lengths=lengths, buffers=bufs)
        for n, stem in _stems(spec):
            np.testing.assert_array_equal(getattr(m, f"{stem}_l{k}").numpy(), bufs[n])
        saved.append((inp, st, p, y, res))
        ys.append(y)
        states.append(fin)
        inp = y * (np.arange(T)[:, None] < lengths)[:, :, None]
    valid = (np.arange(T)[:, None] < lengths)[:, :, None]
    np.testing.assert_array_equal(out.detach().numpy(), ys[-1] * valid)
    for i in range(spec.nstate):
        np.testing.assert_array_equal((final[i] if spec.nstate == 2 else final).detach().numpy(),
                                      np.stack([s[i] for s in states]))
    d = dy.numpy()
    for k in (1, 0):
        inp, st, p, y, res = saved[k]
        d, _, _ = F.layer_backward(name, res, inp, st, p, y, d * valid, lengths=lengths)
    np.testing.assert_allclose(x.grad.numpy(), d, rtol=0, atol=1e-13)


@pytest.mark.parametrize("name", ["bn-lstm", "bn-rnn"])
def test_batchnorm_train_and_eval(name):
    spec = cells.get(name)
    T, B, I, H = 4, 5, 3, 3
    m = _module(name, I, H, layers=1)
    stats = dict(m.named_buffers())
    assert set(stats) == {f"norm_{w}_running_{s}_l0" for w in ("ih", "hh", "cell")[:len(spec.buffers)]
                          for s in ("mean", "var")}
    assert all(b.shape[0] == 1 for b in stats.values())
    x = torch.randn(T, B, I, dtype=F64)
    m(x)                                                       # train(): grown to T rows, updated
    grown = {n: b.clone() for n, b in m.named_buffers()}
    assert all(b.shape[0] == T for b in grown.values())
    assert grown["norm_ih_running_mean_l0"].any() and not torch.equal(grown["norm_ih_running_var_l0"], torch.ones(T, spec.blocks * H, dtype=F64))
    m(torch.randn(T + 2, B, I, dtype=F64))                    # a longer training sequence grows them again
    assert all(b.shape[0] == T + 2 for b in m.buffers())
    m.eval()
    frozen = {n: b.clone() for n, b in m.named_buffers()}
    with torch.no_grad():
        out, _ = m(x)
        alone, _ = m(x[:, 2:3])                               # population statistics: rows do not interact
        m(torch.randn(T + 4, B, I, dtype=F64))                 # longer than the statistics: the last row serves
    torch.testing.assert_close(out[:, 2:3], alone, rtol=0, atol=1e-12)
    assert all(torch.equal(frozen[n], b) for n, b in m.named_buffers())  # eval() neither updates nor grows them
    p = {n: v.detach().numpy() for n, v in zip(_names(spec), m.layer_params(0))}
    bufs = {n: frozen[f"{stem}_l0"].numpy() for n, stem in _stems(spec)}
    y, _, _ = F.layer_forward(name, x.numpy(), tuple(np.zeros((B, H)) for _ in range(spec.nstate)), p,
                              training=False, buffers=bufs, keep=False)
    np.testing.assert_array_equal(out.numpy(), y)
    m.train()
    with torch.no_grad():
        out_train, _ = m(x)
    assert not torch.allclose(out_train, out)                  # batch statistics again


# ---- refusals ----

def test_unsupported_inputs_are_refused_in_one_sentence():
    m = lt.LSTM(3, 2, dtype=torch.float32)
    with pytest.raises(TypeError, match=r"float32 or float64 only: pass x\.float\(\)"):
        m(torch.zeros(4, 2, 3, dtype=torch.float16))
    with pytest.raises(TypeError, match=r"float32 or float64 only"):
        m(torch.zeros(4, 2, 3, dtype=torch.bfloat16))
    with pytest.raises(TypeError, match="mixed dtypes.*module's dtype"):
        m(torch.zeros(4, 2, 3, dtype=F64))
    with pytest.raises(RuntimeError, match="move the input and states to the module's device"):
        m(torch.zeros(4, 2, 3), (torch.zeros(1, 2, 2, device="meta"), torch.zeros(1, 2, 2, device="meta")))
    with pytest.raises(TypeError, match="dtype=torch.float32 or torch.float64"):
        lt.LSTM(3, 2, dtype=torch.float16)
    with pytest.raises(ValueError, match=r"x must be \(T, B, 3\)"):
        m(torch.zeros(4, 2, 5))
    with pytest.raises(ValueError, match=r"\(1, 2, 2\) was expected"):
        m(torch.zeros(4, 2, 3), (torch.zeros(2, 2, 2), torch.zeros(2, 2, 2)))
    with pytest.raises(ValueError, match="one length per sequence"):
        m(torch.zeros(4, 2, 3), lengths=[4])
    with pytest.raises(ValueError, match=r"lengths must lie in \[0, 4\]"):
        m(torch.zeros(4, 2, 3), lengths=[5, 1])
    for bad in (dict(bias=False), dict(norm="group")):
        with pytest.raises(ValueError, match="LSTM: "):
            lt.LSTM(3, 2, **bad)
    with pytest.raises(ValueError, match="nonlinearity='tanh'"):
        lt.RNN(3, 2, nonlinearity="relu")


def test_no_steps_and_projections_are_refused_in_one_sentence():
    """x with T = 0 (or B = 0) and nn.LSTM's proj_size: a ValueError of one sentence naming the module,
    never an error from inside the kernels or Python's complaint about an unknown argument."""
    for m, x in ((lt.LSTM(3, 2, dtype=F64), torch.zeros(0, 2, 3, dtype=F64)),
                 (lt.RNN(3, 2, norm="bn", dtype=F64), torch.zeros(0, 2, 3, dtype=F64)),
                 (lt.LSTM(3, 2, batch_first=True, dtype=F64), torch.zeros(2, 0, 3, dtype=F64)),
                 (lt.LSTM(3, 2, dtype=F64), torch.zeros(4, 0, 3, dtype=F64))):
        with pytest.raises(ValueError, match=r"^(LSTM|RNN): x must hold at least one time step and one sequence, "
                                             r"not shape \(\d, \d, 3\)\.$"):
            m(x)
    with pytest.raises(ValueError, match=r"^LSTM: lnrnn's LSTM cells have no projection of h: pass proj_size=0 "
                                         r"\(or put an nn.Linear on the output\), not 4\.$"):
        lt.LSTM(3, 8, proj_size=4)
    assert lt.LSTM(3, 2, proj_size=0, dtype=F64)(torch.zeros(1, 1, 3, dtype=F64))[0].shape == (1, 1, 2)


# ---- memory and threads ----

def spy_on_kernels(monkeypatch, k, ptr):
    """Wrap the LSTM kernels k (a registry row's) so that they record where they read x and wrote y (forward)
    and where they read x and wrote dx (backward): returns the dict they fill, {x, y, x_back, dx}, each an
    address by ptr(array). Shared with test_torch_cuda."""
    seen = {}
    forward, backward = k.forward, k.backward

    def spy_forward(x, *a, **kw):
        y, hT, cT, saved = forward(x, *a, **kw)
        seen.update(x=ptr(x), y=ptr(y))
        return y, hT, cT, saved

    def spy_backward(dy, saved, x, *a, **kw):
        dx, *rest = backward(dy, saved, x, *a, **kw)
        seen.update(x_back=ptr(x), dx=ptr(dx))
        return (dx, *rest)

    monkeypatch.setattr(k, "forward", spy_forward)
    monkeypatch.setattr(k, "backward", spy_backward)
    return seen


def test_cpu_tensors_reach_the_kernels_as_views_and_come_back_unchanged(monkeypatch):
    seen = spy_on_kernels(monkeypatch, cells.LSTM_CPU, lambda a: a.__array_interface__["data"][0])
    m = _module("ln-lstm", 3, 4, layers=1)
    x = torch.randn(5, 2, 3, dtype=F64, requires_grad=True)
    out, _ = m(x)
    assert seen["x"] == x.data_ptr() and seen["y"] == out.data_ptr()
    out.sum().backward()
    assert seen["x_back"] == x.data_ptr() and seen["dx"] == x.grad.data_ptr()


def test_blas_is_single_threaded_in_the_kernels_and_torch_threads_stay_as_set(monkeypatch):
    from threadpoolctl import threadpool_info
    k = cells.LSTM_CPU
    inside = []
    real = k.backward

    def spy(*a, **kw):
        inside.append(({i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"},
                       torch.get_num_threads()))
        return real(*a, **kw)

    monkeypatch.setattr(k, "backward", spy)
    before = torch.get_num_threads()
    try:
        for n in (1, 2):
            torch.set_num_threads(n)
            m = _module("lstm", 3, 4)
            out, (h, _) = m(torch.randn(4, 2, 3, dtype=F64, requires_grad=True))
            (out.sum() + h.sum()).backward()
            assert torch.get_num_threads() == n
            assert inside[-1] == ({1}, n)
    finally:
        torch.set_num_threads(before)


def test_import_lnrnn_does_not_import_torch():
    code = ("import sys, lnrnn, lnrnn.interop, lnrnn.model.functional; "
            "assert 'torch' not in sys.modules, 'torch imported'")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       cwd=testpaths.ROOT)
    assert r.returncode == 0, r.stderr


# what `import lnrnn.torch` and a first LN-LSTM forward and backward must not load: other frameworks and the
# CLI's, the trainer and data readers, the CUDA twins, torch's compiler (torch._dynamo: about 2 CPU seconds,
# which torch.library.custom_op's implementations import on their first call), and the kernels of other cells
_NOT_AT_IMPORT = ("torch._dynamo", "jax", "click", "sklearn", "matplotlib", "scipy.linalg", "mpi4py", "numba.cuda",
                  "tensorboard", "safetensors", "lnrnn.api", "lnrnn.training", "lnrnn.data", "lnrnn.kernels.lstm_cuda")
_OTHER_CELLS = ("lnrnn.kernels.rnn", "lnrnn.kernels.bn_lstm", "lnrnn.kernels.bn_rnn", "lnrnn.kernels.batchnorm",
                "lnrnn.kernels.window", "lnrnn.kernels.bn_sync")


def test_import_and_a_first_forward_load_only_what_they_use():
    code = f"""
import json, sys
import torch, lnrnn.torch
from numba.core.dispatcher import Dispatcher
found = {{"import": [m for m in {_NOT_AT_IMPORT!r} if m in sys.modules]}}
m = lnrnn.torch.LSTM(3, 4, norm="ln", dtype=torch.float64)
out, (h_n, c_n) = m(torch.randn(5, 2, 3, dtype=torch.float64, requires_grad=True))
(out.sum() + c_n.sum()).backward()
assert m.weight_hh_l0.grad.abs().sum() > 0
found["first step"] = [m for m in {_NOT_AT_IMPORT!r} if m != "scipy.linalg" and m in sys.modules]
found["kernels loaded"] = [f"{{name}}.{{k}}" for name in {_OTHER_CELLS!r}
                           for k, v in vars(sys.modules.get(name, sys)).items()
                           if isinstance(v, Dispatcher) and v.py_func.__module__ == name and v.signatures]
found["lstm kernels loaded"] = [k for k, v in vars(sys.modules["lnrnn.kernels.lstm"]).items()
                                if isinstance(v, Dispatcher) and v.signatures]
print(json.dumps(found))
"""
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       cwd=testpaths.ROOT)
    assert r.returncode == 0, r.stderr
    import json
    found = json.loads(r.stdout.splitlines()[-1])
    assert found.pop("lstm kernels loaded"), "the LN-LSTM ran no kernel of lnrnn.kernels.lstm: the check sees nothing"
    assert found == {"import": [], "first step": [], "kernels loaded": []}, found


def test_the_ops_implementations_are_untraced_once_torch_compile_is_loaded(monkeypatch):
    """torch.compile must not trace into an op's implementation (torch.library.custom_op wraps it in
    torch._dynamo.disable); lnrnn's ops wrap it so only where torch._dynamo is loaded, once."""
    import torch._dynamo

    from lnrnn.interop import torch as it

    disabled = []
    monkeypatch.setattr(torch._dynamo, "disable", lambda f: disabled.append(f) or (lambda *a: ("untraced", f(*a))))
    run = it._untraced(lambda a: a + 1)
    assert run(1) == ("untraced", 2) and run(2) == ("untraced", 3) and len(disabled) == 1
    monkeypatch.delitem(sys.modules, "torch._dynamo")
    assert it._untraced(lambda a: a + 1)(1) == 2 and len(disabled) == 1

# ---- torch.compile ----

@pytest.mark.parametrize("name", CELLS)
def test_compiled_fullgraph_equals_eager_forward_and_backward(name):
    spec = cells.get(name)
    T, B, I, H = 5, 3, 3, 4
    eager = _module(name, I, H)
    twin = _module(name, I, H)
    torch._dynamo.reset()  # a fresh compile cache: the modules' forward recompiled per configuration in one
                           # worker process would reach dynamo's recompile limit (8), fatal under fullgraph
    compiled = torch.compile(twin, fullgraph=True)
    x = torch.randn(T, B, I, dtype=F64)
    lengths = torch.tensor([5, 2, 4])
    results = []
    for m, run in ((eager, eager), (twin, compiled)):
        xs = x.clone().requires_grad_()
        states = _states(spec, 2, B, H)
        out, final = run(xs, _hx(spec, states), lengths=lengths)
        (out.square().sum() + _h_n(spec, final).sum()).backward()
        results.append([out, *(final if spec.nstate == 2 else (final,)), xs.grad, *(s.grad for s in states),
                        *(p.grad for p in m.parameters()), *m.buffers()])
    for a, b in zip(*results):
        torch.testing.assert_close(b, a, rtol=0, atol=1e-13)


# ---- trained runs: lnrnn export and from_run ----

@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Tiny trained mnist-rows runs (T=28, I=28) on fake IDX files: an LN-LSTM, and a two-layer BN-RNN
    with skip connections (its export has per-step statistics and (G, I+H) weights above layer 0)."""
    from test_cli import assert_ok, invoke
    from test_data import fake_mnist
    base = tmp_path_factory.mktemp("torch_runs")
    data = fake_mnist(base / "mnist", n_train=40, n_test=10)
    out = {}
    for cell, extra in (("ln-lstm", ()), ("bn-rnn", ("--layers", 2, "--skip"))):
        out[cell] = base / cell
        assert_ok(invoke("train", "--task", "mnist-rows", "--data-dir", data, "--cell", cell, "--hidden", 5,
                         "--batch-size", 20, "--epochs", 1, "-q", *extra, "--out", out[cell]))
    return out


def _lnrnn_outputs(run, x):
    """lnrnn's own model on x (B,T,I): the stack's output (B,T,H_out) and the head's linear map of the last step."""
    y, _ = run.model.stack.forward(np.ascontiguousarray(x.transpose(1, 0, 2)), training=False)
    return y.transpose(1, 0, 2), run.model.head.linear(y[-1])


@pytest.mark.parametrize("cell", ["ln-lstm", "bn-rnn"])
def test_from_run_and_the_exported_file_give_lnrnns_outputs(runs, cell, tmp_path):
    from test_cli import assert_ok, invoke
    import lnrnn
    run = lnrnn.load_run(runs[cell])
    x = np.random.default_rng(9).random((3, 28, 28)).astype(np.float32)
    y_ref, logits_ref = _lnrnn_outputs(run, x)
    path = tmp_path / "w.safetensors"
    assert_ok(invoke("export", "--checkpoint", runs[cell], "--out", path))       # the real command
    for stack, head in (lt.from_run(runs[cell]), lt.load_exported(path)):
        assert not stack.training and stack.cell == cell and stack.skip == (cell == "bn-rnn")
        assert isinstance(head, torch.nn.Linear) and head.out_features == 10
        with torch.no_grad():
            out, _ = stack(torch.from_numpy(x.transpose(1, 0, 2)).contiguous())
            logits = head(out[-1])
        np.testing.assert_allclose(out.numpy().transpose(1, 0, 2), y_ref, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(logits.numpy(), logits_ref, rtol=1e-5, atol=1e-6)
    # and the file's rnn.* tensors load by name, strictly, into a module built by hand
    from lnrnn.interop.export import read_safetensors
    tensors, _ = read_safetensors(path)
    cfg = run.config
    m = (lt.LSTM if cfg["cell"] == "lstm" else lt.RNN)(cfg["input_size"], cfg["hidden_size"], cfg["num_layers"],
                                                        norm=cfg["norm"], skip=cfg.get("skip", False))
    m.load_state_dict({k[4:]: torch.from_numpy(v) for k, v in tensors.items() if k.startswith("rnn.")}, strict=True)
    if cell == "bn-rnn":  # the statistics of all 28 trained steps came along
        assert m.norm_ih_running_mean_l1.shape == (28, 5) and m.norm_hh_running_var_l0.any()


def test_a_file_without_lnrnns_config_is_refused_in_one_sentence(tmp_path):
    from lnrnn.interop.export import write_safetensors
    write_safetensors(str(tmp_path / "bare.safetensors"), {"weight_ih_l0": np.zeros((8, 3), np.float32)})
    with pytest.raises(ValueError, match="carries no lnrnn model config"):
        lt.load_exported(tmp_path / "bare.safetensors")
