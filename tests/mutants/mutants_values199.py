"""Planted bugs, round 199 (format: tests/mutants/mutants.py), on lines no earlier round mutates: the CTC kernel's
float64 exp polynomial adding log 2's low part and its log polynomial dropping it, rows of no step with p = 1 and
p = 0 swapped, the last step's posteriors reading the blank flags from position 0, the log-space backward
stopping at step 1 and assigning the posteriors instead of subtracting them, the softmax run over a short row's
padded steps; the heads' weights drawn from [0, b), zero_grad rebinding its loop variable, steps() swapped, the
mixture head's config recording its outputs as its components, the CTC head's cer decoding the gradient, its
label lengths counting only classes above the blank (a blank inside a label refused with the padding message),
and the regression head's target reshape branches swapped.

14 mutants. Against the existing targeted tests alone (the four most direct files per module, measured without
a baseline; the run was cut short after twelve mutants to keep within time) 8 of 12 were caught and 4 missed:
the swapped p of rows with no steps (the loss is 0 either way; only logz tells them apart), the weights drawn
from [0, b) (no test looks at the initial weights' signs), zero_grad rebinding (no test backs up twice around a
zero_grad) and the mixture head's config (no test makes a mixture head again from its config); the blank inside
a label and the regression reshape were not measured against the old tests. The new value tests catch every
mutant on their own (checked with the old tests taken off the lists): test_values199_ctc (loss, logz and
gradient against a float64 log-sum-exp over every one of the C^T paths, collapsed here, on rows with a repeat,
an empty label, a label as long as its steps allow, rows of no step, rows shorter than the batch's longest with
logp 0 past their end, logits tens of nats apart, and rows readable only through a class 800 nats down that run
in log space, whose gradient is also checked by central differences) and test_values199_heads (the initial
weights' range and signs, a second backward after zero_grad equal to the first, steps, a mixture head made
again from its config, a per-step regression head's loss by hand over masked rows and its gradients by central
differences, the CTC head's cer from a best path and a Levenshtein distance written here, the blank's refusal
message). Dropped before the catalogue as equivalent or near it: log_probs counting rows by h's step axis (the
kernel reads B from the logits, so only T < B differs, and then by reading past the arrays: a crash or
garbage, not a test); the log-space forward's own no-step return (never reached: a row of no step returns
from the rescaled forward); step 0's first emission read as lp[0, 0] (position 0 is the blank, class 0);
switches between the rescaled and the log-space path (a missed drop count, a rescale at every step, a lower
threshold to fall back: the answer is the same to rounding); buffers left uninitialized (np.empty's leftovers
may be zeros, so a test would be flaky).

    python tests/mutants/run.py --only 'v199-*'
"""
CTC = "lnrnn/kernels/ctc.py"
HEADS = "lnrnn/model/heads.py"

# existing tests of these modules (the most direct ones)
CTC_OLD = ["tests/kernels/test_ctc.py", "tests/kernels/test_values26_ctc.py", "tests/kernels/test_values48_ctc.py",
           "tests/kernels/test_values166_ctc.py"]
