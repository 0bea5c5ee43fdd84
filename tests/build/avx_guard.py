#!/usr/bin/env python3
"""Checks that the runtime's AVX2 code cannot run on a machine without AVX2.

The wide kernels (src/kernels/lanes8.h) are built in `#pragma GCC target("avx2")` regions and
chosen at run time. Code built there is safe as long as nothing but the wide path can call it:
functions with internal linkage, or named after the wide types. A function the baseline code
shares (an inline function of a header, a template instantiation of the standard library)
built there would be one the linker may pick for every caller, and a machine without AVX2
would then stop on an illegal instruction. This script lists every function of the archive
(or program) that uses VEX-encoded instructions (or popcnt and crc32, which the region enables
without a VEX form) and fails on any that is visible to other objects and not one of the wide
kernels.

It also fails on eight-lane code built for the baseline: a function named after the wide
types with no AVX code at all is a lane template defined outside the region (driveLanes,
clamp01...) that was not inlined into its AVX2 caller. It works, but it calls each eight-lane
operation out of line instead of running it: the wide kernel's speed is gone, silently.

Usage: avx_guard.py LIBRARY_OR_PROGRAM
"""

import re
import subprocess
import sys

# Wide-only names (as they appear in mangled symbols): only the wide path calls these.
ALLOWED = re.compile(r"WideGrid|Float8|Mask8|Count8|planPartWide")
# The eight-lane types themselves: code of theirs is AVX2 code, or it is built wrong.
WIDE_TYPE = re.compile(r"Float8|Mask8|Count8")
MEMBER = re.compile(r"^(?:In archive .*|(\S+):\s+file format .*)$")
FUNCTION = re.compile(r"^[0-9a-f]+ <(.+)>:$")
INSTRUCTION = re.compile(r"^\s+[0-9a-f]+:\s+(v[a-z0-9]+)\b(.*)$")
# Instructions AVX2's region enables that have no VEX form (SSE4.2's).
PLAIN_AVX2_ONLY = re.compile(r"^\s+[0-9a-f]+:\s+(popcnt|crc32)[a-z]*\b")


def objdump(*args):
    return subprocess.run(["objdump", *args], check=True, capture_output=True,
                          text=True).stdout


def avx_functions(path):
    """(member, symbol) of every function, and of those with AVX2-region instructions."""
    functions = set()
    found = set()
    member = function = None
    for line in objdump("-d", "--no-show-raw-insn", path).splitlines():
        m = MEMBER.match(line)
        if m:
            member = m.group(1) or member
            continue
        m = FUNCTION.match(line)
        if m:
            function = m.group(1)
            functions.add((member, function))
            continue
        if not function:
            continue
        m = INSTRUCTION.match(line)
        if (m and (m.group(1) == "vzeroupper" or "mm" in m.group(2))) or \
                PLAIN_AVX2_ONLY.match(line):
            found.add((member, function))
    return functions, found


def local_symbols(path):
    """(member, symbol) of every symbol with local binding."""
    local = set()
    member = None
    for line in objdump("-t", path).splitlines():
        m = MEMBER.match(line)
        if m:
            member = m.group(1) or member
            continue
        parts = line.split()
        # address, flags (l/g/w...), [type], section, size, name
        if len(parts) >= 5 and re.fullmatch(r"[0-9a-f]+", parts[0]):
            flags = line[len(parts[0]) + 1:len(parts[0]) + 8]
            if flags.startswith("l"):
                local.add((member, parts[-1]))
    return local


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    path = sys.argv[1]
    functions, vex = avx_functions(path)
    local = local_symbols(path)
    wide = sorted(f for f in vex if ALLOWED.search(f[1]))
    hazards = sorted(f for f in vex if f not in local and not ALLOWED.search(f[1]))
    # Mangled names: the wide types appear as e.g. 6Float8.
    baseline_wide = sorted(f for f in functions - vex if WIDE_TYPE.search(f[1]))
    print(f"{path}: {len(vex)} functions with AVX code, {len(wide)} of them wide kernels")
    for member, symbol in hazards:
        print(f"  shared function built for AVX2: {symbol} (in {member})")
    for member, symbol in baseline_wide:
        print(f"  eight-lane code built for the baseline: {symbol} (in {member})")
    if hazards:
        print("a machine without AVX2 could run these: include their headers before the "
              "AVX2 region, or keep them out of it", file=sys.stderr)
    if baseline_wide:
        print("these run eight lanes one out-of-line call at a time: force the template "
              "inline, or give the wide type its own overload in the region (lanes8.h)",
              file=sys.stderr)
    return 1 if hazards or baseline_wide else 0


if __name__ == "__main__":
    sys.exit(main())
