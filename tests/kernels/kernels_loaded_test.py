#!/usr/bin/env python3
"""Every kernel the library launches is loaded before any runs.

CUDA loads a kernel at its first launch (lazy loading), and that load may wait until every
kernel running on the GPU has ended. Another Exchange's resident kernels end only at their
deadline, so a kernel missing from load_every_kernel() in gpu_kernel_runner.cu hangs its first
launch beside them; the host backend cannot show it. This checks the list against every
__global__ function of the library's GPU sources, and a kernel template over LinesCode in both
its builds.

    kernels_loaded_test.py REPOSITORY_ROOT
"""
import pathlib
import re
import sys

GLOBAL = re.compile(r"(template\s*<LinesCode\s+\w+>\s*)?"
                    r"__global__\s+void\s+(?:__launch_bounds__\([^)]*\)\s+)?(\w+)\s*\(")
LOADED = re.compile(r"kernel_address\((\w+(?:<[\w:]+>)?)\)")
BUILDS = ("LinesCode::absent", "LinesCode::present")


def loaded_kernels(runner):
    text = runner.read_text()
    start = text.index("void load_every_kernel()")
    end = text.index("(void)loaded;", start)
    return set(LOADED.findall(text[start:end]))


def main(root):
    sources = sorted((root / "persistent_kernels" / "src").glob("*.cu"))
    loaded = loaded_kernels(root / "persistent_kernels" / "src" / "gpu_kernel_runner.cu")
    missing = []
    for source in sources:
        for template, name in GLOBAL.findall(source.read_text()):
            names = [f"{name}<{build}>" for build in BUILDS] if template else [name]
            missing += [f"{source.relative_to(root)}: {n}" for n in names if n not in loaded]
    if missing:
        print("kernels not loaded by load_every_kernel() (their first launch beside resident "
              "kernels waits for those to end):")
        print("\n".join("  " + line for line in missing))
        return 1
    print(f"kernels_loaded_test: {len(loaded)} kernels loaded, none missing")
    return 0


if __name__ == "__main__":
    sys.exit(main(pathlib.Path(sys.argv[1])))
