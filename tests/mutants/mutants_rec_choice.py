"""Planted bugs in the measured choice of the per-step product (lnrnn/kernels/cpu/rec_choice.py and its
caller in blas.py), each caught by tests/kernels/test_rec_choice.py or tests/kernels/test_cache_blas.py
(format: tests/mutants/mutants.py).

    python tests/mutants/run.py --only 'rec-choice-*'
"""

REC = "tests/kernels/test_rec_choice.py"
CACHE = "tests/kernels/test_cache_blas.py"
FILE = "lnrnn/kernels/cpu/rec_choice.py"
BLAS = "lnrnn/kernels/cpu/blas.py"

MUTANTS = [
    dict(name="rec-choice-margin-sides-swapped", file=FILE,
         old="    if ratio < RGEMM_BELOW:\n",
         new="    if ratio > RGEMM_BELOW:\n",
         tests=[REC],
         why="rgemm is chosen where it is slower"),
    dict(name="rec-choice-level-goes-to-rgemm", file=FILE,
         old='    return rule[0], f"{measured}, level within noise, so by CPU kind: {rule[1]}"\n',
         new='    return "rgemm", f"{measured}, level within noise, so by CPU kind: {rule[1]}"\n',
         tests=[REC],
         why="a measurement within noise flips the choice instead of keeping the rule by CPU kind"),
    dict(name="rec-choice-key-ignores-the-blas", file=FILE,
         old="    for part in (str(cpu), str(blas_name), sys.version.split()[0]):\n",
         new="    for part in (str(cpu), sys.version.split()[0]):\n",
         tests=[REC],
         why="a record measured against MKL is read where np.dot runs"),
    dict(name="rec-choice-record-key-not-checked", file=FILE,
         old='    ok = isinstance(rec, dict) and rec.get("key") == key and isinstance(rec.get("ratio"), (int, float))\n',
         new='    ok = isinstance(rec, dict) and isinstance(rec.get("ratio"), (int, float))\n',
         tests=[REC],
         why="a record of another host or BLAS is trusted"),
    dict(name="rec-choice-no-second-look-under-the-lock", file=FILE,
         old="            rec = read_record(path, key)             # another process may have measured while we waited\n",
         new="            rec = None\n",
         tests=[REC],
         why="processes that start together each measure, and may choose differently"),
    dict(name="rec-choice-numpy-blas-measured", file=BLAS,
         old='    if os.environ.get("LNRNN_BLAS", "").lower() == "numpy":\n        return "blas", "LNRNN_BLAS=numpy asks for np.dot" + note\n    blas_name',
         new='    blas_name',
         tests=[CACHE],
         why="LNRNN_BLAS=numpy no longer keeps np.dot for the per-step products"),
]
