"""lnrnn/model/layers.py's _check_array on a device array (an activation a stack on 'cuda' passes between layers:
anything with copy_to_host, checked for shape and dtype only, never copied): one of the right shape and dtype is
handed back as it is, its values unread; a wrong size on a named axis, a wrong number of axes or a wrong dtype is
refused word for word; a size left open (None) takes any; without device_ok it is no numpy array. The device array
is a stand-in object (no simulator needed) whose values fail the test if anything reads them."""
import numpy as np
import pytest

from lnrnn.model.layers import _check_array


class DeviceArray:
    def __init__(self, shape, dtype=np.float32):
        self.shape, self.dtype, self.ndim = tuple(shape), np.dtype(dtype), len(shape)

    def copy_to_host(self, *a, **k):
        raise AssertionError("a device array was copied to the host")

    def __array__(self, *a, **k):
        raise AssertionError("a device array was read as a numpy array")


def _check(a, shape=(None, 4, 5), device_ok=True):
    return _check_array("x", a, 3, np.float32, shape, device_ok=device_ok)


def test_a_device_array_of_the_right_shape_and_dtype_is_handed_back_unread():
    for shape in ((3, 4, 5), (1, 4, 5), (40, 4, 5)):
        a = DeviceArray(shape)
        assert _check(a) is a
    a = DeviceArray((3, 4, 6))
    assert _check(a, shape=(None, 4, None)) is a and _check(a, shape=None) is a


@pytest.mark.parametrize("shape", [(3, 4, 6), (3, 5, 5), (3, 1, 5)])
def test_a_wrong_size_on_a_named_axis_is_refused(shape):
    with pytest.raises(ValueError, match=r"^x must have shape \(None, 4, 5\), got " + r"\(" + ", ".join(map(str, shape))
                       + r"\)$"):
        _check(DeviceArray(shape))


def test_a_wrong_number_of_axes_or_dtype_is_refused_and_without_device_ok_it_is_no_numpy_array():
    with pytest.raises(ValueError, match=r"^x must have shape \(None, 4, 5\), got \(4, 5\)$"):
        _check(DeviceArray((4, 5)))
    with pytest.raises(ValueError, match=r"^x must have shape \(None, 4, 5\), got \(3, 4, 5, 1\)$"):
        _check(DeviceArray((3, 4, 5, 1)))                  # its first three sizes fit: the count of axes does not
    with pytest.raises(TypeError, match="^x must be float32 like the layer's parameters, got float64$"):
        _check(DeviceArray((3, 4, 5), np.float64))
    with pytest.raises(TypeError, match="^x must be a numpy array, got DeviceArray$"):
        _check(DeviceArray((3, 4, 5)), device_ok=False)
