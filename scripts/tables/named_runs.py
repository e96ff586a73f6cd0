"""The runs one step of a record's device call wrote, one JSON file a run, each named by what it
ran (scripts/device/device_call_common.sh): jacobi2d_trees_table.py and jacobi3d_trees_table.py
read them through here."""
import json
from pathlib import Path


def named_variants(step_dir, pattern):
    """(the groups of `pattern` in the file's name, one entry of its "variants") for each JSON
    file of `step_dir` whose name `pattern` (a compiled regular expression) matches."""
    for path in sorted(Path(step_dir).glob("*.json")):
        match = pattern.match(path.name)
        if match:
            for variant in json.loads(path.read_text())["variants"]:
                yield match.groups(), variant
