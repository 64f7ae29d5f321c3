"""lnrnn/model/models.py at tiny sizes against models composed here by hand: a plain-RNN classifier over ragged rows
(lengths 4, 1, 3) whose loss, head gradient and untouched parameters are checked against reference.rnn_forward,
log-softmax cross-entropy and softmax - one-hot written out in NumPy; loss_sums with a row of length 0 (the
sequences counted are the rows with a step); a checkpoint written and read back into a model of another seed equal
parameter for parameter, and checkpoints of other models refused word for word; head_config's documented defaults;
SequenceClassifier passing on its tolerance and seed (with and without a stack of its own); upgrade_config of a
config that already has a head (state_noise 0 added) and of a 0.1 config; the synthesis model's head drawn for the
seed it is built with. Parameter names, shapes and counts are written out by hand."""
import numpy as np
import pytest

from lnrnn import reference as ref
from lnrnn.model.heads import make_head
from lnrnn.model.layers import RecurrentStack
from lnrnn.model.models import SequenceClassifier, build_model, head_config, upgrade_config
from lnrnn.training.checkpoint import load_checkpoint, save_checkpoint

I, H, C, T = 2, 3, 4, 4
LENGTHS = np.array([4, 1, 3])


def _cfg(**kw):
    base = dict(cell="rnn", norm="none", input_size=I, hidden_size=H, num_layers=1, dtype="float64",
                forget_bias=1.0, head=head_config("ce", C))
    return {**base, **kw}


def _x():
    return np.random.default_rng(5).standard_normal((T, len(LENGTHS), I))


def _by_hand(p, x, lengths, labels):
    """Each row alone through reference.rnn_forward to its last step, then h W + b and log-softmax cross-entropy:
    -> (per-row losses, per-row softmax, per-row last h)."""
    losses, probs, hs = [], [], []
    for b, L in enumerate(lengths):
        y, _, _ = ref.rnn_forward(x[:L, b:b + 1], np.zeros((1, H)), p["rnn.l0.Wx"], p["rnn.l0.Wh"],
                                  p["rnn.l0.b"], None, "none")
        h = y[-1, 0]
        z = h @ p["head.W"] + p["head.b"]
        z = z - z.max()
        logp = z - np.log(np.exp(z).sum())
        losses.append(-logp[labels[b]])
        probs.append(np.exp(logp))
        hs.append(h)
    return np.array(losses), np.array(probs), np.array(hs)


def test_parameter_names_shapes_and_count_by_hand():
    m = build_model(_cfg(num_layers=2), seed=1)
    want = {"rnn.l0.Wx": (I, H), "rnn.l0.Wh": (H, H), "rnn.l0.b": (H,),
            "rnn.l1.Wx": (H, H), "rnn.l1.Wh": (H, H), "rnn.l1.b": (H,), "head.W": (H, C), "head.b": (C,)}
    assert {k: v.shape for k, v in m.params.items()} == want
    assert m.num_params() == 2 * 3 + 9 + 3 + 9 + 9 + 3 + 12 + 4 == 55


