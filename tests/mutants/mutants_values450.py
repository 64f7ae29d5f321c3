"""Planted bugs, round 450 (format: tests/mutants/mutants.py): the real survivors of a twenty-fifth random sample
(tests/mutants/random_sample.py --seed 25 --count 40 --all-named, on 049c64c with round 448's and 449's tests: 35 of
40 caught) and their neighbours, forty-fifth pass.

Seed 25's 5 missed: 1 equivalent (rnd25-00: the JAX binding's _stat_names defaulting to two directions, a default
every caller overrides), 1 CUDA-only line caught by the CUDA head files (rnd25-10: the mixture density head's device
targets swapped on the wrong axes), 3 real: cuda_usable calling CUDA usable where numba.cuda failed to import
(rnd25-04: no test broke the import), the torch cells keeping activations whenever gradients are enabled or
something wants one (rnd25-05: the same outputs; nothing watched what a no_grad forward keeps), and
require_predictable sending every head with a scale but the reader's to lnrnn read (rnd25-28: the reader refusal was
tested through the command only, named after predict).

The planted bugs: cuda_usable calling a failed import usable, and letting it escape; the torch cells keeping
activations under no_grad and ignoring a state that wants a gradient; the stacks keeping them for frozen weights and
inputs, and ignoring an input that wants a gradient; require_predictable's reader test inverted and asking for no
scale. 8 mutants. The old files named after the modules (OLD_*) catch 2 (the stack ignoring its input, a CTC head
without a scale sent to read); the new files alone catch 8 of 8.

    python tests/mutants/run.py --only 'v450-*'
"""
BACKEND = "lnrnn/backend.py"
TORCH = "lnrnn/interop/torch.py"
API = "lnrnn/api.py"
NEW_BACKEND = ["tests/kernels/test_values450_backend.py"]
NEW_TORCH = ["tests/interop/test_values450_torch.py"]
NEW_API = ["tests/test_values450_api.py"]
# every file named after the module (pytest -k <name>, as random_sample.py --all-named judges)
OLD_BACKEND = ["tests/kernels/test_values17_backend.py", "tests/kernels/test_values186_backend.py",
               "tests/kernels/test_values22_backend.py", "tests/kernels/test_values271_backend_threads.py",
               "tests/kernels/test_values_backend.py", "tests/test_values369_backend_threads.py",
               "tests/test_values96_judge_backend.py"]
OLD_TORCH = ["tests/interop/test_torch.py", "tests/interop/test_torch_bidirectional.py",
             "tests/interop/test_torch_cell.py", "tests/interop/test_torch_refusals_as_passed.py",
             "tests/interop/test_values107_torch.py", "tests/interop/test_values121_torch.py",
             "tests/interop/test_values132_torch.py", "tests/interop/test_values14_torch.py",
             "tests/interop/test_values160_torch.py", "tests/interop/test_values16_torch.py",
             "tests/interop/test_values192_torch.py", "tests/interop/test_values212_torch.py",
             "tests/interop/test_values224_torch.py", "tests/interop/test_values23_torch.py",
             "tests/interop/test_values241_torch.py", "tests/interop/test_values255_torch.py",
             "tests/interop/test_values25_torch.py", "tests/interop/test_values273_torch.py",
             "tests/interop/test_values290_torch.py", "tests/interop/test_values298_torch.py",
             "tests/interop/test_values309_torch.py", "tests/interop/test_values334_torch.py",
             "tests/interop/test_values359_torch.py", "tests/interop/test_values39_torch_lengths.py",
             "tests/interop/test_values41_torch.py", "tests/interop/test_values433_torch.py",
             "tests/interop/test_values449_torch.py", "tests/interop/test_values49_torch.py",
             "tests/interop/test_values49_torch_cell.py", "tests/interop/test_values74_torch_modules.py",
             "tests/interop/test_values74_torch_ops.py", "tests/interop/test_values86_torch.py",
             "tests/interop/test_values98_torch.py", "tests/interop/test_values_torch.py"]
OLD_API = ["tests/commands/test_values277_api.py", "tests/commands/test_values305_api.py",
           "tests/test_values101_api.py", "tests/test_values10_api.py", "tests/test_values117_api.py",
           "tests/test_values140_api.py", "tests/test_values15_api.py", "tests/test_values161_api.py",
           "tests/test_values196_api.py", "tests/test_values214_api.py", "tests/test_values234_api.py",
           "tests/test_values252_api.py", "tests/test_values27_api.py", "tests/test_values315_api.py",
           "tests/test_values343_api.py", "tests/test_values364_api.py", "tests/test_values392_api.py",
           "tests/test_values392_api_read.py", "tests/test_values439_api.py", "tests/test_values441_api.py",
           "tests/test_values46_api.py", "tests/test_values50_api.py", "tests/test_values77_api.py",
           "tests/test_values83_api.py", "tests/test_values_api.py", "tests/test_values_api_read.py"]

BROKEN = '        return False, f"numba.cuda failed to import ({type(e).__name__}: {e})"'
CAUGHT = "    except Exception as e:  # a broken CUDA toolkit install surfaces here"
CELL_KEEP = "keep = torch.is_grad_enabled() and any(t.requires_grad for t in (x, *state, *params))"
STACK_KEEP = "keep = torch.is_grad_enabled() and any(t.requires_grad for t in (inp, *st, *params))"
READER = '    if head.kind == "ctc" and getattr(head, "scale", None) is not None:'


def _torch(name, old, new, why):
    return dict(name=f"v450-keep-{name}", file=TORCH, old=old, new=new, tests=NEW_TORCH + OLD_TORCH, why=why)


MUTANTS = [
    dict(name="v450-broken-import-usable", file=BACKEND, old=BROKEN, new=BROKEN.replace("False", "True"),
         tests=NEW_BACKEND + OLD_BACKEND, why="a numba.cuda that fails to import counts as usable (rnd25-04)"),
    dict(name="v450-broken-import-raises", file=BACKEND, old=CAUGHT, new=CAUGHT.replace("Exception", "RuntimeError"),
         tests=NEW_BACKEND + OLD_BACKEND, why="a failed import of numba.cuda escapes cuda_usable"),
    _torch("cell-or", CELL_KEEP, CELL_KEEP.replace(" and ", " or "), "a cell keeps activations under no_grad "
                                                                      "(rnd25-05)"),
    _torch("cell-state-ignored", CELL_KEEP, CELL_KEEP.replace("(x, *state, *params)", "(x, *params)"),
           "a cell of frozen weights keeps nothing for a state that wants a gradient"),
    _torch("stack-always", STACK_KEEP, "keep = torch.is_grad_enabled()", "a stack keeps activations for frozen "
                                                                        "weights and inputs"),
    _torch("stack-input-ignored", STACK_KEEP, STACK_KEEP.replace("(inp, *st, *params)", "(*st, *params)"),
           "a stack of frozen weights keeps nothing for an input that wants a gradient"),
    dict(name="v450-reader-not-refused", file=API, old=READER, new=READER.replace("==", "!="),
         tests=NEW_API + OLD_API, why="a reader goes on to predict; heads with a scale are sent to read (rnd25-28)"),
    dict(name="v450-reader-without-scale", file=API, old=READER, new=READER.replace("is not None", "is None"),
         tests=NEW_API + OLD_API, why="a CTC head without a scale is sent to read, a reader goes on to predict"),
]
