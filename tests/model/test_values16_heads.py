"""lnrnn/model/heads.py: a mixture of fewer than one component is refused; the CTC head's count (the
normaliser of its loss) is the number of rows with at least one step, the count its forward scores."""
import numpy as np
import pytest

from lnrnn.model.heads import CTCHead, MDNHead


@pytest.mark.parametrize("m", [0, -1])
def test_a_mixture_of_fewer_than_one_component_is_refused(m):
    with pytest.raises(ValueError, match="components must be at least 1"):
        MDNHead(4, components=m)


def test_one_component_is_taken():
    assert MDNHead(4, components=1).O == 7


def test_ctc_count_is_the_rows_with_a_step():
    T, B, H, C = 4, 3, 3, 4
    head = CTCHead(H, C, dtype="float64")
    lengths = np.array([4, 0, 2])
    valid = np.arange(T)[:, None] < lengths[None, :]                                # (T,B)
    targets = np.array([[1, 2], [3, -1], [2, -1]])
    h = np.random.default_rng(0).normal(size=(T, B, H))
    _, count, _ = head.forward(h, targets, valid)
    assert head.count(targets, valid) == count == int(np.count_nonzero(lengths > 0)) == 2
