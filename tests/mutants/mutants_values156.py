"""Planted bugs, round 156 (format: tests/mutants/mutants.py): single-line slips in export and prediction, on lines
no earlier round mutates: the export's names of an LN cell's input-norm gain and bias swapped, and of a BN cell's
population mean and variance of x Wx; read_safetensors keeping __metadata__ among the tensors, reading the data
big-endian and letting a gap between two tensors through; the metadata's gate order as i,f,o,g; lnrnn export
promising torch.nn to a normalized run (and not to a plain one) and counting the model's parameters as the tensors
written; check_inputs' width message naming the inputs' width as the model's; check_like_training's range check
taking the minimum as the maximum and its length message with the two lengths swapped; a .npy of uint8 pixels
not scaled by 1/255; inputs of two lengths refused naming the second file twice; a sequence classifier's index
column counting from 1.

14 mutants. Against the existing targeted tests alone 11 were caught and 3 missed: the reader's gap between
tensors (no old test wrote a file with unused bytes between two entries), the count in lnrnn export's message
(no old test read the number) and the first file's name in the refusal of inputs of two lengths. The new value
tests catch every mutant on their own (checked with the old tests taken off the lists):
test_values156_export (an LN-LSTM, a BN-LSTM, an LN-RNN and a plain LSTM, every parameter and BatchNorm
statistic given its own random value, exported through lnrnn export and read by a reader written from the
format's definition: 8-byte little-endian header length, JSON header padded to 8 bytes, dtype codes, shapes,
data_offsets back to back from 0, string metadata; every tensor under the docstring's name with the model's
values, the message's count against the tensors in the file, the torch.nn note for the plain stack only,
lnrnn's reader against the definition's; the plain LSTM's exported tensors run through PyTorch's LSTM equations
in the metadata's gate order against lnrnn.api.predict; a gap refused; --out ending in a separator, a folder,
another suffix or a read-only folder refused with the loader patched to fail, missing folders created) and
test_values156_predict_io (check_inputs' one-sentence refusals of a wrong width, shape, NaN, strings, complex
numbers and an empty batch; check_like_training by its definition; two inputs of two lengths named; uint8
pixels through lnrnn predict's .csv and .npy against lnrnn.api.predict on the pixels over 255 with the index
from 0; --out edge cases before the run is loaded). The read-only folder tests skip where the user writes to
read-only folders (root).
Dropped before the catalogue as equivalent: the tensors written in dict order rather than sorted (the offsets
still cover the data back to back; no reader can tell), N and T unpacked in the other order in check_inputs
(both are only tested for 0), rest.rpartition for rest.partition (names have one dot there), export_run's
format argument dropped in lnrnn export (the one format is the default), and a transposed 1-D norm gain.

    python tests/mutants/run.py --only 'v156-*'
"""
EXPORT = "lnrnn/interop/export.py"
EXPORT_CMD = "lnrnn/commands/export.py"
PIO = "lnrnn/predict_io.py"
PREDICT_CMD = "lnrnn/commands/predict.py"

# existing tests of these modules
EXPORT_OLD = ["tests/interop/test_values_export.py", "tests/interop/test_values10_export.py",
              "tests/interop/test_values13_export.py", "tests/interop/test_values23_export.py",
              "tests/interop/test_values41_export.py", "tests/interop/test_values63_export.py",
              "tests/interop/test_values116_export.py", "tests/interop/test_values128_export.py",
              "tests/interop/test_predict_export.py"]
EXPORT_CMD_OLD = ["tests/interop/test_predict_export.py", "tests/commands/test_values46_suffixes.py",
                  "tests/commands/test_values_output_paths.py", "tests/commands/test_values_output_checks.py"]
PIO_OLD = ["tests/test_values_predict_io.py", "tests/test_values9_predict_io.py", "tests/test_values14_predict_io.py",
           "tests/test_values21_predict_io.py", "tests/test_values34_predict_io.py",
           "tests/test_values54_predict_io.py", "tests/test_values80_predict_io.py",
           "tests/test_values91_predict_io.py", "tests/test_values112_predict_io.py",
           "tests/test_values131_predict_io.py"]
