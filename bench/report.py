#!/usr/bin/env python3
"""Prints the table of a bench/run output directory (markdown)."""
import json
import os
import statistics
import sys

out = sys.argv[1]


def load(name):
    with open(os.path.join(out, name)) as f:
        return json.load(f)


# Google Benchmark: medians of the repeated ones, the plain result of the others.
gb = {}
for b in load("gbench.json")["benchmarks"]:
    name = b["run_name"].split("/iterations:")[0].split("/repeats:")[0]
    if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
        continue
    scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[b["time_unit"]]
    b["ms"] = b["real_time"] * scale
    b["cpu_ms"] = b["cpu_time"] * scale
    gb[name] = b


def rounds(name):
    """Per round of bench/run's hf, the run times in ms of each command, in order."""
    found, k = [], 1
    while os.path.exists(os.path.join(out, f"{name}-r{k}.json")):
        found.append([[t * 1e3 for t in r["times"]] for r in load(f"{name}-r{k}.json")["results"]])
        k += 1
    return found


def hf(name):
    """Median over all rounds of each command, in ms."""
    rs = rounds(name)
    return [statistics.median([t for r in rs for t in r[i]]) for i in range(len(rs[0]))]


def per_round(name, fn):
    """Median over the rounds of fn(medians of the round's commands)."""
    return statistics.median(fn([statistics.median(c) for c in r]) for r in rounds(name))


rows = []  # (what, figure, target, verdict)


def row(what, figure, target="", ok=None):
    verdict = "" if ok is None else ("met" if ok else "MISSED")
    rows.append((what, figure, target, verdict))


def ms(x):
    return f"{x:.2f} ms" if x < 100 else f"{x:.0f} ms"


# The pure core.
row("sandbox::wrap(), rw+net / ro, no net",
    f"{gb['BM_SandboxWrap/ro_nonet:0']['ms'] * 1e3:.1f} / "
    f"{gb['BM_SandboxWrap/ro_nonet:1']['ms'] * 1e3:.1f} µs")
for harness in ("Claude", "Codex"):
    b = gb[f"BM_ParseStatus{harness}"]
    row(f"{harness.lower()} plugin parse_status, per captured screen",
        f"{b['ms'] * 1e3 / b['screens']:.2f} µs ({int(b['screens'])} screens)")
row("session list JSON, 1000 sessions: Poco objects + stringify",
    ms(gb["BM_SessionListJsonPoco/sessions:1000"]["ms"]))
row("session list JSON, 1000 sessions: direct (what hqt prints)",
    ms(gb["BM_SessionListJson/sessions:1000"]["ms"]))

# Status refresh, in process, against tmux in the same samples.
for n in (10, 100, 500):
    r = gb[f"BM_StatusRefresh/sessions:{n}"]
    row(f"status refresh, fresh service, {n} live (list+capture+parse)",
        f"{ms(r['ms'])} = {r['vs_capture']:.2f}x one batched capture-pane ({ms(r['capture_ms'])}); "
        f"{r['us_per_session']:.0f} µs/session, hqt CPU {ms(r['cpu_ms'])}",
        "<= 2x batched capture" if n == 100 else "",
        r["vs_capture"] <= 2 if n == 100 else None)
for n in (10, 100, 500):
    p = gb[f"BM_CapturePerPane/sessions:{n}"]
    row(f"one capture-pane process per session, {n} live",
        f"{ms(p['ms'])} = {p['vs_refresh']:.1f}x the refresh ({ms(p['refresh_ms'])})",
        ">= 20x the refresh" if n == 100 else "", p["vs_refresh"] >= 20 if n == 100 else None)
for n in (10, 100, 500):
    r = gb[f"BM_StatusRefreshIdle/sessions:{n}"]
    row(f"status refresh, nothing changed (TUI tick), {n} live",
        f"{ms(r['ms'])} = {r['vs_list']:.2f}x one tmux list-panes -a ({ms(r['list_ms'])})")
for n in (10, 100, 500):
    row(f"pieces at {n}: store rows / list_panes / capture / list_and_capture",
        " / ".join(ms(gb[f"BM_{k}/sessions:{n}"]["ms"]) for k in
                   ("StoreSessions", "AdapterListPanes", "AdapterCapture", "AdapterListAndCapture")))
row("store, 1000 sessions: open / read the rows",
    " / ".join(ms(gb[f"BM_{k}"]["ms"]) for k in ("StoreOpen", "StoreRead1000")))
