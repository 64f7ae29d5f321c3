"""Planted bugs, round 212 (format: tests/mutants/mutants.py): single-line slips on lines of the PyTorch binding and
the export that no earlier round mutates: a batch_first input reshaped instead of transposed, the layer op running
the kernels in eval mode whatever the module's mode, LSTMCell checking h but not c beside its input, bias_hh
registered right after weight_hh (the parameters out of nn.LSTM's order); the BN h-side running variance exported
under the running mean's name, the refusal of an unexported parameter naming its short name, the writer laying
tensors out in the dict's order, its dtype check letting any integer or float kind through, int64 coded I32; the
reader decoding the header as Latin-1, taking a __metadata__ list, listing the dtype codes unsorted in its refusal
and letting a header entry that is not an object through its check; export_weights reporting sizes for shapes.

14 mutants. Against the existing targeted tests alone 6 were caught and 8 missed. The 4 torch mutants were all
caught by the old direct files (test_torch, test_torch_bidirectional, test_values74_torch_modules; test_torch_cell
and test_values49_torch_cell for the cell). Against the most direct old export tests (test_values_export,
test_values183_export, test_values156_export) 2 of the 10 export mutants were caught (the rvh name, which a BN
export's key list shows, and the I64 code, which a reader test's I64 tensor shows) and 8 missed: no old test passed
an unnamed parameter, a dict out of order, an uncoded dtype, a UTF-8 header, a metadata list, an unknown dtype code
or an entry that is a number, or looked at export_weights' return. The new value tests catch all 14 on their own
(checked with the old tests taken off the lists): test_values212_torch (an LSTM with bidirectional, batch_first,
ragged lengths and given (h0, c0) at once against torch.nn.LSTM on the same float64 weights through a
PackedSequence: padded outputs, h_n, c_n and the gradients of the input, both states and every parameter;
torch.autograd.gradcheck of the same; the parameter names in nn.LSTM's order; a BN-RNN's train-mode outputs and
running statistics against the cell's definition with the momentum rule, then its eval-mode outputs from those;
LSTMCell's refusal of a float32 c word for word), test_values212_export (a BN-LSTM's exported buffers under their
own names, export_weights' shapes and a file read back by a reader written in the test from the safetensors
definition; the same tensors in two orders give the same bytes, int64 as I64; files written in the test with a raw
UTF-8 header and with I64 tensors read back exactly; every refusal of the writer and the reader word for word).
Dropped as equivalent or near it: _span's item step (the CPU layer function returns no input's memory, so _fresh
never copies), the cell's zero states as one list entry repeated (the kernels only read them),
set_materialize_grads(True) (zeros instead of None, which _backward fills in anyway), the cell-state guard's
backward returning the grad itself (it is zero there or refused).

    python tests/mutants/run.py --only 'v212-*'
"""
TORCH = "lnrnn/interop/torch.py"
EXPORT = "lnrnn/interop/export.py"

# existing tests of these modules (the most direct ones)
TORCH_OLD = ["tests/interop/test_torch.py", "tests/interop/test_torch_bidirectional.py",
             "tests/interop/test_values74_torch_modules.py"]
