/**
 * The machine a run measured on, and how busy other work kept it: the figures of a shared 2-core machine mean
 * little without the load they were taken under.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';

/** What the results say about the machine. */
export interface MachineDescription {
  cores: number;
  cpuModel: string;
  memoryGiB: number;
  node: string;
  platform: string;
  /** `uptime` at the start and at the end of the run. */
  uptimeBefore: string;
  uptimeAfter?: string;
  /** Average cores busy with processes other than this run's, over the whole run (from /proc/stat). */
  otherWorkCores?: number;
  /** True when other work used more than a quarter of a core on average: the figures are noisier than usual. */
  noisy?: boolean;
}

function uptime(): string {
  try {
    return execFileSync('uptime', { encoding: 'utf8' }).trim();
  } catch {
    return `load average: ${os
      .loadavg()
      .map(l => l.toFixed(2))
      .join(', ')}`;
  }
}

/** Busy and total CPU ticks of the whole machine. */
function machineTicks(): { busy: number; total: number } {
  const cpu = readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const total = cpu.reduce((a, b) => a + b, 0);
  const idle = cpu[3] + (cpu[4] ?? 0); // idle + iowait
  return { busy: total - idle, total };
}

/** utime + stime of a process from its stat line, with its process group. */
function processTicks(statLine: string): { group: number; ticks: number } {
  // fields after the command's closing parenthesis: state ppid pgrp ... utime (12th) stime (13th)
  const fields = statLine.slice(statLine.lastIndexOf(')') + 2).split(' ');
  return {
    group: Number(fields[2]),
    ticks: Number(fields[11]) + Number(fields[12]),
  };
}

/**
 * Starts accounting: samples, every second, the CPU time of this process and of every process in the groups that
 * `groups()` names (what the run started), so that `finish()` can tell how many cores other work used meanwhile.
 * Sampling rather than waiting for children: a group's processes are not all reaped by this process.
 */
export function startMachineAccounting(groups: () => ReadonlySet<number>): {
  machine: MachineDescription;
  finish(): MachineDescription;
} {
  const machine: MachineDescription = {
    cores: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    uptimeBefore: uptime(),
  };
  const ownTicks = new Map<number, number>();
  const sample = () => {
    const wanted = groups();
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const pid = Number(entry);
        const { group, ticks } = processTicks(
          readFileSync(`/proc/${entry}/stat`, 'utf8'),
        );
        if (pid === process.pid || wanted.has(group)) ownTicks.set(pid, ticks);
      } catch {
        // the process ended while being read
      }
    }
  };
  let start: { busy: number; total: number } | undefined;
  let timer: NodeJS.Timeout | undefined;
  try {
    start = machineTicks();
    sample();
    timer = setInterval(sample, 1_000);
    timer.unref();
  } catch {
    start = undefined; // no /proc: no accounting
  }
  const ownAtStart = [...ownTicks.values()].reduce((a, b) => a + b, 0);
  return {
    machine,
    finish() {
      clearInterval(timer);
      machine.uptimeAfter = uptime();
      if (start) {
        sample();
        const end = machineTicks();
        const totalTicks = end.total - start.total;
        const own =
          [...ownTicks.values()].reduce((a, b) => a + b, 0) - ownAtStart;
        const otherBusy = end.busy - start.busy - own;
        if (totalTicks > 0) {
          machine.otherWorkCores = Math.max(
            0,
            Math.round((otherBusy / totalTicks) * machine.cores * 100) / 100,
          );
          machine.noisy = machine.otherWorkCores > 0.25;
        }
      }
      return machine;
    },
  };
}
