"""Planted bugs, round 390 (format: tests/mutants/mutants.py): single-line slips in the CPU CTC kernel
(lnrnn/kernels/ctc.py), twentieth pass, planted before any test was written for them: exp's Taylor coefficient 1/12!
written tenfold; the low part of k log 2 added instead of subtracted; log u taken as atanh(q) instead of 2 atanh(q);
the atanh series' 1/9 written 1/8; the log-sum-exp's shift ignoring its third term; three -inf terms no longer giving
-inf; the log-softmax adding log z; the log-space backward's floor the smallest positive number; the log-space
backward run for the wrong rows. 9 mutants. Against the old targeted files alone (the 18 CPU CTC files of
tests/kernels listed in OLD): 8 of 9 caught; missed: exp's coefficient (a relative error near 5e-14, far inside every
loss test's tolerance). test_values390_ctc catches it (and 4 of 9 alone): _exp against NumPy within 2 ulp on [-1, 1]
and 16 ulp down to -60, 0 below -708; _log13 within 2 ulp on [1, 3] on both sides of sqrt(2). Left out:
_row_forward_log's answer for an empty input with an empty label written for Sb == 0 (the kernel answers a row with
no steps before it could reach the log-space path: equivalent through ctc_forward); the limit on dropped paths
loosened from 1e-17 to 1e-7 of p (a rescaled forward's values below TINY are still carried unless they underflow, and
no input was constructed here where a truly lost path holds more than 1e-17 of p: not measured, so not in the
catalogue).

    python tests/mutants/run.py --only 'v390-*'
"""
CTC = "lnrnn/kernels/ctc.py"
NEW = ["tests/kernels/test_values390_ctc.py"]
OLD = [
    "tests/kernels/test_ctc.py",
    "tests/kernels/test_values105_ctc.py",
    "tests/kernels/test_values137_ctc.py",
    "tests/kernels/test_values166_ctc.py",
    "tests/kernels/test_values199_ctc.py",
    "tests/kernels/test_values223_ctc.py",
    "tests/kernels/test_values250_ctc.py",
    "tests/kernels/test_values261_ctc.py",
    "tests/kernels/test_values26_ctc.py",
    "tests/kernels/test_values285_ctc.py",
    "tests/kernels/test_values303_ctc.py",
    "tests/kernels/test_values320_ctc.py",
    "tests/kernels/test_values342_ctc.py",
    "tests/kernels/test_values35_ctc.py",
    "tests/kernels/test_values368_ctc.py",
    "tests/kernels/test_values48_ctc.py",
    "tests/kernels/test_values62_ctc.py",
    "tests/kernels/test_values87_ctc.py",
]

MUTANTS = [
    dict(name="v390-ctc-exp-coefficient-typo", file=CTC,
         old='2.08767569878681e-09',
         new='2.08767569878681e-08',
         tests=NEW + OLD,
         why="exp's Taylor coefficient 1/12! written tenfold"),
    dict(name="v390-ctc-exp-ln2-low-sign", file=CTC,
         old='    r = (y - k * _LN2_HI) - k * _LN2_LO',
         new='    r = (y - k * _LN2_HI) + k * _LN2_LO',
         tests=NEW + OLD,
         why='the low part of k log 2 added instead of subtracted (exp off by 2k * 1.9e-10 relative)'),
    dict(name="v390-ctc-log13-atanh-factor", file=CTC,
         old='(e * _LN2_LO + 2.0 * q * p)',
         new='(e * _LN2_LO + q * p)',
         tests=NEW + OLD,
         why='log u taken as atanh(q) instead of 2 atanh(q)'),
    dict(name="v390-ctc-log13-coefficient-typo", file=CTC,
         old='1.0 / 9) * q2',
         new='1.0 / 8) * q2',
         tests=NEW + OLD,
         why="the atanh series' 1/9 written 1/8"),
    dict(name="v390-ctc-lse3-drops-x2", file=CTC,
         old='    m = float(max(max(x0, x1), max(x2, low)))',
         new='    m = float(max(max(x0, x1), low))',
         tests=NEW + OLD,
         why="the log-sum-exp's shift ignores its third term (the skip)"),
    dict(name="v390-ctc-lse3-all-inf", file=CTC,
         old='    return m + _log13(z) if m > low else -np.inf',
         new='    return m + _log13(z) if m >= low else -np.inf',
         tests=NEW + OLD,
         why='three -inf terms no longer give -inf'),
    dict(name="v390-ctc-softmax-lz-sign", file=CTC,
         old='        lp[c] = (float(x[c]) - m) - lz',
         new='        lp[c] = (float(x[c]) - m) + lz',
         tests=NEW + OLD,
         why='the log-softmax adds log z instead of subtracting it'),
    dict(name="v390-ctc-log-backward-low-tiny", file=CTC,
         old='    ninf, low = dt(-np.inf), dt(np.finfo(lp.dtype).min)\n    C = lp.shape[1]',
         new='    ninf, low = dt(-np.inf), dt(np.finfo(lp.dtype).tiny)\n    C = lp.shape[1]',
         tests=NEW + OLD,
         why="the log-space backward's floor the smallest positive number instead of the lowest finite one"),
    dict(name="v390-ctc-log-backward-when-exact", file=CTC,
         old='            if not exact:\n                _row_backward_log',
         new='            if exact:\n                _row_backward_log',
         tests=NEW + OLD,
         why='the log-space backward run for rows the rescaled backward served, skipped for those it could not'),
]
