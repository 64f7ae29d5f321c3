"""Planted bugs in the synthesis network's device path (lnrnn/model/window.py on 'cuda', the stack's column
moves and the text and state hand-over in lnrnn/kernels/window_cuda.py; format: tests/mutants/mutants.py).

    python tests/mutants/run.py --only 'syn-cuda-*'
"""

WIN = "lnrnn/kernels/window_cuda.py"
MODEL = "lnrnn/model/window.py"
T = "tests/model/test_synthesis_cuda.py"
STACK = f"{T}::test_stack_on_cuda_equals_cpu[ln-None]"
STEPS = f"{T}::test_sampling_steps_on_cuda_equal_cpu"
MOVES = f"{T}::test_column_moves_equal_numpy"

MUTANTS = [
    dict(name="syn-cuda-join-offset-dropped", file=WIN,
         old="        out[t, b, c0 + j] = a[t, b, j]\n",
         new="        out[t, b, j] = a[t, b, j]\n",
         tests=[MOVES, STACK],
         why="every part is written into the first columns: layer k's input is not [x | h | w] on the device"),
    dict(name="syn-cuda-take-offset-dropped", file=WIN,
         old="        v = a[t, b, c0 + j]\n",
         new="        v = a[t, b, j]\n",
         tests=[STACK],
         why="the backward's split of dL/dy and dL/d[x | h | w] reads every part from the first columns"),
    dict(name="syn-cuda-take-addend-ignored", file=WIN,
         old="_take_columns[grid_1d(out.size)](a, c0, to_device(add) if adding else out, adding, out)",
         new="_take_columns[grid_1d(out.size)](a, c0, out, False, out)",
         tests=[STACK],
         why="on the device, dL/dh from the layer above, dx and dw of the layers above are dropped, not added"),
    dict(name="syn-cuda-text-lengths-not-uploaded", file=WIN,
         old="return chars, to_device(np.asarray(ulen, dtype=np.int64) if not is_device(ulen) else ulen)",
         new="return chars, to_device(np.full(B, chars.shape[1], np.int64))",
         tests=[STACK],
         why="codes already on the device come without their lengths: every row's window reads all U codes"),
    dict(name="syn-cuda-final-kappa-of-step-0", file=WIN,
         old='copy(a.kappa[last])',
         new='copy(a.kappa[0])',
         tests=[STACK],
         why="layer 1's final kappa is step 0's: the next chunk or step starts its window from the wrong place"),
    dict(name="syn-cuda-kappa-not-carried-in", file=WIN,
         old='\n                                 (a.Wp, a.bp, a.kappa0 if t == 0 else a.kappa[j], a.chars, a.ulen),',
         new='\n                                 (a.Wp, a.bp, zeros(a.kappa0.shape, a.kappa0.dtype) if t == 0 else a.kappa[j], a.chars, a.ulen),',
         tests=[STEPS],
         why="the carried kappa is dropped: each chunk (each sampling step) starts its window at the text's start"),
    dict(name="syn-cuda-phi-stale", file=MODEL,
         old="        self._phi = phi\n",
         new="        self._phi = phi if self._phi is None or isinstance(phi, np.ndarray) else self._phi\n",
         tests=[STEPS],
         why="on the device phi is fetched once and never refreshed: every later step shows the first step's"),
]
