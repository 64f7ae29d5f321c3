"""Planted bugs, round 101 (format: tests/mutants/mutants.py): single-line slips in the layers, the layer functions
and the Python API, on lines no earlier round mutates: a layer's zero state laid out (H,B), a float16 layer let
through the dtype check, a stack's merged params/grads/buffers without their l{k}. prefix, a state list shorter
than the layers let through, a bidirectional stack handing dL/dy to its bottom layer, step taking a 3-D x_t;
reverse_valid indexing the rows along the time axis, gate_clip refusing clip_gates=inf (off) for an RNN cell
(the raw value checked, not the bound), an inference forward (keep=False) of a masked row keeping the state after
step T-1, dL/dc0 started from dL/dh0 when a row has length 0; per-step classes taken over the steps, Run.epoch
reading the update count, fit() letting x_val with split through (it checks lengths_val) and writing data.npz
before a nonsensical option is refused.

14 mutants. Against the existing targeted tests alone 8 were caught and 6 missed: the float16 layer, the short state
list, the 3-D x_t (no old test passes one to step), gate_clip with inf on an RNN cell, fit() with both x_val and
split, and fit() writing the data before refusing a nonsensical option (no measured old file passes fit() both, or
an option only validate refuses). The old lists were measured on the most direct old files only
(tests/model/test_layers.py, test_values77_layers.py, test_layers_models_bidirectional.py, test_functional.py,
test_values77_functional.py, test_values51_functional.py; tests/test_values50_api.py, test_values77_api.py,
test_values83_api.py). The new value tests catch every mutant on their own (checked with the old tests taken off the
lists): test_values101_layers (a two-layer bidirectional LN-LSTM stack, with and without skip connections, over rows
of their own lengths against a stack written here from lnrnn.reference, one row at a time over its own valid steps
with the backward direction reading them reversed: y, the final states in the stack's order, dx, dstate0 and
parameter gradients against central differences in float64; masked inference forwards of the plain RNN, the LN-RNN
and the LSTM against the reference's state at each row's last step; layer_backward with a zero-length row and
dL/dc_n against central differences; reverse_valid against its definition by loops; parameter names, shapes and
counts by hand; zero states; the refusals and gate_clip's off values) and test_values101_api (per-step predictions
against a NumPy LSTM and softmax from the run's parameters; step, epoch and describe() against the batches fit was
asked for; fit()'s refusals writing nothing). Dropped before the catalogue as equivalent on the CPU: the stack's
last-layer index for on_device (to_host is the identity there), an extra skip join after the top layer (never read),
dh0[z] assigned instead of added for a zero-length row (the masked kernels leave it zero), T <= Ts read as T < Ts in
the bindings' statistics rows (stat_rows gives the same rows), and step returning y[-1] for y[0] (one step).

    python tests/mutants/run.py --only 'v101-*'
"""
LAYERS = "lnrnn/model/layers.py"
FUNC = "lnrnn/model/functional.py"
API = "lnrnn/api.py"

# existing tests of these modules
LAYERS_OLD = ["tests/model/test_layers.py","tests/model/test_values77_layers.py",
              "tests/model/test_layers_models_bidirectional.py"]
FUNC_OLD = ["tests/model/test_functional.py", "tests/model/test_values77_functional.py",
            "tests/model/test_values51_functional.py"]
