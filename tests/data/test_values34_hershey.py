"""lnrnn/data/hershey.py's numbers against their definition: a word that is a number is one of 0..2026,
each as likely (both ends included), written in plain digits. Drawn with every word a number and nothing
else added (no capitals, wraps or marks), over enough words that every value of the range turns up."""
import numpy as np

from lnrnn.data import hershey


def test_numbers_are_every_value_of_0_to_2026(monkeypatch):
    monkeypatch.setattr(hershey, "NUMBER", 1.0)
    for name in ("CAPS", "CAPITAL", "NAME", "WRAP"):
        monkeypatch.setattr(hershey, name, 0.0)
    rng = np.random.default_rng(0)
    words = [hershey._word(rng, first=k % 7 == 0) for k in range(60_000)]   # about 30 of each value
    assert all(w.isdigit() and w == str(int(w)) for w in words)
    counts = np.bincount([int(w) for w in words])
    assert len(counts) == 2027 and counts.min() > 0
    assert abs(counts.mean() - 60_000 / 2027) < 1e-9 and counts.max() < 3 * counts.mean()
