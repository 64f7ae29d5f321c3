"""lnrnn/api.py's refusals before any work, on a stand-in run (no kernels): sample_run refuses steps or
count of 0 and a bias that is negative, NaN or infinite; require_reader refuses an alphabet that does not
have exactly one character per CTC class but the blank, and read refuses beam=True."""
from types import SimpleNamespace

import numpy as np
import pytest

import lnrnn
from lnrnn.api import Run, require_reader
from lnrnn.data.strokes import CTC_SHIFT
from lnrnn.errors import CheckpointError, UserError

NOWHERE = "no-such-run-folder"   # never reached: the arguments are refused first


@pytest.mark.parametrize("what, kw", [("steps", dict(steps=0)), ("count", dict(count=0))])
def test_sample_run_refuses_zero(what, kw):
    with pytest.raises(UserError, match=f"{what} must be at least 1, not 0"):
        lnrnn.api.sample_run(NOWHERE, **kw)


@pytest.mark.parametrize("bias", [-0.5, float("nan"), float("inf")])
def test_sample_run_refuses_a_bias_not_finite_and_positive(bias):
    with pytest.raises(UserError, match="bias must be 0 or positive"):
        lnrnn.api.sample_run(NOWHERE, bias=bias)


def reader(alphabet, classes):
    head = SimpleNamespace(kind="ctc", scale=np.ones(3), O=classes)
    return Run("r", {"text": {"alphabet": alphabet}, "task": {"task": "strokes-hershey"}, "train": {}},
               SimpleNamespace(head=head))


@pytest.mark.parametrize("extra", [-1, 1])
def test_require_reader_wants_one_class_per_character_and_the_blank(extra):
    assert require_reader(reader("abc", 3 + CTC_SHIFT))[0] == "abc"
    with pytest.raises(CheckpointError, match=f"has {3 + CTC_SHIFT + extra} CTC classes but an alphabet of 3"):
        require_reader(reader("abc", 3 + CTC_SHIFT + extra))


@pytest.mark.parametrize("beam", [True, 0, 1.0])
def test_read_refuses_a_beam_that_is_not_a_whole_number(beam):
    with pytest.raises(UserError, match="beam must be a whole number of at least 1"):
        lnrnn.read(reader("abc", 3 + CTC_SHIFT), np.zeros((2, 3)), beam=beam)
