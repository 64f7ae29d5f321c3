"""Planted bugs, round 155 (format: tests/mutants/mutants.py): single-line slips in BatchNorm over time, LayerNorm,
the masks and the CPU row helpers, a sixth pass on lines no earlier round mutates: a step with one valid row
taken for an empty one, the unmasked variance one row short, the masked mean divided by B instead of the valid
count, the backward's dy * xhat sum without the mean, batchnorm_forward_train and batchnorm_backward not passing
lengths on; layernorm_forward's chunks one row short; ln_row_forward dividing by rstd, ln_row_backward's mean
term summing xhat, input_row_grads adding into dx instead of assigning it; the float32 sigmoid's low part of
ln 2 with the wrong sign and its size check swapped (float64 through the polynomial); as_lengths(None) one step
short and its range message giving B as the bound.

14 mutants. Against the existing targeted tests alone 13 were caught and 1 missed: the range message naming B
(no old test reads the message's bound). The new value tests catch every mutant on their own (checked with the
old tests taken off the lists): test_values155_batchnorm (forward, statistics and running rows against a
per-element computation in Python floats over the valid rows only, lengths (3, 1, 0, 2) with an empty row, a
one-step row and a step of one row, float64 and float32; the full batch without lengths for B = 1, 2, 5; the
backward against central differences of the loss over the valid pairs, padded rows' dx exactly 0),
test_values155_layernorm_rows (LayerNorm per element with the biased variance and eps inside the root for
1, 2, 3 and more chunks than rows; its backward and the row backward against central differences; the row
backward's terms summed by hand; input_row_grads against its sums with dx holding 7 before),
test_values155_sigmoid_rows (float64 rows against math.exp to 1e-14 from -700 to 700; float32 rows to a
relative 1e-6 from -87 to 87, at 0, subnormal arguments, and the clamp beyond +-87), test_values155_masks
(step_mask by definition for lengths 0, 1, T - 1 and T; None; the bounds in the messages with T != B).
Dropped as equivalent: _EXP_MIN at -88 (2^-127 assembles to 0 and the sigmoid is 1 in float32 either way);
layernorm_forward passing the float64 eps to the row (a float32 row's rstd then differs by an ulp at most,
below any tolerance a test could fairly hold); as_lengths returning arr without the int64 cast (integer lengths compare the same in the
kernels). Left out: as_lengths(lengths, B, T) in bn_forward and Ts read from running_mean.shape[1] (both read
or write past an array's end with bounds checks off: a crash or silence, not a test result).

    python tests/mutants/run.py --only 'v155-*'
"""
BN = "lnrnn/kernels/batchnorm.py"
LN = "lnrnn/kernels/layernorm.py"
MASKS = "lnrnn/kernels/masks.py"
ROWS = "lnrnn/kernels/cpu/rows.py"

# existing tests of these modules
BN_OLD = ["tests/kernels/test_batchnorm.py", "tests/kernels/test_values31_batchnorm.py",
          "tests/kernels/test_values45_batchnorm.py", "tests/kernels/test_values65_batchnorm.py",
          "tests/kernels/test_values93_batchnorm.py"]
LN_OLD = ["tests/kernels/test_values_layernorm.py", "tests/kernels/test_values67_layernorm.py",
          "tests/kernels/test_values94_layernorm.py"]
ROWS_OLD = ["tests/kernels/test_values45_rows.py", "tests/kernels/test_values94_rows.py",
            "tests/kernels/test_kernels.py"]
