#!/usr/bin/env python3
"""The instruction mix of a kernel's loops, from the SASS that `cuobjdump -sass` prints: each
backward branch closes a loop, and a loop that multiplies floating-point values (a stencil's
scale) is listed with its instruction count and what those instructions are
(docs/results/h200/2026-12-01_column_prefetch).

  cuobjdump -sass OBJECT > kernels.sass
  scripts/tables/sass_loop_mix.py kernels.sass KERNEL_REGEX [MAX_INSTRUCTIONS]

KERNEL_REGEX picks the first function whose mangled name matches (re.search); loops of more than
MAX_INSTRUCTIONS (400) are left out. Markdown on stdout, one row per loop in address order:
loads and stores to global memory, local-memory loads and stores (spills), the floating-point
adds and multiplies, and the integer work that forms addresses (IADD3, IMAD, LEA, SHF).
"""
import re
import sys

FUNCTION = re.compile(r"Function : (\S+)")
INSTRUCTION = re.compile(r"/\*([0-9a-f]+)\*/\s+(.*?)\s*;")
BRANCH = re.compile(r"\bBRA\b.*?0x([0-9a-f]+)")
COLUMNS = [("LDG", "global loads"), ("STG", "global stores"), ("LDL", "spill loads"),
           ("STL", "spill stores"), ("ADD", "float adds"), ("MUL", "float multiplies"),
           ("address", "IADD3 / IMAD / LEA / SHF")]


def kernel_instructions(lines, pattern):
    """[(address, text)] of the first function whose name matches `pattern`."""
    inside = False
    instructions = []
    for line in lines:
        function = FUNCTION.search(line)
        if function:
            if inside:
                break
            inside = re.search(pattern, function.group(1)) is not None
            continue
        match = INSTRUCTION.search(line) if inside else None
        if match:
            instructions.append((int(match.group(1), 16), match.group(2)))
    return instructions


def count(body, column):
    opcodes = [text.split()[0] if not text.startswith("@") else text.split()[1]
               for _, text in body]
    if column == "address":
        return sum(1 for op in opcodes if op.split(".")[0] in ("IADD3", "IMAD", "LEA", "SHF"))
    if column in ("ADD", "MUL"):
        return sum(1 for op in opcodes if op.split(".")[0] in ("D" + column, "F" + column))
    return sum(1 for op in opcodes if op.split(".")[0] == column)


def loops(instructions, largest):
    """(first address, last address, body) of each loop that multiplies floating-point values."""
    index = {address: i for i, (address, _) in enumerate(instructions)}
    for i, (address, text) in enumerate(instructions):
        branch = BRANCH.search(text)
        if not branch:
            continue
        target = int(branch.group(1), 16)
        if target >= address or target not in index:
            continue
        body = instructions[index[target]:i + 1]
        if len(body) <= largest and count(body, "MUL") > 0:
            yield target, address, body


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit("usage: sass_loop_mix.py SASS_FILE KERNEL_REGEX [MAX_INSTRUCTIONS]")
    with open(sys.argv[1], encoding="utf-8") as sass:
        instructions = kernel_instructions(sass, sys.argv[2])
    if not instructions:
        sys.exit(f"sass_loop_mix.py: no function matching {sys.argv[2]!r} in {sys.argv[1]}")
    largest = int(sys.argv[3]) if len(sys.argv) == 4 else 400
    print("| loop | instructions | " + " | ".join(name for _, name in COLUMNS) + " |")
    print("| --- | ---: | " + " | ".join("---:" for _ in COLUMNS) + " |")
    for first, last, body in loops(instructions, largest):
        print(f"| {first:#x}–{last:#x} | {len(body)} | " +
              " | ".join(str(count(body, column)) for column, _ in COLUMNS) + " |")


if __name__ == "__main__":
    main()
