"""Planted bugs, round 466 (format: tests/mutants/mutants.py): the real survivor of a forty-sixth random sample
(tests/mutants/random_sample.py --seed 46 --count 40 --all-named, on aa6c4b1: 35 of 40 caught), a bug its test found
and their neighbours, sixty-first pass.

Seed 46's 5 missed: 3 equivalent (rnd46-10: the torch binding's state-noise seed drawn from [1, 2^62) for [0, 2^62),
another seed as good; rnd46-20: the learning curves' legend drawn with a frame, the same picture's words and lines;
rnd46-21: lnrnn.jax's params_from_stack defaulting bidirectional to True for a stack without the attribute, and
every stack it takes has it: the line now reads the stack's directions), 1 CUDA-only line caught by the CUDA files
(rnd46-03: the window stack's backward leaving dx on the device by default, tests/model/test_synthesis_cuda.py
fails), 1 real CUDA-only line: a skip stack on 'cuda' joining its layers on the host, refusing a device x and
handing back a host y where on_device=True asks for a device one (rnd46-30; no CUDA file caught it: the values are
the same). Its test, run for every way a stack runs, found a one-way stack on 'cuda' handing back its lower layers'
final states as device arrays with on_device=False, where the top layer's came as NumPy arrays: fixed, every state
now comes back as NumPy there.

The planted bugs: the skip stack's forward or backward taking the host path on 'cuda'; a skip or bidirectional
stack's y, or a skip stack's dx, copied to the host with on_device=True; a bidirectional stack refusing a device x;
a one-way stack's states left mixed, or copied to the host exactly when they were to stay; lnrnn.jax taking any
object with layers as a stack. 9 mutants. The old files named after the modules (OLD_*) with the CUDA files that run
stacks on the device (OLD_CUDA) catch 2 (a bidirectional y copied to the host; a one-way stack's states copied when
they were to stay); the new files alone catch 9 of 9.

    python tests/mutants/run.py --only 'v466-*'
"""
LAYERS = "lnrnn/model/layers.py"
JAX = "lnrnn/interop/jax.py"
NEW_LAYERS = ["tests/model/test_values466_stack_residence_cuda.py"]
NEW_JAX = ["tests/interop/test_values466_jax_stack.py"]
# the sample's own files for the two modules (every file named after the module, then importers up to 8)
OLD_LAYERS = ["tests/commands/test_values156_predict_io.py", "tests/commands/test_values183_predict_io.py",
              "tests/commands/test_values229_files_predict_io_paths.py",
              "tests/commands/test_values240_predict_io.py", "tests/commands/test_values258_predict_io.py",
              "tests/commands/test_values277_predict_io.py",
              "tests/commands/test_values305_files_predict_io_outputs.py",
              "tests/commands/test_values319_predict_io.py",
              "tests/commands/test_values336_files_predict_io_outputs.py", "tests/test_values112_predict_io.py",
              "tests/test_values131_predict_io.py", "tests/test_values14_predict_io.py",
              "tests/test_values214_predict_io.py", "tests/test_values219_predict_io.py",
              "tests/test_values21_predict_io.py", "tests/test_values34_predict_io.py",
              "tests/test_values365_predict_io.py", "tests/test_values394_predict_io.py",
              "tests/test_values429_predict_io.py", "tests/test_values54_predict_io.py",
              "tests/test_values80_predict_io.py", "tests/test_values91_predict_io.py",
              "tests/test_values9_predict_io.py", "tests/test_values_predict_io.py"]
OLD_JAX = ["tests/interop/test_jax_bidirectional.py", "tests/interop/test_jax_refusals_as_passed.py",
           "tests/interop/test_values107_jax.py", "tests/interop/test_values128_jax.py",
           "tests/interop/test_values140_jax.py", "tests/interop/test_values161_jax.py",
           "tests/interop/test_values196_jax.py", "tests/interop/test_values19_jax.py",
           "tests/interop/test_values216_jax.py", "tests/interop/test_values225_jax.py",
           "tests/interop/test_values23_jax.py", "tests/interop/test_values241_jax.py",
           "tests/interop/test_values255_jax.py", "tests/interop/test_values273_jax.py",
           "tests/interop/test_values291_jax.py", "tests/interop/test_values298_jax.py",
           "tests/interop/test_values314_jax.py", "tests/interop/test_values340_jax.py",
           "tests/interop/test_values365_jax.py", "tests/interop/test_values41_jax.py",
           "tests/interop/test_values430_jax.py", "tests/interop/test_values439_jax.py",
           "tests/interop/test_values460_jax.py", "tests/interop/test_values50_jax.py",
           "tests/interop/test_values78_jax.py", "tests/interop/test_values86_jax.py"]
