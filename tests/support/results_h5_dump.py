#!/usr/bin/python3
"""Prints a placesim results file (layout: docs/formats.md, "Results files") as one canonical JSON document,
read with h5py alone: the root attributes but `created` and `command`, and one record per row
of `runs` with the rows of the other tables that belong to it and its typed axis values. The
wall-clock placement_s is left out, so two runs of one scenario print the same text.
Exits 1 when h5py cannot open or read the file."""
import json
import math
import sys

import h5py


def plain(v):
    if isinstance(v, bytes):
        return v.decode("utf-8")
    if hasattr(v, "item"):
        v = v.item()
    if isinstance(v, bytes):
        return v.decode("utf-8")
    if isinstance(v, float) and math.isnan(v):
        return None
    return v


def rows(f, name):
    if name not in f:
        return []
    table = f[name][()]
    return [{k: plain(row[k]) for k in table.dtype.names} for row in table]


def main(path):
    with h5py.File(path, "r") as f:
        attrs = {k: plain(v) for k, v in sorted(f.attrs.items()) if k not in ("created", "command")}
        runs = rows(f, "runs")
        for r in runs:
            r.pop("placement_s", None)
            r["peak_memory"], r["comm_bytes"], r["generation"], r["milp"], r["axes"] = [], [], [], [], {}
        for table in ("peak_memory", "comm_bytes", "generation", "milp"):
            for row in rows(f, table):
                runs[row.pop("run")][table].append(row)
        for name, values in (f["point"].items() if "point" in f else []):
            for r, v in zip(runs, values[()]):
                r["axes"][plain(values.attrs["axis"])] = plain(v)
    print(json.dumps({"attrs": attrs, "runs": runs}, sort_keys=True))


if __name__ == "__main__":
    try:
        main(sys.argv[1])
    except Exception as e:  # noqa: BLE001 - any failure to read is the answer
        print(f"cannot read {sys.argv[1]}: {e!r}", file=sys.stderr)
        sys.exit(1)
