"""Planted bugs, round 77 (format: tests/mutants/mutants.py): single-line slips in the layer objects, the layer
functions and the Python API, on lines no earlier round mutates. RecurrentLayer: eps and momentum swapped as the
layer stores them, the forget bias it was given replaced by the default, zero_grad rebinding its loop variable
(nothing cleared), the finite check letting through an input with only some NaN entries, t0's check joined by
and (a negative whole t0 or a fractional one let through). RecurrentStack: no layers accepted, the config
recording the default forget bias, load_buffers giving every layer the first layer's statistics, a plain stack's
dstate0 left top layer first. The layer functions: float lengths let through, dL/dh_n of a row of length 0 added
into dh0 only when every row is empty, residual_layout giving an LN-RNN's saved rstd as (B,T). The API: a run of
one layer described as '1 layers', evaluate_run taking which='test' and a batch_size of 0 (silently the run's
default), Predictions.probability read as p[class, row].

16 mutants. Against the existing targeted tests alone 9 were caught and 7 missed: the forget bias ignored, the t0
check (no old test passes a negative or fractional t0), a stack of no layers (no old test asks for one), the
config's forget bias (no old test rebuilds a stack from its config with a forget bias off the default), the
statistics of layer 0 loaded into every layer (no old test gives a stack's layers statistics that differ), float
lengths (the old tests pass wrong shapes, not wrong kinds) and which='test'. The new value tests catch every mutant
on their own (checked with the old tests taken off the lists): test_values77_layers (float64, I = 3, H = 2: an
LN-LSTM layer with eps 0.3 against NumPy LayerNorm with that eps; a BN-LSTM layer's running statistics after one
training forward with momentum 0.3 against the batch moments of x_t Wx; the initial parameters against the
registry's docstring, shapes, Glorot bound, orthogonal Wh blocks, b zero but the forget block; a stack rebuilt from
its config; the gradients of two backwards and of one after zero_grad against central differences of a NumPy LSTM's
loss; a two-layer stack from given states against NumPy, its dstate0 against central differences; load_buffers of
distinct statistics; the refusals, matched by their messages), test_values77_functional (layer_backward's dh0 and
dc0 with a row of length 0 among rows of their own lengths against central differences over each row's own steps;
residual_layout against the residuals layer_forward returns for every non-BatchNorm cell with T != B; float and bool
lengths refused), test_values77_api (a one-layer run fitted here: its description; p[row, class] by hand on a square
table whose classes are not the argmax, and on predict's output; evaluate_run's refusals as one sentence each). Six
more were written and left out to keep the round small, the old tests already catching them (the new tests catch
them too and stay): dy of the wrong width let through, a bidirectional skip stack's output width of one direction, a
bidirectional chunk from t0 > 0 accepted, every plain layer started from the first layer's state, dc0 of an empty
row as for dh0, the mismatch refusal giving the run's input size twice. Dropped before the catalogue as equivalent:
``t0 == 0`` as ``t0 <= 0`` in the training rows (t0 is checked non-negative first), NumPy's concatenate on axis -1
for axis 2 in the skip join (3-D either way). Also checked and found right: layer_backward runs with the default eps
whatever eps the forward had, and its gradients still match central differences for every normalized cell (the
backward reads the saved rstd and statistics, not eps).

    python tests/mutants/run.py --only 'v77-*'
"""
LAYERS = "lnrnn/model/layers.py"
FUNC = "lnrnn/model/functional.py"
API = "lnrnn/api.py"

# existing tests of these modules
LAYERS_OLD = ["tests/model/test_layers.py","tests/model/test_layers_models_bidirectional.py",
              "tests/model/test_values9_layers.py",
              "tests/model/test_values13_layers.py", "tests/model/test_values24_layers.py",
              "tests/model/test_values33_layers.py", "tests/model/test_values51_models.py",
              "tests/model/test_values_bn.py"]
FUNC_OLD = ["tests/model/test_functional.py", "tests/model/test_values13_functional.py",
            "tests/model/test_values16_functional.py", "tests/model/test_values22_functional.py",
            "tests/model/test_values51_functional.py", "tests/model/test_layers.py",
            "tests/model/test_layers_models_bidirectional.py"]