API_OLD = ["tests/test_values50_api.py", "tests/test_values77_api.py", "tests/test_values83_api.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
LAYERS_NEW = ["tests/model/test_values101_layers.py"]
FUNC_NEW = ["tests/model/test_values101_layers.py"]
API_NEW = ["tests/test_values101_api.py"]

MUTANTS = [
    # ---- layers ----
    dict(name="v101-layers-zero-state-transposed", file=LAYERS,
         old="return tuple(np.zeros((B, self.H), self.dtype) for _ in range(self.nstate))",
         new="return tuple(np.zeros((self.H, B), self.dtype) for _ in range(self.nstate))",
         tests=LAYERS_NEW + LAYERS_OLD,
         why="a layer's zero state is (H,B): a forward without a state is refused unless B = H"),
    dict(name="v101-layers-dtype-lets-float16-through", file=LAYERS,
         old="if self.dtype not in (np.float32, np.float64):",
         new="if self.dtype not in (np.float16, np.float32, np.float64):",
         tests=LAYERS_NEW + LAYERS_OLD,
         why="a float16 layer is not refused at the boundary with the sentence naming dtype"),
    dict(name="v101-stack-merged-names-without-prefix", file=LAYERS,
         old="return {self._name(j) + n: v for j, layer",
         new="return {n: v for j, layer",
         tests=LAYERS_NEW + LAYERS_OLD,
         why="a stack's params/grads/buffers drop the l{k}. prefix: every layer's entries overwrite the one below"),
    dict(name="v101-stack-state-count-lets-short-through", file=LAYERS,
         old="if state is not None and len(state) != len(self.layers):",
         new="if state is not None and len(state) > len(self.layers):",
         tests=LAYERS_NEW + LAYERS_OLD,
         why="a state list with fewer entries than layers is not refused by the sentence naming state"),
    dict(name="v101-bidir-top-layer-from-layer-0", file=LAYERS,
         old="dyk = dy if k == L - 1 else d_above",
         new="dyk = dy if k == 0 else d_above",
         tests=LAYERS_NEW + LAYERS_OLD,
         why="a bidirectional stack without skip hands dL/dy to the bottom layer instead of the top one"),
    dict(name="v101-step-lets-3d-through", file=LAYERS,
         old="if not isinstance(x_t, np.ndarray) or x_t.ndim != 2:",
         new="if not isinstance(x_t, np.ndarray) or x_t.ndim < 2:",
         tests=LAYERS_NEW + LAYERS_OLD,
         why="step takes a (1,B,I) x_t and fails further in, naming x rather than x_t"),
    # ---- functional ----
    dict(name="v101-reverse-valid-batch-index-transposed", file=FUNC,
         old="return np.ascontiguousarray(a[idx, np.arange(B)[None, :]])",
         new="return np.ascontiguousarray(a[idx, np.arange(B)[:, None]])",
         tests=FUNC_NEW + FUNC_OLD + LAYERS_OLD,
         why="the masked reversal indexes rows along the time axis: wrong rows where T = B, an error otherwise"),
    dict(name="v101-gate-clip-checks-raw-clip", file=FUNC,
         old="if bound and not spec.gate_clip:",
         new="if clip and not spec.gate_clip:",
         tests=FUNC_NEW + FUNC_OLD + LAYERS_OLD,
         why="clip_gates=inf (off) is refused for an RNN cell: the check reads the given value, not the bound"),
    dict(name="v101-final-state-only-when-keeping", file=FUNC,
         old="    if lengths is not None:\n        final = final_state(",
         new="    if lengths is not None and keep:\n        final = final_state(",
         tests=FUNC_NEW + FUNC_OLD + LAYERS_OLD,
         why="an inference forward (keep=False) of a masked RNN returns each row's state after step T-1, not "
             "after its own last step"),
    dict(name="v101-dc0-from-dh0", file=FUNC,
         old="dc0 = np.array(k.to_host(dstate[1]), copy=True)",
         new="dc0 = np.array(k.to_host(dstate[0]), copy=True)",
         tests=FUNC_NEW + FUNC_OLD,
         why="with a zero-length row and a dL/dc_n, every row's dL/dc0 is replaced by its dL/dh0"),
    # ---- api ----
    dict(name="v101-api-step-classes-over-time", file=API,
         old="classes = probs.argmax(-1).astype(np.int64)",
         new="classes = probs.argmax(1).astype(np.int64)",
         tests=API_NEW + API_OLD,
         why="a per-step classifier's classes take the argmax over the steps instead of the classes"),
    dict(name="v101-api-epoch-reads-step", file=API,
         old='        return self.meta.get("epoch")',
         new='        return self.meta.get("step")',
         tests=API_NEW + API_OLD,
         why="Run.epoch gives the update count"),
    dict(name="v101-api-fit-split-checks-lengths-val", file=API,
         old="if parse_split(cfg.split) is not None and x_val is not None:",
         new="if parse_split(cfg.split) is not None and lengths_val is not None:",
         tests=API_NEW + API_OLD,
         why="fit() with both x_val and split (no lengths_val) is not refused by the sentence naming both"),
    dict(name="v101-api-fit-validate-dropped", file=API,
         old="    validate(resolve_defaults(cfg))  # a nonsensical option",
         new="    resolve_defaults(cfg)  # a nonsensical option",
         tests=API_NEW + API_OLD,
         why="fit() writes data.npz before a nonsensical option is refused"),
]
