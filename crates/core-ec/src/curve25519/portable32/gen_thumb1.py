#!/usr/bin/env python3
"""Prints the Thumb-1 product-scanning body of `portable32::thumb1::mul` (the `square` mode
is kept for measurement: it came out slower than the compiled square).

Registers (after the body's prologue moves them up): r8 = a, r10 = the reversed second
operand (b[19 − m], or 2·a[19 − m] for the square), r12 = the 20-word output. r0
accumulates a column and then carries into the next one; r1/r2 walk a and the reversed
operand with LDM, two limbs at a time; r3–r6 hold limbs.
Run: python3 gen_thumb1.py mul, and paste the lines into the `asm!` template."""
import sys

N = 20


def column_end(k, out):
    """Limb k = r0 mod 2^13, r0 = the carry. Limbs from 20 up fold into limb k − 20 as 608
    times themselves (2^260 ≡ 608), so that the output is twenty limbs below 2^23."""
    out += [
        "lsls r3, r0, #19",
        "lsrs r3, r3, #19",
        "lsrs r0, r0, #13",
        "mov r4, r12",
    ]
    fold(k, out)


def fold(k, out, reg="r3"):
    if k < N:
        out += [f"str {reg}, [r4, #{4 * k}]"]
    else:
        out += [
            "movs r5, #19",
            "lsls r5, r5, #5",
            f"muls {reg}, r5, {reg}",
            f"ldr r6, [r4, #{4 * (k - N)}]",
            f"adds {reg}, {reg}, r6",
            f"str {reg}, [r4, #{4 * (k - N)}]",
        ]


def products(n, out):
    """n products of a[pa++] and rev[pb++] added to r0."""
    for _ in range(n // 2):
        out += [
            "ldm r1!, {{r3, r4}}",
            "ldm r2!, {{r5, r6}}",
            "muls r3, r5, r3",
            "muls r4, r6, r4",
            "adds r0, r0, r3",
            "adds r0, r0, r4",
        ]
    if n % 2:
        out += ["ldm r1!, {{r3}}", "ldm r2!, {{r5}}", "muls r3, r5, r3", "adds r0, r0, r3"]


def pointers(i0, j0, out):
    out += ["mov r1, r8"]
    if i0:
        out += [f"adds r1, #{4 * i0}"]
    out += ["mov r2, r10"]
    if j0:
        out += [f"adds r2, #{4 * j0}"]


def gen(square):
    out = ["movs r0, #0"]
    for k in range(2 * N - 1):
        i0 = max(0, k - (N - 1))
        j0 = N - 1 - k + i0  # index of rev[] holding operand k − i0
        if square:
            n = (k + 1) // 2 - i0  # cross products a[i]·2a[k−i], i < k − i
        else:
            n = min(k, N - 1) - i0 + 1
        if n > 0 or square:
            pointers(i0, j0, out)
        products(n, out)
        if square and k % 2 == 0:
            out += ["ldr r3, [r1]", "muls r3, r3, r3", "adds r0, r0, r3"]
        column_end(k, out)
    out += ["mov r4, r12"]
    fold(2 * N - 1, out, "r0")
    return out


for line in gen(sys.argv[1] == "square"):
    print(f'"{line}",')
