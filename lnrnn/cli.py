"""The ``lnrnn`` command line: a thin click group, one module per command in ``lnrnn.commands``.

Errors a user can cause are ``lnrnn.errors.UserError`` (one sentence); the group turns them into
click's ``Error: ...`` on stderr with the error's exit code (2; 3 for a diverged run; 130 for Ctrl-C)
and no traceback; click's own usage errors (a bad option value, an unknown option) are one such line too,
naming ``--help`` in place of click's usage block. Ctrl-C is one of them for every command: ``train`` stops at
its next update and saves (``lnrnn.training.train``); any other command's KeyboardInterrupt becomes
``Interrupted`` (exit 130, as the shell reports a process SIGINT ended), not click's "Aborted!" with exit 1.
Commands write their files atomically, so an interrupted one leaves each file whole or untouched.
"""
import click

import lnrnn
from lnrnn.commands import data, eval as eval_command, export as export_command, gradcheck as gradcheck_command
from lnrnn.commands import info, plot, predict as predict_command, read as read_command, sample as sample_command
from lnrnn.commands import train
from lnrnn.errors import UserError


class _UserFacingError(click.ClickException):
    def __init__(self, err):
        super().__init__(str(err))
        self.exit_code = err.exit_code


class Interrupted(UserError):
    """Ctrl-C in a command other than train (which saves and raises TrainingInterrupted, also exit 130)."""

    exit_code = 130


def interrupted(command):
    return Interrupted(f"interrupted (Ctrl-C): lnrnn {command} stopped; every file it writes is left whole "
                       "or untouched.")


_NO_ARGS_IS_HELP = getattr(click.exceptions, "NoArgsIsHelpError", ())  # `lnrnn` alone: help, not an error


def one_line(e):
    """click's usage error (a bad option value, an unknown option or command) as one line: its sentence and
    where the options are listed, without the usage block click prints above it. Same exit code (2)."""
    if e.ctx is None or isinstance(e, _NO_ARGS_IS_HELP):
        return e
    listed = "commands and options" if isinstance(e.ctx.command, click.Group) else "options"
    short = click.UsageError(f"{e.format_message()} ('{e.ctx.command_path} --help' lists the {listed}.)")
    short.exit_code = e.exit_code
    return short


class LnrnnGroup(click.Group):
    def make_context(self, info_name, args, parent=None, **extra):
        try:
            return super().make_context(info_name, args, parent=parent, **extra)
        except click.UsageError as e:
            raise one_line(e) from None

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except click.UsageError as e:
            raise one_line(e) from None
        except UserError as e:
            raise _UserFacingError(e) from None
        except KeyboardInterrupt:
            raise _UserFacingError(interrupted(ctx.invoked_subcommand or "")) from None


@click.group(cls=LnrnnGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(lnrnn.__version__, prog_name="lnrnn")
def main():
    """Normalized recurrent networks (LN/BN RNN and LSTM) with hand-written BPTT on Numba."""


# Every command, registered in this one place (`lnrnn --help` lists them by name).
for command in (train.train, eval_command.eval_cmd, data.data, info.info, plot.plot, gradcheck_command.gradcheck,
                sample_command.sample, predict_command.predict, read_command.read, export_command.export):
    main.add_command(command)
info.info.short_help = "Print versions, threads, BLAS and CUDA status."  # `lnrnn --help` would cut its docstring

if __name__ == "__main__":  # python -m lnrnn.cli ...
    main(prog_name="lnrnn")
