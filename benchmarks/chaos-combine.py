#!/usr/bin/env python3
"""One report of several chaos runs made side by side (zkion.chaos.lab) on one commit with the same settings.

usage: benchmarks/chaos-combine.py OUT_BASE RUN.json [RUN.json ...]

Writes OUT_BASE.json and OUT_BASE.md. Refuses runs of different commits, of a dirty tree, or with settings that
differ in more than their seed and fault count: the sums would then describe no one build. Recovery percentiles are
taken over all the runs' faults of a kind, nearest rank, as the chaos module's own report takes them.
"""
import json
import math
import sys
from datetime import datetime, timezone

PER_RUN = ("seed", "faults")


def nearest_rank(samples, p):
    if not samples:
        return -1
    s = sorted(samples)
    rank = math.ceil(p / 100.0 * len(s))
    return s[max(0, min(len(s) - 1, rank - 1))]


def same_build(runs, names):
    first = {k: v for k, v in runs[0]["settings"].items() if k not in PER_RUN}
    for run, name in zip(runs, names):
        rest = {k: v for k, v in run["settings"].items() if k not in PER_RUN}
        if rest != first:
            sys.exit(f"{name}: settings differ from {names[0]}: {rest} against {first}")
        if rest.get("commit", "unknown").endswith("-dirty") or rest.get("commit") == "unknown":
            sys.exit(f"{name}: not a clean commit: {rest.get('commit')}")
    starts = [(r["settings"]["seed"], r["startedAt"]) for r in runs]
    if len(set(starts)) != len(starts):
        sys.exit("the same run is given twice: " + ", ".join(names))
    seeds = [r["settings"]["seed"] for r in runs]
    if len(set(seeds)) != len(seeds):
        print("warning: runs share a seed, so they drew the same faults: " + ", ".join(names), file=sys.stderr)
    return first


def combine(runs, names):
    settings = same_build(runs, names)
    kinds = {}
    totals = {}
    violations, exits, sources, remedies = [], [], [], []
    for run, name in zip(runs, names):
        sources.append({"report": name, "seed": run["settings"]["seed"], "faults": run["faultsInjected"],
                        "durationMs": run["durationMs"], "violations": len(run["violations"])})
        for f in run["faults"]:
            k = kinds.setdefault(f["kind"], {"count": 0, "recovered": 0, "ms": []})
            k["count"] += 1
            if f.get("recoveryMs", -1) >= 0:
                k["recovered"] += 1
                k["ms"].append(f["recoveryMs"])
            if "orphaned transaction" in (f.get("note") or ""):
                remedies.append({"run": name, "fault": f["index"], "kind": f["kind"], "note": f["note"]})
        for key, value in run["totals"].items():
            totals[key] = totals.get(key, 0) + value
        violations += [dict(v, run=name) for v in run["violations"]]
        exits += [f"{name}: {e}" for e in run["unplannedExits"]]
    by_kind = {kind: {"count": k["count"], "recovered": k["recovered"],
                      "recoveryP50Ms": nearest_rank(k["ms"], 50), "recoveryP99Ms": nearest_rank(k["ms"], 99),
                      "recoveryMaxMs": max(k["ms"]) if k["ms"] else -1} for kind, k in kinds.items()}
    started = min(r["startedAt"] for r in runs)
    ended = max(r["startedAt"] + r["durationMs"] for r in runs)
    return {"runs": sources, "settings": settings, "faultsInjected": sum(s["faults"] for s in sources),
            "wallMs": ended - started, "startedAt": started, "faultsByKind": by_kind, "totals": totals,
            "violations": violations, "unplannedExits": exits, "orphanRemedies": remedies}


def seconds(ms):
    return "-" if ms < 0 else f"{ms / 1000:.1f} s"


def markdown(c):
    s = c["settings"]
    start = datetime.fromtimestamp(c["startedAt"] / 1000, timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    out = [f"# Chaos runs side by side: {c['faultsInjected']} faults on commit {s.get('commit')}", "",
           f"{len(c['runs'])} runs at once on one machine, each {s['servers']} servers and {s['clients']} clients "
           f"(separate JVMs) over its own ZooKeeper ensemble of {s['zookeeperServers']} processes and its own "
           f"network lab; session timeout {s['sessionTimeoutMs']} ms; the log rolls over past {s['rollLogAt']} "
           f"entries; workload cache {s['atomicity']}; kinds {s['kinds']}. Started {start}; "
           f"{c['wallMs'] / 60000:.1f} minutes from the first start to the last end.", "",
           f"**Violations: {len(c['violations'])}** (target 0). **Nodes that exited with no fault aimed at them: "
           f"{len(c['unplannedExits'])}.**", "", "| run report | seed | faults | minutes | violations |",
           "| --- | ---: | ---: | ---: | ---: |"]
    for r in c["runs"]:
        out.append(f"| `{r['report']}` | {r['seed']} | {r['faults']} | {r['durationMs'] / 60000:.1f} | "
                   f"{r['violations']} |")
    out += ["", "Recovery, over all runs' faults of a kind (each run's report defines it):", "",
            "| fault | count | recovered | recovery p50 | recovery p99 | max |",
            "| --- | ---: | ---: | ---: | ---: | ---: |"]
    for kind, k in sorted(c["faultsByKind"].items(), key=lambda e: -e[1]["count"]):
        out.append(f"| {kind} | {k['count']} | {k['recovered']} | {seconds(k['recoveryP50Ms'])} | "
                   f"{seconds(k['recoveryP99Ms'])} | {seconds(k['recoveryMaxMs'])} |")
    out += ["", "| total, summed over the runs | value |", "| --- | ---: |"]
    out += [f"| {key} | {value} |" for key, value in c["totals"].items()]
    out += ["", "## Violations", ""]
    out += [f"- {v['run']}: {json.dumps({k: x for k, x in v.items() if k != 'run'})}" for v in c["violations"]] \
        or ["None."]
    out += ["", "## Nodes that exited with no fault aimed at them", ""]
    out += [f"- {e}" for e in c["unplannedExits"]] or ["None."]
    out += ["", "## Ignite's orphaned transaction, rolled back by the run (docs/operations.md)", ""]
    out += [f"- {r['run']}, fault {r['fault']} ({r['kind']}): {r['note']}" for r in c["orphanRemedies"]] or ["None."]
    return "\n".join(out) + "\n"


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    names = argv[2:]
    runs = [json.load(open(n)) for n in names]
    c = combine(runs, [n.rsplit("/", 1)[-1] for n in names])
    with open(argv[1] + ".json", "w") as f:
        json.dump(c, f, indent=1)
    with open(argv[1] + ".md", "w") as f:
        f.write(markdown(c))


if __name__ == "__main__":
    main(sys.argv)
