#!/usr/bin/env python3
"""The terminal UI with many sessions: hqt runs in a 200x50 pane of a tmux server of its own
(not the one its sessions are on), with HQT_TUI_TRACE set. Keys go in through send-keys; the
trace gives, per key, its action and frame times (key read to frame drawn) and, for a key that
changed the selection, the time until the frame that shows the new session's screen. Then idle
CPU from /proc/<pid>/stat and memory from /proc/<pid>/status.

usage: tui_probe.py HQT_BIN OUT.json [IDLE_SECONDS]
The environment is the benchmark user's (HOME, XDG_*, HQT_TMUX_SOCKET), with the sessions set up.
"""
import json
import os
import statistics
import subprocess
import sys
import time

hqt, out_path = sys.argv[1], sys.argv[2]
idle_seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 20.0
socket = os.environ["HQT_TMUX_SOCKET"]
ui = socket + "-ui"
trace = os.path.join(os.environ["HOME"], "tui-trace.txt")


def tmux(*args, server=ui, check=True):
    return subprocess.run(["tmux", "-L", server, *args], capture_output=True, text=True,
                          check=check).stdout


def screen():
    return tmux("capture-pane", "-p", "-t", "=ui:")


def wait_for(predicate, what, seconds=30.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    raise SystemExit(f"tui_probe: gave up waiting for {what}; the screen:\n{screen()}")


def trace_lines(kind="key "):
    try:
        with open(trace) as f:
            return [line.split() for line in f if line.startswith(kind)]
    except FileNotFoundError:
        return []


def cpu_ticks(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    # utime, stime, cutime, cstime: fields 14-17 of stat(5), 12-15 after the ")".
    return [int(x) for x in fields[11:15]]


def status_kib(pid, key):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return 0


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100.0 * (len(values) - 1))))]


env_args = []
for name in ("HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "HQT_TMUX_SOCKET",
             "PATH"):
    env_args += ["-e", f"{name}={os.environ[name]}"]
env_args += ["-e", f"HQT_TUI_TRACE={trace}", "-e", "LANG=C.UTF-8", "-e", "TMUX=", "-e",
             "TMUX_PANE="]
# env execs hqt: the pane's process is hqt itself.
tmux("-f", "/dev/null", "new-session", "-d", "-s", "ui", "-x", "200", "-y", "50", *env_args,
     "--", "/usr/bin/env", hqt)
try:
    pid = int(tmux("list-panes", "-t", "=ui:", "-F", "#{pane_pid}").strip())
    wait_for(lambda: "sleeper-1" in screen(), "the session list")
    server_pid = int(tmux("display-message", "-p", "#{pid}", server=socket).strip())

    # The session list gets the focus, then the selection walks down and back up: each key
    # loads the selected session's screen into the preview and draws a frame.
    keys = ["Tab"] + ["j"] * 60 + ["k"] * 20 + ["G", "g"]
    for i, key in enumerate(keys, 1):
        tmux("send-keys", "-t", "=ui:", key)
        wait_for(lambda: len(trace_lines()) >= i, f"the frame of key {i} ({key})", 10.0)
        time.sleep(0.02)
    time.sleep(0.5)  # the last key's preview
    lines = trace_lines()
    total = [int(line[8]) / 1000.0 for line in lines]
    # Keys that changed the selection: their frame with the selected session's screen.
    after = [int(line[2]) / 1000.0 for line in trace_lines("after ")]
    handle = [int(line[4]) / 1000.0 for line in lines]
    draw = [int(line[6]) / 1000.0 for line in lines]

    time.sleep(2.0)  # let the last key's work settle
    start, server_start, t0 = cpu_ticks(pid), cpu_ticks(server_pid), time.monotonic()
    time.sleep(idle_seconds)
    end, server_end, t1 = cpu_ticks(pid), cpu_ticks(server_pid), time.monotonic()
    hz = os.sysconf("SC_CLK_TCK")
    seconds = t1 - t0
    own = (end[0] - start[0] + end[1] - start[1]) / hz / seconds * 100
    children = (end[2] - start[2] + end[3] - start[3]) / hz / seconds * 100
    server = (server_end[0] - server_start[0] + server_end[1] - server_start[1]) / hz / seconds * 100
    result = {
        "sessions": screen().count("sleeper-"),  # rows on screen, for the record
        "keys": len(lines),
        "key_total_ms": {"median": statistics.median(total), "p95": percentile(total, 95),
                         "max": max(total)},
        "key_handle_ms": {"median": statistics.median(handle), "max": max(handle)},
        "preview_total_ms": {"median": statistics.median(after), "p95": percentile(after, 95),
                             "max": max(after), "count": len(after)},
        "key_draw_ms": {"median": statistics.median(draw), "max": max(draw)},
        "idle_seconds": seconds,
        "idle_cpu_percent": own,
        "idle_cpu_children_percent": children,
        "idle_cpu_tmux_server_percent": server,
        "rss_kib": status_kib(pid, "VmRSS"),
        "rss_peak_kib": status_kib(pid, "VmHWM"),
    }
    with open(out_path, "w") as f:
        json.dump(result, f, indent=2)
    tmux("send-keys", "-t", "=ui:", "q")
finally:
    tmux("kill-server", check=False)
