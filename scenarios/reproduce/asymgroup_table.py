#!/usr/bin/python3
"""The AsymGroup ladder's tables: the latency ladder from `placesim run scenarios/reproduce/
asymgroup.yaml --json` on stdin, the volume table from asymgroup-volume.yaml's JSON (the file
named as the argument). The command is at the top of results/reproduce/asymgroup.md.
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ladder import fmt, geomean, header, ratio, read_runs, table, times  # noqa: E402

COMMAND = ("build/placesim run scenarios/reproduce/asymgroup-volume.yaml --json -o /tmp/reproduce-asymgroup-volume.h5 "
           "> /tmp/reproduce-asymgroup-volume.json && build/placesim run scenarios/reproduce/asymgroup.yaml --json "
           "-o /tmp/reproduce-asymgroup.h5 | scenarios/reproduce/asymgroup_table.py "
           "/tmp/reproduce-asymgroup-volume.json > results/reproduce/asymgroup.md")
RUNGS = [(("ideal", "unlimited"), "0", "the paper's model: closed forms, capability slices at Eq. 2-4's time; no memory capacity"),
         (("flow", "unlimited"), "1", "every collective's flows shared by max-min (a node's two GPUs share its NIC)"),
         (("flow", "limited"), "2 (default)", "and 80 GiB per A100")]
SCHEMES = [("megatron-tp", "Megatron-LM"), ("autoddl-2d", "AutoDDL"), ("asymgroup", "AsymGroup")]
# The volume scenario's model (`placesim list models`: GPT-3 175B, hidden 12288) at batch 200,
# 128 tokens, fp16: b h, the activation one linear gathers or scatters, in bytes.
BH = 200 * 128 * 12288 * 2

latency = read_runs()
with open(sys.argv[1]) as f:
    volume = read_runs(f)
systems = sorted({k[2] for k in latency}, key=lambda s: int(s.split("-s")[1]))


def seconds(run):
    return run["makespan_s"] if run.get("makespan_s") is not None else None


def fastest(net, system):
    p = latency[net + (system,)]
    done = [(seconds(p[s]), name) for s, name in SCHEMES if seconds(p[s]) is not None]
    return min(done)[1] if done else "-"


header(COMMAND, "AsymGroup: latency and volume, rung by rung",
       "AsymGroup's setup (section VI-A): 16 A100 nodes, S2 .. S14 of Table 1 with 2 .. 14 two-GPU nodes, GPT-3 175B, "
       "FP16, batch 200, 128 input and 128 output tokens, end-to-end seconds simulated. AsymGroup reports itself "
       "fastest on S2 .. S14 (section VI).")
rows = []
for net, rung, what in RUNGS:
    for system in systems:
        p = latency[net + (system,)]
        rows.append([rung, what if system == systems[0] else "", system.split("-")[1].upper()]
                    + [fmt(seconds(p[s]), ".3f") for s, _ in SCHEMES] + [fastest(net, system)])
table(["rung", "assumption", "system"] + [name for _, name in SCHEMES] + ["fastest"], rows, right_from=3)

rows = []
for net, rung, what in RUNGS:
    wins = sum(fastest(net, s) == "AsymGroup" for s in systems)
    over = [geomean([ratio(seconds(latency[net + (s,)][other]), seconds(latency[net + (s,)]["asymgroup"])) for s in systems])
            for other in ("megatron-tp", "autoddl-2d")]
    rows.append([rung, what, f"{wins} of {len(systems)}", times(over[0]), times(over[1])])
rows.append(["paper", "simulated (section VI)", f"{len(systems)} of {len(systems)}", "-", "-"])
table(["rung", "assumption", "AsymGroup fastest", "AsymGroup over Megatron-LM", "AsymGroup over AutoDDL"], rows)


def k_of(run):
    m = re.match(r"k = (\d+)", run.get("message") or "")
    return int(m.group(1)) if m else None


def per_linear(run, scheme, g):
    """The paper's volume of one linear per GPU: 1D b h (G-1)/G, Eq. 1 with the scheme's k, and
    AsymGroup's own Eq. 5 figure (its message, MiB)."""
    if scheme == "megatron-tp":
        return BH * (g - 1) / g
    if scheme == "autoddl-2d":
        k = k_of(run)
        return None if k is None else BH / g * ((k - 1) + (g / k - 1))
    m = re.search(r"volume ([\d.]+) MiB per linear", run.get("message") or "")
    return None if m is None else float(m.group(1)) * 2**20


def measured(run, scheme, g):
    return run["comm_bytes"]["total"] if run.get("comm_bytes") else None