MASKS_OLD = ["tests/kernels/test_values_masks.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
BN_NEW = ["tests/kernels/test_values155_batchnorm.py"]
LN_NEW = ["tests/kernels/test_values155_layernorm_rows.py"]
ROWS_NEW = ["tests/kernels/test_values155_layernorm_rows.py"]
SIG_NEW = ["tests/kernels/test_values155_sigmoid_rows.py"]
MASKS_NEW = ["tests/kernels/test_values155_masks.py"]

MUTANTS = [
    # ---- BatchNorm: statistics of a step's valid rows, the backward's xhat, the public ops' lengths ----
    dict(name="v155-bn-one-row-step-as-empty", file=BN,
         old="    if n == 0:  # no row runs",
         new="    if n <= 1:  # no row runs",
         tests=BN_NEW + BN_OLD,
         why="a step with one active row is treated like an empty one: mean 0, rstd 1/sqrt(eps) and its "
             "running row left alone, where its statistics are that row's value and a variance of 0"),
    dict(name="v155-bn-unmasked-variance-drops-last-row", file=BN,
         old="        for b in range(B):  # two-pass variance",
         new="        for b in range(B - 1):  # two-pass variance",
         tests=BN_NEW + BN_OLD,
         why="without masks the variance's second pass stops one row short: the last row's squared "
             "deviation is missing from var, rstd and the running variance"),
    dict(name="v155-bn-masked-mean-over-whole-batch", file=BN,
         old="        for k in range(w):\n            m_[k] *= inv_n\n        r1 = 0",
         new="        for k in range(w):\n            m_[k] *= one / dt(B)\n        r1 = 0",
         tests=BN_NEW + BN_OLD,
         why="with padded rows the mean divides the active rows' sum by the batch size B instead of the "
             "count of active rows"),
    dict(name="v155-bn-backward-s2-xhat-without-mean", file=BN,
         old="                xhat = (xr[k] - m_[k]) * r_[k]\n                s1_[k] += dr[k]",
         new="                xhat = xr[k] * r_[k]\n                s1_[k] += dr[k]",
         tests=BN_NEW + BN_OLD,
         why="the backward's sum of dy * xhat (dgain, and the xhat term of dx) forgets to subtract the mean"),
    dict(name="v155-bn-train-drops-lengths", file=BN,
         old="    return bn_forward(x, gain, bias, running_mean, running_var, True, momentum, eps, lengths)",
         new="    return bn_forward(x, gain, bias, running_mean, running_var, True, momentum, eps)",
         tests=BN_NEW + BN_OLD,
         why="batchnorm_forward_train does not pass lengths on: padded rows enter the statistics"),
    dict(name="v155-bn-backward-drops-lengths", file=BN,
         old="    return bn_backward(dy, x, mean, rstd, gain, True, lengths)",
         new="    return bn_backward(dy, x, mean, rstd, gain, True)",
         tests=BN_NEW + BN_OLD,
         why="batchnorm_backward does not pass lengths on: padded rows' dy reach dgain, dbias and dx, and "
             "their dx is not zero"),
    # ---- LayerNorm op and the row LayerNorm ----
    dict(name="v155-ln-forward-chunk-last-row-skipped", file=LN,
         old="        for r in range(lo, hi):\n            mean[r], rstd[r]",
         new="        for r in range(lo, hi - 1):\n            mean[r], rstd[r]",
         tests=LN_NEW + LN_OLD,
         why="each row chunk of layernorm_forward stops one row short: that row's y, mean and rstd are "
             "left as np.empty found them"),
    dict(name="v155-rows-ln-forward-divides-by-rstd", file=ROWS,
         old="        xhat[j] = (x[j] - m) * rstd",
         new="        xhat[j] = (x[j] - m) / rstd",
         tests=ROWS_NEW + ROWS_OLD + LN_OLD,
         why="ln_row_forward divides by rstd as if it held the standard deviation"),
    dict(name="v155-rows-ln-backward-s1-of-xhat", file=ROWS,
         old="        s1 += dxhat[j]\n",
         new="        s1 += xhat[j]\n",
         tests=ROWS_NEW + ROWS_OLD + LN_OLD,
         why="ln_row_backward's mean term sums xhat (about 0) instead of dxhat: dx keeps the mean of dxhat"),
    dict(name="v155-rows-input-grads-dx-accumulates", file=ROWS,
         old="        dx[i] = s\n",
         new="        dx[i] += s\n",
         tests=ROWS_NEW + ROWS_OLD,
         why="input_row_grads adds the activation gradient into dx instead of assigning it"),
    # ---- the float32 sigmoid row ----
    dict(name="v155-sigmoid-ln2-lo-sign", file=ROWS,
         old="_LN2_LO = np.float32(-2.12194440e-4)",
         new="_LN2_LO = np.float32(2.12194440e-4)",
         tests=SIG_NEW + ROWS_OLD,
         why="the low part of ln 2 in the Cody-Waite reduction has the wrong sign: r is off by 2 k 2.1e-4, "
             "exp(-a) off by a factor exp(4.2e-4 k), a few percent in the tails"),
    dict(name="v155-sigmoid-size-check-swapped", file=ROWS,
         old="    if a.itemsize != 4:",
         new="    if a.itemsize != 8:",
         tests=SIG_NEW + ROWS_OLD,
         why="float64 rows take the float32 polynomial (errors ~1e-7) and float32 rows libm"),
    # ---- masks ----
    dict(name="v155-masks-none-one-step-short", file=MASKS,
         old="        return np.full(B, T, dtype=np.int64)",
         new="        return np.full(B, T - 1, dtype=np.int64)",
         tests=MASKS_NEW + MASKS_OLD + BN_OLD,
         why="lengths=None makes every row stop before the last step, which is then empty"),
    dict(name="v155-masks-range-message-names-B", file=MASKS,
         old="[0, T] = [0, {T}], got",
         new="[0, T] = [0, {B}], got",
         tests=MASKS_NEW + MASKS_OLD,
         why="the out-of-range message gives the batch size as the upper bound of lengths"),
]
