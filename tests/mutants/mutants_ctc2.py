"""Planted bugs in the CPU CTC kernel's rescaled recursion (lnrnn/kernels/ctc.py: the live band, the drop
bound and the log-space fallback, the per-step sums, the shared softmax) (format: tests/mutants/mutants.py).

    python tests/mutants/run.py --only 'ctc2-*'
"""

K = "lnrnn/kernels/ctc.py"
T = "tests/kernels/test_ctc.py"
KERNEL = f"{T}::test_kernel_equals_reference_and_torch"
FALLBACK = f"{T}::test_kernel_falls_back_to_log_space_where_paths_drop"
LONG = f"{T}::test_kernel_float32_stays_near_float64_on_long_rows"

MUTANTS = [
    dict(name="ctc2-band-lower-too-high", file=K,
         old="    return max(0, Sb - 2 * (Tb - t)), min(Sb, 2 * t + 2)",
         new="    return max(0, Sb - 2 * (Tb - t) + 1), min(Sb, 2 * t + 2)",
         tests=[KERNEL],
         why="the band drops a position that can still reach the end (paths finishing on the last step's skip)"),
    dict(name="ctc2-band-upper-too-low", file=K,
         old="    return max(0, Sb - 2 * (Tb - t)), min(Sb, 2 * t + 2)",
         new="    return max(0, Sb - 2 * (Tb - t)), min(Sb, 2 * t + 1)",
         tests=[KERNEL],
         why="the band leaves out the label position step t can first reach"),
    dict(name="ctc2-forward-never-falls-back", file=K,
         old="            if not exact:\n                logspace[b] = True",
         new="            if False:\n                logspace[b] = True",
         tests=[FALLBACK],
         why="a row whose dropped paths outweigh p keeps the rescaled (too small) p"),
    dict(name="ctc2-forward-drop-bound-ignored", file=K,
         old="    return la, ldrop - la <= _LOG_DROP - np.log(Sb * Tb)",
         new="    return la, True",
         tests=[FALLBACK],
         why="the forward calls a row exact whatever share of p its dropped paths may hold"),
    dict(name="ctc2-drops-not-counted", file=K,
         old="        nd += (inc > 0.0) & (v < TINY)",
         new="        nd += (inc > 0.0) & (v < 0.0)",
         tests=[FALLBACK],
         why="alpha's underflowing positions are not seen as dropped paths"),
    dict(name="ctc2-backward-fallback-reads-scaled-alpha", file=K,
         old="                    _row_forward_log(logp[:, b, :], ext[k], skl[k], Tb, Sb, al, em[k], pa[k], pb[k])\n",
         new="                    pass\n",
         tests=[FALLBACK],
         why="the backward's log-space path reads the saved rescaled alpha as if it were log alpha"),
    dict(name="ctc2-posterior-not-normalized", file=K,
         old="    r = 1.0 / z\n",
         new="    r = 1.0\n",
         tests=[KERNEL],
         why="the posteriors are alpha beta over their scales, not over the step's sum"),
    dict(name="ctc2-beta-emission-of-step-t", file=K,
         old="nd = _beta_emit(bn[lo1:], bt[lo1:], y[t + 1], ext[lo1:], em, hi1 - lo1)",
         new="nd = _beta_emit(bn[lo1:], bt[lo1:], y[t], ext[lo1:], em, hi1 - lo1)",
         tests=[KERNEL],
         why="beta[t] takes the emissions of step t (its own) instead of step t+1"),
    dict(name="ctc2-rescale-lost-from-logz", file=K,
         old="            la += np.log(c)\n            c = 1.0",
         new="            c = 1.0",
         tests=[LONG],
         why="alpha divided by a step's sum without adding its log to log p (only rows long enough to rescale)"),
    dict(name="ctc2-logp-unshifted", file=K,
         old="        lp[c] = (float(x[c]) - m) - lz",
         new="        lp[c] = float(x[c]) - lz",
         tests=[KERNEL],
         why="the saved log-softmax (the head's logp, the log-space path's emissions) misses the max's shift"),
]
