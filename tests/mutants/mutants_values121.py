"""Planted bugs, round 121 (format: tests/mutants/mutants.py): single-line slips in the PyTorch binding
(lnrnn/interop/torch.py), a sixth pass on lines no earlier round mutates: the defaults (the stacks' and
LSTMCell's forget_bias of 0, RNNCell's norm of None), the norm spellings ('none' dropped from _NORMS, a cell
keeping the string 'none'), the refusals (RNNCell letting relu through, a cell letting float16 through,
check_tensors' advice naming x whatever tensor is at fault, the layer op not checking its parameters' dtypes),
a batch_first stack unpacking a PackedSequence batch-first, a BN stack's training pass copying its buffers onto
themselves, extra_repr's skip read from batch_first, and load_exported dropping the config's forget_bias and
reading bidirectional from skip.

14 mutants. The existing targeted tests were measured on the first 8 only (the most direct old files, listed
after the new one; the run was stopped there to keep within the time the shared core allows: one mutant's
old ops files alone took over five minutes): 3 caught (the stacks' forget_bias, 'none' refused, relu let
through) and 5 missed (LSTMCell's forget_bias, RNNCell's default norm, a cell keeping 'none', float16 cells,
check_tensors' advice naming x). The new value tests catch all 14 on their own (checked with the old files
taken off the lists): tests/interop/test_values121_torch.py (the forget block of bias_ih against
cells.Cell.init_params' layout, at 1 by default and at the value given; RNNCell's default step against an
LN-RNN step written there in torch ops; norm='none' as None for the four modules; a batch_first two-layer stack
fed a PackedSequence against torch.nn.LSTM(batch_first=True) with the same weights, outputs and h_n, c_n in
float64; a BN-LSTM's running means after one training pass against BN_MOMENTUM times the batch mean of
x_t Wx and its running variances against the momentum's update of the batch variance; load_exported of a
bidirectional LN stack and its head written there with write_safetensors, same outputs, forget_bias kept;
the refusals word for word, the layer op's mixed-dtype one listing every tensor with its dtype).
Dropped as equivalent: set_materialize_grads(True) (zero-filled seeds give the same gradients as None),
_refuse_nonzero returning grad (it is all zeros once checked), the cell's layer op run with training=True
(cells take no BatchNorm), head.eval() dropped (nn.Linear has no train/eval difference), x.contiguous()
dropped before the layers (_Host.array makes its arrays contiguous), the BN copy guarded by self.training
(new_bufs is empty for LN and plain cells), the weights named in the stacks' check_tensors being weight_hh
(same dtype and device as weight_ih). Not mutated: _Cuda's stream lines (no GPU in the test run).

    python tests/mutants/run.py --only 'v121-*'
"""
TORCH = "lnrnn/interop/torch.py"

# existing tests of the binding (the most direct files: the old torch files take minutes on one core)
STACK_OLD = ["tests/interop/test_values98_torch.py", "tests/interop/test_values74_torch_modules.py",
             "tests/interop/test_torch_bidirectional.py"]