CELL_OLD = ["tests/interop/test_torch_cell.py", "tests/interop/test_values49_torch_cell.py"]
EXPORT_OLD = ["tests/interop/test_values_export.py", "tests/interop/test_values183_export.py",
              "tests/interop/test_values156_export.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
TORCH_NEW = ["tests/interop/test_values212_torch.py"]
EXPORT_NEW = ["tests/interop/test_values212_export.py"]

MUTANTS = [
    # ---- the PyTorch modules ----
    dict(name="v212-batch-first-reshaped", file=TORCH,
         old="            x = x.transpose(0, 1)\n        unbatched",
         new="            x = x.reshape(x.shape[1], x.shape[0], x.shape[2])\n        unbatched",
         tests=TORCH_NEW + TORCH_OLD,
         why="a batch_first input is reshaped to (T,B,I) instead of transposed: the shape is right, the steps "
             "and sequences are scrambled"),
    dict(name="v212-bn-train-kernel-told-eval", file=TORCH,
         old="lengths=_host_lengths(lengths), training=training,",
         new="lengths=_host_lengths(lengths), training=False,",
         tests=TORCH_NEW + TORCH_OLD,
         why="the layer op always runs the kernels in eval mode: a BN module in train mode normalizes by the "
             "running statistics and never updates them"),
    dict(name="v212-cell-check-names-h-only", file=TORCH,
         old='names = ("h", "c")[:n]',
         new='names = ("h", "c")[:1]',
         tests=TORCH_NEW + CELL_OLD,
         why="LSTMCell checks only h beside the input: a c of the wrong dtype passes its check and is refused "
             "by the layer op in a sentence that names state[1], not c"),
    dict(name="v212-bias-hh-registered-after-weight-hh", file=TORCH,
         old='if name == "b":  # PyTorch',
         new='if name == "Wh":  # PyTorch',
         tests=TORCH_NEW + TORCH_OLD,
         why="bias_hh is registered right after weight_hh: the parameters' order is no longer nn.LSTM's "
             "(weight_ih, weight_hh, bias_ih, bias_hh), so optimizer states moved by index land on the "
             "wrong tensors"),
    # ---- the safetensors export: names, writer, reader, refusals ----
    dict(name="v212-export-rvh-named-mean", file=EXPORT,
         old='"rvh": ("norm_hh_running_var", False)',
         new='"rvh": ("norm_hh_running_mean", False)',
         tests=EXPORT_NEW + EXPORT_OLD,
         why="the BN h-side running variance is exported under the running mean's name, overwriting it"),
    dict(name="v212-export-unknown-name-message", file=EXPORT,
         old="no exported name for parameter {key}",
         new="no exported name for parameter {name}",
         tests=EXPORT_NEW + EXPORT_OLD,
         why="the refusal of a parameter without an exported name gives its short name, not its full key"),
    dict(name="v212-writer-unsorted", file=EXPORT,
         old="for name in sorted(tensors):",
         new="for name in tensors:",
         tests=EXPORT_NEW + EXPORT_OLD,
         why="the writer lays the tensors out in the dict's order: the same tensors given in another order "
             "make a different file"),
    dict(name="v212-writer-dtype-check-by-kind", file=EXPORT,
         old="if a.dtype not in DTYPES:",
         new='if a.dtype.kind not in "fiu":',
         tests=EXPORT_NEW + EXPORT_OLD,
         why="the writer's dtype check lets every integer and float kind through: uint16 or int8 reach the "
             "code table as a KeyError, not the one-sentence refusal"),
    dict(name="v212-reader-header-latin1", file=EXPORT,
         old='raw[8:8 + n].decode("utf-8")',
         new='raw[8:8 + n].decode("latin-1")',
         tests=EXPORT_NEW + EXPORT_OLD,
         why="the header is decoded as Latin-1: a tensor name or metadata value written in UTF-8 by another "
             "writer comes back garbled"),
    dict(name="v212-reader-metadata-list-passes", file=EXPORT,
         old="if not isinstance(meta, dict):",
         new="if not isinstance(meta, (dict, list)):",
         tests=EXPORT_NEW + EXPORT_OLD,
         why="a __metadata__ that is a JSON list passes the reader's check and is returned as the metadata"),
    dict(name="v212-reader-dtype-list-unsorted", file=EXPORT,
         old="{', '.join(sorted(NUMPY_DTYPES))}",
         new="{', '.join(NUMPY_DTYPES)}",
         tests=EXPORT_NEW + EXPORT_OLD,
         why="the refusal of an unknown dtype lists the codes in the table's order, not alphabetically"),
    dict(name="v212-export-returns-sizes", file=EXPORT,
         old="return {k: v.shape for k, v in tensors.items()}",
         new="return {k: v.size for k, v in tensors.items()}",
         tests=EXPORT_NEW + EXPORT_OLD,
         why="export_weights reports each tensor's element count where its shape was meant"),
    dict(name="v212-int64-coded-i32", file=EXPORT,
         old='np.dtype("int64"): "I64"',
         new='np.dtype("int64"): "I32"',
         tests=EXPORT_NEW + EXPORT_OLD,
         why="int64 tensors are written with the I32 code (8-byte items under a 4-byte code), and a file's "
             "I64 tensors can no longer be read"),
    dict(name="v212-reader-entry-check-none-only", file=EXPORT,
         old="if not isinstance(info, dict):",
         new="if info is None:",
         tests=EXPORT_NEW + EXPORT_OLD,
         why="a header entry that is a number or a list passes the entry check and fails as an AttributeError "
             "instead of the one-sentence refusal"),
]
