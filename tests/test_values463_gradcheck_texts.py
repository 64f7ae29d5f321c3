"""lnrnn/gradcheck.py's check_model with the synthesis window (lnrnn gradcheck's write mode: B + 4 rows) hands the
model texts of every length from 0 (an empty text) to U = 4, the full width of its code array, so a window bug
that shows only at a text's last character or a full-width text is in the check; every code lies in the alphabet,
and every loss of the check reads the same texts (the model's loss_and_grad wrapped to record them)."""
import numpy as np

from lnrnn.gradcheck import check_model
from lnrnn.model.models import SequenceModel


def test_the_write_check_reads_texts_of_every_length_up_to_the_full_width(monkeypatch):
    seen = []
    real = SequenceModel.loss_and_grad

    def recorded(self, x, targets, lengths=None, text=None, **kw):
        seen.append((np.array(text[0]), np.array(text[1])))
        return real(self, x, targets, lengths, text=text, **kw)
    monkeypatch.setattr(SequenceModel, "loss_and_grad", recorded)
    B, alphabet = 7, 4
    results = check_model("lstm", "none", head="mdn", T=3, B=B, I=3, H=3, num_layers=1, max_elems=2, window=2,
                          alphabet=alphabet)
    assert results and len(seen) > 2
    codes, lengths = seen[0]
    assert codes.shape == (B, 4) and codes.min() >= 0 and codes.max() < alphabet
    assert sorted(set(lengths.tolist())) == [0, 1, 2, 3, 4] and lengths.max() == codes.shape[1]
    assert all(np.array_equal(c, codes) and np.array_equal(n, lengths) for c, n in seen)