CELL_OLD = ["tests/interop/test_torch_cell.py", "tests/interop/test_values49_torch_cell.py"]
OPS_OLD = ["tests/interop/test_torch.py", "tests/interop/test_values74_torch_ops.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
NEW = ["tests/interop/test_values121_torch.py"]

MUTANTS = [
    # ---- defaults ----
    dict(name="v121-stack-default-forget-bias-zero", file=TORCH,
         old='def __init__(self, input_size, hidden_size, num_layers=1, norm="ln", batch_first=False, forget_bias=1.0,',
         new='def __init__(self, input_size, hidden_size, num_layers=1, norm="ln", batch_first=False, forget_bias=0.0,',
         tests=NEW + STACK_OLD,
         why="LSTM and RNN stacks start the forget gate's bias at 0 unless told: nn-style code that relies on "
             "lnrnn's forget_bias=1 default (the cells', the trainer's) gets a forgetting LSTM"),
    dict(name="v121-cell-default-forget-bias-zero", file=TORCH,
         old='def __init__(self, input_size, hidden_size, bias=True, norm="ln", forget_bias=1.0, '
             'device=None, dtype=None):',
         new='def __init__(self, input_size, hidden_size, bias=True, norm="ln", forget_bias=0.0, '
             'device=None, dtype=None):',
         tests=NEW + CELL_OLD,
         why="LSTMCell starts its forget gate's bias at 0 by default, unlike the stacks and the trainer"),
    dict(name="v121-rnncell-default-norm-none", file=TORCH,
         old='bias=True, nonlinearity="tanh", norm="ln", **kw):',
         new='bias=True, nonlinearity="tanh", norm=None, **kw):',
         tests=NEW + CELL_OLD,
         why="RNNCell without a norm argument is the plain tanh cell, where every other module defaults to LN"),
    # ---- norm spellings ----
    dict(name="v121-norm-none-string-refused", file=TORCH,
         old='_NORMS = {None: "none", "none": "none", "ln": "ln", "bn": "bn"}',
         new='_NORMS = {None: "none", "ln": "ln", "bn": "bn"}',
         tests=NEW + CELL_OLD + STACK_OLD,
         why="norm='none' (the spelling of lnrnn's configs and CLI) is refused by every module"),
    dict(name="v121-cell-norm-none-string-kept", file=TORCH,
         old='self.norm, self.forget_bias = None if _NORMS[norm] == "none" else norm, float(forget_bias)',
         new='self.norm, self.forget_bias = norm, float(forget_bias)',
         tests=NEW + CELL_OLD,
         why="a cell built with norm='none' keeps the string: its norm and repr say 'none' where the stacks' "
             "say None"),
    # ---- refusals ----
    dict(name="v121-rnncell-relu-let-through", file=TORCH,
         old='if nonlinearity != "tanh":\n            raise ValueError(f"RNNCell:',
         new='if nonlinearity not in ("tanh", "relu"):\n            raise ValueError(f"RNNCell:',
         tests=NEW + CELL_OLD,
         why="RNNCell(nonlinearity='relu') is accepted and silently runs tanh"),
    dict(name="v121-cell-float16-let-through", file=TORCH,
         old='if dtype not in DTYPES:\n            raise TypeError(f"{what}: lnrnn\'s kernels run float32 or '
             'float64 only: pass dtype=torch.float32 "\n                            f"or torch.float64, '
             'not {dtype}.")\n        self.spec = cells.lookup(self._kind, _NORMS[norm])\n'
             '        self.input_size, self.hidden_size = int',
         new='if not dtype.is_floating_point:\n            raise TypeError(f"{what}: lnrnn\'s kernels run float32 or '
             'float64 only: pass dtype=torch.float32 "\n                            f"or torch.float64, '
             'not {dtype}.")\n        self.spec = cells.lookup(self._kind, _NORMS[norm])\n'
             '        self.input_size, self.hidden_size = int',
         tests=NEW + CELL_OLD,
         why="a cell's dtype check lets float16 and bfloat16 through: a KeyError from the dtype table instead of "
             "the one-line TypeError"),
    dict(name="v121-check-tensors-advice-names-x", file=TORCH,
         old='f"pass {n}.float() (and a float32 module) or .double().")',
         new='f"pass x.float() (and a float32 module) or .double().")',
         tests=NEW + OPS_OLD,
         why="the non-float refusal tells the user to convert x whichever tensor (hx, lengths' state, weights) "
             "is at fault"),
    dict(name="v121-layer-op-params-unchecked", file=TORCH,
         old='**dict(zip(spec.param_names, params)), **dict(zip(spec.buffer_names, buffers)))',
         new='**dict(zip(spec.buffer_names, buffers)))',
         tests=NEW + OPS_OLD,
         why="the layer op checks x, the states and the buffers but not the parameters: float32 weights with a "
             "float64 input reach the kernels"),
    # ---- PackedSequence, BatchNorm, repr ----
    dict(name="v121-packed-unpacked-batch-first", file=TORCH,
         old='x, lengths = pad_packed_sequence(packed)',
         new='x, lengths = pad_packed_sequence(packed, batch_first=self.batch_first)',
         tests=NEW + STACK_OLD + ["tests/interop/test_values39_torch_lengths.py"],
         why="a batch_first stack unpacks a PackedSequence to (B,T,I) and then reads it as (T,B,I) (the "
             "transpose is skipped for packed input)"),
    dict(name="v121-bn-running-stats-copied-onto-themselves", file=TORCH,
         old='for b, nb in zip(bufs, new_bufs):',
         new='for b, nb in zip(bufs, bufs):',
         tests=NEW + STACK_OLD,
         why="a BN stack's training pass never stores the updated running statistics: eval keeps the initial "
             "means and variances"),
    dict(name="v121-repr-skip-from-batch-first", file=TORCH,
         old='if self.skip:\n            s += ", skip=True"',
         new='if self.batch_first:\n            s += ", skip=True"',
         tests=NEW + STACK_OLD,
         why="extra_repr prints skip=True for batch_first stacks and nothing for skip stacks"),
    # ---- load_exported ----
    dict(name="v121-exported-forget-bias-dropped", file=TORCH,
         old='kw = dict(forget_bias=config["forget_bias"]) if cls is LSTM else {}',
         new='kw = {}',
         tests=NEW + STACK_OLD,
         why="an exported LSTM loads with forget_bias=1 whatever its config said (the weights load, the "
             "module's forget_bias and a re-initialization are wrong)"),
    dict(name="v121-exported-bidirectional-from-skip", file=TORCH,
         old='bidirectional=bool(config.get("bidirectional", False)),',
         new='bidirectional=bool(config.get("skip", False)),',
         tests=NEW + STACK_OLD,
         why="an exported stack's bidirectional flag is read from its skip entry: a bidirectional export fails "
             "to load strictly"),
]
