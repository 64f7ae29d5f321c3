"""The finite-difference judge lives in the package (``lnrnn.gradcheck``, also behind ``lnrnn gradcheck``);
tests import it from here by its short name."""
from lnrnn.gradcheck import SCALE_FLOOR, TINY, TOLERANCE, numeric_grad, rel_error, sample_idx  # noqa: F401
