"""CTC decoding (lnrnn/model/decode.py) against a brute-force enumeration written here (round 272 of the planted
bugs, tests/mutants/mutants_values272.py): every one of the C^T paths of a small row is collapsed by the
definition (merge repeats, then drop blanks, class 0) and its probability added to its label's. With a width at
least the number of labels, prefix_beam_search returns every label with exactly that summed log-probability,
most probable first; over a row whose steps favour a repeat, a label with a doubled class (reachable only through
a blank between) is among them. beam_search returns each row's most probable label over its own steps only, in
rows of 4 and 2 steps of one batch, with nothing past the label."""
import itertools

import numpy as np

from lnrnn.model.decode import beam_search, prefix_beam_search


def label_of(path):
    out = []
    for i, k in enumerate(path):
        if k != 0 and (i == 0 or path[i - 1] != k):
            out.append(k)
    return tuple(out)


def brute_force(logp):
    """logp (T,C) -> {label: log p(label)} summed over all C^T paths."""
    T, C = logp.shape
    p = np.exp(logp)
    sums = {}
    for path in itertools.product(range(C), repeat=T):
        sums[label_of(path)] = sums.get(label_of(path), 0.0) + np.prod([p[t, k] for t, k in enumerate(path)])
    return {lab: np.log(s) for lab, s in sums.items()}


def row(seed, T, C):
    z = np.random.default_rng(seed).normal(0.0, 1.5, (T, C))
    return z - np.log(np.exp(z).sum(axis=1, keepdims=True))


def test_prefix_beam_search_wide_enough_is_the_enumeration():
    logp = row(4, 4, 3)
    logp[1, 2], logp[2, 0], logp[3, 2] = 1.0, 1.0, 1.0          # raised before normalizing: 2, blank, 2 likely
    logp = logp - np.log(np.exp(logp).sum(axis=1, keepdims=True))
    want = brute_force(logp)
    got = prefix_beam_search(logp, 100)
    assert len(got) == len(want)
    assert [lab for lab, _ in got] == sorted(want, key=lambda lab: (-want[lab], lab))
    for lab, lp in got:
        np.testing.assert_allclose(lp, want[lab], rtol=1e-10)
    assert (2, 2) in dict(got)


def test_beam_search_reads_each_row_over_its_own_steps():
    a, b = row(7, 4, 3), row(8, 4, 3)
    logp = np.stack([a, b], axis=1)                              # (T,B,C) = (4,2,3)
    got = beam_search(logp, 50, np.array([4, 2]))
    for r, (x, n) in enumerate(((a, 4), (b, 2))):
        probs = brute_force(x[:n])
        best = max(probs, key=lambda lab: (probs[lab], tuple(-k for k in lab)))
        assert got[r] == list(best), (r, got[r], best)
