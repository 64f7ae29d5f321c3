"""lnrnn/model/models.py at tiny sizes against what is written out here: a model's config, parameter and gradient
names by hand (and a model rebuilt from its config equal parameter for parameter); the arrays of a model of
another seed loaded parameter for parameter, and those of other models (a bidirectional one, a two-layer
bidirectional one past the five names listed) refused word for word with nothing changed; a 0.1 config upgraded
to the form written out, the caller's dict left as it was; each row's last output of a two-layer LN-RNN model
in inference chunks of 2 steps (state carried from chunk to chunk) and in one call, with rows of lengths 5, 0
and 2, against reference.rnn_forward, and the last-step loss sums by log-softmax written out; a per-step
classifier trained in truncated-BPTT chunks of 2 steps whose loss is the mean cross-entropy over the scored
steps computed from the spec."""
import numpy as np
import pytest

from lnrnn import reference as ref
from lnrnn.model import models
from lnrnn.model.models import build_model, head_config, upgrade_config

I, H, C = 2, 3, 4


def _cfg(**kw):
    base = dict(cell="rnn", norm="none", input_size=I, hidden_size=H, num_layers=1, dtype="float64",
                forget_bias=1.0, head=head_config("ce", C))
    return {**base, **kw}


def test_config_and_names_by_hand_and_a_rebuild_from_the_config():
    m = build_model(_cfg(num_layers=2, forget_bias=2.0, cell="lstm", norm="ln"), seed=3)
    assert m.config == {"cell": "lstm", "norm": "ln", "input_size": 2, "hidden_size": 3, "num_layers": 2,
                        "dtype": "float64", "forget_bias": 2.0, "state_noise": 0.0,
                        "head": {"kind": "classifier", "outputs": 4, "per_step": False}}
    names = [f"rnn.l{k}.{n}" for k in range(2) for n in ("Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc")]
    names += ["head.W", "head.b"]
    assert list(m.params) == names
    assert list(m.grads) == names
    # LSTM-LN layer: Wx (I,4H), Wh (H,4H), b gx bx gh bh (4H,), gc bc (H,); head W (H,C), b (C,)
    assert m.num_params() == (2 * 12 + 3 * 12 + 5 * 12 + 2 * 3) + (3 * 12 + 3 * 12 + 5 * 12 + 2 * 3) + 12 + 4 == 280
    np.testing.assert_array_equal(m.params["rnn.l1.b"][3:6], [2.0] * 3)   # the forget block (i, f, g, o)
    again = build_model(m.config, seed=3)
    for k, v in m.params.items():
        np.testing.assert_array_equal(again.params[k], v)


def test_the_arrays_of_another_seed_load_and_other_models_are_refused_word_for_word():
    one, other = build_model(_cfg(), seed=1), build_model(_cfg(), seed=2)
    assert not np.array_equal(one.params["rnn.l0.Wh"], other.params["rnn.l0.Wh"])
    one.load_arrays({k: v.copy() for k, v in other.params.items()})
    for k, v in other.params.items():
        np.testing.assert_array_equal(one.params[k], v)
    before = {k: v.copy() for k, v in one.params.items()}
    bi = build_model(_cfg(bidirectional=True), seed=1)
    with pytest.raises(ValueError) as e:
        one.load_arrays(dict(bi.params))
    assert str(e.value) == "array names differ: ['rnn.l0_reverse.Wh', 'rnn.l0_reverse.Wx', 'rnn.l0_reverse.b']"
    bi2 = build_model(_cfg(bidirectional=True, num_layers=2), seed=1)
    with pytest.raises(ValueError) as e:
        one.load_arrays(dict(bi2.params))
    assert str(e.value) == ("array names differ: ['rnn.l0_reverse.Wh', 'rnn.l0_reverse.Wx', 'rnn.l0_reverse.b', "
                            "'rnn.l1.Wh', 'rnn.l1.Wx']")
    wide = build_model(_cfg(hidden_size=5), seed=1)
    with pytest.raises(ValueError) as e:
        one.load_arrays(dict(wide.params))
    assert str(e.value) == "rnn.l0.Wx: shape (2, 5) vs (2, 3)"
    for k, v in before.items():
        np.testing.assert_array_equal(one.params[k], v)


