"""lnrnn/diagnostics.py's statistics against direct NumPy formulas on the reference forward: h_std is the
hidden state's spread (over running rows only), pre_sat counts saturation on both sides, and a model with
state noise starts from the draw of a training run's first update."""
import numpy as np
import pytest

from lnrnn import reference as ref
from lnrnn.diagnostics import per_step
from lnrnn.model.models import build_model

T, B, I, H = 8, 5, 2, 3


def _model(cell="lstm", norm="none", state_noise=0.0, seed=1):
    return build_model(dict(cell=cell, norm=norm, input_size=I, hidden_size=H, num_layers=1, dtype="float64",
                            forget_bias=1.0, head={"kind": "classifier", "outputs": 4, "per_step": False},
                            state_noise=state_noise), seed=seed)


def _reference(model, x):
    """The plain LSTM layer's y (T,B,H) and gate pre-activations (T,B,4H) from zero states, by the NumPy spec."""
    p = model.stack.layers[0].params
    G = p["Wh"].shape[1]
    y, _, _, cache = ref.lstm_forward(x, np.zeros((B, H)), np.zeros((B, H)), p["Wx"], p["Wh"], p["b"], np.ones(G),
                                      np.zeros(G), np.ones(G), np.zeros(G), np.ones(H), np.zeros(H), "none")
    a = np.stack([x[t] @ p["Wx"] + (cache[t]["h"] @ p["Wh"]) + p["b"] for t in range(T)])
    return y, a


def _problem(scale=1.0, seed=3):
    model = _model()
    model.stack.layers[0].params["Wx"] *= scale
    rng = np.random.default_rng(seed)
    return model, scale * rng.standard_normal((T, B, I)), rng.integers(0, 4, B)


def test_h_std_is_the_hidden_states_spread():
    model, x, y = _problem()
    h, a = _reference(model, x)
    d = per_step(model, x, y)
    np.testing.assert_allclose(d["h_std"][0], h.reshape(T, -1).std(1), rtol=1e-12)
    assert not np.allclose(h.reshape(T, -1).std(1), a.reshape(T, -1).std(1))    # the two spreads differ here


def test_h_std_counts_running_rows_only():
    model, x, y = _problem()
    lengths = np.array([8, 3, 8, 5, 1])
    h, _ = _reference(model, x)        # rows are independent: a row's running steps are the full run's
    d = per_step(model, x, y, lengths=lengths)
    run = np.arange(T)[:, None] < lengths[None, :]
    np.testing.assert_allclose(d["h_std"][0], [h[t][run[t]].std() for t in range(T)], rtol=1e-12)


def test_saturation_counts_both_signs():
    model, x, y = _problem(scale=4.0)
    _, a = _reference(model, x)
    assert (a < -3).sum() > 10 and (a > 3).sum() > 10 and (np.abs(a) <= 3).sum() > 10   # all three kinds occur
    d = per_step(model, x, y)
    np.testing.assert_allclose(d["pre_sat"][0], (np.abs(a) > 3).reshape(T, -1).mean(1), rtol=1e-12)
    np.testing.assert_allclose(d["pre_std"][0], a.reshape(T, -1).std(1), rtol=1e-12)


def test_state_noise_is_the_draw_of_the_first_update():
    model = _model("lstm", "bn", state_noise=0.5)
    rng = np.random.default_rng(4)
    x, y = rng.standard_normal((T, B, I)), rng.integers(0, 4, B)
    first = model._update_noise(B, 0)                  # what the trainer's update 0 starts from
    d = per_step(model, x, y)
    given = per_step(model, x, y, state=first)
    zero = per_step(model, x, y, state=model.stack.zero_state(B))
    for k in ("grad_h", "pre_std", "h_std"):
        np.testing.assert_array_equal(d[k], given[k])
    assert d["loss"] == given["loss"] and d["loss"] != zero["loss"]
    other = per_step(model, x, y, state=model._update_noise(B, 1))
    assert d["loss"] != other["loss"]


def test_a_skip_stacks_lower_layer_gets_its_gradient_through_the_layer_above():
    """With skip connections layer 1 reads [x | h0_t]: dL/dh0_t (``dh[0]``) takes its share through layer 1
    from the h0 columns of that input. Central differences: h0_t moved by eps*v, layer 0 continued from it,
    layer 1 and the head run on the moved sequence (kernels: an independent implementation)."""
    model = build_model(dict(cell="lstm", norm="ln", input_size=I, hidden_size=H, num_layers=2, skip=True,
                             dtype="float64", forget_bias=1.0,
                             head={"kind": "classifier", "outputs": 4, "per_step": False}), seed=1)
    rng = np.random.default_rng(4)
    x, y = rng.standard_normal((T, B, I)), rng.integers(0, 4, B)
    d = per_step(model, x, y)
    l0, l1 = model.stack.layers
    t, v = 3, rng.standard_normal((B, H))

    def loss(eps):
        a, s = l0.forward(np.ascontiguousarray(x[:t + 1]))
        s = (s[0] + eps * v, s[1])
        b, _ = l0.forward(np.ascontiguousarray(x[t + 1:]), s, t0=t + 1)
        h0 = np.concatenate([a[:t], s[0][None], b])                     # (T,B,H), step t moved
        h1, _ = l1.forward(np.ascontiguousarray(np.concatenate([x, h0], axis=2)))
        sel, valid, _ = model._select(np.concatenate([h0, h1], axis=2), T, None, 0)
        sums, count, _ = model.head.forward(sel, y, valid)
        return sums["loss"] / count

    fd = (loss(1e-5) - loss(-1e-5)) / 2e-5
    assert np.sum(d["dh"][0][t] * v) == pytest.approx(fd, rel=1e-6)
