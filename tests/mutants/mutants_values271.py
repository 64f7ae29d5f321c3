"""Planted bugs, round 271 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the commands' shared options (lnrnn/commands/options.py), prewarming (lnrnn/training/prewarm.py), the
backend choice (lnrnn/backend.py), the thread scope (lnrnn/threadscope.py), the memory plan
(lnrnn/training/memory.py) and lnrnn info (lnrnn/commands/info.py): --bidirectional made an option that takes a
value; the armed block's before-backward hook stopping the children instead of waiting for them; the child's spec
with I and H swapped; wait() giving up at the first key whose child never started; require_cuda's check inverted;
an unknown device named without quotes; a GPU whose driver names it in bytes shown as b'...'; the CPU namespace's
layernorm_backward bound to layernorm_forward; an inner kernel_threads() block's exit zeroing the count of open
blocks (the outer block's limit lifted early); the cgroup's room and MemAvailable combined with max instead of
min; MemFree read instead of MemAvailable; --device cuda's activations counted on the host and the CPU's not; the
refusal saying the run needs the available amount; info's dWh line giving the per-step products' reason.

14 mutants. Against the old targeted files alone: not measured yet. The new value tests catch every mutant on
their own (checked with the old files taken off the lists): test_values271_options_info (a dummy command under
model_options: --bidirectional given before another option and last, and the documented model defaults when
omitted; info_lines word for word with the threading layer, BLAS pools, the kernels' BLAS choice and reasons,
batch blocks, CUDA, MKL's mode, malloc and the thread variables stood in), test_values271_prewarm_memory (the
child's spec of an I=3, H=5, float64 layer with clip 2; the before-backward hook waiting with the documented 600 s
bound and never killing; wait() past a key whose child never started; MemAvailable listed after MemFree, then
capped by a cgroup v2 limit minus usage of 1 GiB + 3 bytes; a plain RNN's activations and evaluation counted by
hand at T=11, B=3, eval batch 7 on the CPU and on CUDA; the refusal word for word at 2960 MiB needed and 700 MiB
available, and exactly the peak available fitting), test_values271_backend_threads (require_cuda's refusal word for
word and silence when usable; check_device('gpu')'s ValueError word for word; cuda_usable's reason for a bytes
GPU name, no GPU and a failing driver with numba.cuda stood in; every op in OPS against the kernel module of its
name; an inner block ending by an exception with the outer one still at one BLAS thread, the caller's counts back
after the outer one ends by an exception).

Left out as equivalent: compile_backward's T, B = 2, 2 as 1, 2 (the loop's argument types do not depend on the
sizes, and the child's result is only the cache file); kernel_threads' _limiter = None after restoring (the next
first block assigns it again before use); stop()'s children[key] = None dropped (a reaped child's wait returns at
once, and wait() sets the key to None itself); _reuse_freed_memory's two mallopt calls joined with or, or their
parameter numbers swapped (glibc accepts both values either way and returns 1: only the allocator's later
behaviour differs, not any value a cheap test can read); the split option's default=D.split as D.steps (both
None). Left out as not about a value: the help texts' wording (no second source states them apart from the
README's table, which names neither --hidden's nor --layers' defaults per task).

    python tests/mutants/run.py --only 'v271-*'
"""
OPTIONS = "lnrnn/commands/options.py"
PREWARM = "lnrnn/training/prewarm.py"
BACKEND = "lnrnn/backend.py"
SCOPE = "lnrnn/threadscope.py"
MEMORY = "lnrnn/training/memory.py"
INFO = "lnrnn/commands/info.py"

T_CMD = "tests/commands/test_values271_options_info.py::"
T_TRAIN = "tests/training/test_values271_prewarm_memory.py::"
T_KERN = "tests/kernels/test_values271_backend_threads.py::"
OLD_OPTIONS = ["tests/commands/test_values_options.py", "tests/commands/test_values229_options.py"]
OLD_PREWARM = ["tests/training/test_prewarm.py", "tests/training/test_values70_prewarm.py",
               "tests/training/test_values32_prewarm.py"]
OLD_BACKEND = ["tests/kernels/test_cuda_backend.py", "tests/kernels/test_values17_backend.py",
               "tests/kernels/test_values186_backend.py"]
OLD_SCOPE = ["tests/test_values216_threadscope.py", "tests/test_threads_scope.py"]
OLD_MEMORY = ["tests/training/test_values218_memory.py", "tests/training/test_values_memory.py"]
OLD_INFO = ["tests/commands/test_values215_info_cli.py", "tests/commands/test_values143_info.py"]

