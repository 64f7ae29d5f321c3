"""Heads (lnrnn/model/heads.py) against NumPy written here, the head's W the identity and b 0 (test_values235's
identity_head) so that the logits are the h drawn here. A per-step classifier on T = B = 3 with rows of 0, 3
and 2 valid steps and a -1 label: its loss is minus the sum of log-softmax(h[t, b])[label[b, t]] over the
scored steps, its acc the argmax hits there, its count the scored steps (labels are (B,T), h is (T,B,H)). A
batch of no scored unit (every length 0) has mean 0 for every metric, not a division by zero. A regression
head's acc counts the units whose every |error| is below its own tolerance (0.3 here, not the default 0.04);
its W is drawn from default_rng([seed, 7]) uniform in +-1/sqrt(H), so the seed given is the seed used. The
refusals of a mixture's output count and component count and of an unknown head kind, word for word."""
import numpy as np
import pytest

from lnrnn.model.heads import ClassifierHead, MDNHead, RegressionHead, make_head
from test_values235_heads import identity_head


def log_softmax_by_hand(z):
    z = z - z.max(axis=-1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=-1, keepdims=True))


def test_per_step_classifier_on_a_square_batch_reads_labels_by_row_and_step():
    T = B = C = 3
    head = identity_head(ClassifierHead, C, per_step=True)
    h = np.random.default_rng(2561).standard_normal((T, B, C))
    labels = np.array([[2, 0, 1], [1, 2, -1], [0, 1, 2]])              # (B,T); row 1's last step unscored
    lengths = np.array([0, 3, 2])
    valid = np.arange(T)[:, None] < lengths[None, :]                    # (T,B)
    lsm = log_softmax_by_hand(h)
    want_loss, want_acc, want_n = 0.0, 0, 0
    for b in range(B):
        for t in range(T):
            if t < lengths[b] and labels[b, t] >= 0:
                want_loss -= lsm[t, b, labels[b, t]]
                want_acc += int(np.argmax(h[t, b]) == labels[b, t])
                want_n += 1
    assert want_n == 4                                                  # steps 0, 1 of rows 1 and 2
    sums, n, _ = head.forward(h, labels, valid)
    assert n == want_n
    assert head.count(labels, valid) == want_n
    np.testing.assert_allclose(sums["loss"], want_loss, rtol=1e-12)
    assert sums["acc"] == want_acc


@pytest.mark.parametrize("cls,kw", [(ClassifierHead, {}), (RegressionHead, {})])
def test_a_batch_of_no_scored_unit_has_mean_zero(cls, kw):
    head = identity_head(cls, 2, **kw)
    h = np.random.default_rng(2562).standard_normal((3, 2))
    targets = np.array([1, 0, 1]) if cls is ClassifierHead else np.zeros((3, 2))
    valid = np.zeros(3, bool)                                           # every row of length 0
    sums, n, _ = head.forward(h, targets, valid)
    assert n == 0
    assert head.mean(sums, n) == {"loss": 0.0, "acc": 0.0}
    assert head.mean({"loss": 7.5, "acc": 2.0}, 3) == {"loss": 2.5, "acc": 2.0 / 3}


def test_regression_acc_counts_errors_below_its_own_tolerance():
    head = identity_head(RegressionHead, 2, tolerance=0.3)
    h = np.array([[0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0]])
    targets = np.array([[0.1, -0.2], [0.29, 0.0], [0.31, 0.0], [0.05, -0.05], [0.0, 0.25]])
    valid = np.array([True, True, True, True, False])
    err = (h - targets) * valid[:, None]
    want_loss = float((err ** 2).sum())
    want_acc = int(np.count_nonzero(np.all(np.abs(err) < 0.3, axis=1) & valid))
    assert want_acc == 3                                                # rows 0, 1, 3; row 2 misses by 0.01
    sums, n, _ = head.forward(h, targets, valid)
    assert n == 4
    np.testing.assert_allclose(sums["loss"], want_loss, rtol=1e-12)
    assert sums["acc"] == want_acc


def test_regression_weights_come_from_the_seed_given():
    H, O, seed = 5, 3, 11
    head = RegressionHead(H, O, dtype="float64", seed=seed)
    bound = 1.0 / np.sqrt(H)
    want = np.random.default_rng([seed, 7]).uniform(-bound, bound, (H, O))
    np.testing.assert_array_equal(head.params["W"], want)
    np.testing.assert_array_equal(head.params["b"], np.zeros(O))


def test_mixture_output_count_refused_naming_both():
    with pytest.raises(ValueError) as e:
        MDNHead(4, components=2, outputs=12)
    assert str(e.value) == "a mixture of 2 components has 13 outputs, not 12"


def test_mixture_of_no_component_refused_naming_what_was_given():
    with pytest.raises(ValueError) as e:
        MDNHead(4, components=0.5)
    assert str(e.value) == "components must be at least 1, got 0.5"


def test_unknown_head_kind_refused_naming_the_kind():
    with pytest.raises(ValueError) as e:
        make_head({"kind": "mlp", "outputs": 2}, 4)
    assert str(e.value) == "unknown head 'mlp'; expected one of classifier, regression, mdn, ctc"
