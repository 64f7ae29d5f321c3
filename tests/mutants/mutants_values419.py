"""Planted bugs, round 419 (format: tests/mutants/mutants.py): the commands that allocate by an option, at the
sizes a typo gives (lnrnn/training/memory.py: refuse_beyond and format_bytes; lnrnn/model/beam.py: search_bytes;
the checks in lnrnn/api.py: read, lnrnn/sample.py and lnrnn/commands/gradcheck.py), twentieth pass.

Writing this round's plan found three real bugs, by running every numeric option of eval, predict, read, sample and
gradcheck at 2**70, 99999999999, -1, 0, inf, nan and 1e308: lnrnn read --beam 99999999999 ended in a SystemError out
of the compiled search (2**70: an int64 overflow), lnrnn sample --no-cap --steps and --count 99999999999 in a NumPy
allocation traceback, and lnrnn gradcheck at a huge --steps, --batch, --input or --hidden in one, at a huge --layers
in a hang. The planted bugs: a need of exactly the available bytes refused; LNRNN_NO_MEMORY_CHECK ignored; a host
that says nothing of its memory refusing everything; terabytes not grouped; the beam width not capped at the
prefixes a line can spell; the trie's root, or the beam's slots, left out of a search; the search sized by the
shortest line, by a line one step longer than read, or over the classes without the blank; a beam of two unchecked;
free samples counting one row; a primed writer leaving the prime's characters out; the window's weights counted
once; '2 sample'; gradcheck counting one layer, leaving out the padded rows or the input weights. 18 mutants. The
old targeted memory, beam, read, sampler and gradcheck files alone (OLD) catch 0 of 18: no old file gives a size
past the memory available. test_values419_memory_refusals holds refuse_beyond at its edge (exactly the available
bytes, one more, nothing known, the skip), search_bytes to the trie and beam written out at capped and uncapped
widths, and each command's bound at its edge (available memory set to the bound's bytes: the work runs; one byte
less: the sentence word for word and no step, line or check run), for a beam over a line with a glitch step dropped
(and a beam of two), free and written samples (a prime's codes counted) and gradcheck; the commands at 2**70 and
99999999999 give one Error line each under an alarm. NEW + OLD catch 18 of 18 (its first version missed the beam of
two; the narrowest beam was added); the new file alone catches 18 of 18. Nothing left out as equivalent.

    python tests/mutants/run.py --only 'v419-*'
"""
NEW = ["tests/commands/test_values419_memory_refusals.py"]
MEM_OLD = ["tests/training/test_values_memory.py", "tests/training/test_values417_memory_extremes.py"]
BEAM_OLD = ["tests/model/test_beam.py", "tests/model/test_values368_decode_beam.py"]
READ_OLD = ["tests/test_values_api_read.py", "tests/test_values392_api_read.py", "tests/commands/test_reading.py",
            "tests/commands/test_values_read.py"]
SAMPLE_OLD = ["tests/test_values133_sampler.py", "tests/test_values378_sampler.py", "tests/test_values87_sampler.py",
              "tests/test_values99_sampler.py", "tests/commands/test_sample.py", "tests/commands/test_sample_text.py"]
GRAD_OLD = ["tests/commands/test_gradcheck_cli.py", "tests/commands/test_values215_gradcheck.py"]
MEMORY = "lnrnn/training/memory.py"
BEAM = "lnrnn/model/beam.py"
API = "lnrnn/api.py"
SAMPLE = "lnrnn/sample.py"
GRAD = "lnrnn/commands/gradcheck.py"

