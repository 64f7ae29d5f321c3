"""Planted bugs, round 69 (format: tests/mutants/mutants.py): single-line slips at the command line's edge, on
lines no earlier round mutates: the IDX reader's signed-byte and short type codes (read unsigned, read
little-endian), a gzip file cut short escaping as EOFError, the dotted raw spelling of an MNIST file not looked
for and the missing file of a pair misnamed; lnrnn data mnist letting a --dest below a file through its folder
check and leaving its temp file when a download stops on anything but an OSError; lnrnn train telling the
trainer quiet=False whatever -q, --window-norm offering the cell names; a --config array taken for a table, the
file's value winning over the command line's and a null setting the option to None; lnrnn sample letting a
--count above the --text lines, a prime without its other half and --judge-out without --judge (tested on the
wrong variable) through to the run's loading; lnrnn plot's KeyError on a checkpoint without a head and its
title reading the layer count under a misspelled key; lnrnn info dropping OMP_NUM_THREADS.

18 mutants. Against the existing targeted tests alone 6 were caught and 12 missed: the short type code (no
test read 0x0B values), a cut gzip file given to read_idx (old tests cut only those lnrnn data verifies), the
missing file's name, --dest below a file, the temp file of an interrupted download, -q reaching the trainer,
--window-norm's values, a null in --config, the prime pair and --judge-out without --judge (refused later, on
the run's loading, with another message), a checkpoint.json without a head, OMP_NUM_THREADS. The new value
tests catch every mutant on their own (checked with the old tests taken off the lists):
test_values69_idx (IDX files written byte by byte from the format's definition: every type code against
struct's big-endian packing, signed bytes in two's complement by hand, unsigned bytes 0-255, magic numbers
as the code and dimension count, one byte short or long, gzip or not, gzip cut at four places, the four
spellings of the files, the missing one named), test_values69_data (no network: --dest below a file, a
download stopped by KeyboardInterrupt or RuntimeError leaves --dest empty), test_values69_train_options (a
stand-in trainer records the TrainConfig and keywords the command hands it: -q, each documented --window-norm,
a cell name refused, --config that is no table, the command line over the file, null keeping the default, a
run folder's config.json giving back the TrainConfig it was written from, less the folder and the stop
conditions), test_values69_sample_errors (every refusal comes before the run is read, names its option and
writes nothing: the --checkpoint does not exist, so a later refusal would name it), test_values69_plot_info
(checkpoint.json without a head or a model drawn; the title built here from the TrainConfig written to both
runs' config.json; the thread variables line against the environment set here). Dropped as equivalent: the
ndim and dtype checks of load_mnist_split (the magic numbers 2051 and 2049 already say ubyte with 3 and 1
dimensions), lnrnn data's "images" in name against "idx3" in name (the four names agree), _write_error's
raise e against return e (the caller raises what it returns).

    python tests/mutants/run.py --only 'v69-*'
"""
IDX = "lnrnn/data/idx.py"
DATA = "lnrnn/commands/data.py"
TRAIN = "lnrnn/commands/train.py"
OPTIONS = "lnrnn/commands/options.py"
RUNCONFIG = "lnrnn/training/runconfig.py"
SAMPLE = "lnrnn/commands/sample.py"
PLOT = "lnrnn/commands/plot.py"
INFO = "lnrnn/commands/info.py"

# existing tests of these modules
IDX_OLD = ["tests/data/test_values_idx.py", "tests/data/test_values10_idx.py", "tests/data/test_values19_idx.py"]
DATA_OLD = ["tests/commands/test_values_data.py", "tests/commands/test_values9_data.py",
            "tests/commands/test_values17_data.py", "tests/commands/test_values37_data.py"]
CONFIG_OLD = ["tests/training/test_values_runconfig.py", "tests/training/test_values13_runconfig.py",
              "tests/commands/test_cli_train_config.py", "tests/commands/test_values13_train_command.py",
              "tests/commands/test_values_train_command.py"]