API_OLD = ["tests/test_values_api.py", "tests/test_values10_api.py", "tests/test_values15_api.py",
           "tests/test_values27_api.py", "tests/test_values46_api.py", "tests/test_values50_api.py",
           "tests/test_values_api_read.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
LAYERS_NEW = ["tests/model/test_values77_layers.py"]
FUNC_NEW = ["tests/model/test_values77_functional.py"]
API_NEW = ["tests/test_values77_api.py"]

MUTANTS = [
    # ---- RecurrentLayer: its settings, its checks, its gradients across calls ----
    dict(name="v77-layer-eps-and-momentum-swapped", file=LAYERS,
         old="        self.eps, self.momentum = float(eps), float(momentum)",
         new="        self.eps, self.momentum = float(momentum), float(eps)",
         tests=LAYERS_NEW + LAYERS_OLD,
         why="a layer keeps eps as its momentum and the momentum as its eps: off their defaults the LayerNorm "
             "and BatchNorm outputs and the running statistics are wrong"),
    dict(name="v77-layer-forget-bias-ignored", file=LAYERS,
         old="self.params = self.spec.init_params(rng, self.I, self.H, self.dtype, self.forget_bias, recurrent_init)",
         new="self.params = self.spec.init_params(rng, self.I, self.H, self.dtype, 1.0, recurrent_init)",
         tests=LAYERS_NEW + LAYERS_OLD,
         why="the LSTM's forget block starts at 1 whatever forget_bias the layer was given"),
    dict(name="v77-layer-zero-grad-rebinds", file=LAYERS,
         old="            g.fill(0)",
         new="            g = np.zeros_like(g)",
         tests=LAYERS_NEW + LAYERS_OLD,
         why="zero_grad rebinds its loop variable and clears nothing: the next backward adds to the old sums"),
    dict(name="v77-layer-finite-check-any", file=LAYERS,
         old="    if not np.all(np.isfinite(a)):",
         new="    if not np.any(np.isfinite(a)):",
         tests=LAYERS_NEW + LAYERS_OLD,
         why="an input with a few NaN or infinite entries passes the boundary check (only an all-NaN one is "
             "refused)"),
    dict(name="v77-layer-t0-check-and", file=LAYERS,
         old="        if int(t0) != t0 or t0 < 0:",
         new="        if int(t0) != t0 and t0 < 0:",
         tests=LAYERS_NEW + LAYERS_OLD,
         why="a negative whole t0 and a fractional positive one are let through"),
    # ---- RecurrentStack ----
    dict(name="v77-stack-zero-layers-accepted", file=LAYERS,
         old="        if int(num_layers) != num_layers or num_layers < 1:",
         new="        if int(num_layers) != num_layers or num_layers < 0:",
         tests=LAYERS_NEW + LAYERS_OLD,
         why="a stack of no layers is built (an identity that has no parameters)"),
    dict(name="v77-stack-config-forget-bias-default", file=LAYERS,
         old="num_layers=int(num_layers), dtype=np.dtype(dtype).name, forget_bias=float(forget_bias))",
         new="num_layers=int(num_layers), dtype=np.dtype(dtype).name, forget_bias=1.0)",
         tests=LAYERS_NEW + LAYERS_OLD,
         why="the stack's config records the default forget bias: a stack rebuilt from it starts elsewhere"),
    dict(name="v77-stack-load-buffers-of-layer-0", file=LAYERS,
         old="layer.buffers[n] = np.ascontiguousarray(buffers[self._name(j) + n], dtype=layer.dtype)",
         new="layer.buffers[n] = np.ascontiguousarray(buffers[self._name(0) + n], dtype=layer.dtype)",
         tests=LAYERS_NEW + LAYERS_OLD,
         why="load_buffers gives every layer the first layer's BatchNorm statistics"),
    dict(name="v77-stack-plain-dstate0-unreversed", file=LAYERS,
         old="            dstate.append(ds)\n        self.dstate0 = dstate[::-1]\n        return dy",
         new="            dstate.append(ds)\n        self.dstate0 = dstate\n        return dy",
         tests=LAYERS_NEW + LAYERS_OLD,
         why="a plain stack's dstate0 is left top layer first"),
    # ---- the layer functions ----
    dict(name="v77-func-float-lengths-let-through", file=FUNC,
         old="    if a.shape != (B,) or not np.issubdtype(a.dtype, np.integer):",
         new="    if a.shape != (B,) or not np.issubdtype(a.dtype, np.number):",
         tests=FUNC_NEW + FUNC_OLD,
         why="lengths given as floats pass check_lengths"),
    dict(name="v77-func-dh0-of-empty-rows-only-when-all-empty", file=FUNC,
         old="    if dh_n is not None and lengths is not None and np.any(lengths == 0):",
         new="    if dh_n is not None and lengths is not None and np.all(lengths == 0):",
         tests=FUNC_NEW + FUNC_OLD,
         why="dL/dh_n of a row of length 0 (h_n is h0 there) reaches dh0 only when every row is empty"),
    dict(name="v77-func-residual-layout-rnn-rstd-transposed", file=FUNC,
         old="    return [((T, B, H) if ln else (0, 0, 0), dt), ((T, B) if ln else (0, 0), dt)]",
         new="    return [((T, B, H) if ln else (0, 0, 0), dt), ((B, T) if ln else (0, 0), dt)]",
         tests=FUNC_NEW + FUNC_OLD,
         why="residual_layout announces an LN-RNN's saved rstd as (B,T); the layer keeps (T,B)"),
    # ---- the Python API ----
    dict(name="v77-api-describe-one-layers", file=API,
         old="layer{'s' * (m['num_layers'] > 1)}",
         new="layer{'s' * (m['num_layers'] >= 1)}",
         tests=API_NEW + API_OLD,
         why="a run of one layer is described as '1 layers'"),
    dict(name="v77-api-evaluate-which-test", file=API,
         old="    if which not in (\"val\", \"train\"):",
         new="    if which not in (\"val\", \"train\", \"test\"):",
         tests=API_NEW + API_OLD,
         why="evaluate_run takes which='test', which no task has, and fails later without the one-line refusal"),
    dict(name="v77-api-evaluate-batch-size-zero-default", file=API,
         old="    if batch_size is not None:\n        _count(batch_size, \"batch_size\")\n    if data_dir",
         new="    if batch_size:\n        _count(batch_size, \"batch_size\")\n    if data_dir",
         tests=API_NEW + API_OLD,
         why="evaluate_run's batch_size=0 passes the check and silently becomes the run's default"),
    dict(name="v77-api-probability-indexed-by-class-row", file=API,
         old="        return self.probabilities[np.arange(len(self.classes)), self.classes]",
         new="        return self.probabilities[self.classes, np.arange(len(self.classes))]",
         tests=API_NEW + API_OLD,
         why="Predictions.probability reads p[class, row] instead of p[row, class]"),
]
