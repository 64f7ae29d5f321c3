"""lnrnn/api.py's read of no lines: an empty list reads as an empty list with any beam (the beam search's memory
check reads the longest line first, and there is none), on a stand-in reader run (no kernels)."""
import lnrnn
from lnrnn.data.strokes import CTC_SHIFT
from test_values15_api import reader


def test_no_lines_read_as_none_with_the_best_path_and_a_beam():
    run = reader("abc", 3 + CTC_SHIFT)
    assert lnrnn.read(run, [], beam=1) == []
    assert lnrnn.read(run, [], beam=4) == []