def test_a_0_1_config_upgraded_and_the_callers_dict_untouched():
    old = dict(cell="rnn", norm="none", input_size=I, hidden_size=H, num_layers=1, dtype="float64",
               forget_bias=1.0, num_classes=5, objective="ce", per_step=True)
    kept = dict(old)
    assert upgrade_config(old) == {"cell": "rnn", "norm": "none", "input_size": 2, "hidden_size": 3,
                                   "num_layers": 1, "dtype": "float64", "forget_bias": 1.0, "state_noise": 0.0,
                                   "head": {"kind": "classifier", "outputs": 5, "per_step": True}}
    assert old == kept
    m = build_model(old, seed=0)
    assert m.params["head.W"].shape == (3, 5) and m.head.steps == "all"
    assert old == kept


def _two_layer_ln_by_hand(P, x):
    z = np.zeros((x.shape[1], H))
    y0 = ref.rnn_forward(x, z, P["rnn.l0.Wx"], P["rnn.l0.Wh"], P["rnn.l0.b"], P["rnn.l0.g"], "ln")[0]
    return ref.rnn_forward(y0, z, P["rnn.l1.Wx"], P["rnn.l1.Wh"], P["rnn.l1.b"], P["rnn.l1.g"], "ln")[0]


@pytest.mark.parametrize("rows", [6, 8192])   # 6 rows: chunks of 6 // 3 = 2 steps; 8192: one chunk
def test_last_outputs_in_chunks_and_in_one_call_against_the_spec(rows, monkeypatch):
    monkeypatch.setattr(models, "INFER_CHUNK_ROWS", rows)
    assert models.infer_chunk_steps(3, 5) == (2 if rows == 6 else 5)
    m = build_model(_cfg(norm="ln", num_layers=2), seed=4)
    x = np.random.default_rng(9).standard_normal((5, 3, I))
    lengths = np.array([5, 0, 2])
    y = _two_layer_ln_by_hand(m.params, x)
    want = np.stack([y[4, 0], np.zeros(H), y[1, 2]])
    np.testing.assert_allclose(m.last_outputs(x, lengths=lengths), want, rtol=0, atol=1e-12)
    labels = np.array([1, 3, 2])
    sums, count = m.loss_sums(x, labels, lengths)
    z = want @ m.params["head.W"] + m.params["head.b"]
    logp = z - z.max(1, keepdims=True)
    logp = logp - np.log(np.exp(logp).sum(1, keepdims=True))
    assert count == 2 and sums["seqs"] == 2.0
    assert sums["loss"] == pytest.approx(-(logp[0, 1] + logp[2, 2]), rel=1e-12)


def test_per_step_classifier_in_truncated_bptt_chunks_scores_the_mean_over_scored_steps():
    m = build_model(_cfg(head=head_config("ce", C, per_step=True)), seed=7)
    x = np.random.default_rng(15).standard_normal((5, 2, I))
    lengths = np.array([5, 3])
    labels = np.array([[0, 3, -1, 2, 1], [2, 2, 1, 0, 3]])   # (B,T); -1 unscored, row 1 ends after 3 steps
    z0 = np.zeros((2, H))
    y = ref.rnn_forward(x, z0, m.params["rnn.l0.Wx"], m.params["rnn.l0.Wh"], m.params["rnn.l0.b"], None, "none")[0]
    logits = y @ m.params["head.W"] + m.params["head.b"]
    logp = logits - np.log(np.exp(logits).sum(-1, keepdims=True))
    picked = [logp[t, b, labels[b, t]] for b in range(2) for t in range(lengths[b]) if labels[b, t] >= 0]
    assert len(picked) == 7
    out = m.loss_and_grad(x, labels, lengths, tbptt=2)
    assert m.last_count == 7
    assert out["loss"] == pytest.approx(-sum(picked) / 7, rel=1e-12)
