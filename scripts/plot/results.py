"""Reading placesim's HDF5 results files (layout: docs/formats.md, "Results files")."""
import json
import math

import h5py


def text(v):
    return v.decode() if isinstance(v, bytes) else v


def point_of(runs, i):
    """Row i's sweep point, {axis: value} in axis order: the `point` column, a JSON object.

    The one place that knows how a point is stored, so a change of layout changes only this."""
    return json.loads(text(runs["point"][i]))


def _opt(x):
    return None if math.isnan(x) else float(x)


def read(path):
    """The file's path, scenario and runs: one dict per row of `runs`, with its point,
    placer, status, makespan_s, predicted_s (None where absent), placement_s, peak_mem (bytes per
    device) and bound (a critical-path bound: ok, a prediction and no simulated makespan)."""
    with h5py.File(path, "r") as f:
        runs = f["runs"][()]
        peaks = f["peak_memory"][()]
        scenario = text(f.attrs["scenario"])
    out = []
    for i in range(len(runs)):
        r = {
            "point_index": int(runs["point_index"][i]),
            "point": point_of(runs, i),
            "placer": text(runs["placer"][i]),
            "status": text(runs["status"][i]),
            "makespan_s": _opt(runs["makespan_s"][i]),
            "predicted_s": _opt(runs["predicted_s"][i]),
            "placement_s": float(runs["placement_s"][i]),
            "peak_mem": {},
        }
        r["bound"] = r["status"] == "ok" and r["makespan_s"] is None and r["predicted_s"] is not None
        out.append(r)
    for row in peaks:
        out[int(row["run"])]["peak_mem"][text(row["device"])] = float(row["bytes"])
    return {"path": path, "scenario": scenario, "runs": out}


def names(sets):
    """Each file's name among several, as `placesim compare` gives it in its "scenario" axis: the
    scenario's name, or the file's path where two files share a scenario."""
    scenarios = [s["scenario"] for s in sets]
    return [s["path"] if scenarios.count(s["scenario"]) > 1 else s["scenario"] for s in sets]


def placers_in_order(sets):
    """Every placer of the files, in order of first appearance (as `placesim compare` lists them)."""
    seen = []
    for s in sets:
        for r in s["runs"]:
            if r["placer"] not in seen:
                seen.append(r["placer"])
    return seen

