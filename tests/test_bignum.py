"""Exact counts print exactly when short and rounded when long, never raising."""

from __future__ import annotations

from fractions import Fraction
from math import comb

from minebot.bignum import count_json, count_text, fraction_text


def test_counts_exact_when_short_rounded_when_long():
    assert count_text(0) == "0" and count_text(10 ** 15 - 1) == "999999999999999"
    assert count_text(10 ** 15) == "1.000e+15"
    assert count_text(99995 * 10 ** 20) == "1.000e+25"          # rounding carries over
    assert count_text(-(10 ** 20)) == "-1.000e+20"
    assert count_text(comb(22500, 5000)) == "7.884e+5173"       # more digits than str() allows


def test_json_keeps_exact_integers_python_can_print():
    assert count_json(10 ** 100) == 10 ** 100
    assert count_json(comb(22500, 5000)) == "7.884e+5173"


def test_fractions_exact_when_short():
    assert fraction_text(Fraction(3, 7)) == "3/7"
    big = comb(22500, 5000)
    assert fraction_text(Fraction(big // 3 + 1, big)) == "~0.3333333"
