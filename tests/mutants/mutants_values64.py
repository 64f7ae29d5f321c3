"""Planted bugs, round 64 (format: tests/mutants/mutants.py): single-line slips in the optimizers, the update rules,
the host update, the flat parameter buffer and evaluation, on lines no earlier round mutates: plain RMSProp's mean
square without its (1 - alpha), the centred form's running mean decayed by the momentum, Adam's first moment
weighted by beta2, its second decayed by beta1, its bias corrections with the betas swapped and eps not scaled to
the corrected v; the clipping guard grown to 1e-3; an optimizer whose first update is numbered 2, a dict's
parameters sharing one slot, state_dict handing out the live slots, RMSProp's alpha and eps swapped, Adam's
default beta2 0.99, 'rmsprop-momentum' built as Graves's form, clip_grad_norm returning the norm after clipping;
the host update letting an infinite loss through; repack's buffer always float64; evaluate sizing every set by
the validation set, and leaving out a last batch shorter than the others.

18 mutants. Against the existing targeted tests alone 16 were caught and 2 missed: repack's float64 buffer (the
flat tests pack float64 arrays, or convert to float64 on purpose) and evaluate sizing 'train' by the validation set
(the evaluation tests evaluate 'val' only, or sets of one size). The new value tests catch every mutant on their
own (checked with the old tests taken off the lists): test_values64_optim (Adam, RMSProp, Graves's centred form
with momentum, 'rmsprop-momentum' and SGD with momentum over three or four successive steps, each against the rule
written in NumPy from its docstring, Adam in the paper's form with m_hat and v_hat, betas far apart and an eps large
enough to matter; the defaults make_optimizer uses; each parameter of a dict on its own trajectory, two of one
shape; a saved state that later steps leave alone; clipping of a flat array, a dict and the flat kernel just
below, at and above the limit, the norm returned the one before clipping and a clipped norm the limit to within
the guard; the decayed step at each epoch), test_values64_update (three host updates with a stand-in trainer and
a real SGD, clipped and stepped in NumPy; a loss of +inf, -inf or NaN moves nothing), test_values64_flat (a
float32 and a float64 model's layouts row by row against model.params: names, order, shapes, offsets summed
here, each span the very memory of its array; float32 leaves stay float32 and exact), test_values64_evaluation
(a per-step regression head over ragged rows and a classifier, 'train' and 'val' of different sizes, last
batches smaller than the others, against each row run alone at its own length: squared errors over real steps,
losses over sequences). Dropped as equivalent: state_dict's per-name copy of a flat slot split by the layout
(the host copy it splits is already new), split_arrays' slot/name cut by rpartition (parameter names hold no
'/'). Left out: evaluate dealing a one-rank group's batches through distributed.evaluate (the same figures by
design), the device update's checks (CUDA only).

    python tests/mutants/run.py --only 'v64-*'

    python tests/mutants/run.py --only 'v64-*'
"""
KOPT = "lnrnn/kernels/optim.py"
TOPT = "lnrnn/training/optim.py"
UPDATE = "lnrnn/training/update.py"
FLAT = "lnrnn/model/flat.py"
EVAL = "lnrnn/training/evaluation.py"

# existing tests of these modules
OPTIM_OLD = ["tests/training/test_optim.py", "tests/training/test_values_optim.py",
             "tests/training/test_values9_optim.py",
             "tests/training/test_values13_optim.py", "tests/training/test_values19_optim.py",
             "tests/training/test_values36_optim.py"]
