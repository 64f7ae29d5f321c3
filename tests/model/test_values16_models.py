"""lnrnn/model/models.py on small float64 models, against definitions: a last-step head scores every row
with at least one step (a row of one step too) and the mean loss is the rows' own losses over their count;
the sequence count ('seqs') leaves out rows of length 0; ``total`` is the normaliser of the gradients;
``_scatter`` is the adjoint of ``_select`` (a bidirectional stack's rows of one step included);
``evaluate`` draws batch i's initial-state noise for key i; a version 0.1 config upgrades to a last-step head."""
import numpy as np
import pytest

from lnrnn.model.models import build_model, head_config, upgrade_config

T, B, I, H, C = 3, 3, 2, 3, 2


def _model(noise=0.0, bidirectional=False, per_step=False):
    cfg = dict(cell="lstm", norm="ln", input_size=I, hidden_size=H, num_layers=1, dtype="float64",
               forget_bias=1.0, head=head_config("ce", C, per_step=per_step), state_noise=noise)
    if bidirectional:
        cfg["bidirectional"] = True
    return build_model(cfg, seed=2)


def _batch(seed=0):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(T, B, I)), rng.integers(0, C, B)


def test_every_row_with_a_step_is_scored_and_the_mean_is_over_their_count():
    m = _model()
    x, t = _batch()
    lengths = np.array([1, 3, 2])
    mean = m.loss_and_grad(x, t, lengths)
    assert m.last_count == 3
    # each row alone, run over its own steps: its loss is that of its last output
    own = [m.loss_sums(np.ascontiguousarray(x[:lengths[b], b:b + 1]), t[b:b + 1])[0]["loss"] for b in range(B)]
    assert mean["loss"] == pytest.approx(sum(own) / 3, rel=1e-12)


def test_the_sequence_count_leaves_out_rows_of_length_zero():
    m = _model()
    x, t = _batch()
    lengths = np.array([2, 0, 3])
    m.loss_and_grad(x, t, lengths)
    assert m.last_sums["seqs"] == 2.0
    sums, count = m.loss_sums(x, t, lengths)
    assert sums["seqs"] == 2.0 and count == 2


def test_total_is_the_normaliser_of_loss_and_gradients():
    m = _model()
    x, t = _batch()
    own = m.loss_and_grad(x, t)
    g_own = m.flat[1].data.copy()
    shard = m.loss_and_grad(x, t, total=4 * B)     # one shard of a global batch four times larger
    assert shard["loss"] == pytest.approx(own["loss"] / 4, rel=1e-12)
    np.testing.assert_allclose(m.flat[1].data, g_own / 4, rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("bidirectional", [False, True])
def test_scatter_is_the_adjoint_of_select(bidirectional):
    """h = _select(y) is linear in y, so d/dy sum(h * dh) is exact by unit perturbations of y."""
    m = _model(bidirectional=bidirectional)
    rng = np.random.default_rng(1)
    out = m.stack.output_size
    lengths = np.array([1, 3, 2])
    y = rng.normal(size=(T, B, out))
    dh = rng.normal(size=(B, out))
    h, valid, where = m._select(y, T, lengths, 0)
    assert valid.all()
    dy = m._scatter(dh, y.shape, where)
    want = np.zeros_like(y)
    for i in np.ndindex(y.shape):
        e = np.zeros_like(y)
        e[i] = 1.0
        want[i] = float((m._select(e, T, lengths, 0)[0] * dh).sum())
    np.testing.assert_array_equal(dy, want)


def test_evaluate_draws_batch_i_noise_for_key_i():
    m = _model(noise=0.5)
    x, t = _batch()
    s0, c0 = m.loss_sums(x, t, noise_key=0)
    s1, c1 = m.loss_sums(x, t, noise_key=1)
    assert s0["loss"] != s1["loss"]                 # the draws differ, so the check below can tell them apart
    got = m.evaluate([(x, t, None), (x, t, None)])
    assert got["loss"] == pytest.approx((s0["loss"] + s1["loss"]) / (c0 + c1), rel=1e-12)


def test_a_version_0_1_config_upgrades_to_a_last_step_classifier():
    old = dict(cell="lstm", norm="ln", input_size=I, hidden_size=H, num_layers=1, dtype="float64", forget_bias=1.0,
               num_classes=7)
    cfg = upgrade_config(old)
    assert cfg["head"] == {"kind": "classifier", "outputs": 7, "per_step": False}
    assert cfg["state_noise"] == 0.0
    reg = upgrade_config(dict(old, objective="mse", num_classes=1))["head"]
    assert reg == {"kind": "regression", "outputs": 1, "per_step": False, "tolerance": 0.04}
