#!/usr/bin/env python3
"""The rooms of halo/src that docs/transports.md and docs/design.md promise:

- no file outside halo/src/transports/ includes a transport's folder or names a class or
  struct declared there (the set-up reaches transports through exchange_transport.hpp and
  transport_registry.cpp alone);
- no transport's folder includes another transport's folder or the Exchange's facade
  (halo/src/exchange/, haloflag/halo/exchange.hpp);
- transport_registry.cpp lists every transport folder, once;
- the public headers include no transport's internals.

    transport_rooms_test.py REPOSITORY_ROOT
"""
import pathlib
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
DECLARED = re.compile(r"^\s*(?:class|struct)\s+(\w+)\b(?!\s*;)", re.M)
SOURCE_SUFFIXES = {".hpp", ".cpp", ".cu", ".h"}


def sources(folder):
    return sorted(p for p in folder.rglob("*") if p.suffix in SOURCE_SUFFIXES)


def main(root):
    src = root / "halo" / "src"
    transports = src / "transports"
    folders = sorted(p.name for p in transports.iterdir() if p.is_dir())
    problems = []

    declared = {}  # name -> the transport folder that declares it
    for folder in folders:
        for path in sources(transports / folder):
            for name in DECLARED.findall(path.read_text()):
                declared.setdefault(name, folder)
    if not declared:
        problems.append("no class found in any transport folder: the test reads nothing")

    name_pattern = re.compile(r"\b(" + "|".join(map(re.escape, declared)) + r")\b")
    for path in sources(src):
        text = path.read_text()
        rel = path.relative_to(root)
        # In a transport's folder (the files at transports/ itself are the shared interface).
        inside = transports in path.parents and path.parent != transports
        shared = path.parent == transports
        own = path.relative_to(transports).parts[0] if inside else None
        for included in INCLUDE.findall(text):
            parts = included.split("/")
            if not inside and not shared and parts[0] == "transports" and len(parts) > 2:
                problems.append(f"{rel}: includes {included}, a transport's own header")
            if inside and parts[0] == "transports" and len(parts) > 2 and parts[1] != own:
                problems.append(f"{rel}: the {own} transport includes {included}")
            if inside and (parts[0] == "exchange" or included == "haloflag/halo/exchange.hpp"):
                problems.append(f"{rel}: a transport includes the facade's {included}")
        if not inside and not shared:
            code = re.sub(r"//[^\n]*", "", text)
            for match in name_pattern.finditer(code):
                problems.append(f"{rel}: names {match.group(1)}, declared in transports/"
                                f"{declared[match.group(1)]}/")

    registry = (transports / "transport_registry.cpp").read_text()
    for folder in folders:
        count = len(re.findall(r'\{"' + folder + r'",\s*&make_' + folder + r'_transport\}',
                               registry))
        if count != 1:
            problems.append(f"transport_registry.cpp lists the {folder} transport {count} times")

    for path in sources(root / "halo" / "include"):
        for included in INCLUDE.findall(path.read_text()):
            if included.startswith("transports/") or included == "haloflag/halo/mpi_pieces.hpp":
                problems.append(f"{path.relative_to(root)}: a public header includes {included}")

    for problem in problems:
        print(problem)
    print(f"{len(folders)} transport folders ({', '.join(folders)}), {len(declared)} classes "
          f"declared in them; {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(pathlib.Path(sys.argv[1]).resolve()))
