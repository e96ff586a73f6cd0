"""Runs the README's "From Python" example: the first ```python block after that heading.

    mpiexec -n 2 python tests/python/readme_example.py README.md
"""

import re
import sys

readme = open(sys.argv[1], encoding="utf-8").read()
section = readme.split("\n## From Python\n", 1)
if len(section) != 2:
    sys.exit(f"{sys.argv[1]} has no '## From Python' section")
block = re.search(r"```python\n(.*?)```", section[1], re.S)
if block is None:
    sys.exit(f"{sys.argv[1]}: the 'From Python' section has no ```python block")
exec(compile(block.group(1), f"{sys.argv[1]} (From Python)", "exec"), {"__name__": "__main__"})
