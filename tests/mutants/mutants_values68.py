"""Planted bugs, round 68 (format: tests/mutants/mutants.py): an output path that steps up ('..') out of a folder
that does not exist (files.missing_before_up, which check_output_file calls before any work): the check never
made, the folder looked at one step too late, or only an absolute path's first step looked at.

3 mutants, each caught by tests/test_values63_files.py's step-up test (the early check and the write give the
answer the operating system gives when the same path is opened by hand).

And sizes read from a file's header that pass 64 bits (idx.parse_idx and export.read_safetensors count them in
Python's integers): 2 mutants, caught by tests/data/test_values69_idx.py and tests/interop/test_values63_export.py.

And the NumPy spec of the synthesis window reading codes past a row's text, which the kernel leaves unread
(reference.window_forward and window_backward): 2 mutants, caught by tests/kernels/test_values73_window.py (out of
range codes there).

And the CUDA array copy of a strided device view (arrays_cuda.copy, through the host there): 1 mutant, caught by
tests/kernels/test_values82_arrays_cuda.py under the simulator.

    python tests/mutants/run.py --only 'v68-*'
"""
FILES = "lnrnn/files.py"
NEW = ["tests/test_values63_files.py"]

MUTANTS = [
    dict(name="v68-step-up-never-checked", file=FILES,
         old="            if not os.path.isdir(head):\n                return head",
         new="            if False:\n                return head",
         tests=NEW,
         why="'./a/../out.bin' with no folder a passes the early check and fails only at the write, after the work"),
    dict(name="v68-step-up-folder-after-the-step", file=FILES,
         old="            head = os.sep.join(parts[:i]) or",
         new="            head = os.sep.join(parts[:i + 1]) or",
         tests=NEW,
         why="the path up to and including '..' is looked at (abspath-like), which exists whenever its parent does"),
    dict(name="v68-step-up-first-only", file=FILES,
         old="                return head\n    return None",
         new="                return head\n        break\n    return None",
         tests=NEW,
         why="only the first component is looked at: 'a/b/../out.bin' (a missing) passes"),
]

MUTANTS += [
    dict(name="v68-idx-size-in-int64", file="lnrnn/data/idx.py",
         old="    expected = header + math.prod(dims) * dtype.itemsize",
         new="    expected = header + int(np.prod(dims, dtype=np.int64)) * dtype.itemsize",
         tests=["tests/data/test_values69_idx.py"],
         why="a header of dims (2^31, 2^31, 4) promises 2^64 values, which wrap to 0 in int64: a 16-byte file "
             "passes the size checks and fails at reshape with a traceback"),
]

MUTANTS += [
    dict(name="v68-safetensors-size-in-int64", file="lnrnn/interop/export.py",
         old="        if e - b != math.prod(shape) * dtype.itemsize or e > len(data):",
         new="        if e - b != int(np.prod(shape, dtype=np.int64)) * dtype.itemsize or e > len(data):",
         tests=["tests/interop/test_values63_export.py"],
         why="a shape of 2^64 values wraps to 0 in int64: empty offsets pass and reshape fails with numpy's message"),
]

MUTANTS += [
    dict(name="v68-spec-window-adds-padding-codes", file="lnrnn/reference.py",
         old="        np.add.at(w[b], chars[b, :n], phi[b, :n])",
         new="        np.add.at(w[b], chars[b], phi[b])",
         tests=["tests/kernels/test_values73_window.py"],
         why="the spec indexes w by codes past the text (phi 0 there): an out-of-range code raises IndexError"),
    dict(name="v68-spec-window-gathers-padding-codes", file="lnrnn/reference.py",
         old='np.take_along_axis(dw, np.where(s["on"], chars, 0), axis=1)',
         new='np.take_along_axis(dw, chars, axis=1)',
         tests=["tests/kernels/test_values73_window.py"],
         why="the spec's backward gathers dL/dw at codes past the text: an out-of-range code raises IndexError"),
]

MUTANTS += [
    dict(name="v68-cuda-copy-strided-device-to-device", file="lnrnn/kernels/cuda/arrays_cuda.py",
         old="            out.copy_to_device(np.ascontiguousarray(a.copy_to_host()))",
         new="            out.copy_to_device(a)",
         tests=["tests/kernels/test_values82_arrays_cuda.py"],
         why="numba's device-to-device copy takes only a source laid out as its destination: a transpose raises"),
]