HEADS_OLD = ["tests/model/test_values_heads.py", "tests/model/test_values48_heads.py",
             "tests/model/test_values151_heads.py", "tests/model/test_values166_heads.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
CTC_NEW = ["tests/kernels/test_values199_ctc.py"]
HEADS_NEW = ["tests/model/test_values199_heads.py"]

MUTANTS = [
    # ---- the CTC kernel: exp and log polynomials, rows without steps, the last step's posteriors, log space ----
    dict(name="v199-ctc-exp-low-part-added", file=CTC,
         old="    r = (y - k * _LN2_HI) - k * _LN2_LO",
         new="    r = (y - k * _LN2_HI) + k * _LN2_LO",
         tests=CTC_NEW + CTC_OLD,
         why="_exp adds log 2's low part instead of taking it off: exp(y) is off by 4e-10 k relative (k = y / log 2), "
             "so the softmax, the loss and the gradient drift by 1e-8 on logits a few tens apart"),
    dict(name="v199-ctc-log13-drops-low-ln2", file=CTC,
         old="    return e * _LN2_HI + (e * _LN2_LO + 2.0 * q * p)",
         new="    return e * _LN2_HI + 2.0 * q * p",
         tests=CTC_NEW + CTC_OLD,
         why="_log13 forgets log 2's low part where it halves z: each log-sum-exp of the log-space path is 2e-10 "
             "low, so a row far down in log space loses about 2e-10 per step in its log p"),
    dict(name="v199-ctc-no-steps-p-flipped", file=CTC,
         old="        return (0.0 if Sb == 1 else -np.inf), True",
         new="        return (0.0 if Sb > 1 else -np.inf), True",
         tests=CTC_NEW + CTC_OLD,
         why="a row with no steps gets p = 1 for a non-empty label and p = 0 for the empty one (logz 0 and -inf "
             "swapped; the loss is 0 either way)"),
    dict(name="v199-ctc-last-step-posteriors-blank-flags-unsliced", file=CTC,
         old="                bn[s] = 1.0\n            z, zb = _posteriors(bn[lo:], at, q[lo:], blk[lo:], hi - lo)",
         new="                bn[s] = 1.0\n            z, zb = _posteriors(bn[lo:], at, q[lo:], blk, hi - lo)",
         tests=CTC_NEW + CTC_OLD,
         why="the last step's posteriors read the blank flags from position 0, not the band's first: with a "
             "label the band starts at S_b - 2 (a label), so the blank's sum at the last step takes the "
             "label's share and the blank's own"),
    dict(name="v199-ctc-log-backward-stops-before-step-0", file=CTC,
         old="        bn[s] = dt(0.0) if s >= Sb - 2 else ninf\n    for t in range(Tb - 1, -1, -1):",
         new="        bn[s] = dt(0.0) if s >= Sb - 2 else ninf\n    for t in range(Tb - 1, 0, -1):",
         tests=CTC_NEW + CTC_OLD,
         why="the log-space backward stops at step 1: a row that runs in log space leaves its step-0 gradient "
             "unwritten (the buffer's leftovers)"),
    dict(name="v199-ctc-softmax-over-padded-steps", file=CTC,
         old="            for t in range(Tb):\n                _softmax_step(",
         new="            for t in range(T):\n                _softmax_step(",
         tests=CTC_NEW + CTC_OLD,
         why="the softmax runs over every step of the batch: a row shorter than the longest gets log-softmax "
             "values in logp past its end, where logp is 0 (and the head's best path reads them)"),
    dict(name="v199-ctc-log-posterior-assigned", file=CTC,
         old="            d[t, ext[s]] -= q[s]",
         new="            d[t, ext[s]] = -q[s]",
         tests=CTC_NEW + CTC_OLD,
         why="the log-space backward assigns minus each position's posterior to its class instead of taking it "
             "off the softmax: the blank keeps only its last position's share and labels lose y"),
    # ---- the heads: initialization, zero_grad, steps, configs, the CTC head's rows and log-probabilities ----
    dict(name="v199-heads-init-uniform-from-zero", file=HEADS,
         old='"W": rng.uniform(-bound, bound, (self.H, self.O))',
         new='"W": rng.uniform(0.0, bound, (self.H, self.O))',
         tests=HEADS_NEW + HEADS_OLD,
         why="the head's weights are drawn from [0, 1/sqrt(H)) instead of (-1/sqrt(H), 1/sqrt(H)): every "
             "output starts positively correlated with the mean of h"),
    dict(name="v199-heads-zero-grad-rebinds", file=HEADS,
         old="            g[...] = 0",
         new="            g = 0",
         tests=HEADS_NEW + HEADS_OLD,
         why="zero_grad rebinds its loop variable instead of clearing the arrays: gradients accumulate across "
             "batches"),
    dict(name="v199-heads-steps-swapped", file=HEADS,
         old='return "all" if self.per_step else "last"',
         new='return "last" if self.per_step else "all"',
         tests=HEADS_NEW + HEADS_OLD,
         why="a per-step head asks the stack for its last step only, a last-step head for every step"),
    dict(name="v199-heads-mdn-config-components-as-outputs", file=HEADS,
         old='"components": self.M,',
         new='"components": self.O,',
         tests=HEADS_NEW + HEADS_OLD,
         why="the mixture head's config records its 6M+1 outputs as its components: a head made again from it "
             "(a checkpoint) has 6(6M+1)+1 outputs"),
    dict(name="v199-heads-ctc-cer-from-gradient", file=HEADS,
         old="best_path_array(saved[0], il)",
         new="best_path_array(saved[1], il)",
         tests=HEADS_NEW + HEADS_OLD,
         why="the CTC head's cer decodes the saved gradient (saved[1]) instead of logp (saved[0])"),
    dict(name="v199-heads-ctc-label-length-skips-blank", file=HEADS,
         old="ll = np.count_nonzero(labels >= 0, axis=1)",
         new="ll = np.count_nonzero(labels > 0, axis=1)",
         tests=HEADS_NEW + HEADS_OLD,
         why="a label holding the blank (0) is counted one short and refused as badly padded, not as a label "
             "outside the classes 1..C-1: the message tells the user the wrong thing to fix"),
    dict(name="v199-heads-regression-target-shape-branches-swapped", file=HEADS,
         old="t.shape[:2 if self.per_step else 1]",
         new="t.shape[:1 if self.per_step else 2]",
         tests=HEADS_NEW + HEADS_OLD,
         why="the regression head keeps the wrong number of leading axes of its targets: per step, (T,B,O) "
             "targets are reshaped to (T,O) (refused unless B is 1)"),
]
