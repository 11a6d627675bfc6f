#!/usr/bin/python3
"""The SortingHat ladder's table, from `placesim run scenarios/reproduce/sortinghat.yaml --json` on
stdin; the command is at the top of results/reproduce/sortinghat.md.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ladder import geomean, header, ms, ratio, read_runs, table, times  # noqa: E402

COMMAND = ("build/placesim run scenarios/reproduce/sortinghat.yaml --json -o /tmp/reproduce-sortinghat.h5 "
           "| scenarios/reproduce/sortinghat_table.py > results/reproduce/sortinghat.md")
RUNGS = [("uncontended", "0", "each copy and host read alone on its route, as SortingHat profiles its constants (section 3.4)"),
         ("links", "1 (default)", "copies into GPUs of one PCIe bus share it")]
SERVERS = [("sortinghat-v100", "V100"), ("sortinghat-v100-hetero", "V100 (hetero)"), ("sortinghat-a6000", "A6000")]
MILP = "milp-sortinghat{warm=none,gap=0.1,node_limit=400,submodel_limit=3600,time_limit=36000"
POLICIES = [(MILP + "}", "SortingHat"), ("deepplan", "DeepPlan"), ("deepplan{parallel=blocks}", "DeepPlan, PT by blocks"),
            ("deepplan{parallel=false}", "DeepPlan without PT"),
            ("efficientmip{warm=none,gap=0.1,node_limit=400,submodel_limit=3600,time_limit=36000}", "EfficientMIP"),
            ("heft", "HEFT"), (MILP + ",topology_aware=false}", "SortingHat, links alike"),
            (MILP + ",topology_aware=false,gpu_aware=false}", "SortingHat, links and GPUs alike"),
            (MILP + ",bus_contention=false}", "SortingHat, no bus contention")]
# SortingHat's speed-ups over one GPU (its headline, section 4): its own, DeepPlan's, EfficientMIP's.
PAPER = {"SortingHat": "2.28x", "DeepPlan": "1.93x", "EfficientMIP": "1.16x"}

runs = read_runs()


def speedup(net, server, label):
    """One GPU's makespan over the policy's, None where either did not run."""
    return ratio(ms(runs[(net, server)]["single-device"]), ms(runs[(net, server)][label]))


header(COMMAND, "SortingHat: each policy's speed-up over one GPU, rung by rung",
       "SortingHat's three servers (section 4) x GPT-2 large cut to 2 layers (so every MILP ends at its node limit "
       "of 400 per submodel, within 10% or not; as results/sortinghat/reduced.md), a 32-token prompt, weights in "
       "host memory; speed-up: one GPU loading its weights over its own PCIe route (the paper's baseline) over the "
       "policy's simulated time. Each MILP runs on its own (no warm start). PT: parallel transmission, every "
       "weight split over the GPU's own bus and a neighbour's bus and NVLink (placesim's DeepPlan); PT by "
       "blocks: DeepPlan as its released code plans, embedding tables by direct host access and the other "
       "weights whole, in contiguous blocks of equal bytes, one block per route (its plan.py and "
       "src/deepplan/model.cpp). SortingHat reports 2.28x for "
       "itself, 1.93x for DeepPlan and 1.16x for EfficientMIP (section 4), and that its plans without topology "
       "awareness are slower on the heterogeneous server. Without topology awareness, two readings: the links "
       "taken as alike (every transfer speed the mean over GPUs or pairs), and the links and the GPUs (every op's "
       "time the mean over GPUs too; section 2.2 counts each GPU's performance as part of the topology).")
rows = []
for net, rung, what in RUNGS:
    for server, name in SERVERS:
        rows.append([rung, what if server == SERVERS[0][0] else "", name]
                    + [times(speedup(net, server, label)) for label, _ in POLICIES])
    rows.append([rung, "", "geomean"] + [times(geomean([speedup(net, s, label) for s, _ in SERVERS])) for label, _ in POLICIES])
rows.append(["paper", "measured", "geomean"] + [PAPER.get(name, "-") for _, name in POLICIES])
table(["rung", "assumption", "server"] + [name for _, name in POLICIES], rows, right_from=3)


def faster(net, server, a, b):
    return speedup(net, server, a) > speedup(net, server, b)


label = dict((n, l) for l, n in POLICIES)


def topology_gain(net, server, without):
    """SortingHat's speed-up over its plans made without topology awareness (`without`: a column)."""
    return speedup(net, server, label["SortingHat"]) / speedup(net, server, label[without])


without = "SortingHat, links and GPUs alike"
print("## Verdict\n")
for net, rung, _ in RUNGS:
    cells = []
    for a, b in [("SortingHat", "DeepPlan"), ("DeepPlan", "EfficientMIP"), ("SortingHat", "EfficientMIP"),
                 ("SortingHat", "DeepPlan, PT by blocks"), ("SortingHat", "DeepPlan without PT")]:
        n = sum(faster(net, s, label[a], label[b]) for s, _ in SERVERS)
        cells.append(f"{a} ahead of {b} on {n} of {len(SERVERS)}")
    gains = [f"{topology_gain(net, s, without):.4f}x on the {name}" for s, name in SERVERS]
    print(f"Rung {rung.split()[0]}: " + "; ".join(cells) + "; SortingHat with topology awareness over without it "
          f"(links and GPUs alike): " + ", ".join(gains) + ".\n")