# the CUDA files that run stacks on the device (the sample leaves the CUDA files out)
OLD_CUDA = ["tests/model/test_values22_layers_cuda.py", "tests/model/test_values139_models_cuda.py",
            "tests/training/test_device_update_more.py"]

SKIP_X = '''        dev = self.device == "cuda"
        kn = self.layers[0]._k
        x = _check_array("x", x, 3, self.layers[0].dtype, (None, None, self.layers[0].I), device_ok=dev)
        if dev:'''
SKIP_DY = '''        dev = self.device == "cuda"
        kn = self.layers[0]._k
        dy = _check_array("dy", dy, 3, self.layers[0].dtype, (None, None, self.output_size), device_ok=dev)
        if dev:'''
BI_X = '''        x = _check_array("x", x, 3, self.layers[0].dtype, (None, None, self.layers[0].I), device_ok=dev)
        lengths = check_lengths'''
SKIP_Y = ("        y = join(ys)                                                       # (T,B,L*H)\n"
          "        if dev and not on_device:")
BI_Y = "        y = kn.join_columns(ys) if self.skip else ys[-1]\n        if dev and not on_device:"
SKIP_DX = ("            return dx if on_device else kn.to_host(dx)\n        return np.ascontiguousarray(dx)\n\n"
           "    def _reversal")
STATES = ('        if self.device == "cuda" and not on_device:  # the layers below the top kept theirs on the device\n'
          "            states = self.layers[0]._k.to_host(states)\n")
CUDA = NEW_LAYERS + OLD_LAYERS + OLD_CUDA

MUTANTS = [
    dict(name="v466-skip-forward-dev-flipped", file=LAYERS, old=SKIP_X, new=SKIP_X.replace("==", "!="), tests=CUDA,
         why="rnd46-30: a skip stack on 'cuda' joins on the host and refuses a device x"),
    dict(name="v466-skip-backward-dev-flipped", file=LAYERS, old=SKIP_DY, new=SKIP_DY.replace("==", "!="),
         tests=CUDA, why="a skip stack's backward on 'cuda' slices dy on the host"),
    dict(name="v466-skip-y-always-to-host", file=LAYERS, old=SKIP_Y, new=SKIP_Y.replace(" and not on_device", ""),
         tests=CUDA, why="a skip stack's y copied to the host even with on_device=True"),
    dict(name="v466-bidirectional-y-always-to-host", file=LAYERS, old=BI_Y,
         new=BI_Y.replace(" and not on_device", ""), tests=CUDA,
         why="a bidirectional stack's y copied to the host even with on_device=True"),
    dict(name="v466-skip-dx-always-to-host", file=LAYERS, old=SKIP_DX,
         new=SKIP_DX.replace("dx if on_device else kn.to_host(dx)", "kn.to_host(dx)"), tests=CUDA,
         why="a skip stack's dx copied to the host even with on_device=True"),
    dict(name="v466-bidirectional-refuses-device-x", file=LAYERS, old=BI_X,
         new=BI_X.replace("device_ok=dev", "device_ok=False"), tests=CUDA,
         why="a bidirectional stack on 'cuda' refuses a device x"),
    dict(name="v466-one-way-states-left-mixed", file=LAYERS, old=STATES, new="", tests=CUDA,
         why="a one-way stack on 'cuda' hands back its lower layers' states as device arrays with on_device=False"),
    dict(name="v466-one-way-states-to-host-when-kept", file=LAYERS, old=STATES,
         new=STATES.replace("and not on_device", "and on_device"), tests=CUDA,
         why="a one-way stack's states copied to the host exactly when they were to stay on the device"),
    dict(name="v466-jax-duck-typed-stack", file=JAX, old="    if not isinstance(stack, RecurrentStack):",
         new='    if not hasattr(stack, "layers"):', tests=NEW_JAX + OLD_JAX,
         why="params_from_stack reads any object with layers as a stack"),
]
