"""lnrnn/model/models.py's save/load round trip with every option: a model's config, through JSON as a
checkpoint keeps it, rebuilds (build_model) a model of the same config (the synthesis network's state noise,
forget bias, dtype and window norm included), and its arrays loaded there (load_arrays) give the same figures
and the same initial-state noise. load_arrays takes exactly the model's arrays: one missing, one more (another,
larger model's) or one of another shape is a ValueError naming it."""
import json

import numpy as np
import pytest

from lnrnn.model.models import build_model

CONFIGS = {
    "synthesis": dict(cell="lstm", norm="ln", input_size=3, hidden_size=4, num_layers=2, dtype="float64",
                      forget_bias=2.0, state_noise=0.05, window=2, alphabet_size=4, window_norm="none",
                      head={"kind": "mdn", "components": 2, "per_step": True, "scale": [2.0, 3.0]}),
    "synthesis-bn": dict(cell="lstm", norm="bn", input_size=3, hidden_size=4, num_layers=1, dtype="float32",
                         forget_bias=0.5, state_noise=0.1, window=1, alphabet_size=3,
                         head={"kind": "mdn", "components": 1, "per_step": True, "scale": [1.0, 1.0]}),
    "bidirectional-skip": dict(cell="lstm", norm="none", input_size=2, hidden_size=3, num_layers=2,
                               dtype="float64", forget_bias=1.5, skip=True, bidirectional=True,
                               head={"kind": "regression", "outputs": 2, "per_step": False, "tolerance": 0.1}),
    "bn-rnn-noise": dict(cell="rnn", norm="bn", input_size=2, hidden_size=3, num_layers=2, dtype="float32",
                         forget_bias=1.0, state_noise=0.2,
                         head={"kind": "classifier", "outputs": 3, "per_step": True}),
    "ctc": dict(cell="lstm", norm="ln", input_size=3, hidden_size=3, num_layers=1, dtype="float64",
                forget_bias=1.0, head={"kind": "ctc", "outputs": 4, "per_step": True}),
}


def _batch(m, T=5, B=3):
    rng = np.random.default_rng(7)
    x = rng.standard_normal((T, B, m.stack.config["input_size"])).astype(m.dtype)
    kind = m.head.kind
    if kind == "mdn":
        x[:, :, 2] = rng.integers(0, 2, (T, B))
        y = np.concatenate([x[1:], x[:1]]).transpose(1, 0, 2)
    elif kind == "regression":
        y = rng.standard_normal((B, 2))
    elif kind == "ctc":
        y = np.array([[1, 2, -1], [3, -1, -1], [2, 2, 1]])        # labels padded with -1
    else:
        y = rng.integers(0, 3, (B, T))
    C = m.config.get("alphabet_size", 1)
    text = (np.array([[1, 2], [3, 0], [2, 1]]) % C, np.array([2, 1, 2])) if m.conditioned else None
    return x, y, np.array([T, T - 2, T - 1]), text


def _saved(m):
    """The model's arrays and config as a checkpoint keeps them (the config through JSON)."""
    return {**{k: np.array(v) for k, v in m.params.items()}, **{k: np.array(v) for k, v in m.buffers.items()}}, \
        json.loads(json.dumps(m.config))


@pytest.mark.parametrize("name", list(CONFIGS))
def test_a_saved_model_rebuilds_and_reloads_as_it_was(name):
    m = build_model(CONFIGS[name], seed=3)
    for k, v in m.params.items():        # parameters of its own, not the initialization's
        v *= 1.25
    x, y, lengths, text = _batch(m)
    if any(m.buffers):
        m.loss_and_grad(x, y, lengths, text=text)   # BN population statistics that are not the initial ones
    arrays, cfg = _saved(m)
    got = build_model(cfg, seed=3)
    assert got.config == m.config
    for k in CONFIGS[name]:
        assert got.config[k] == CONFIGS[name][k], k
    assert got.dtype == m.dtype and got.state_noise == m.state_noise
    got.load_arrays(arrays)
    a = m.loss_sums(x, y, lengths, noise_key=4, text=text)
    b = got.loss_sums(x, y, lengths, noise_key=4, text=text)
    assert a == b
    if m.state_noise:
        for s, t in zip(m.noise_state(3, (2, 9)), got.noise_state(3, (2, 9))):
            for u, v in zip(s, t):
                np.testing.assert_array_equal(u, v)


def test_load_arrays_takes_exactly_the_models_arrays():
    small = build_model(CONFIGS["bn-rnn-noise"], seed=0)
    large = build_model(dict(CONFIGS["bn-rnn-noise"], num_layers=3), seed=0)
    arrays, _ = _saved(large)
    with pytest.raises(ValueError, match="array names differ"):
        small.load_arrays(arrays)                                   # another, larger model's arrays
    own, _ = _saved(small)
    extra = dict(own, **{"rnn.l9.Wx": np.zeros((2, 3), np.float32)})
    with pytest.raises(ValueError, match="rnn.l9.Wx"):
        small.load_arrays(extra)
    missing = dict(own)
    missing.pop("head.b")
    with pytest.raises(ValueError, match="head.b"):
        small.load_arrays(missing)
    wrong = dict(own, **{"head.W": np.zeros((4, 3), np.float32)})
    with pytest.raises(ValueError, match="head.W"):
        small.load_arrays(wrong)
    before = {k: np.array(v) for k, v in small.params.items()}
    small.load_arrays(own)
    for k, v in small.params.items():
        np.testing.assert_array_equal(v, before[k])