counts = sorted({int(k[0]) for k in volume})
print("Volume over every node count 2 .. 64 (one A100 each, one prefill; asymgroup-volume.yaml): the mean over the "
      "counts of each scheme's change against the one before it, and at how many counts each scheme moves least. "
      "AsymGroup reports -45.1% (AutoDDL against Megatron-LM) and a further -33.4% (AsymGroup against AutoDDL) "
      "over 1 .. 64 nodes (section VI).\n")
rows = []
for name, what, measure in [("0", "the paper's measure: one linear, per GPU (Eq. 1; 1D: b h (G-1)/G; AsymGroup's Eq. 5)", per_linear),
                            ("1 (default)", "placesim's: every byte of every collective, all GPUs", measure_all := measured)]:
    v = {s: [measure(volume[(str(g),)][s], s, g) for g in counts] for s, _ in SCHEMES}

    def change(a, b):
        xs = [x / y - 1 for x, y in zip(v[a], v[b]) if x is not None and y]
        return sum(xs) / len(xs) * 100

    least = {s: sum(1 for i in range(len(counts)) if v[s][i] is not None and
                    v[s][i] <= min(v[o][i] for o, _ in SCHEMES if v[o][i] is not None)) for s, _ in SCHEMES}
    rows.append([name, what, f"{change('autoddl-2d', 'megatron-tp'):+.1f}%", f"{change('asymgroup', 'autoddl-2d'):+.1f}%"]
                + [str(least[s]) for s, _ in SCHEMES])
rows.append(["paper", "total communication volume (section VI)", "-45.1%", "-33.4%", "-", "-", "-"])
table(["rung", "volume", "AutoDDL vs Megatron-LM", "AsymGroup vs AutoDDL"] + [f"{n} least" for _, n in SCHEMES], rows)


def wins(net, a, b):
    """At how many systems scheme a is faster than scheme b."""
    return sum(1 for s in systems if (seconds(latency[net + (s,)][a]) or 1e300) < (seconds(latency[net + (s,)][b]) or 1e300))


print("## Verdict\n")
print("The paper's orderings on S2 .. S14, systems where each holds: "
      + "; ".join(f"rung {rung.split()[0]}: AsymGroup before AutoDDL {wins(net, 'asymgroup', 'autoddl-2d')}, "
                  f"before Megatron-LM {wins(net, 'asymgroup', 'megatron-tp')}" for net, rung, _ in RUNGS)
      + f" (of {len(systems)}). Volume: AutoDDL below Megatron-LM on average at rung 0, above at rung 1.\n")
print("Reproduced under the paper's assumptions: partly. What the rungs show:\n")
print("* **The volume headline is the paper's measure.** Counting one linear per collective with the "
      "activation b h on both sides (Eq. 1), AutoDDL moves 44% less than Megatron-LM on average over 2 .. 64 "
      "nodes, the paper's 45.1%. Counting every byte of every collective, AutoDDL moves about as much as "
      "Megatron-LM: a block has four linears, and the MLP's two take or give a 4h-wide activation, so the 2D "
      "schemes' all-gathers and reduce-scatters move up to four times what Eq. 1 counts, while Megatron-LM's two "
      "all-reduces per block are exactly its count. AsymGroup's further cut is there under both measures "
      "(-21% and -16% against the paper's -33.4%): at a prime count it is the only scheme with groups of "
      "more than one node.")
print("* **AsymGroup before AutoDDL holds where the flows are simulated** (rung 1, every system): a two-GPU "
      "node's ranks share its NIC, which costs AutoDDL's rings more than AsymGroup's capability slices. Under "
      "rung 0's closed forms it does not: the ring closed form takes the slowest hop's bandwidth but not two "
      "ranks sharing it, so it is optimistic for AutoDDL on these systems (a departure of the analytic "
      "fidelity, docs/execution.md), while AsymGroup's slices at Eq. 2-4's time end where max-min flows end "
      "(the two-GPU node's NIC, which Eq. 2 also charges, binds either way).")
print("* **AsymGroup is never the fastest**, where the paper has it first on every system; from rung 1 on, "
      "Megatron-LM is fastest on all seven. "
      "The volume rungs give the cause: the paper ranks schemes by Eq. 1's per-linear volume, under which "
      "2D tensor parallelism halves the traffic; with the MLP's real widths the 2D schemes move as much as "
      "Megatron-LM's all-reduces on 18 .. 30 GPUs, and pay more steps and latencies for it. Two mechanisms "
      "of the paper's setup are not built: Megatron-LM with FlexReduce (its baseline), and AsymGroup "
      "choosing k with the linears' real sizes, which could lower AsymGroup's volume.")
print("* **Memory** (rung 2) changes nothing at 128 output tokens; it decides a third of the longer "
      "generations (results/asymgroup/systems.md).")
