#!/usr/bin/env python3
"""One scope per word: every access that the device code makes to a word of docs/design.md's
protocol table is at the scope the table gives it.

A word written at device scope and read at system scope (or the reverse) is ordered by neither
scope's rules. The table's "scope, order" column starts with `sys` or `dev`; each statement in
the kernels' and the flag library's headers that names the word and one of the atomic
operations is classified by that operation, and must agree.

    protocol_scope_test.py REPOSITORY_ROOT
"""
import pathlib
import re
import sys

# Operations at each scope. leader_wait, wait_word and their kin are system scope unless the
# statement passes Scope::same_side.
SAME_SIDE = re.compile(r"\b(\w+_same_side|Scope::same_side)\b")
SYSTEM = re.compile(r"\b(\w+_system|signal_flag|poll_flag|wait_flag|wait_word|leader_wait"
                    r"|leader_wait_word|\w+_flagged_\w+)\b")
# Words whose name in the code differs from the table's.
CODE_NAMES = {"node_arrival": "arrival_here", "node_ghosts_free": "ghosts_free_here",
              "abort": "abort"}
# Words the code reaches through a pointer of that name rather than a member.
BY_POINTER = {"lines"}
SOURCES = ["persistent_kernels/include", "libnotify/include"]


def table_rows(design):
    rows = []
    in_table = False
    for line in design.read_text().splitlines():
        if line.startswith("| word | lives in |"):
            in_table = True
            continue
        if in_table and not line.startswith("|"):
            break
        if in_table and not line.startswith("| ---"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            rows.append((cells[0], cells[4]))
    return rows


def words_of(cell):
    """`short_sends_signalled`, `a[m]`, `b[r]` -> short_sends_signalled, a, b."""
    return [re.sub(r"\[.*", "", w) for w in re.findall(r"`([^`]+)`", cell)]


def statements(root):
    for folder in SOURCES:
        for path in sorted((root / folder).rglob("*.hpp")):
            text = re.sub(r"//[^\n]*", "", path.read_text())
            for statement in text.split(";"):
                yield path.relative_to(root), " ".join(statement.split())


def main():
    root = pathlib.Path(sys.argv[1])
    rows = table_rows(root / "docs" / "design.md")
    if not rows:
        print("FAIL: no protocol table (| word | lives in | ...) in docs/design.md")
        return 1
    all_statements = list(statements(root))
    failures = []
    checked = 0
    for word_cell, scope_cell in rows:
        scope = scope_cell.split()[0] if scope_cell else ""
        if scope not in ("sys", "dev"):
            continue
        for word in words_of(word_cell):
            name = CODE_NAMES.get(word, word)
            before = r"\b" if word in BY_POINTER else r"(\.|->)"
            pattern = re.compile(before + re.escape(name) + r"\b")
            accesses = 0
            for path, statement in all_statements:
                if not pattern.search(statement):
                    continue
                if SAME_SIDE.search(statement):
                    found = "dev"
                elif SYSTEM.search(statement):
                    found = "sys"
                else:
                    continue  # not an atomic access (an address, a count)
                accesses += 1
                if found != scope:
                    failures.append(f"{path}: `{word}` is {scope} in docs/design.md but this "
                                    f"access is {found}: {statement[:160]}")
            checked += accesses
            print(f"{word}: {scope}, {accesses} device-code accesses")
    if checked == 0:
        print("FAIL: no access of any word was found; the patterns no longer match the code")
        return 1
    for failure in failures:
        print("FAIL:", failure)
    print(f"{checked} accesses checked, {len(failures)} at the wrong scope")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
