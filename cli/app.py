"""The `nacverify` application: one module per command, assembled here."""

from __future__ import annotations

import sys

import click
import typer

from ._common import EXIT_ENVIRONMENT, EXIT_USAGE, err_console
from .list_cmd import list_claims
from .report_cmd import report_app

app = typer.Typer(
    name="nacverify",
    help="Verify the claims of the NAC and LTC papers: symbolic proofs, ODE solvers, a JAX NAC model. "
    "Exit codes: 0 every verdict as expected, 1 a verdict differs (the gate), 2 bad input, 3 environment problem.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
app.command("list")(list_claims)
app.add_typer(report_app, name="report")


def _register_commands() -> None:
    from .frozen_error import frozen_error

    app.command("frozen-error")(frozen_error)


_register_commands()


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point: usage errors become one line and exit 2."""
    try:
        code = app(args=argv, standalone_mode=False)
    except click.exceptions.Exit as exc:
        code = exc.exit_code
    except click.exceptions.Abort:
        err_console.print("nacverify: error: interrupted", markup=False)
        code = EXIT_ENVIRONMENT
    except click.ClickException as exc:
        err_console.print(f"nacverify: error: {exc.format_message()}".replace("\n", " "), markup=False)
        code = EXIT_USAGE if exc.exit_code in (1, 2) else exc.exit_code
    except KeyboardInterrupt:
        err_console.print("nacverify: error: interrupted", markup=False)
        code = EXIT_ENVIRONMENT
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