MUTANTS = [
    # ---- the shared options: lnrnn/commands/options.py ----
    dict(name="v271-options-bidirectional-takes-a-value", file=OPTIONS,
         old='    click.option("--bidirectional", is_flag=True, default=D.bidirectional,',
         new='    click.option("--bidirectional", is_flag=False, default=D.bidirectional,',
         tests=[T_CMD + "test_bidirectional_is_a_flag_read_before_other_options"] + OLD_OPTIONS,
         why="--bidirectional wants a value: given as a flag it swallows the next option or is refused"),
    # ---- prewarming: lnrnn/training/prewarm.py ----
    dict(name="v271-prewarm-backward-hook-stops-the-children", file=PREWARM,
         old="        layers.HOOKS.update(training_forward=layer_forward, before_backward=wait)",
         new="        layers.HOOKS.update(training_forward=layer_forward, before_backward=stop)",
         tests=[T_TRAIN + "test_the_backward_hook_waits_for_the_child_with_the_documented_bound"] + OLD_PREWARM,
         why="a layer's backward kills the child compiling its loop instead of waiting for it"),
    dict(name="v271-prewarm-spec-sizes-swapped", file=PREWARM,
         old='    spec = {"cell": layer.cell, "norm": layer.norm, "I": layer.I, "H": layer.H,',
         new='    spec = {"cell": layer.cell, "norm": layer.norm, "I": layer.H, "H": layer.I,',
         tests=[T_TRAIN + "test_the_child_gets_the_layers_own_sizes_type_and_clip"] + OLD_PREWARM,
         why="the child builds a layer with input and hidden sizes swapped"),
    dict(name="v271-prewarm-wait-stops-at-an-unstarted-child", file=PREWARM,
         old="        if proc is None:\n            continue",
         new="        if proc is None:\n            break",
         tests=[T_TRAIN + "test_wait_goes_on_past_a_child_that_never_started"] + OLD_PREWARM,
         why="wait() returns at the first key with no child, leaving later children compiling unwaited"),
    # ---- the backend: lnrnn/backend.py ----
    dict(name="v271-backend-require-cuda-inverted", file=BACKEND,
         old="    if not ok:\n        raise CudaUnavailable(",
         new="    if ok:\n        raise CudaUnavailable(",
         tests=[T_KERN + "test_require_cuda_refuses_with_the_reason_and_passes_when_usable"] + OLD_BACKEND,
         why="CUDA is refused where usable and let through where not"),
    dict(name="v271-backend-unknown-device-unquoted", file=BACKEND,
         old='raise ValueError(f"unknown device {device!r}; expected',
         new='raise ValueError(f"unknown device {device}; expected',
         tests=[T_KERN + "test_an_unknown_device_is_named_among_the_choices"] + OLD_BACKEND,
         why="the refusal of an unknown device prints it without quotes"),
    dict(name="v271-backend-gpu-name-in-bytes", file=BACKEND,
         old="        name = dev.name.decode() if isinstance(dev.name, bytes) else str(dev.name)",
         new="        name = str(dev.name)",
         tests=[T_KERN + "test_the_reason_names_the_gpu_or_what_failed"] + OLD_BACKEND,
         why="a driver that names the GPU in bytes is reported as b'NVIDIA ...'"),
    dict(name="v271-backend-layernorm-backward-is-forward", file=BACKEND,
         old="layernorm_forward=layernorm.layernorm_forward, layernorm_backward=layernorm.layernorm_backward,",
         new="layernorm_forward=layernorm.layernorm_forward, layernorm_backward=layernorm.layernorm_forward,",
         tests=[T_KERN + "test_every_cpu_op_is_the_kernel_module_function_of_its_name"] + OLD_BACKEND,
         why="the CPU namespace's layernorm_backward runs the forward kernel"),
    # ---- the thread scope: lnrnn/threadscope.py ----
    dict(name="v271-threadscope-inner-exit-zeroes-the-count", file=SCOPE,
         old="            _users -= 1",
         new="            _users = 0",
         tests=[T_KERN + "test_an_inner_block_ending_by_an_exception_leaves_the_outer_limit_in_place"] + OLD_SCOPE,
         why="a nested block's exit restores the caller's BLAS threads while the outer block still runs kernels"),
    # ---- the memory plan: lnrnn/training/memory.py ----
    dict(name="v271-memory-cgroup-room-max", file=MEMORY,
         old="            avail = room if avail is None else min(avail, room)",
         new="            avail = room if avail is None else max(avail, room)",
         tests=[T_TRAIN + "test_memavailable_not_memfree_and_the_smaller_of_it_and_the_cgroups_room"] + OLD_MEMORY,
         why="the larger of MemAvailable and the cgroup's room is taken: a run over the cgroup limit passes"),
    dict(name="v271-memory-memfree-read", file=MEMORY,
         old='                if line.startswith("MemAvailable:"):',
         new='                if line.startswith("MemFree:"):',
         tests=[T_TRAIN + "test_memavailable_not_memfree_and_the_smaller_of_it_and_the_cgroups_room"] + OLD_MEMORY,
         why="MemFree (without reclaimable caches) is read as the memory available"),
    dict(name="v271-memory-cuda-counted-on-host", file=MEMORY,
         old='    on_host = cfg.device != "cuda"',
         new='    on_host = cfg.device != "cpu"',
         tests=[T_TRAIN + "test_a_plain_rnns_activations_and_evaluation_by_hand"] + OLD_MEMORY,
         why="--device cuda's activations are counted on the host and the CPU's only as the batch x"),
    dict(name="v271-memory-refusal-needs-the-available", file=MEMORY,
         old='raise UserError(f"this run needs about {format_bytes(train_peak)} of memory',
         new='raise UserError(f"this run needs about {format_bytes(avail)} of memory',
         tests=[T_TRAIN + "test_the_refusal_word_for_word"] + OLD_MEMORY,
         why="the refusal says the run needs what is available"),
    # ---- lnrnn info: lnrnn/commands/info.py ----
    dict(name="v271-info-dwh-line-gives-the-rec-reason", file=INFO,
         old='        f": {DWH_WHY}",',
         new='        f": {REC_WHY}",',
         tests=[T_CMD + "test_info_lines_word_for_word_with_the_environment_stood_in"] + OLD_INFO,
         why="the weight-gradient line gives the per-step products' reason instead of its own"),
]
