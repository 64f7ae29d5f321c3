"""Planted bugs, round 219 (format: tests/mutants/mutants.py): single-line slips on lines of the safetensors export
and of the prediction inputs and outputs that no earlier round mutates: the writer's data offsets counted from the
length prefix, the reader's data buffer starting inside the header, the reader taking a shape in reverse order, the
metadata naming the gate order i,f,o,g and pytorch_compatible as True/False, export_weights dropping its option in
the folder and the suffix checks (refusals of the API's path naming --out); read_inputs leaving check_inputs'
default (the width refusal names "the run"), its refusal of two lengths giving the second file's length for both,
its refusal of no input naming the older --data-dir; a per-step classifier's probability indexed (step, sequence);
the CSV header joined with semicolons.

12 mutants. Against the existing targeted tests alone (the three most direct old files of each module:
test_values_export, test_values183_export, test_values212_export; test_values_predict_io,
test_values214_predict_io, test_values131_predict_io) 5 were caught and 7 missed. Caught: the offsets from 8 and
the data buffer from 8 (the old definition reader and the reader's cover check), the gate order (an old test
compares the whole metadata), the transposed per-step probability (an old N=2, T=3 case indexes out of range) and
the semicolon header. Missed: the reversed shape (no old test reads a non-square tensor through
read_safetensors), pytorch_compatible's spelling, both refusals naming --out (no old test passes export_weights
another option), and the three read_inputs refusals (none was compared word for word). The new value tests catch
all 12 on their own (checked with the old tests taken off the lists): test_values219_export (a file written here
by the format's definition with a (2,3) F32 and a (3,) I64 tensor and UTF-8 metadata, read back by
read_safetensors; write_safetensors' file read by the definition reader of test_values183_export, which checks
offsets from 0, back to back, to the end; export_weights' metadata gate order against torch.nn.LSTM's [i|f|g|o]
and pytorch_compatible true for a plain LSTM, false for a BN-LSTM; its refusals of a folder and of a .pt name
word for word with nothing written) and test_values219_predict_io (read_inputs' three refusals word for word; a
per-step classifier with more sequences than steps written to .csv and .npy and read back against the rows worked
out from its (N,T,C) probabilities and lengths).
Dropped as equivalent or near it: the header's JSON separators (any JSON reads the same), reading the length as
"<I" from the first 4 bytes (the same number for any header under 4 GiB), the per-step regression mask with
any() for all() (a model's step gives NaN in every output or none).

    python tests/mutants/run.py --only 'v219-*'
"""
EXPORT = "lnrnn/interop/export.py"
PIO = "lnrnn/predict_io.py"

# existing tests of these modules (the most direct ones)
EXPORT_OLD = ["tests/interop/test_values_export.py", "tests/interop/test_values183_export.py",
              "tests/interop/test_values212_export.py"]
PIO_OLD = ["tests/test_values_predict_io.py", "tests/test_values214_predict_io.py",
           "tests/test_values131_predict_io.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
EXPORT_NEW = ["tests/interop/test_values219_export.py"]
PIO_NEW = ["tests/test_values219_predict_io.py"]

MUTANTS = [
    # ---- the safetensors writer and reader ----
    dict(name="v219-offsets-count-the-length-prefix", file=EXPORT,
         old="    header, offset, blobs = {}, 0, []",
         new="    header, offset, blobs = {}, 8, []",
         tests=EXPORT_NEW + EXPORT_OLD,
         why="the writer's data offsets start at 8, counting the length prefix, where the format counts from the "
             "first data byte"),
    dict(name="v219-reader-data-after-prefix-only", file=EXPORT,
         old="    data = memoryview(raw)[8 + n:]",
         new="    data = memoryview(raw)[8:]",
         tests=EXPORT_NEW + EXPORT_OLD,
         why="the reader's data buffer starts right after the length prefix, inside the header"),
    dict(name="v219-reader-shape-reversed", file=EXPORT,
         old="    return offsets[0], offsets[1], tuple(shape)",
         new="    return offsets[0], offsets[1], tuple(shape[::-1])",
         tests=EXPORT_NEW + EXPORT_OLD,
         why="the reader takes the shape in Fortran order: a (2,3) tensor comes back (3,2)"),
    dict(name="v219-meta-gate-order-ifog", file=EXPORT,
         old='"gate_order": "i,f,g,o"',
         new='"gate_order": "i,f,o,g"',
         tests=EXPORT_NEW + EXPORT_OLD,
         why="the metadata names the gate order i,f,o,g while the weights are laid out [i | f | g | o]"),
    dict(name="v219-meta-pytorch-compatible-capitalized", file=EXPORT,
         old='"pytorch_compatible": str(pytorch_compatible(run.model.config)).lower()}',
         new='"pytorch_compatible": str(pytorch_compatible(run.model.config))}',
         tests=EXPORT_NEW + EXPORT_OLD,
         why="the metadata's pytorch_compatible is Python's True/False, not the JSON-like true/false"),
    dict(name="v219-export-folder-refusal-names-out", file=EXPORT,
         old="    check_output_file(path, option)  # first",
         new="    check_output_file(path)  # first",
         tests=EXPORT_NEW + EXPORT_OLD,
         why="export_weights' folder check drops its option: a refusal of the API's path names --out"),
    dict(name="v219-export-suffix-refusal-names-out", file=EXPORT,
         old="    check_suffix(path, option)\n",
         new="    check_suffix(path)\n",
         tests=EXPORT_NEW + EXPORT_OLD,
         why="export_weights' suffix check drops its option: a refusal of the API's path names --out"),
    # ---- prediction inputs and outputs ----
    dict(name="v219-read-inputs-width-refusal-names-the-run", file=PIO,
         old='check_inputs(data, input_size, "this run")',
         new="check_inputs(data, input_size)",
         tests=PIO_NEW + PIO_OLD,
         why="read_inputs leaves check_inputs its default: the width refusal says 'the model of the run'"),
    dict(name="v219-steps-mismatch-names-the-new-width", file=PIO,
         old='holds {parts[0].shape[1]}; predict them in separate calls.")',
         new='holds {x.shape[1]}; predict them in separate calls.")',
         tests=PIO_NEW + PIO_OLD,
         why="the refusal of two inputs of different lengths gives the second file's length for both"),
    dict(name="v219-no-input-names-old-option", file=PIO,
         old='raise UserError("no input given; pass --input FILE_OR_FOLDER.")',
         new='raise UserError("no input given; pass --data-dir FILE_OR_FOLDER.")',
         tests=PIO_NEW + PIO_OLD,
         why="the refusal of no input names --input's older name"),
    dict(name="v219-per-step-probability-transposed", file=PIO,
         old='                ("probability", "<f8", prob[n, t])]',
         new='                ("probability", "<f8", prob[t, n])]',
         tests=PIO_NEW + PIO_OLD,
         why="a per-step classifier's probability column indexes (step, sequence) instead of (sequence, step)"),
    dict(name="v219-csv-header-semicolons", file=PIO,
         old='        lines = [",".join(name for name, _, _ in cols)]',
         new='        lines = [";".join(name for name, _, _ in cols)]',
         tests=PIO_NEW + PIO_OLD,
         why="the CSV header is joined with semicolons while its rows use commas"),
]