PREDICT_CMD_OLD = ["tests/commands/test_values131_predict.py", "tests/commands/test_values_eval_predict.py",
                   "tests/interop/test_predict_export.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
EXPORT_NEW = ["tests/interop/test_values156_export.py"]
PREDICT_NEW = ["tests/commands/test_values156_predict_io.py"]

MUTANTS = [
    # ---- lnrnn/interop/export.py: names, the reader's metadata and byte order, gaps between tensors, metadata ----
    dict(name="v156-export-norm-ih-gain-and-bias-names-swapped", file=EXPORT,
         old='"gx": ("norm_ih_weight", False), "bx": ("norm_ih_bias", False),',
         new='"gx": ("norm_ih_bias", False), "bx": ("norm_ih_weight", False),',
         tests=EXPORT_NEW + EXPORT_OLD,
         why="an LN-LSTM's gain of the norm of x Wx is exported as its bias and the bias as its gain"),
    dict(name="v156-export-bn-running-mean-and-var-names-swapped", file=EXPORT,
         old='"rmx": ("norm_ih_running_mean", False), "rvx": ("norm_ih_running_var", False),',
         new='"rmx": ("norm_ih_running_var", False), "rvx": ("norm_ih_running_mean", False),',
         tests=EXPORT_NEW + EXPORT_OLD,
         why="a BN cell's population mean of x Wx is exported under the variance's name and the variance under "
             "the mean's"),
    dict(name="v156-export-reader-keeps-metadata-as-a-tensor", file=EXPORT,
         old='meta = header.pop("__metadata__", {}) or {}',
         new='meta = header.get("__metadata__", {}) or {}',
         tests=EXPORT_NEW + EXPORT_OLD,
         why="read_safetensors leaves __metadata__ among the tensors' entries: every file with metadata (every "
             "export) is refused as a tensor without dtype"),
    dict(name="v156-export-reader-big-endian", file=EXPORT,
         old='dtype = NUMPY_DTYPES[info["dtype"]].newbyteorder("<")',
         new='dtype = NUMPY_DTYPES[info["dtype"]].newbyteorder(">")',
         tests=EXPORT_NEW + EXPORT_OLD,
         why="read_safetensors reads the little-endian data as big-endian: every multi-byte value comes back "
             "byte-swapped"),
    dict(name="v156-export-reader-lets-a-gap-through", file=EXPORT,
         old="or any(a[1] != b[0] for a, b in zip(spans, spans[1:]))",
         new="or any(a[1] > b[0] for a, b in zip(spans, spans[1:]))",
         tests=EXPORT_NEW + EXPORT_OLD,
         why="read_safetensors accepts unused bytes between two tensors, which the format forbids (the tensors "
             "cover the buffer back to back)"),
    dict(name="v156-export-gate-order-metadata", file=EXPORT,
         old='"gate_order": "i,f,g,o"',
         new='"gate_order": "i,f,o,g"',
         tests=EXPORT_NEW + EXPORT_OLD,
         why="the metadata states the gate blocks as [i | f | o | g] while the weights are laid out [i | f | g | o] "
             "(PyTorch's order, the docstring's)"),
    # ---- lnrnn export: the PyTorch note, the count of tensors ----
    dict(name="v156-export-cmd-pytorch-note-inverted", file=EXPORT_CMD,
         old="if pytorch_compatible(run.config) else \"\")",
         new="if not pytorch_compatible(run.config) else \"\")",
         tests=EXPORT_NEW + EXPORT_CMD_OLD,
         why="lnrnn export tells an LN run's user that its tensors load into torch.nn.LSTM and says nothing to a "
             "plain run's"),
    dict(name="v156-export-cmd-counts-parameters-not-tensors", file=EXPORT_CMD,
         old="Wrote {len(shapes)} tensors",
         new="Wrote {len(run.model.params)} tensors",
         tests=EXPORT_NEW + EXPORT_CMD_OLD,
         why="the message counts the model's parameters, not the tensors written (each layer's zero bias_hh and "
             "BN's buffers are missed)"),
    # ---- lnrnn/predict_io.py: messages, the range check, uint8 scaling, value precision, the index column ----
    dict(name="v156-pio-width-message-names-the-inputs-width", file=PIO,
         old='f"{input_size}; shape {x.shape} does not fit it',
         new='f"{I}; shape {x.shape} does not fit it',
         tests=PREDICT_NEW + PIO_OLD,
         why="the message for sequences of the wrong width says the model reads their own width"),
    dict(name="v156-pio-range-max-from-min", file=PIO,
         old="xlo, xhi = float(np.min(x)), float(np.max(x))",
         new="xlo, xhi = float(np.min(x)), float(np.min(x))",
         tests=PREDICT_NEW + PIO_OLD,
         why="the range check takes the inputs' minimum as their maximum: values above the training data's range "
             "pass"),
    dict(name="v156-pio-steps-message-swapped", file=PIO,
         old='differs.append(f"they have {T} step{\'s\' * (T != 1)} where the training sequences had {steps}")',
         new='differs.append(f"they have {steps} step{\'s\' * (T != 1)} where the training sequences had {T}")',
         tests=PREDICT_NEW + PIO_OLD,
         why="the refusal of sequences of another length names the training length as theirs and theirs as the "
             "training length"),
    dict(name="v156-pio-uint8-npy-not-scaled", file=PIO,
         old="        if x.dtype == np.uint8:\n",
         new="        if x.dtype == np.int8:\n",
         tests=PREDICT_NEW + PIO_OLD,
         why="a .npy of uint8 pixels is not scaled by the task's 1/255: an MNIST run predicts on values up to 255"),
    dict(name="v156-pio-second-file-named-as-itself", file=PIO,
         old="                                f\"{where[0][0]} holds {parts[0].shape[1]}; predict them",
         new="                                f\"{f} holds {parts[0].shape[1]}; predict them",
         tests=PREDICT_NEW + PIO_OLD,
         why="inputs of different lengths are refused naming the second file twice, not the first"),
    dict(name="v156-pio-classifier-index-from-1", file=PIO,
         old='[("index", "<i8", np.arange(len(classes))), ("class"',
         new='[("index", "<i8", np.arange(1, len(classes) + 1)), ("class"',
         tests=PREDICT_NEW + PIO_OLD,
         why="a sequence classifier's index column counts from 1, not from 0 as documented"),
]
