"""arrays_cuda.to_device on host arrays that are not C-ordered: a stride-0 axis (x[0][None] of a model's
first input, np.broadcast_to), a transposed view and a strided slice each arrive as a C-ordered device array
with C strides (graphs_cuda.c_strides), equal to the host array, that reshapes as a GPU's device array does
(tests/conftest.py's strict simulator refuses what a GPU refuses)."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn.kernels.cuda import arrays_cuda, graphs_cuda  # noqa: E402

X = np.arange(2 * 3 * 4, dtype=np.float32).reshape(2, 3, 4)


@pytest.mark.parametrize("a", [X[0][None], np.broadcast_to(X[0, 0], (3, 4)), X[1].T, X[:, ::2, 1:]],
                         ids=["row-with-stride-0-axis", "broadcast", "transposed", "strided-slice"])
def test_uploads_are_c_ordered_and_reshape(a):
    assert a.strides != graphs_cuda.c_strides(a.shape, a.itemsize)  # the case this test is about
    d = arrays_cuda.to_device(a)
    assert d.strides == graphs_cuda.c_strides(a.shape, a.itemsize)
    np.testing.assert_array_equal(d.copy_to_host(), a)
    np.testing.assert_array_equal(d.reshape(a.size).copy_to_host(), a.reshape(-1))


def test_c_strides_by_definition():
    for shape in [(), (5,), (2, 3), (2, 3, 4), (4, 1, 3)]:
        want = np.empty(shape, np.float64).strides
        assert graphs_cuda.c_strides(shape, 8) == want
