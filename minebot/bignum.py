"""Printing exact counts and probabilities that can be astronomically large.

Layout counts stay exact Python integers inside the solver (a 150x150 board with 5000 mines has
numbers of about 5000 digits). Python refuses to turn an integer of more than 4300 digits into
text, and nobody reads 40 digits anyway, so everything that prints a count or an exact
fraction goes through here: exact when short, otherwise rounded, never an exception.
"""

from __future__ import annotations

import math
from fractions import Fraction

EXACT_DIGITS = 15     # counts below 10**15 are printed exactly


def count_text(n: int) -> str:
    """``n`` exactly when it has at most ``EXACT_DIGITS`` digits, else like ``1.234e+4300``."""
    if abs(n) < 10 ** EXACT_DIGITS:
        return str(n)
    sign = "-" if n < 0 else ""
    exponent = math.floor(math.log10(abs(n)))
    mantissa = abs(n) / 10 ** exponent if exponent < 300 else 10 ** (math.log10(abs(n)) - exponent)
    if mantissa >= 9.9995:            # rounding carried into the next power of ten
        mantissa, exponent = mantissa / 10, exponent + 1
    return f"{sign}{mantissa:.3f}e+{exponent}"


def count_json(n: int) -> int | str:
    """``n`` as a JSON value: the exact integer while Python can print it, else ``count_text``."""
    return n if abs(n) < 10 ** 4000 else count_text(n)


def fraction_text(frac: Fraction) -> str:
    """``a/b`` exactly when both parts are short, else the value rounded (``~0.1234567``)."""
    if abs(frac.numerator) < 10 ** EXACT_DIGITS and frac.denominator < 10 ** EXACT_DIGITS:
        return str(frac)
    return f"~{float(frac):.7g}"
