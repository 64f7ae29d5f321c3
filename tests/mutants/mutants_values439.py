"""Planted bugs, round 439 (format: tests/mutants/mutants.py): the survivors of a ninth and a tenth random sample
(tests/mutants/random_sample.py --all-named --count 40) and their neighbours, thirty-fourth pass. Seed 9: 36 of 40
caught; of the 4 missed, 3 equivalent or near (a launched group of more than one process checked for size >= 1 after
size 1 has returned; the prewarm child's compile batch of 2 or 3 rows, one signature either way; the beam's root
looked up as an extension, found again where the trie's unset slots read 0) and 1 real. Seed 10: 33 of 40 caught; of
the 7 missed, 2 near or equivalent (data mnist --dest given a file: click's refusal or lnrnn's own line; a pen flag
read as >= 0.5 on pens that are 0 or 1) and 5 real, one of which (Numba's automatic reductions turned on in
config.PJIT) showed a real bug: PJIT's parallel options were a dict that Numba empties as it reads it, so no option
there held (fixed beside this round).

The planted bugs: check_stack's default stack of three layers (rnd9-05) or one; a lnrnn.jax call without a gradient
keeping the residuals no backward reads (rnd10-09), and a remat forward keeping them; lnrnn.read of no lines with a
beam asking for the longest of none (rnd10-16); every cell's kernels taken to drop padded steps themselves
(rnd10-25), and functional's mask applied to the BN cells only; the gathered rows of a group received into one
number per row (rnd10-39) and each rank's share counted in rows; PJIT's parallel options as a dict again, and
Numba's automatic reductions turned on (rnd10-34). 11 mutants. The old files named after each module (OLD_*) catch 2
of 11: the remat forward and the mask on the BN cells only. The allgather bugs were caught only by files about
distributed.py's Group named test_values<N>_group.py, now test_values<N>_distributed_group.py (NEW_DISTRIBUTED). The
new files alone catch 11 of 11, so NEW + OLD does too (not run separately).

    python tests/mutants/run.py --only 'v439-*'
"""
GRADCHECK = "lnrnn/gradcheck.py"
JAX = "lnrnn/interop/jax.py"
API = "lnrnn/api.py"
CELLS = "lnrnn/model/cells.py"
FUNCTIONAL = "lnrnn/model/functional.py"
DISTRIBUTED = "lnrnn/training/distributed.py"
CONFIG = "lnrnn/config.py"
NEW_GRADCHECK = ["tests/test_values439_gradcheck.py"]
NEW_JAX = ["tests/interop/test_values439_jax.py"]
NEW_API = ["tests/test_values439_api.py"]
NEW_CELLS = ["tests/model/test_values439_cells.py"]
NEW_CONFIG = ["tests/kernels/test_values439_config.py"]
# the files of distributed.py's Group, renamed after the module (they were test_values<N>_group.py)
NEW_DISTRIBUTED = ["tests/training/test_values124_distributed_group.py",
                   "tests/training/test_values138_distributed_group.py",
                   "tests/training/test_values165_distributed_group.py",
                   "tests/training/test_values202_distributed_group.py",
                   "tests/training/test_values217_distributed_group.py",
                   "tests/training/test_values230_distributed_one_group.py",
                   "tests/training/test_values239_distributed_group.py",
                   "tests/training/test_values260_distributed_group.py",
                   "tests/training/test_values279_distributed_group.py",
                   "tests/training/test_values316_distributed_group.py",
                   "tests/training/test_values345_distributed_group.py",
                   "tests/training/test_values370_distributed_group.py",
                   "tests/training/test_values70_distributed_group.py",
                   "tests/training/test_values90_distributed_group.py"]
# every file named after each module (pytest -k <name>, as random_sample.py --all-named judges)
OLD_GRADCHECK = ["tests/commands/test_values437_gradcheck.py", "tests/test_values118_gradcheck.py",
                 "tests/test_values184_gradcheck.py", "tests/test_values214_gradcheck_files.py",
                 "tests/test_values267_gradcheck.py", "tests/test_values27_gradcheck.py",
                 "tests/test_values281_gradcheck.py", "tests/test_values373_gradcheck.py",
                 "tests/test_values409_gradcheck_problems.py", "tests/test_values430_gradcheck.py",
                 "tests/test_values433_gradcheck.py", "tests/test_values435_gradcheck.py",
                 "tests/test_values83_gradcheck.py", "tests/test_values9_gradcheck.py",
                 "tests/test_values_gradcheck.py", "tests/commands/test_gradcheck_cli.py",
                 "tests/commands/test_values10_gradcheck.py", "tests/commands/test_values173_gradcheck_plan.py",
                 "tests/commands/test_values215_gradcheck.py", "tests/commands/test_values253_gradcheck.py",
                 "tests/commands/test_values281_gradcheck_cli.py",
                 "tests/commands/test_values37_predict_read_gradcheck.py",
                 "tests/commands/test_values96_gradcheck_plan.py"]