print("Reproduced under the paper's assumptions: partly.\n")
print("* **SortingHat ahead of EfficientMIP holds where buses are shared** (rung 1, every server). With every "
      "copy alone on its route (rung 0) EfficientMIP leads on the two V100 servers: its model sends every transfer "
      "through DRAM at one speed and ignores bus sharing, which is right when nothing is shared; with the buses "
      "shared its plans lose up to 0.74x on the heterogeneous server, while SortingHat's, priced with shared "
      "buses, do not move. The flip is the bus contention the paper's ordering rests on.")
blocks_behind = sum(faster(RUNGS[-1][0], s, label["SortingHat"], label["DeepPlan, PT by blocks"]) for s, _ in SERVERS)
blocks_v100 = speedup(RUNGS[-1][0], SERVERS[0][0], label["DeepPlan, PT by blocks"])
sortinghat_v100 = speedup(RUNGS[-1][0], SERVERS[0][0], label["SortingHat"])
print("* **DeepPlan ahead of SortingHat on the V100 servers comes from placesim's DeepPlan splitting every "
      "weight, which DeepPlan does not do; DeepPlan as its own code plans is behind SortingHat, the paper's "
      "order.** placesim's DeepPlan (the DeepPlan column) sends a share f of each weight over the other bus and "
      "NVLink and copies the 128.7 MB embedding table, which the tied lm_head also reads; splitting that table "
      "is its whole lead on this 2-layer cut. DeepPlan's released code reads every Embedding layer by direct "
      "host access whatever else reads it (its plan.py) and cuts the copied layers, whole, into contiguous "
      "blocks of equal bytes, one per GPU (its src/deepplan/model.cpp). Done so (DeepPlan, PT by blocks), "
      f"DeepPlan gives {blocks_v100:.2f}x on the V100 at the default rung against SortingHat's "
      f"{sortinghat_v100:.2f}x, and SortingHat is ahead of it on {blocks_behind} of {len(SERVERS)} servers "
      "(on the A6000 DeepPlan gains nothing in any form). Without PT at "
      "all DeepPlan gains nothing over one GPU.")


def model_error(label):
    """The largest |predicted - simulated| / simulated of a MILP column over every rung and server."""
    return max(abs(runs[(net, s)][label]["predicted_s"] / runs[(net, s)][label]["makespan_s"] - 1)
               for net, _, _ in RUNGS for s, _ in SERVERS)


milp_columns = ["SortingHat", "SortingHat, links alike", "SortingHat, links and GPUs alike"]
print("* **SortingHat's plans run as its MILP means them, and simulate within "
      f"{100 * max(model_error(label[c]) for c in milp_columns):.1f}% of what it predicts** (every server, both "
      "rungs, with topology or without). Its own PT, a parameter copied into one GPU's slot and read on another, "
      "is the copy over the first GPU's bus forwarded whole over T_{a,b}; a tied weight read by direct host "
      "access by the embedding lookup and copied for the head later is read by DHA before the copy and from the "
      "copy after it (scheduler/placers/sortinghat/sortinghat_schedule.hpp).")
hetero, a6000, default = SERVERS[1][0], SERVERS[2][0], RUNGS[-1][0]
links_gain = max(abs(topology_gain(net, s, "SortingHat, links alike") - 1) for net, _, _ in RUNGS for s, _ in SERVERS)


def predicted_ms(net, server, name):
    return runs[(net, server)][label[name]]["predicted_s"] * 1e3


aware_a6000 = runs[(default, a6000)][label["SortingHat"]]
print("* **The topology ablation has the paper's sign on the heterogeneous server and almost no size; on the "
      "A6000 the plans made without it are faster because the MILP's search is unfinished, not because topology "
      "misleads it.** With the links alone taken as alike, SortingHat's plans move by at most "
      f"{100 * links_gain:.1f}% on any server: this cut is bound by the weights' copies over PCIe buses of one "
      "speed, so averaging the transfer speeds changes little of what the MILP weighs (the activations between "
      "GPUs are tens of kB; run to 20,000 nodes per submodel instead of 400, the MILP's gap stays at 27% "
      "with or without topology: the gap is the bound's, results/sortinghat/model-strength.md). Taking the GPUs "
      "as alike too, as section 2.2's topology includes each GPU's performance, costs "
      f"{topology_gain(RUNGS[0][0], hetero, without):.4f}x at rung 0 and {topology_gain(default, hetero, without):.4f}x "
      "at the default rung on the heterogeneous server: slower, as the paper has it, by little, because at 32 "
      "tokens the copies, not the kernels on its 135 MHz GPUs, set the time. On the A6000 it gains "
      f"({topology_gain(default, a6000, without):.4f}x): every plan there simulates as its MILP predicted, and "
      f"the topology-aware MILP stops at its node limit with a {100 * aware_a6000['gap']:.0f}% gap and an incumbent "
      f"of {predicted_ms(default, a6000, 'SortingHat'):.2f} ms, where the searches without topology stopped at "
      f"{predicted_ms(default, a6000, 'SortingHat, links alike'):.2f} and "
      f"{predicted_ms(default, a6000, without):.2f} ms: which unfinished search lands lower is chance here.")
own = [speedup(net, srv, label["SortingHat"]) for net, _, _ in RUNGS for srv, _ in SERVERS]
print(f"* **The size of every gain is below the paper's** (SortingHat {min(own):.2f}-{max(own):.2f}x against 2.28x): "
      "the 2-layer cut "
      "makes one table most of the weights (scenarios/sortinghat/grid.yaml runs whole models); HEFT, which "
      "runs the table's lookups on the CPU, beats every GPU-only policy here, a choice the paper's placers do "
      "not have.")
