"""lnrnn.jax's wiring, fourteenth pass, judged by torch.nn.LSTM / torch.nn.RNN with copied weights and by JAX.

The judges: a bidirectional ``torch.nn.LSTM`` (1 and 2 layers) over packed ragged sequences with an initial
state given, its state_dict passed to ``apply`` as it is (y, h_n, c_n, and torch's gradients of a loss over y
and h_n with respect to x, h0, c0 and every weight); a 2-layer ``torch.nn.RNN`` whose weights are all square
(I = H, so a weight read untransposed would still run); the keys of ``init`` against torch's state_dict with
and without bidirectional; ``params_from_stack`` of a RecurrentStack and ``load_export`` of a file written here
against torch on the same weights; vmap (under jit) over a leading axis with the state and lengths shared,
each example against torch on its own; ``jax.test_util.check_grads`` at order 1 in float64 over x, h0 and the
weights of a ragged LN-RNN; and the two 64-bit refusals word for word."""
import os

import numpy as np
import pytest

if os.environ.get("LNRNN_REQUIRE_EXTRAS") == "1":
    import jax
    import torch
else:
    jax = pytest.importorskip("jax")
    torch = pytest.importorskip("torch")
import jax.numpy as jnp  # noqa: E402
from jax.test_util import check_grads  # noqa: E402

import lnrnn.jax as lj  # noqa: E402
from lnrnn.model.layers import RecurrentStack  # noqa: E402
from test_values132_torch import _raises  # noqa: E402

jax.config.update("jax_enable_x64", True)  # as the other JAX test files

T, B, I, H = 5, 3, 2, 3
LENGTHS = [5, 2, 4]  # T != B, a row shorter than B and one ending inside the sequence


def _torch_run(m, x, state, lengths):
    """torch's module over x (T,B,I) packed at lengths (None: full), y zero past each length."""
    xt = torch.from_numpy(np.asarray(x))
    if lengths is None:
        return m(xt, state)
    packed = torch.nn.utils.rnn.pack_padded_sequence(xt, torch.tensor(lengths), enforce_sorted=False)
    y, s = m(packed, state)
    y, _ = torch.nn.utils.rnn.pad_packed_sequence(y, total_length=xt.shape[0])
    return y, s


def _jnp(sd):
    return {k: jnp.asarray(v.detach().numpy()) for k, v in sd.items()}


