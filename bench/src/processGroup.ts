/**
 * Child processes that the benchmark starts in their own process group (the backend's `yarn start` runs a chain
 * of processes), so that stopping one stops all of it, even when the benchmark itself is interrupted.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync } from 'node:fs';

/** A started process group. */
export interface ProcessGroup {
  name: string;
  /** The leader's pid, which is also the group id. */
  pid: number;
  /** Where its output goes. */
  logFile: string;
  child: ChildProcess;
  /** Resolves with the exit code when the leader exits. */
  exited: Promise<number | null>;
}

const running = new Set<ProcessGroup>();
/** Every group id this process started, ended or not (the machine accounting counts their CPU time as the run's). */
const started = new Set<number>();

/** The ids of every group started so far. */
export function startedGroupIds(): ReadonlySet<number> {
  return started;
}

/** Starts `command` in a new process group, its stdout and stderr appended to `logFile`. */
export function startGroup(
  name: string,
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; logFile: string },
): ProcessGroup {
  const log = openSync(options.logFile, 'a');
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    detached: true,
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  if (child.pid === undefined)
    throw new Error(`could not start ${name}: ${command}`);
  const exited = new Promise<number | null>(resolve =>
    child.once('exit', code => resolve(code)),
  );
  const group: ProcessGroup = {
    name,
    pid: child.pid,
    logFile: options.logFile,
    child,
    exited,
  };
  running.add(group);
  started.add(group.pid);
  exited.then(() => running.delete(group));
  return group;
}

function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false; // the group is gone
  }
}

function groupAlive(pid: number): boolean {
  return signalGroup(pid, 0);
}

/** Stops a group: SIGTERM, then SIGKILL after `graceMs`. Resolves when no process of the group is left. */
export async function stopGroup(
  group: ProcessGroup,
  graceMs = 5_000,
): Promise<void> {
  signalGroup(group.pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (groupAlive(group.pid) && Date.now() < deadline) {
    await new Promise(r => setTimeout(r, 100));
  }
  signalGroup(group.pid, 'SIGKILL');
  while (groupAlive(group.pid)) await new Promise(r => setTimeout(r, 50));
  running.delete(group);
}

/** Kills every group still running, synchronously (for exit and signal handlers). */
export function killAllGroups(): void {
  for (const group of running) signalGroup(group.pid, 'SIGKILL');
  running.clear();
}

/** The last lines of a group's log, to show why it failed. */
export function logTail(group: ProcessGroup, lines = 30): string {
  try {
    return readFileSync(group.logFile, 'utf8')
      .split('\n')
      .slice(-lines)
      .join('\n');
  } catch {
    return '';
  }
}

/** Waits until the group's log has a line matching `pattern`; fails if the group exits or `timeoutMs` passes. */
export async function waitForLogLine(
  group: ProcessGroup,
  pattern: RegExp,
  timeoutMs: number,
): Promise<RegExpExecArray> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  group.exited.then(() => {
    exited = true;
  });
  for (;;) {
    const match = pattern.exec(readFileSync(group.logFile, 'utf8'));
    if (match) return match;
    if (exited)
      throw new Error(
        `${group.name} exited before it was ready:\n${logTail(group)}`,
      );
    if (Date.now() > deadline) {
      throw new Error(
        `${group.name} not ready after ${timeoutMs / 1000} s:\n${logTail(
          group,
        )}`,
      );
    }
    await new Promise(r => setTimeout(r, 100));
  }
}

/**
 * The processes of a group: each one's pid and the fields of its `/proc/<pid>/stat` after the command (state(0)
 * ppid(1) pgrp(2) … utime(11) stime(12) …). Processes that end while being read are left out.
 */
function processesInGroup(pgid: number): Array<{ pid: string; fields: string[] }> {
  const found: Array<{ pid: string; fields: string[] }> = [];
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid) found.push({ pid, fields });
    } catch {
      // the process ended while being read
    }
  }
  return found;
}

/** Resident memory (bytes) of the largest process of a group: the backend, not the `yarn` wrappers around it. */
export function largestRssInGroup(pgid: number): number {
  let largest = 0;
  for (const { pid } of processesInGroup(pgid)) {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      largest = Math.max(largest, kb * 1024);
    } catch {
      // the process ended while being read
    }
  }
  return largest;
}

/** CPU time (user and system, in seconds) the processes of a group have used so far. */
export function cpuSecondsOfGroup(pgid: number): number {
  let ticks = 0;
  for (const { fields } of processesInGroup(pgid)) ticks += Number(fields[11]) + Number(fields[12]);
  // Linux counts in USER_HZ, 100 per second on every architecture it runs on
  return ticks / 100;
}