row("starting a program: posix_spawn (run_program) / Poco::Process::launch",
    f"{gb['BM_RunProgramTrue']['ms'] * 1e3:.0f} / {gb['BM_PocoLaunchTrue']['ms'] * 1e3:.0f} µs "
    f"(fd limit {int(gb['BM_PocoLaunchTrue'].get('fd_limit', 0))})")
row("sandbox host: gather_facts / pane_argv / probe()",
    " / ".join(ms(gb[f"BM_Sandbox{k}"]["ms"]) for k in ("GatherFacts", "PaneArgv", "Probe")))

# Whole processes: the ratios are medians of per-round ratios (bench/run's hf).
for n in (10, 100, 500):
    h, t = hf(f"list-{n}")
    ratio = per_round(f"list-{n}", lambda m: m[0] / m[1])
    target = n == 100
    row(f"hqt session list --json, 1000 stored, {n} live",
        f"{ms(h)} = {ratio:.2f}x tmux list-sessions ({ms(t)})",
        "<= 25 ms and <= 4x" if target else "", (h <= 25 and ratio <= 4) if target else None)
for n in (10, 100, 500):
    h, t = hf(f"new-{n}")
    ratio = per_round(f"new-{n}", lambda m: m[0] / m[1])
    row(f"hqt session new (not sandboxed), {n} live",
        f"{ms(h)} = {ratio:.2f}x tmux new-session -d ({ms(t)})", "<= 3x", ratio <= 3)
plain, sandboxed, bwrap_session = hf("sandbox")
added = per_round("sandbox", lambda m: m[1] - m[0])
over_bwrap = per_round("sandbox", lambda m: m[1] - m[0] - m[2])
row("hqt session new --sandbox: added over not sandboxed",
    f"{ms(added)} ({ms(sandboxed)} vs {ms(plain)}); bwrap ... true with the session's flags "
    f"{ms(bwrap_session)}: {over_bwrap:+.2f} ms over it", "<= bwrap + 5 ms", over_bwrap <= 5)
hqt_version, tmux_version = hf("startup")
row("process start: hqt version / tmux -V",
    f"{ms(hqt_version)} / {ms(tmux_version)} = "
    f"{per_round('startup', lambda m: m[0] / m[1]):.2f}x")
(plugins,) = hf("plugins")
row("hqt plugins list (4 plugins)", ms(plugins), "< 20 ms", plugins < 20)
doctor, tmux_v, bwrap_probe, bwrap_version = hf("doctor")
ratio = per_round("doctor", lambda m: m[0] / (m[1] + m[2]))
row("hqt doctor",
    f"{ms(doctor)} = {ratio:.2f}x tmux -V ({ms(tmux_v)}) + the bwrap probe ({ms(bwrap_probe)}); "
    f"it also runs bwrap --version ({ms(bwrap_version)})",
    "< 2x the programs", ratio < 2)

# The terminal UI.
tui = load("tui.json")
k = tui["key_total_ms"]
row(f"TUI, 500 sessions: key press to frame drawn ({tui['keys']} keys)",
    f"median {ms(k['median'])}, p95 {ms(k['p95'])}, max {ms(k['max'])} "
    f"(action median {ms(tui['key_handle_ms']['median'])}, frame {ms(tui['key_draw_ms']['median'])})",
    "< 16 ms", k["max"] < 16)
p = tui["preview_total_ms"]
row(f"TUI, 500 sessions: key press to the frame with the new selection's screen ({p['count']} keys)",
    f"median {ms(p['median'])}, p95 {ms(p['p95'])}, max {ms(p['max'])}")
cpu = tui["idle_cpu_percent"] + tui["idle_cpu_children_percent"]
row("TUI, 500 sessions: idle CPU of one core",
    f"{cpu:.2f}% (hqt {tui['idle_cpu_percent']:.2f}% + its tmux clients "
    f"{tui['idle_cpu_children_percent']:.2f}%; the tmux server meanwhile "
    f"{tui['idle_cpu_tmux_server_percent']:.2f}%) over {tui['idle_seconds']:.0f} s",
    "< 2%", cpu < 2)
row("TUI, 500 sessions: resident memory",
    f"{tui['rss_kib'] / 1024:.1f} MiB (peak {tui['rss_peak_kib'] / 1024:.1f} MiB)", "< 30 MiB",
    tui["rss_kib"] < 30 * 1024)

with open(os.path.join(out, "machine.txt")) as f:
    for line in f:
        print(f"    {line.rstrip()}")
print()
print("| what | median | target | |")
print("|---|---|---|---|")
for what, figure, target, verdict in rows:
    print(f"| {what} | {figure} | {target} | {verdict} |")
