"""The `nacverify` command line (Typer). Thin: parse, call the library, render, exit.

The command line is a program of its own, so it switches its whole process to float64
(`nacverify.precision.enable_float64_globally`); the library never does.
"""

from nacverify.precision import enable_float64_globally

enable_float64_globally()
