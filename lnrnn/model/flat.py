"""One contiguous buffer for all parameters, another for all gradients.

Design. Layers, stacks, heads and models keep their parameters in dicts of named arrays (that is how
kernels, checkpoints and users address them), but every one of those arrays is a view into one
contiguous 1-D array per dtype, so that an optimizer step, gradient clipping, zeroing and an MPI
allreduce each touch one array. ``repack`` builds the buffer for a list of ``(prefix, dict)`` leaves
and re-points every dict entry at its view in place: an owner that packs its children (a stack its
layers, a model its stack and head) takes their arrays over, values included, and the children's
dicts keep working because they are the same dict objects, now holding views of the bigger buffer.
The outermost owner's ``FlatArrays`` is the one to use; an inner owner's buffer stops being shared
once an outer owner repacks it (its attribute is set to None then).

    flat = repack([("l0.", layer0.params), ("l1.", layer1.params)])
    flat.data        # (P,) every parameter
    flat.layout      # [(name, shape, offset), ...] in packing order
    flat.views       # {name: view} with the prefixed names
"""
import numpy as np


class FlatArrays:
    """Named views of one contiguous 1-D array (see the module docstring)."""

    def __init__(self, data, layout):
        self.data = data
        self.layout = layout
        self.views = {name: data[off:off + int(np.prod(shape, dtype=np.int64))].reshape(shape)
                      for name, shape, off in layout}

    @property
    def names(self):
        return [name for name, _, _ in self.layout]

    def split(self, flat):
        """{name: view} of another 1-D array with this layout (an optimizer slot, a received buffer)."""
        return FlatArrays(flat, self.layout).views

    def join(self, named, dtype=None):
        """One new 1-D array with this layout, filled from {name: array}; KeyError/ValueError on a mismatch."""
        out = np.empty(self.data.size, dtype or self.data.dtype)
        for name, v in FlatArrays(out, self.layout).views.items():
            a = np.asarray(named[name])
            if a.shape != v.shape:
                raise ValueError(f"{name}: shape {a.shape} vs {v.shape}")
            v[...] = a
        return out


def repack(leaves, dtype=None):
    """Pack the arrays of ``leaves`` [(prefix, dict)] into one new buffer; re-point the dicts. -> FlatArrays.
    All arrays must share one dtype (or pass ``dtype`` to convert)."""
    layout, off, dts = [], 0, set()
    for prefix, d in leaves:
        for name, a in d.items():
            layout.append((prefix + name, tuple(a.shape), off))
            off += a.size
            dts.add(np.dtype(a.dtype))
    if dtype is None:
        if len(dts) > 1:
            raise TypeError(f"cannot pack arrays of several dtypes into one buffer: {sorted(map(str, dts))}")
        dtype = dts.pop() if dts else np.float32
    flat = FlatArrays(np.empty(off, dtype), layout)
    for prefix, d in leaves:
        for name in list(d):
            v = flat.views[prefix + name]
            v[...] = d[name]
            d[name] = v
    return flat