OLD_JAX = ["tests/interop/test_values23_jax.py", "tests/interop/test_values430_jax.py",
           "tests/interop/test_values78_jax.py", "tests/interop/test_jax_bidirectional.py",
           "tests/interop/test_jax_refusals_as_passed.py", "tests/interop/test_values107_jax.py",
           "tests/interop/test_values128_jax.py", "tests/interop/test_values140_jax.py",
           "tests/interop/test_values161_jax.py", "tests/interop/test_values196_jax.py",
           "tests/interop/test_values19_jax.py", "tests/interop/test_values216_jax.py",
           "tests/interop/test_values225_jax.py", "tests/interop/test_values241_jax.py",
           "tests/interop/test_values255_jax.py", "tests/interop/test_values273_jax.py",
           "tests/interop/test_values291_jax.py", "tests/interop/test_values298_jax.py",
           "tests/interop/test_values314_jax.py", "tests/interop/test_values340_jax.py",
           "tests/interop/test_values365_jax.py", "tests/interop/test_values41_jax.py",
           "tests/interop/test_values50_jax.py", "tests/interop/test_values86_jax.py"]
OLD_API = ["tests/test_values15_api.py", "tests/test_values46_api.py", "tests/test_values196_api.py",
           "tests/test_values392_api.py", "tests/commands/test_values277_api.py",
           "tests/commands/test_values305_api.py", "tests/test_values140_api.py", "tests/test_values161_api.py",
           "tests/test_values214_api.py", "tests/test_values234_api.py", "tests/test_values252_api.py",
           "tests/test_values27_api.py", "tests/test_values315_api.py", "tests/test_values343_api.py",
           "tests/test_values364_api.py", "tests/test_values50_api.py", "tests/test_values77_api.py",
           "tests/test_values83_api.py", "tests/test_values101_api.py", "tests/test_values10_api.py",
           "tests/test_values117_api.py", "tests/test_values392_api_read.py", "tests/test_values_api.py",
           "tests/test_values_api_read.py"]
OLD_CELLS = ["tests/model/test_values169_cells.py", "tests/model/test_values204_cells.py",
             "tests/model/test_values282_cells.py", "tests/model/test_values313_cells.py",
             "tests/model/test_values347_cells.py", "tests/model/test_values382_cells.py",
             "tests/model/test_values67_cells.py", "tests/kernels/test_bn_cells.py",
             "tests/kernels/test_values11_bn_cells.py", "tests/kernels/test_values154_bn_cells.py",
             "tests/kernels/test_values177_bn_cells.py", "tests/kernels/test_values201_bn_cells.py",
             "tests/kernels/test_values22_bn_cells.py", "tests/kernels/test_values296_bn_cells.py",
             "tests/kernels/test_values338_bn_cells.py", "tests/model/test_values13_cells.py",
             "tests/model/test_values88_cells.py", "tests/test_values150_reference_cells.py",
             "tests/test_values176_reference_cells.py", "tests/test_values191_reference_cells.py",
             "tests/test_values288_reference_cells.py", "tests/test_values304_reference_cells.py",
             "tests/test_values330_reference_cells.py", "tests/test_values355_reference_cells.py"]
OLD_FUNCTIONAL = ["tests/model/test_values51_functional.py", "tests/model/test_functional.py",
                  "tests/model/test_values13_functional.py", "tests/model/test_values148_functional.py",
                  "tests/model/test_values169_functional.py", "tests/model/test_values16_functional.py",
                  "tests/model/test_values204_functional.py", "tests/model/test_values22_functional.py",
                  "tests/model/test_values234_functional.py", "tests/model/test_values252_functional.py",
                  "tests/model/test_values310_functional.py", "tests/model/test_values343_functional.py",
                  "tests/model/test_values364_functional.py", "tests/model/test_values384_functional.py",
                  "tests/model/test_values438_functional.py", "tests/model/test_values77_functional.py"]
OLD_DISTRIBUTED = ["tests/training/test_values_distributed_options.py",
                   "tests/training/test_values_distributed_options2.py",
                   "tests/training/test_values114_distributed.py", "tests/training/test_values16_distributed.py",
                   "tests/training/test_values20_distributed.py", "tests/training/test_values21_distributed.py",
                   "tests/training/test_values33_distributed.py"]
OLD_CONFIG = ["tests/test_values186_config.py", "tests/test_values_config.py",
              "tests/training/test_values283_runconfig.py", "tests/commands/test_cli_train_config.py",
              "tests/commands/test_values142_runconfig.py", "tests/commands/test_values236_runconfig.py",
              "tests/commands/test_values421_config_numbers.py", "tests/commands/test_values426_runconfig.py",
              "tests/training/test_values102_runconfig.py", "tests/training/test_values122_runconfig.py",
              "tests/training/test_values13_runconfig.py", "tests/training/test_values209_runconfig.py",
              "tests/training/test_values266_runconfig.py", "tests/training/test_values321_runconfig.py",
              "tests/training/test_values348_runconfig.py", "tests/training/test_values371_runconfig_setup.py",
              "tests/training/test_values427_runconfig.py", "tests/training/test_values_runconfig.py"]

