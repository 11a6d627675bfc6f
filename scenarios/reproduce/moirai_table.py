#!/usr/bin/python3
"""The MOIRAI ladder's table, from `placesim run scenarios/reproduce/moirai.yaml --json` on stdin.

  build/placesim run scenarios/reproduce/moirai.yaml --json -o /tmp/reproduce-moirai.h5 \\
    | scenarios/reproduce/moirai_table.py > results/reproduce/moirai.md

Per rung (the sweep's hardware.network) and testbed, geomeans over GPT-3 small .. 2.7B of
MOIRAI's speed-up over GETF and over m-SCT (their makespan over MOIRAI's), beside the paper's.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ladder import fmt, geomean, header, ms, ratio, read_runs, table  # noqa: E402

COMMAND = ("build/placesim run scenarios/reproduce/moirai.yaml --json -o /tmp/reproduce-moirai.h5 "
           "| scenarios/reproduce/moirai_table.py > results/reproduce/moirai.md")
RUNGS = [("uncontended", "0", "a full mesh of stable pairwise bandwidths, nothing shared (section III-A, C)"),
         ("links", "1 (default)", "transfers share the links they cross"),
         ("ideal", "experiment", "every transfer free")]
TESTBEDS = [("moirai-interserver", "inter-server"), ("moirai-intraserver", "intra-server")]
MOIRAI = "milp-moirai{warm=none,node_limit=1000,time_limit=3600}"
UNCOARSENED = "milp-moirai{coarsen=false,window=30,warm=none,node_limit=1000,time_limit=3600}"

runs = read_runs()
archs = sorted({k[2] for k in runs}, key=lambda a: [k[2] for k in runs].index(a))


def points(net, bed):
    return [runs[(net, bed, a)] for a in archs]


def over(net, bed, other, mine=MOIRAI):
    """Geomean of other's makespan over mine's: mine's speed-up."""
    return geomean([ratio(ms(p[other]), ms(p[mine])) for p in points(net, bed)])


def ceiling(net, bed):
    """Geomean of m-SCT's makespan over the bound: the most any placer could gain on it."""
    return geomean([ratio(ms(p["m-sct"]), p["critical-path"]["lower_bound_s"] * 1e3) for p in points(net, bed)])


def coarsening(net, bed):
    """Coarsening's gain per model, (uncoarsened - coarsened) / uncoarsened, as a range."""
    gains = [1 - ms(p[MOIRAI]) / ms(p[UNCOARSENED]) for p in points(net, bed)]
    return f"{min(gains) * 100:+.1f}% .. {max(gains) * 100:+.1f}%"


header(COMMAND, "MOIRAI: the MILP's gain over GETF and m-SCT, rung by rung",
       f"MOIRAI's setup (section IV-A): GPT-3 {', '.join(a[5:] for a in archs)} (2048 tokens, batch 1, fp16, weights "
       "resident) on its two testbeds (Table III). Speed-up: the baseline's simulated makespan over MOIRAI's "
       "(coarsened, on its own), geomean over the models. Bound/m-SCT: m-SCT's makespan over the critical-path "
       "bound, the most any placement could gain on m-SCT. Coarsening: the coarsened plan's gain over the "
       "uncoarsened one, lowest .. highest model. MOIRAI reports 1.33-1.35x over GETF, 1.7-1.9x over m-SCT, and "
       "coarsening gains of up to 5.7% (section IV).")
rows = []
for net, rung, what in RUNGS:
    for bed, name in TESTBEDS:
        rows.append([rung, what, name, fmt(over(net, bed, "getf"), ".3f") + "x", fmt(over(net, bed, "m-sct"), ".3f") + "x",
                     fmt(ceiling(net, bed), ".3f") + "x", fmt(over(net, bed, "m-sct", "getf"), ".3f") + "x",
                     coarsening(net, bed)])
rows.append(["paper", "measured on the testbeds", "both", "1.33-1.35x", "1.7-1.9x", "-", "> 1 (1.7-1.9 / 1.33-1.35)",
             "up to 5.7%"])
table(["rung", "assumption", "testbed", "MOIRAI over GETF", "MOIRAI over m-SCT", "bound over m-SCT",
       "GETF over m-SCT", "coarsening"], rows, right_from=3)

print("Makespans, ms (MOIRAI coarsened / uncoarsened, GETF, m-SCT, HEFT, bound):\n")
rows = []
for net, rung, _ in RUNGS:
    for bed, name in TESTBEDS:
        for a, p in zip(archs, points(net, bed)):
            rows.append([rung, name, a] + [fmt(ms(p[k]), ".2f") for k in (MOIRAI, UNCOARSENED, "getf", "m-sct", "heft")]
                        + [f"{p['critical-path']['lower_bound_s'] * 1e3:.2f}"])
table(["rung", "testbed", "model", "MOIRAI", "uncoarsened", "GETF", "m-SCT", "HEFT", "bound"], rows, right_from=3)


def order(net):
    """The paper's ordering on the inter-server testbed: MOIRAI beats GETF, which beats m-SCT."""
    bed = TESTBEDS[0][0]
    return over(net, bed, "getf") > 1 and over(net, bed, "m-sct", "getf") > 1


print("## Verdict\n")
print("The paper's ordering, MOIRAI ahead of GETF ahead of m-SCT, on the inter-server testbed: "
      + "; ".join(f"rung {rung.split()[0]}: {'yes' if order(net) else 'no'}" for net, rung, _ in RUNGS) + ".\n")
print("Reproduced under the paper's assumptions: no. What the rungs and columns show:\n")
print("* **GETF against m-SCT flips with the price of communication.** GETF's MILP places without "
      "transfer times (MOIRAI says so of it, section II-B), so across InfiniBand it alternates ops between "
      "the 2080 Ti and the T4 (GPT-3 small: 62 and 61 of its 123 ops, `placesim plan scenarios/reproduce/moirai.yaml --placer getf --point 0`) and pays every activation's crossing: with transfers priced, alone (rung 0) or shared "
      "(rung 1), it is several times slower than m-SCT; with transfers free (the experiment) it is "
      "the fastest, ahead of m-SCT, as the paper's order has it. Nothing shares a link in these "
      "plans, so rungs 0 and 1 agree to the digit: contention is not what separates placesim from the paper here.")
print("* **No placement of one request's prefill can be 1.7x faster than m-SCT.** The bound column is "
      "the ceiling: every op on its fastest device and every transfer free. GPT-3's prefill is a chain (each "
      "layer waits for the one before, the fused QKV GEMM leaves no branch), so the bound is within 8% of "
      "the best single GPU on the inter-server testbed and equal to one V100 on the intra-server one, where "
      "every policy finds that V100. MOIRAI's lead over m-SCT is choosing the T4 over the 2080 Ti (the "
      "T4 runs GEMMs faster), not splitting the model. The paper's 1.7-1.9x needs either an m-SCT that "
      "splits badly or workloads with parallel branches or memory pressure (its Swin-Transformer and "
      "AlphaFold2, and larger models, are not generated here; results/moirai/README.md tries GPT-3 6.7B).")
print("* **Coarsening** changes nothing where communication is priced (the MILP keeps one GPU either way); "
      "with transfers free the coarsened graph is worse, as GCOF binds each GEMM's epilogue to the GEMM's "
      "device.")