MUTANTS = [
    dict(name="v419-refuse-at-exactly-what-is-there", file=MEMORY,
         old="    if avail is not None and need > avail:\n        raise UserError(f\"{what} would",
         new="    if avail is not None and need >= avail:\n        raise UserError(f\"{what} would",
         tests=NEW + MEM_OLD,
         why="a need of exactly the available bytes is refused"),
    dict(name="v419-skip-env-ignored", file=MEMORY,
         old="    if os.environ.get(SKIP_ENV):\n        return\n    avail = available_bytes() if available is None",
         new="    avail = available_bytes() if available is None",
         tests=NEW + MEM_OLD,
         why="LNRNN_NO_MEMORY_CHECK=1 no longer lets a command try anyway"),
    dict(name="v419-unknown-memory-compared", file=MEMORY,
         old="    if avail is not None and need > avail:\n        raise UserError(f\"{what} would",
         new="    if need > (avail or 0):\n        raise UserError(f\"{what} would",
         tests=NEW + MEM_OLD,
         why="a host that says nothing of its memory refuses every beam, sample and gradcheck"),
    dict(name="v419-terabytes-not-grouped", file=MEMORY,
         old='        return f"{n / (1 << 40):,.1f} TB"', new='        return f"{n / (1 << 40):.1f} TB"',
         tests=NEW + MEM_OLD,
         why="a typo's size reads as 42949672960.0 TB"),
    dict(name="v419-width-not-capped", file=BEAM,
         old="    W = _width(width, steps, classes)\n    return 8 *", new="    W = width\n    return 8 *",
         tests=NEW + BEAM_OLD,
         why="a short line's huge beam is counted at the width asked, not the prefixes it can spell, and refused"),
    dict(name="v419-trie-root-left-out", file=BEAM,
         old="    return 8 * (6 * (1 + steps * W) + W * (11 + classes))",
         new="    return 8 * (6 * steps * W + W * (11 + classes))",
         tests=NEW + BEAM_OLD,
         why="the trie's empty-prefix node is not counted"),
    dict(name="v419-beam-slots-left-out", file=BEAM,
         old="    return 8 * (6 * (1 + steps * W) + W * (11 + classes))",
         new="    return 8 * (6 * (1 + steps * W) + W * classes)",
         tests=NEW + BEAM_OLD,
         why="the beam's slots, heap, keys and order are not counted, only the merges"),
    dict(name="v419-shortest-line-checked", file=API,
         old="        T = max(len(ln) for ln in lines)", new="        T = min(len(ln) for ln in lines)",
         tests=NEW + READ_OLD,
         why="the search is sized by the shortest line"),
    dict(name="v419-raw-line-checked", file=API,
         old="        T = max(len(ln) for ln in lines)", new="        T = max(len(ln) for ln in lines) + 1",
         tests=NEW + READ_OLD,
         why="the search is sized by a line one step longer than read (as if a glitch step were kept)"),
    dict(name="v419-blank-class-left-out", file=API,
         old="refuse_beyond(search_bytes(T, head.O, beam)", new="refuse_beyond(search_bytes(T, head.O - 1, beam)",
         tests=NEW + READ_OLD,
         why="the search is sized over the alphabet's classes without the blank"),
    dict(name="v419-beam-of-two-unchecked", file=API,
         old="    if beam > 1 and lines:  # the longest", new="    if beam > 2 and lines:  # the longest",
         tests=NEW + READ_OLD,
         why="a beam of two is searched unchecked"),
    dict(name="v419-free-sample-one-row-counted", file=SAMPLE,
         old="    _fits(count, steps, 0)", new="    _fits(1, steps, 0)",
         tests=NEW + SAMPLE_OLD,
         why="free samples count one row's points: --count 99999999999 ends in a traceback again"),
    dict(name="v419-prime-codes-left-out", file=SAMPLE,
         old="    _fits(count, steps, U)", new="    _fits(count, steps, U - len(pre_codes))",
         tests=NEW + SAMPLE_OLD,
         why="a primed writer's window weights leave out the prime's characters"),
    dict(name="v419-window-weights-added-once", file=SAMPLE,
         old="refuse_beyond(8 * count * steps * (3 + U),", new="refuse_beyond(8 * count * steps * 3 + U,",
         tests=NEW + SAMPLE_OLD,
         why="the window's weights are counted once, not per row and step"),
    dict(name="v419-one-samples", file=SAMPLE,
         old="f\"{count:,} sample{'s' * (count != 1)} of up to", new="f\"{count:,} sample{'s' * (count > 2)} of up to",
         tests=NEW + SAMPLE_OLD,
         why="two samples read '2 sample of up to'"),
    dict(name="v419-gradcheck-one-layer-counted", file=GRAD,
         old="    refuse_beyond(8 * layers * (H * (I + H)", new="    refuse_beyond(8 * (H * (I + H)",
         tests=NEW + GRAD_OLD,
         why="gradcheck counts one layer: --layers 2**70 hangs again"),
    dict(name="v419-gradcheck-padded-rows-left-out", file=GRAD,
         old="2 * T * (B + 4) * H),", new="2 * T * B * H),",
         tests=NEW + GRAD_OLD,
         why="gradcheck's outputs leave out the padded batch's four more rows"),
    dict(name="v419-gradcheck-input-weights-left-out", file=GRAD,
         old="refuse_beyond(8 * layers * (H * (I + H) +", new="refuse_beyond(8 * layers * (H * H +",
         tests=NEW + GRAD_OLD,
         why="gradcheck leaves the input weights out: --input 99999999999 ends in a traceback again"),
]