def test_a_classifier_over_ragged_rows_against_the_reference_and_its_params_untouched():
    m = build_model(_cfg(), seed=1)
    before = {k: v.copy() for k, v in m.params.items()}
    x, labels = _x(), np.array([2, 0, 3])
    losses, probs, hs = _by_hand(before, x, LENGTHS, labels)
    got = m.loss_and_grad(x, labels, LENGTHS)
    assert got["loss"] == pytest.approx(losses.mean(), rel=1e-12)
    assert got["acc"] == pytest.approx(np.mean(probs.argmax(1) == labels))
    for k in before:  # a backward never writes the parameters
        np.testing.assert_array_equal(m.params[k], before[k])
    d = probs.copy()
    d[np.arange(3), labels] -= 1
    np.testing.assert_allclose(m.grads["head.b"], d.mean(0), rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(m.grads["head.W"], hs.T @ d / 3, rtol=1e-12, atol=1e-15)
    # a second call gives the same gradient (zeroed first, not added to)
    m.loss_and_grad(x, labels, LENGTHS)
    np.testing.assert_allclose(m.grads["head.b"], d.mean(0), rtol=1e-12, atol=1e-15)


def test_loss_sums_count_the_rows_that_have_a_step():
    m = build_model(_cfg(), seed=2)
    x, labels = _x(), np.array([1, 2, 3])
    lengths = np.array([4, 0, 3])
    sums, count = m.loss_sums(x, labels, lengths)
    losses, probs, _ = _by_hand(m.params, x[:, [0, 2]], [4, 3], labels[[0, 2]])
    assert count == 2
    assert sums["seqs"] == 2.0
    assert sums["loss"] == pytest.approx(losses.sum(), rel=1e-12)
    assert sums["acc"] == float(np.sum(probs.argmax(1) == labels[[0, 2]]))


def test_a_checkpoint_written_and_read_back_is_equal(tmp_path):
    a = build_model(_cfg(num_layers=2), seed=1)
    save_checkpoint(str(tmp_path / "ck"), {"param/" + k: v for k, v in a.params.items()},
                    {"model": a.config, "step": 3, "epoch": 1})
    meta, arrays = load_checkpoint(str(tmp_path / "ck"))
    assert meta["model"] == a.config
    b = build_model(meta["model"], seed=7)
    assert not np.array_equal(b.params["rnn.l1.Wh"], a.params["rnn.l1.Wh"])
    b.load_arrays({k[len("param/"):]: v for k, v in arrays.items() if k.startswith("param/")})
    for k, v in a.params.items():
        np.testing.assert_array_equal(b.params[k], v)
    x, labels = _x(), np.array([0, 1, 2])
    assert b.loss_sums(x, labels, LENGTHS)[0]["loss"] == a.loss_sums(x, labels, LENGTHS)[0]["loss"]


def test_the_arrays_of_another_model_are_refused_word_for_word():
    two = build_model(_cfg(num_layers=2), seed=1)
    one = build_model(_cfg(), seed=1)
    with pytest.raises(ValueError) as e:
        one.load_arrays(dict(two.params))
    assert str(e.value) == "array names differ: ['rnn.l1.Wh', 'rnn.l1.Wx', 'rnn.l1.b']"
    wide = build_model(_cfg(hidden_size=H + 1), seed=1)
    before = {k: v.copy() for k, v in one.params.items()}
    with pytest.raises(ValueError) as e:
        one.load_arrays(dict(wide.params))
    assert str(e.value) == f"rnn.l0.Wx: shape ({I}, {H + 1}) vs ({I}, {H})"
    np.testing.assert_array_equal(one.params["rnn.l0.Wx"], before["rnn.l0.Wx"])


def test_head_config_defaults_are_the_documented_ones():
    assert head_config() == {"kind": "classifier", "outputs": 10, "per_step": False}
    assert head_config("mse", 1) == {"kind": "regression", "outputs": 1, "per_step": False, "tolerance": 0.04}
    with pytest.raises(ValueError) as e:
        head_config("ctc")
    assert str(e.value) == "objective must be 'ce' or 'mse', not 'ctc'"


def test_sequence_classifier_passes_its_tolerance_and_seed_on():
    m = SequenceClassifier(cell="rnn", input_size=I, hidden_size=H, num_classes=1, objective="mse",
                           tolerance=0.25, dtype="float64", seed=3)
    assert m.config["head"] == {"kind": "regression", "outputs": 1, "per_step": False, "tolerance": 0.25}
    same = build_model(_cfg(head=head_config("mse", 1, tolerance=0.25)), seed=3)
    seed0 = build_model(_cfg(head=head_config("mse", 1, tolerance=0.25)), seed=0)
    for k, v in same.params.items():
        np.testing.assert_array_equal(m.params[k], v)
    assert not np.array_equal(seed0.params["rnn.l0.Wx"], same.params["rnn.l0.Wx"])


def test_sequence_classifier_on_a_given_stack_draws_its_head_for_the_seed():
    stack = RecurrentStack("rnn", "none", I, H, 1, dtype=np.float64, seed=0)
    m = SequenceClassifier(input_size=I, hidden_size=H, num_classes=C, dtype="float64", seed=3, stack=stack)
    want = make_head(head_config("ce", C), H, dtype="float64", seed=3)
    other = make_head(head_config("ce", C), H, dtype="float64", seed=0)
    assert not np.array_equal(want.params["W"], other.params["W"])
    np.testing.assert_array_equal(m.params["head.W"], want.params["W"])
    np.testing.assert_array_equal(m.params["head.b"], want.params["b"])


def test_upgrade_config_adds_state_noise_to_a_config_with_a_head():
    cfg = _cfg()
    assert "state_noise" not in cfg
    assert upgrade_config(cfg) == {**cfg, "state_noise": 0.0}
    assert build_model(cfg, seed=0).config["state_noise"] == 0.0
    old = {k: v for k, v in _cfg().items() if k != "head"}
    old.update(objective="mse", num_classes=1, tolerance=0.1)
    assert upgrade_config(old) == {**{k: v for k, v in _cfg().items() if k != "head"}, "state_noise": 0.0,
                                   "head": {"kind": "regression", "outputs": 1, "per_step": False,
                                            "tolerance": 0.1}}


def test_the_synthesis_models_head_is_drawn_for_its_seed():
    cfg = _cfg(cell="lstm", norm="none", head=head_config("ce", C), window=2, alphabet_size=5)
    m = build_model(cfg, seed=3)
    assert m.config["window"] == 2 and m.config["alphabet_size"] == 5
    out = m.stack.output_size
    want = make_head(head_config("ce", C), out, dtype="float64", seed=3)
    other = make_head(head_config("ce", C), out, dtype="float64", seed=0)
    assert not np.array_equal(want.params["W"], other.params["W"])
    np.testing.assert_array_equal(m.params["head.W"], want.params["W"])
