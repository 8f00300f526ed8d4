#!/usr/bin/env python3
"""Turns a JMH JSON result into a markdown table, with the issue's targets checked in the same run."""
import json
import sys
from pathlib import Path

suite, out = sys.argv[1], Path(sys.argv[2])
rows = json.loads((out / f"{suite}.json").read_text())
settings = (out / f"{suite}.settings").read_text().strip()


def key(r):
    name = r["benchmark"].rsplit(".", 1)[1]
    params = r.get("params", {})
    return name, params.get("payload") or params.get("pending") or params.get("members")


res = {}
for r in rows:
    alloc = r["secondaryMetrics"].get("gc.alloc.rate.norm", {}).get("score")
    p = r["primaryMetric"]
    err = p["scoreError"] if isinstance(p["scoreError"], (int, float)) else float("nan")
    res[key(r)] = (p["score"], err, p["scoreUnit"], alloc)

lines = [f"# {suite}", "", "```", settings, "```", ""]
lines.append("| benchmark | param | time | ± | allocated B/op |")
lines.append("| --- | --- | ---: | ---: | ---: |")
for (name, param), (score, err, unit, alloc) in sorted(res.items(), key=lambda kv: (str(kv[0][1]), kv[0][0])):
    lines.append(f"| {name} | {param} | {score:,.2f} {unit} | {err:,.2f} | {alloc:,.0f} |")
lines.append("")


def check(ok):
    return "**met**" if ok else "**missed**"


if suite == "marshal-zip":
    sizes = json.loads((out / "payload-sizes.json").read_text())
    lines += ["## Targets", "",
              "| payload | compressed B | streaming − marshaller B/op | bound 1.1×c+1KB | alloc vs legacy | time vs legacy |",
              "| --- | ---: | ---: | ---: | ---: | ---: |"]
    for p in ["MAP_2K", "MAP_100K", "LIST_1M"]:
        if ("streaming", p) not in res:
            continue
        c = sizes[p]["compressed"]
        s, l, m = res[("streaming", p)], res[("legacy", p)], res[("marshalOnly", p)]
        extra = s[3] - m[3]
        bound = 1.1 * c + 1024
        lines.append(f"| {p} | {c:,} | {extra:,.0f} {check(extra <= bound)} | {bound:,.0f} | "
                     f"{s[3] / l[3]:.2f}x | {s[0] / l[0]:.2f}x {check(s[0] <= l[0])} |")
    lines.append("")
elif suite == "event-publish":
    lines += ["## Targets", "",
              "| pending | stock / ours time | stock / ours alloc |",
              "| ---: | ---: | ---: |"]
    for n in ["10", "100", "1000"]:
        st, ours = res.get(("stockWholeWindow", n)), res.get(("ionAppendOne", n))
        if st and ours:
            lines.append(f"| {n} | {st[0] / ours[0]:.1f}x | {st[3] / ours[3]:.1f}x |")
    if ("ionAppendOne", "10") in res and ("ionAppendOne", "1000") in res:
        a, b = res[("ionAppendOne", "10")], res[("ionAppendOne", "1000")]
        s10, s1000 = res[("stockWholeWindow", "10")], res[("stockWholeWindow", "1000")]
        lines += ["", f"Ours from 10 to 1000 pending: time {b[0] / a[0]:.2f}x, allocation {b[3] / a[3]:.2f}x "
                      f"(target ≤ 1.2x: {check(b[0] / a[0] <= 1.2 and b[3] / a[3] <= 1.2)}). "
                      f"Stock: time {s1000[0] / s10[0]:.1f}x, allocation {s1000[3] / s10[3]:.1f}x."]
        mid = res[("stockWholeWindow", "100")], res[("ionAppendOne", "100")]
        lines += [f"At 100 pending, ours is {mid[0][0] / mid[1][0]:.1f}x cheaper in time and "
                  f"{mid[0][3] / mid[1][3]:.1f}x in allocation (target ≥ 10x: "
                  f"{check(mid[0][0] / mid[1][0] >= 10 and mid[0][3] / mid[1][3] >= 10)})."]
    lines.append("")
elif suite == "topology":
    lines += ["## Against the cluster's size", ""]
    for name in ["departures", "churn", "joins"]:
        a, b = res.get((name, "200")), res.get((name, "4000"))
        if a and b:
            lines.append(f"* {name}: per event {a[0]:,.2f} {a[2]} and {a[3]:,.0f} B at 200 members, "
                         f"{b[0]:,.2f} and {b[3]:,.0f} B at 4,000: {b[0] / a[0]:.2f}x the time for 20x the members "
                         f"(flat, at most 2x: {check(b[0] / a[0] <= 2)}).")
    lines += ["", "The joins' allocation includes the copy of the topology each invocation starts from (made in a setup "
                  "per invocation, which JMH's allocation count includes): about N bytes an event.", ""]

(out / f"{suite}.md").write_text("\n".join(lines))
print("\n".join(lines))