STACK = "def check_stack(cell, norm, T=5, B=3, I=3, H=4, num_layers=2, training=True, seed=0, max_elems=40,"
PRIMAL = "y, final, _, new_bufs = _forward_call(cfg, False, x, state, p, lengths, bufs)  # no backward follows"
FWD = "y, final, res, new_bufs = _forward_call(cfg, not cfg.remat, x, state, p, lengths, bufs)"
BEAM = "if beam > 1 and lines:  # the longest line's search, before any is read"
MASKED_DEFAULT = "masked_kernel: bool = False  # the kernels take lengths (BN statistics must count running rows only)"
MASKED = "masked = lengths is not None and not spec.masked_kernel"
GATHERED = "out = np.empty((int(sum(counts)),) + rows.shape[1:], rows.dtype)"
OPTIONS = "parallel=ParallelOptions(dict(PARALLEL))"
REDUCTION = "comprehension=False, reduction=False"
GATHER = "self.comm.Allgatherv(np.ascontiguousarray(rows), [out, [int(c) * width for c in counts]])"

MUTANTS = [
    dict(name="v439-check-stack-three-layers", file=GRADCHECK, old=STACK,
         new=STACK.replace("num_layers=2", "num_layers=3"), tests=NEW_GRADCHECK + OLD_GRADCHECK,
         why="check_stack's default stack has three layers (the sample's rnd9-05)"),
    dict(name="v439-check-stack-one-layer", file=GRADCHECK, old=STACK,
         new=STACK.replace("num_layers=2", "num_layers=1"), tests=NEW_GRADCHECK + OLD_GRADCHECK,
         why="check_stack's default checks one layer: no multi-layer check by default"),
    dict(name="v439-jax-call-without-gradient-keeps", file=JAX, old=PRIMAL,
         new=PRIMAL.replace("cfg, False", "cfg, True"), tests=NEW_JAX + OLD_JAX,
         why="a call without a gradient keeps the residuals no backward reads (rnd10-09)"),
    dict(name="v439-jax-remat-forward-keeps", file=JAX, old=FWD, new=FWD.replace("not cfg.remat", "True"),
         tests=NEW_JAX + OLD_JAX, why="with remat the differentiated forward keeps its residuals all the same"),
    dict(name="v439-read-beam-check-without-lines", file=API, old=BEAM, new=BEAM.replace("and lines", "or lines"),
         tests=NEW_API + OLD_API,
         why="reading no lines with a beam asks for the longest of none: a traceback (rnd10-16)"),
    dict(name="v439-cells-kernels-take-lengths-by-default", file=CELLS, old=MASKED_DEFAULT,
         new=MASKED_DEFAULT.replace("= False", "= True"), tests=NEW_CELLS + OLD_CELLS,
         why="every cell is taken to drop padded steps in its kernels: the plain and LN cells' padded dL/dy is kept "
             "(rnd10-25)"),
    dict(name="v439-functional-masks-the-masked-kernels-only", file=FUNCTIONAL, old=MASKED,
         new=MASKED.replace("not spec.masked_kernel", "spec.masked_kernel"), tests=NEW_CELLS + OLD_FUNCTIONAL,
         why="padded steps' dL/dy is dropped for the BN cells (which drop it themselves), kept for the others"),
    dict(name="v439-allgather-rows-lose-their-width", file=DISTRIBUTED, old=GATHERED,
         new=GATHERED.replace("rows.shape[1:]", "rows.shape[2:]"), tests=NEW_DISTRIBUTED + OLD_DISTRIBUTED,
         why="the gathered rows of every rank are received into a buffer of one number per row (rnd10-39)"),
    dict(name="v439-allgather-counts-rows-not-numbers", file=DISTRIBUTED, old=GATHER,
         new=GATHER.replace("int(c) * width", "int(c)"), tests=NEW_DISTRIBUTED + OLD_DISTRIBUTED,
         why="each rank's share of the gather is counted in rows where MPI counts numbers"),
    dict(name="v439-config-parallel-options-as-a-dict", file=CONFIG, old=OPTIONS, new="parallel=dict(PARALLEL)",
         tests=NEW_CONFIG + OLD_CONFIG,
         why="the prange kernels' parallel options as a dict, which Numba empties at the first compilation"),
    dict(name="v439-config-automatic-reductions", file=CONFIG, old=REDUCTION,
         new=REDUCTION.replace("reduction=False", "reduction=True"), tests=NEW_CONFIG + OLD_CONFIG,
         why="NumPy reductions in the prange kernels become parallel loops of their own (the sample's rnd10-34)"),
]
