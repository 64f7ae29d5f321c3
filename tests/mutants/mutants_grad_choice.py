"""Planted bugs (format: tests/mutants/mutants.py): where the weight gradients whose partials stay in L2 take
their blocks (blas.GRAD): measured by rec_choice.measure_dwh with within_l2, decided by decide_grad, read from the
host's record by recorded_grad, overridden by the environment in blas._choose_grad, and followed by dwh_blocks,
grad_blocks, the LSTM backward and lnrnn info.

The planted bugs: the noise band's bounds open, its tie by CPU kind swapped, the measured side swapped, not measured
taken as the BLAS; the BLAS's blocks measured as rgemm's, the shapes swapped, the measurement asked for the large
partials; a record's missing ratio read as a number, no record read as slow; the override, the environment's
choice and the CPU kind wrong in _choose_grad; grad ignored by dwh_blocks and grad_blocks (their calls of
grad_products) and by grad_products itself, not passed by the LSTM backward; info naming the other product. 17
mutants: NEW + OLD catch 17; the new file alone 17 (14 of the first 16 at first: the measurement asking for the large
partials' ratio twice and info's wording had no test there, now added; grad_products' own, added with the helper,
caught); the old files alone 3 of the first 16 (the shapes swapped, the large partials' ratio asked for twice, info's
wording).

    python tests/mutants/run.py --only 'grad-*'
"""
RC = "lnrnn/kernels/cpu/rec_choice.py"
BLAS = "lnrnn/kernels/cpu/blas.py"
NEW = ["tests/kernels/test_grad_choice.py"]
OLD = ["tests/kernels/test_rec_choice.py", "tests/kernels/test_values27_rec_choice.py",
       "tests/kernels/test_values71_rec_choice.py", "tests/kernels/test_values117_rec_choice.py",
       "tests/kernels/test_values141_rec_choice.py", "tests/kernels/test_values141_blas_choice.py",
       "tests/kernels/test_values178_rec_choice.py", "tests/kernels/test_values284_rec_choice.py",
       "tests/kernels/test_values325_rec_choice.py", "tests/kernels/test_values351_rec_choice.py",
       "tests/kernels/test_values_blas.py", "tests/kernels/test_values197_blas.py",
       "tests/kernels/test_values254_blas_threads.py", "tests/kernels/test_gemm.py",
       "tests/kernels/test_values178_gemm.py",
       "tests/kernels/test_values106_rgemm.py", "tests/kernels/test_values106_lstm.py",
       "tests/kernels/test_values72_lstm.py", "tests/commands/test_values_info.py",
       "tests/commands/test_values271_options_info.py", "tests/commands/test_values325_info.py",
       "tests/commands/test_values173_info_data.py"]
TESTS = NEW + OLD
BAND = "    if RGEMM_BELOW <= ratio <= BLAS_ABOVE:"
TIE = '        tie = "rgemm" if avx512 else "blas"'
SIDE = '    return ("blas" if ratio > BLAS_ABOVE else "rgemm"), why'
UNMEASURED = '        return "rgemm", why'
BLAS_BLOCKS = ('        nb, _ = blas.dwh_blocks(H, 0, m, R // m, 4, "blas" if within_l2 else "rgemm", "blas")'
               "  # the BLAS's")
SHAPES = "    for H, m, R in (GRAD_SHAPES if within_l2 else DWH_SHAPES):"
ASKED = "    grad_rows, grad_ratio = measure_dwh(blas, within_l2=True)"
NUMBER = "            return decide_grad(ratio if isinstance(ratio, (int, float)) else None, rec, avx512)"
NO_RECORD = "    return decide_grad(None, rec, avx512)"
OVERRIDE = '        return asked, f"LNRNN_GRAD_GEMM={asked} asks for it"'
ENV = '    if os.environ.get("LNRNN_REC_GEMM", "").strip().lower() in ("rgemm", "blas"):'
KIND = "    return rec_choice.recorded_grad(_blas_name(have_mkl), _cpu_key(), rec, rg.AVX512)"
FOLLOW = '    rec, big = grad_products(rec, dwh, grad)'
GRAD_BLOCKS = '    rec, big = grad_products(REC, DWH, GRAD)'
LSTM = "    nb, tw = dwh_blocks(H, 0 if fold else I, m, T, dt.itemsize, REC, DWH, GRAD)"
INFO = "        f\"{'on rgemm' if GRAD == 'rgemm' else 'on the BLAS, as every weight gradient'}: {GRAD_WHY}\","

