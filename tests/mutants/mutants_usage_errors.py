"""Planted bugs in how the command line shows click's own usage errors (lnrnn/cli.py: one_line and LnrnnGroup):
NoArgsIsHelpError (``lnrnn`` alone) turned into an error line; the group's errors (an unknown option before the
command) left to click's usage block; a command's line saying the group's list.

3 mutants, written with the change that made usage errors one line (no old test looked at their shape).
test_cli_usage_errors compares each refusal's stderr with one line built from click's sentence and the command's
--help, and ``lnrnn`` alone with the group's usage.

    python tests/mutants/run.py --only 'usage-*'
"""
CLI = "lnrnn/cli.py"
NEW = ["tests/commands/test_cli_usage_errors.py"]

MUTANTS = [
    dict(name="usage-no-args-is-help-made-an-error", file=CLI,
         old="if e.ctx is None or isinstance(e, _NO_ARGS_IS_HELP):",
         new="if e.ctx is None:",
         tests=NEW,
         why="`lnrnn` alone prints 'Error:' and the whole help on one line instead of the group's usage"),
    dict(name="usage-group-errors-keep-the-usage-block", file=CLI,
         old="""            return super().make_context(info_name, args, parent=parent, **extra)
        except click.UsageError as e:
            raise one_line(e) from None""",
         new="""            return super().make_context(info_name, args, parent=parent, **extra)
        except click.UsageError as e:
            raise""",
         tests=NEW,
         why="`lnrnn --bogus` shows click's usage block and 'Try ...' above its error line"),
    dict(name="usage-command-says-commands", file=CLI,
         old='listed = "commands and options" if isinstance(e.ctx.command, click.Group) else "options"',
         new='listed = "commands and options" if not isinstance(e.ctx.command, click.Group) else "options"',
         tests=NEW,
         why="`lnrnn train --epochs abc` says its --help lists commands"),
]
