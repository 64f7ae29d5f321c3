"""lnrnn/model/heads.py's CTC head means, by hand: the loss over the scored sequences and the character error
rate over the characters, at a count of 1 and of 0 (a batch of one sequence, or none with a step: nothing is
divided by less than 1), and at 3."""
import pytest

from lnrnn.model.heads import CTCHead


@pytest.mark.parametrize("count, chars, want", [(1, 4, {"loss": 3.0, "cer": 0.25}),
                                               (0, 0, {"loss": 3.0, "cer": 1.0}),
                                               (3, 8, {"loss": 1.0, "cer": 0.125})])
def test_the_means_divide_by_the_count_and_the_characters(count, chars, want):
    head = CTCHead(4, 5, dtype="float64")
    assert head.mean({"loss": 3.0, "cer": 1.0, "chars": chars, "seqs": count}, count) == want
