"""lnrnn/training/optim.py's default hyper-parameters by value: two steps of plain RMSProp (alpha 0.99, eps 1e-8
outside the root) and of rmsprop-graves (alpha 0.95, momentum 0.9, eps 1e-4 under the root, centred) from
their defaults, against the update rules written out here in float64."""
import numpy as np

from lnrnn.training.optim import make_optimizer

G = [np.array([0.5, -2.0, 1e-3]), np.array([-0.25, 1.0, 2e-3])]


def test_plain_rmsprop_defaults():
    opt = make_optimizer("rmsprop", 0.01)
    p = np.array([1.0, 2.0, 3.0])
    want, sq = p.copy(), np.zeros(3)
    for g in G:
        opt.step(p, g.copy())
        sq = 0.99 * sq + 0.01 * g * g
        want = want - 0.01 * g / (np.sqrt(sq) + 1e-8)
    np.testing.assert_allclose(p, want, rtol=1e-12)
    assert opt.state_dict()["hyper"] == {"lr": 0.01, "alpha": 0.99, "eps": 1e-8}


def test_graves_rmsprop_defaults():
    opt = make_optimizer("rmsprop-graves", 0.01)
    p = np.array([1.0, 2.0, 3.0])
    want, sq, avg, v = p.copy(), np.zeros(3), np.zeros(3), np.zeros(3)
    for g in G:
        opt.step(p, g.copy())
        sq = 0.95 * sq + 0.05 * g * g
        avg = 0.95 * avg + 0.05 * g
        v = 0.9 * v - 0.01 * g / np.sqrt(sq - avg * avg + 1e-4)
        want = want + v
    np.testing.assert_allclose(p, want, rtol=1e-12)
