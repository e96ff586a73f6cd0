"""Prints, one per line, the nvidia/nccl folders of this Python's NCCL packages (pip's
nvidia-nccl-cu12 or -cu13, which PyTorch brings): include/nccl.h and lib/libnccl.so.2 lie there.
Run by cmake/HaloflagNccl.cmake; prints nothing when there is none."""
import glob
import os
import site
import sys

found = []
try:
    import nvidia.nccl as package  # a namespace package on some wheels: use __path__

    found.extend(getattr(package, "__path__", []))
except Exception:  # no such package, or a broken one: the globs below may still find it
    pass
folders = list(sys.path)
try:
    folders.extend(site.getsitepackages())
except Exception:  # virtual environments of old Pythons lack it
    pass
try:
    folders.append(site.getusersitepackages())
except Exception:
    pass
for folder in folders:
    if folder:
        found.extend(glob.glob(os.path.join(folder, "nvidia", "nccl")))
seen = set()
for folder in found:
    folder = os.path.realpath(folder)
    if folder not in seen and os.path.isdir(folder):
        seen.add(folder)
        print(folder)