UPDATE_OLD = ["tests/training/test_values_update.py", "tests/training/test_values33_update.py"]
FLAT_OLD = ["tests/model/test_values_flat.py"]
EVAL_OLD = ["tests/training/test_values_evaluation.py", "tests/training/test_values10_evaluation.py",
            "tests/training/test_values15_evaluation.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
OPTIM_NEW = ["tests/training/test_values64_optim.py"]
UPDATE_NEW = ["tests/training/test_values64_update.py"]
FLAT_NEW = ["tests/model/test_values64_flat.py"]
EVAL_NEW = ["tests/training/test_values64_evaluation.py"]

MUTANTS = [
    # ---- the update rules (CPU twin): RMSProp, the momentum form, Adam's moments and step, the clipping eps ----
    dict(name="v64-rmsprop-sq-without-one-minus-alpha", file=KOPT,
         old="    sq += t(1 - alpha) * g * g\n    p -= t(lr)",
         new="    sq += g * g\n    p -= t(lr)",
         tests=OPTIM_NEW + OPTIM_OLD,
         why="plain RMSProp adds the whole g^2 to the decayed mean square: sq is a sum, not a running mean"),
    dict(name="v64-graves-avg-decays-by-momentum", file=KOPT,
         old="        avg *= t(alpha)\n",
         new="        avg *= t(momentum)\n",
         tests=OPTIM_NEW + OPTIM_OLD,
         why="the centred form's running mean of g decays by the momentum (0.9) instead of alpha (0.95): "
             "the same at the first step, wrong from the second"),
    dict(name="v64-adam-m-by-one-minus-beta2", file=KOPT,
         old="    m += t(1 - beta1) * g\n",
         new="    m += t(1 - beta2) * g\n",
         tests=OPTIM_NEW + OPTIM_OLD,
         why="Adam's first moment takes in g with beta2's weight (1e-3 for 0.1)"),
    dict(name="v64-adam-v-decays-by-beta1", file=KOPT,
         old="    v *= t(beta2)\n",
         new="    v *= t(beta1)\n",
         tests=OPTIM_NEW + OPTIM_OLD,
         why="Adam's second moment decays by beta1: nothing changes at step 1 (v starts at 0), wrong from step 2"),
    dict(name="v64-adam-step-size-betas-swapped", file=KOPT,
         old="    step, eps_hat = adam_step_size(lr, beta1, beta2, eps, k)",
         new="    step, eps_hat = adam_step_size(lr, beta2, beta1, eps, k)",
         tests=OPTIM_NEW + OPTIM_OLD,
         why="the bias corrections are computed with beta1 and beta2 swapped"),
    dict(name="v64-adam-eps-not-corrected", file=KOPT,
         old="np.sqrt(v) + t(eps_hat))",
         new="np.sqrt(v) + t(eps))",
         tests=OPTIM_NEW + OPTIM_OLD,
         why="the step adds eps to the uncorrected sqrt(v): eps is not applied to the bias-corrected v as the "
             "paper's rule has it"),
    dict(name="v64-clip-eps-a-thousandth", file=KOPT,
         old="CLIP_EPS = 1e-6 ",
         new="CLIP_EPS = 1e-3 ",
         tests=OPTIM_NEW + OPTIM_OLD,
         why="the clipping's guard against a zero norm grows to 1e-3: a clipped gradient's norm falls visibly short "
             "of the limit (by a thousandth of a unit norm)"),
    # ---- the optimizers: step numbers, named slots, saved state, argument order, defaults, the table ----
    dict(name="v64-optim-step-count-starts-at-1", file=TOPT,
         old="        self.step_count = 0\n",
         new="        self.step_count = 1\n",
         tests=OPTIM_NEW + OPTIM_OLD,
         why="a new optimizer's first update is numbered 2: Adam's bias corrections are those of step 2"),
    dict(name="v64-optim-dict-params-share-one-slot", file=TOPT,
         old="            self._update(name, p, grads[name])",
         new="            self._update(FLAT, p, grads[name])",
         tests=OPTIM_NEW + OPTIM_OLD,
         why="a dict of parameters keeps every parameter's moments in the one slot of a flat array: two "
             "parameters of one shape share (and double-update) one momentum"),
    dict(name="v64-optim-state-dict-aliases-slots", file=TOPT,
         old="                slots[s] = {k: _host(v) for k, v in d.items()}",
         new="                slots[s] = {k: v for k, v in d.items()}",
         tests=OPTIM_NEW + OPTIM_OLD,
         why="state_dict hands out the live slots: a saved state changes with every later step"),
    dict(name="v64-rmsprop-alpha-eps-swapped", file=TOPT,
         old='self.lr, self.hyper["alpha"], self.hyper["eps"])',
         new='self.lr, self.hyper["eps"], self.hyper["alpha"])',
         tests=OPTIM_NEW + OPTIM_OLD,
         why="plain RMSProp passes eps as alpha and alpha as eps"),
    dict(name="v64-adam-default-beta2", file=TOPT,
         old="    def __init__(self, lr=1e-3, beta1=0.9, beta2=0.999, eps=1e-8):",
         new="    def __init__(self, lr=1e-3, beta1=0.9, beta2=0.99, eps=1e-8):",
         tests=OPTIM_NEW + OPTIM_OLD,
         why="Adam's default beta2 is 0.99, not the paper's 0.999 (lnrnn train --optimizer adam uses the defaults)"),
    dict(name="v64-optimizers-momentum-is-graves", file=TOPT,
         old='"rmsprop-momentum": MomentumRMSProp,',
         new='"rmsprop-momentum": GravesRMSProp,',
         tests=OPTIM_NEW + OPTIM_OLD,
         why="make_optimizer('rmsprop-momentum') builds Graves's centred form with its alpha 0.95 and eps 1e-4"),
    dict(name="v64-clip-returns-the-clipped-norm", file=TOPT,
         old="            g *= g.dtype.type(scale)\n    return norm\n",
         new="            g *= g.dtype.type(scale)\n    return global_norm(grads)\n",
         tests=OPTIM_NEW + OPTIM_OLD,
         why="clip_grad_norm returns the norm after clipping, not before: the logged norm never exceeds the clip"),
    # ---- the host update ----
    dict(name="v64-update-infinite-loss-stepped", file=UPDATE,
         old="        if not math.isfinite(loss):\n            t._diverged(\"training loss\", loss)\n        params",
         new="        if math.isnan(loss):\n            t._diverged(\"training loss\", loss)\n        params",
         tests=UPDATE_NEW + UPDATE_OLD,
         why="the host update lets an infinite loss through (only NaN is a diverged run)"),
    # ---- the flat buffer ----
    dict(name="v64-flat-repack-buffer-float64", file=FLAT,
         old="    flat = FlatArrays(np.empty(off, dtype), layout)",
         new="    flat = FlatArrays(np.empty(off), layout)",
         tests=FLAT_NEW + FLAT_OLD,
         why="repack's buffer is always float64: a float32 model's parameters and gradients turn float64"),
    # ---- evaluation ----
    dict(name="v64-evaluate-size-of-the-val-set", file=EVAL,
         old="    n = task.size(which)\n",
         new="    n = task.size(\"val\")\n",
         tests=EVAL_NEW + EVAL_OLD,
         why="evaluate on 'train' runs over as many sequences as the validation set holds"),
    dict(name="v64-evaluate-drops-the-last-short-batch", file=EVAL,
         old="                          for s in range(0, n, batch_size))",
         new="                          for s in range(0, n - n % batch_size, batch_size))",
         tests=EVAL_NEW + EVAL_OLD,
         why="evaluate leaves out the last batch when it is shorter than the others"),
]