MUTANTS = [
    dict(name="grad-band-open", file=RC, old=BAND, new="    if RGEMM_BELOW < ratio < BLAS_ABOVE:", tests=TESTS,
         why="a ratio at the noise band's bounds decided as if measured outside it"),
    dict(name="grad-tie-swapped", file=RC, old=TIE, new=TIE.replace('"rgemm" if', '"blas" if').replace(
        'else "blas"', 'else "rgemm"'), tests=TESTS, why="a tie goes to rgemm's 256-bit tile, the BLAS with AVX-512"),
    dict(name="grad-side-swapped", file=RC, old=SIDE, new=SIDE.replace('("blas" if', '("rgemm" if').replace(
        'else "rgemm")', 'else "blas")'), tests=TESTS, why="the slower product chosen outside the band"),
    dict(name="grad-unmeasured-blas", file=RC, old=UNMEASURED, new='        return "blas", why',
         tests=TESTS, why="with no measurement every host's blocks leave rgemm, as none did before"),
    dict(name="grad-blas-blocks-are-rgemms", file=RC, old=BLAS_BLOCKS, new=BLAS_BLOCKS.replace('"blas" if',
         '"rgemm" if'), tests=TESTS, why="the BLAS timed in rgemm's small blocks, not its own"),
    dict(name="grad-shapes-swapped", file=RC, old=SHAPES,
         new="    for H, m, R in (DWH_SHAPES if within_l2 else GRAD_SHAPES):", tests=TESTS,
         why="the large partials measured for the L2 choice and the other way round"),
    dict(name="grad-measure-asks-large", file=RC, old=ASKED, new=ASKED.replace("True", "False"), tests=TESTS,
         why="the record's ratio within L2 is the large partials' one"),
    dict(name="grad-missing-ratio-a-number", file=RC, old=NUMBER, new=NUMBER.replace("else None", "else 1.0"),
         tests=TESTS, why="a record without a ratio within L2 decided as a tie"),
    dict(name="grad-no-record-slow", file=RC, old=NO_RECORD, new="    return decide_grad(2.0, rec, avx512)",
         tests=TESTS, why="no record read as rgemm measured slow"),
    dict(name="grad-override-ignored", file=BLAS, old=OVERRIDE, new=OVERRIDE.replace("return asked,",
         'return "rgemm",'), tests=TESTS, why="LNRNN_GRAD_GEMM=blas gives rgemm"),
    dict(name="grad-env-choice-measured", file=BLAS, old=ENV, new=ENV.replace("LNRNN_REC_GEMM", "LNRNN_BLAS"),
         tests=TESTS, why="a per-step product chosen by the environment reads a record it never measured"),
    dict(name="grad-cpu-kind-negated", file=BLAS, old=KIND, new=KIND.replace("rec, rg.AVX512)", "rec, not rg.AVX512)"),
         tests=TESTS, why="a tie decided by the other CPU kind"),
    dict(name="grad-dwh-blocks-ignore-grad", file=BLAS, old=FOLLOW, new=FOLLOW.replace("grad)", '"rgemm")'),
         tests=TESTS,
         why="the LSTM backward's blocks stay on rgemm whatever was measured"),
    dict(name="grad-grad-blocks-ignore-grad", file=BLAS, old=GRAD_BLOCKS, new=GRAD_BLOCKS.replace("GRAD)", '"rgemm")'),
         tests=TESTS,
         why="the RNN, BN and window cells' weight gradients stay on rgemm whatever was measured"),
    dict(name="grad-products-ignore-grad", file=BLAS, old='    rec = rec if grad == "rgemm" else "blas"',
         new="    rec = rec", tests=TESTS,
         why="every weight gradient's blocks follow the per-step product, measured or not"),
    dict(name="grad-lstm-drops-grad", file="lnrnn/kernels/lstm.py", old=LSTM, new=LSTM.replace(", GRAD)", ")"),
         tests=TESTS, why="the LSTM backward never asks for the measured choice"),
    dict(name="grad-info-other-product", file="lnrnn/commands/info.py", old=INFO,
         new=INFO.replace("if GRAD == 'rgemm'", "if GRAD != 'rgemm'"), tests=TESTS,
         why="lnrnn info names the product the weight gradients do not run on"),
]
