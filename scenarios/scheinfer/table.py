#!/usr/bin/python3
"""Markdown tables of `placesim run scenarios/scheinfer/<scenario>.yaml --json` (read from stdin).

  build/placesim run scenarios/scheinfer/testbeds.yaml --json -o /tmp/scheinfer.h5 \\
    | scenarios/scheinfer/table.py scenarios/scheinfer/testbeds.yaml > results/scheinfer/testbeds.md

(the scenario named, it prints at its top the command that regenerates the file exactly).

Per sweep point: tokens per second of each placer (a prompt: its tokens over the step's simulated
time; generation: one token per sequence per step), or why it has none (infeasible: the device
whose memory it exceeds); then scheinfer's speed-up over each baseline, per point and as the
geometric mean over the points where both ran; and each scheinfer row's slice rates (the median
over layers of r_CC / r_CG / r_GG, of the share of the weights kept off the GPU that are copied per
use, r_CG / (r_CC + r_CG), and of n_g in a prompt), from its `choices`.
"""
import json
import math
import statistics
import sys

doc = json.load(sys.stdin)
scenario = sys.argv[1] if len(sys.argv) > 1 else None
print(f"# {doc['scenario']}\n")
if scenario:
    stem = scenario.rsplit("/", 1)[-1].removesuffix(".yaml")
    print(f"Made by: `build/placesim run {scenario} --json -o /tmp/scheinfer.h5 | scenarios/scheinfer/table.py "
          f"{scenario} > results/scheinfer/{stem}.md`\n")

POINT_KEYS = {"hardware.include": "testbed", "model.[arch,dtype]": "model", "hardware.devices": "GPU memory",
              "model.phase": "phase", "cost.threads": "threads"}


def label(key, value):
    if key == "hardware.devices":  # [{id: gpu0, memory: 12GB}]
        return value.split("memory:")[-1].strip(" }]")
    if key == "hardware.include":
        return value.replace("scheinfer-", "").upper()
    return str(value).strip("[]").replace(", ", " ")


points, order = {}, []
for r in doc["runs"]:
    key = tuple(label(k, v) for k, v in r["point"].items())
    if key not in points:
        points[key] = {}
        order.append(key)
    points[key][r["placer"]] = r
axes = [POINT_KEYS.get(k, k) for k in doc["runs"][0]["point"].keys()]
placers = list(dict.fromkeys(r["placer"] for r in doc["runs"]))
baselines = [p for p in placers if p != "scheinfer"]


def tokens(r, key):
    """Tokens one step makes: the prompt's (batch x seq) or one per sequence."""
    if r["status"] != "ok" or r["makespan_s"] is None:
        return None
    prompt = "prefill" in key
    return (1024 if prompt else 1) / r["makespan_s"]


def cell(r, key):
    t = tokens(r, key)
    if t is not None:
        return f"{t:.3g}"
    return r["status"] + (f" ({r['message'].split(':')[0]})" if r["status"] == "infeasible" else "")


print("## Tokens per second\n")
print("| " + " | ".join(axes + placers) + " | " + " | ".join(f"scheinfer / {b}" for b in baselines) + " |")
print("|" + "---|" * len(axes) + "---:|" * (len(placers) + len(baselines)))
ratios = {b: [] for b in baselines}
for key in order:
    runs = points[key]
    row = list(key) + [cell(runs[p], key) for p in placers]
    s = tokens(runs["scheinfer"], key) if "scheinfer" in runs else None
    for b in baselines:
        t = tokens(runs[b], key) if b in runs else None
        if s is not None and t is not None:
            ratios[b].append(s / t)
            row.append(f"{s / t:.2f}x")
        else:
            row.append("-")
    print("| " + " | ".join(row) + " |")
print()
for b in baselines:
    r = ratios[b]
    if r:
        g = math.exp(sum(math.log(x) for x in r) / len(r))
        print(f"- scheinfer over {b}: geometric mean {g:.2f}x over {len(r)} points where both ran "
              f"(min {min(r):.2f}x, max {max(r):.2f}x)")
for variant in [p for p in placers if p.startswith("scheinfer")]:
    print()
    print(f"## {variant}'s slice rates (median over layers)\n")
    print("| " + " | ".join(axes) + " | r_CC | r_CG | r_GG | r_CG / (r_CC + r_CG) | n_g | GG bytes | how r_GG was chosen |")
    print("|" + "---|" * len(axes) + "---:|---:|---:|---:|---:|---:|---|")
    for key in order:
        r = points[key].get(variant)
        if not r or not r.get("choices"):
            continue
        c = r["choices"]
        med = {k: statistics.median(l[k] for l in c["layers"]) for k in ("cc", "cg", "gg")}
        ng = statistics.median(l["n_g"] for l in c["layers"]) if "n_g" in c["layers"][0] else None
        copied = statistics.median(l["cg"] / (l["cc"] + l["cg"]) if l["cc"] + l["cg"] > 0 else 0 for l in c["layers"])
        print("| " + " | ".join(list(key) + [f"{med['cc']:.3f}", f"{med['cg']:.3f}", f"{med['gg']:.3f}", f"{copied:.3f}",
                                              "-" if ng is None else f"{ng:.0f}", f"{c['gg_bytes'] / 1e9:.2f} GB",
                                              c["gg_source"]]) + " |")
