"""lnrnn/gradcheck.py's check_model with the synthesis window draws its texts' codes over the whole alphabet, the
first code (0) and the last (alphabet - 1) included, so a window bug that shows only at an edge of the one-hot
alphabet is in the check: over 7 texts of 4 codes and an alphabet of 4, every code occurs in the array the model
reads (the check stopped at its first loss; tests/test_values463_gradcheck_texts.py runs it whole)."""
import numpy as np
import pytest

from lnrnn.gradcheck import check_model
from lnrnn.model.models import SequenceModel


class Seen(Exception):
    """Raised by the recording loss_and_grad once the texts are seen: the check's arithmetic is not needed."""


@pytest.mark.parametrize("seed", [0, 3, 11])
def test_the_write_checks_texts_hold_every_code_of_the_alphabet(monkeypatch, seed):
    seen = []

    def recorded(self, x, targets, lengths=None, text=None, **kw):
        seen.append((np.array(text[0]), np.array(text[1])))
        raise Seen
    monkeypatch.setattr(SequenceModel, "loss_and_grad", recorded)
    B, alphabet = 7, 4
    with pytest.raises(Seen):
        check_model("lstm", "none", head="mdn", T=3, B=B, I=3, H=3, num_layers=1, max_elems=2, window=2,
                    alphabet=alphabet, seed=seed)
    codes, lengths = seen[0]
    assert codes.dtype.kind == "i" and codes.shape == (B, 4)
    assert sorted(set(codes.ravel().tolist())) == list(range(alphabet))  # 0 and alphabet - 1 among them
    assert lengths.tolist() == [0, 1, 2, 3, 4, 0, 1]  # every length 0..U, in row order