SAMPLE_OLD = ["tests/commands/test_values_options.py", "tests/commands/test_values32_options_errors.py",
              "tests/commands/test_values39_bad_values.py", "tests/commands/test_values52_sample_cli.py"]
PLOT_OLD = ["tests/commands/test_plot.py", "tests/commands/test_values46_plot_runs.py",
            "tests/commands/test_values25_commands.py"]
INFO_OLD = ["tests/commands/test_values_info.py", "tests/commands/test_values37_info.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
IDX_NEW = ["tests/data/test_values69_idx.py"]
DATA_NEW = ["tests/commands/test_values69_data.py"]
CONFIG_NEW = ["tests/commands/test_values69_train_options.py"]
SAMPLE_NEW = ["tests/commands/test_values69_sample_errors.py"]
PLOT_NEW = ["tests/commands/test_values69_plot_info.py"]
INFO_NEW = ["tests/commands/test_values69_plot_info.py"]

MUTANTS = [
    # ---- the IDX reader: type codes, a truncated gzip file, the files looked for, the missing one named ----
    dict(name="v69-idx-signed-byte-read-unsigned", file=IDX,
         old='0x09: ">i1"',
         new='0x09: ">u1"',
         tests=IDX_NEW + IDX_OLD,
         why="type code 0x09 (signed byte) is read as unsigned: -1 comes back as 255, and uint8 arrays are "
             "written under 0x09"),
    dict(name="v69-idx-short-type-little-endian", file=IDX,
         old='0x0B: ">i2"',
         new='0x0B: "<i2"',
         tests=IDX_NEW + IDX_OLD,
         why="type code 0x0B (short) is read little-endian: IDX stores every value big-endian (MSB first)"),
    dict(name="v69-idx-truncated-gzip-traceback", file=IDX,
         old="        except (EOFError, OSError, zlib.error) as e:\n            raise DataError(f\"{path} is a damaged or",
         new="        except (OSError, zlib.error) as e:\n            raise DataError(f\"{path} is a damaged or",
         tests=IDX_NEW + IDX_OLD,
         why="a gzip file cut short raises EOFError, which is no longer turned into a DataError: a traceback "
             "instead of one line naming the file"),
    dict(name="v69-idx-dotted-raw-name-not-looked-for", file=IDX,
         old='    for name in (stem + ".gz", stem, alt + ".gz", alt):',
         new='    for name in (stem + ".gz", stem, alt + ".gz", stem):',
         tests=IDX_NEW + IDX_OLD,
         why="the uncompressed dotted spelling (train-images.idx3-ubyte, as some unpackers leave it) is never "
             "found: the folder is said to lack a file it holds"),
    dict(name="v69-idx-missing-file-misnamed", file=IDX,
         old="for s, p in zip((img_stem, lab_stem), paths) if p is None]",
         new="for s, p in zip((lab_stem, img_stem), paths) if p is None]",
         tests=IDX_NEW + IDX_OLD,
         why="the message names the labels file when the images file is missing (and the other way round)"),
    # ---- lnrnn data mnist: a --dest under a file, an interrupted download ----
    dict(name="v69-data-dest-under-a-file-not-told", file=DATA,
         old="    if not os.path.isdir(probe):",
         new="    if not os.path.exists(probe):",
         tests=DATA_NEW + DATA_OLD,
         why="a --dest below a file passes the folder check (the nearest existing path exists): the user hears "
             "of a failed write, not that --dest names a path under a file"),
    dict(name="v69-data-interrupted-download-leaves-temp", file=DATA,
         old="    except BaseException:\n        os.unlink(tmp)\n        raise",
         new="    except BaseException:\n        raise",
         tests=DATA_NEW + DATA_OLD,
         why="a download interrupted (Ctrl-C, or any error other than OSError) leaves its .download- temp file "
             "in --dest"),
    # ---- lnrnn train and its options: --quiet, a choice list ----
    dict(name="v69-train-quiet-not-passed", file=TRAIN,
         old="quiet=quiet, log=click.echo, group=group)",
         new="quiet=False, log=click.echo, group=group)",
         tests=CONFIG_NEW + CONFIG_OLD,
         why="lnrnn train -q still draws the progress bar: the trainer is always told quiet=False"),
    dict(name="v69-options-window-norm-choices-are-cells", file=OPTIONS,
         old='click.option("--window-norm", type=click.Choice(list(NORMS))',
         new='click.option("--window-norm", type=click.Choice(list(CELLS))',
         tests=CONFIG_NEW + CONFIG_OLD,
         why="--window-norm offers the cell names (rnn, ln-lstm, ...) instead of the norms none, ln, bn: the "
             "documented values are refused"),
    # ---- --config files: a non-table, the command line's precedence, null ----
    dict(name="v69-runconfig-list-accepted-as-table", file=RUNCONFIG,
         old="    if not isinstance(table, dict):",
         new="    if not isinstance(table, (dict, list)):",
         tests=CONFIG_NEW + CONFIG_OLD,
         why="a --config JSON file holding an array passes the table check and fails with a traceback "
             "(list has no items) instead of one line"),
    dict(name="v69-runconfig-file-overrides-command-line", file=RUNCONFIG,
         old="            continue  # the command line wins",
         new="            pass  # the command line wins",
         tests=CONFIG_NEW + CONFIG_OLD,
         why="a value in the --config file replaces the one given on the command line"),
    dict(name="v69-runconfig-null-taken-as-value", file=RUNCONFIG,
         old="        if value is None:\n            continue",
         new="        if value is None:\n            pass",
         tests=CONFIG_NEW + CONFIG_OLD,
         why="a key set to null in a JSON --config file sets the option to None instead of leaving its default "
             "(--lr null: a run without a learning rate)"),
    # ---- lnrnn sample: option combinations refused before any work ----
    dict(name="v69-sample-count-above-texts-let-through", file=SAMPLE,
         old="!= ParameterSource.DEFAULT and count != len(texts):",
         new="!= ParameterSource.DEFAULT and count < len(texts):",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="--count larger than the number of --text lines is silently replaced instead of refused"),
    dict(name="v69-sample-prime-pair-unchecked", file=SAMPLE,
         old="    check_prime_pair(prime_strokes, prime_text, CLI_NAMES)\n",
         new="",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="--prime-strokes without --prime-text (or the reverse) is not refused up front: the run is loaded "
             "first, and the user hears of something else"),
    dict(name="v69-sample-judge-out-checks-texts", file=SAMPLE,
         old="    if judge_out is not None and judge_path is None:",
         new="    if judge_out is not None and not texts:",
         tests=SAMPLE_NEW + SAMPLE_OLD,
         why="--judge-out without --judge is let through whenever --text is given (the wrong variable tested)"),
    # ---- lnrnn plot: a checkpoint without a head, the title's layer count ----
    dict(name="v69-plot-head-kind-keyerror-escapes", file=PLOT,
         old="    except (OSError, ValueError, KeyError, TypeError):\n        return None",
         new="    except (OSError, ValueError, TypeError):\n        return None",
         tests=PLOT_NEW + PLOT_OLD,
         why="a run folder whose checkpoint.json has no model/head entry makes lnrnn plot fail with a KeyError "
             "traceback instead of drawing the curves"),
    dict(name="v69-plot-title-layers-key-misspelled", file=PLOT,
         old='            layers = c.get("layers", 1)',
         new='            layers = c.get("layer", 1)',
         tests=PLOT_NEW + PLOT_OLD,
         why="the title reads 'layer' from config.json, which writes 'layers': every run is titled '1 layer'"),
    # ---- lnrnn info: the thread variables ----
    dict(name="v69-info-thread-variables-omp-dropped", file=INFO,
         old='"OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "OMP_NUM_THREADS", "OMP_WAIT_POLICY")',
         new='"OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "OMP_WAIT_POLICY")',
         tests=INFO_NEW + INFO_OLD,
         why="lnrnn info no longer shows OMP_NUM_THREADS, the variable that sets the BLAS thread count on most "
             "builds"),
]