@pytest.mark.parametrize("L", [1, 2])
def test_bidirectional_lstm_state_dict_with_lengths_and_state_equals_torch_and_its_gradients(L):
    torch.manual_seed(291 + L)
    m = torch.nn.LSTM(I, H, num_layers=L, bidirectional=True).double()
    rng = np.random.default_rng(L)
    x = rng.standard_normal((T, B, I))
    h0, c0 = (torch.from_numpy(rng.uniform(-0.5, 0.5, (2 * L, B, H))).requires_grad_() for _ in range(2))
    wy = rng.standard_normal((T, B, 2 * H))
    wh = rng.standard_normal((2 * L, B, H))
    xt = torch.from_numpy(x).requires_grad_()
    packed = torch.nn.utils.rnn.pack_padded_sequence(xt, torch.tensor(LENGTHS), enforce_sorted=False)
    yp, (hn, cn) = m(packed, (h0, c0))
    yt, _ = torch.nn.utils.rnn.pad_packed_sequence(yp, total_length=T)
    loss_t = (yt * torch.from_numpy(wy)).sum() + (hn * torch.from_numpy(wh)).sum()
    loss_t.backward()

    p = _jnp(m.state_dict())
    lengths = jnp.array(LENGTHS)
    y, (h, c) = lj.apply(p, jnp.asarray(x), (jnp.asarray(h0.detach().numpy()), jnp.asarray(c0.detach().numpy())),
                         lengths, cell="lstm", norm=None)
    assert y.shape == (T, B, 2 * H) and h.shape == c.shape == (2 * L, B, H)
    np.testing.assert_allclose(y, yt.detach().numpy(), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(h, hn.detach().numpy(), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(c, cn.detach().numpy(), rtol=1e-10, atol=1e-12)

    def loss(p, x, h0, c0):
        y, (h, _) = lj.apply(p, x, (h0, c0), lengths, cell="lstm", norm=None)
        return jnp.sum(y * wy) + jnp.sum(h * wh)
    gp, gx, gh0, gc0 = jax.jit(jax.grad(loss, argnums=(0, 1, 2, 3)))(
        p, jnp.asarray(x), jnp.asarray(h0.detach().numpy()), jnp.asarray(c0.detach().numpy()))
    np.testing.assert_allclose(gx, xt.grad.numpy(), rtol=1e-9, atol=1e-11)
    np.testing.assert_allclose(gh0, h0.grad.numpy(), rtol=1e-9, atol=1e-11)
    np.testing.assert_allclose(gc0, c0.grad.numpy(), rtol=1e-9, atol=1e-11)
    assert np.abs(np.asarray(gh0)).min() > 0 and np.abs(np.asarray(gc0)).max() > 1e-3
    for k, v in m.named_parameters():
        np.testing.assert_allclose(gp[k], v.grad.numpy(), rtol=1e-9, atol=1e-11, err_msg=k)


def test_two_layer_rnn_with_square_weights_equals_torch_rnn():
    """I = H: every weight is square, so one read as stored (not transposed) would still run."""
    torch.manual_seed(291)
    m = torch.nn.RNN(H, H, num_layers=2).double()
    rng = np.random.default_rng(7)
    x = rng.standard_normal((T, B, H))
    h0 = rng.uniform(-0.5, 0.5, (2, B, H))
    yt, ht = m(torch.from_numpy(x), torch.from_numpy(h0))
    y, h = lj.apply(_jnp(m.state_dict()), jnp.asarray(x), jnp.asarray(h0), cell="rnn", norm=None)
    np.testing.assert_allclose(y, yt.detach().numpy(), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(h, ht.detach().numpy(), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("bidirectional", [False, True])
def test_init_names_and_shapes_are_torchs_with_and_without_directions(bidirectional):
    p = lj.init(jax.random.key(0), "lstm", None, I, H, 2, dtype=jnp.float64, bidirectional=bidirectional)
    sd = torch.nn.LSTM(I, H, num_layers=2, bidirectional=bidirectional).state_dict()
    assert list(p) == list(sd)
    assert [tuple(v.shape) for v in p.values()] == [tuple(v.shape) for v in sd.values()]
    y, (h, c) = lj.apply(p, jnp.ones((T, B, I)), cell="lstm", norm=None)
    D = 2 if bidirectional else 1
    assert y.shape == (T, B, D * H) and h.shape == c.shape == (2 * D, B, H)


def _stack_to_torch(p, bidirectional=False):
    m = torch.nn.LSTM(I, H, num_layers=2, bidirectional=bidirectional).double()
    m.load_state_dict({k: torch.from_numpy(np.array(v)) for k, v in p.items()}, strict=True)
    return m


def test_params_from_a_stack_and_from_an_export_file_run_as_torch(tmp_path):
    from lnrnn.interop.export import write_safetensors
    st = RecurrentStack("lstm", "none", I, H, num_layers=2, dtype=np.float64, seed=291)
    params, stats = lj.params_from_stack(st)
    assert stats == {}
    assert list(params) == [f"{w}_l{k}" for k in (0, 1) for w in ("weight_ih", "weight_hh", "bias_ih", "bias_hh")]
    m = _stack_to_torch(params)
    rng = np.random.default_rng(3)
    x = rng.standard_normal((T, B, I))
    yt, (ht, ct) = _torch_run(m, x, None, LENGTHS)
    for p in (params,):
        y, (h, c) = lj.apply(p, jnp.asarray(x), None, jnp.array(LENGTHS), cell="lstm", norm=None)
        np.testing.assert_allclose(y, yt.detach().numpy(), rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(h, ht.detach().numpy(), rtol=1e-10, atol=1e-12)
    tensors = {"rnn." + k: np.asarray(v) for k, v in params.items()}
    tensors["head.weight"], tensors["head.bias"] = np.ones((2, H)), np.zeros(2)    # a head: not among the params
    write_safetensors(str(tmp_path / "w.safetensors"), tensors, {"model_config": '{"cell": "lstm", "norm": "none"}'})
    p2, s2, config = lj.load_export(tmp_path / "w.safetensors")
    assert list(sorted(p2)) == sorted(params) and s2 == {} and config == {"cell": "lstm", "norm": "none"}
    y, (h, c) = lj.apply(p2, jnp.asarray(x), None, jnp.array(LENGTHS), cell="lstm", norm=None)
    np.testing.assert_allclose(y, yt.detach().numpy(), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(c, ct.detach().numpy(), rtol=1e-10, atol=1e-12)


def test_jit_vmap_over_examples_with_a_shared_state_and_lengths_equals_torch_per_example():
    V, Tv, Bv = 3, 4, 2
    lens = [4, 2]
    torch.manual_seed(5)
    m = torch.nn.LSTM(I, H, num_layers=2).double()
    p = _jnp(m.state_dict())
    rng = np.random.default_rng(11)
    xs = rng.standard_normal((V, Tv, Bv, I))
    h0, c0 = (rng.uniform(-0.5, 0.5, (2, Bv, H)) for _ in range(2))

    def f(x, h0, c0, lengths):
        return lj.apply(p, x, (h0, c0), lengths, cell="lstm", norm=None)
    y, (h, c) = jax.jit(jax.vmap(f, in_axes=(0, None, None, None)))(jnp.asarray(xs), jnp.asarray(h0),
                                                                       jnp.asarray(c0), jnp.array(lens))
    assert y.shape == (V, Tv, Bv, H) and h.shape == c.shape == (V, 2, Bv, H)
    for v in range(V):
        yt, (ht, ct) = _torch_run(m, xs[v], (torch.from_numpy(h0), torch.from_numpy(c0)), lens)
        np.testing.assert_allclose(y[v], yt.detach().numpy(), rtol=1e-10, atol=1e-12, err_msg=str(v))
        np.testing.assert_allclose(h[v], ht.detach().numpy(), rtol=1e-10, atol=1e-12, err_msg=str(v))
        np.testing.assert_allclose(c[v], ct.detach().numpy(), rtol=1e-10, atol=1e-12, err_msg=str(v))


def test_check_grads_of_a_ragged_ln_rnn_over_x_h0_and_weights():
    p = lj.init(jax.random.key(291), "rnn", "ln", 2, 2, 1, dtype=jnp.float64)
    rng = np.random.default_rng(2)
    p = {k: v + jnp.asarray(rng.uniform(-0.2, 0.2, v.shape)) for k, v in p.items()}
    x = jnp.asarray(rng.standard_normal((3, 2, 2)))
    h0 = jnp.asarray(rng.uniform(-0.5, 0.5, (1, 2, 2)))
    lengths = jnp.array([3, 2])

    def f(p, x, h0):
        y, h = lj.apply(p, x, h0, lengths, cell="rnn", norm="ln")
        return jnp.sum(jnp.sin(y)) + jnp.sum(h * h)
    check_grads(f, (p, x, h0), order=1, modes=["rev"], eps=1e-5, atol=1e-6, rtol=1e-6)


def test_the_64_bit_refusals_word_for_word():
    with jax.enable_x64(False):  # this thread's setting off: float64 would not survive
        _raises(TypeError, "float64 needs 64-bit JAX: call jax.config.update('jax_enable_x64', True) first, or "
                "use float32.", lambda: lj.init(jax.random.key(0), "rnn", None, 2, 3, dtype=np.float64))
    jax.config.update("jax_enable_x64", False)
    try:
        with jax.enable_x64(True):  # on here only, not on the callbacks' thread
            _raises(TypeError, "float64 inside a jax.enable_x64 context does not reach the callbacks, which run on "
                    "another thread: call jax.config.update('jax_enable_x64', True) for the whole process.",
                    lambda: lj.init(jax.random.key(0), "rnn", None, 2, 3, dtype=np.float64))
    finally:
        jax.config.update("jax_enable_x64", True)
    assert lj.init(jax.random.key(0), "rnn", None, 2, 3, dtype=np.float64)["weight_ih_l0"].dtype == jnp.float64
