// Child processes of the bench: start a server script and wait for its first IPC message, read its resident memory, stop it.
import { fork, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';

/** A running child and the first message it sent (its URL and whatever else it reports). */
export interface Child<T> {
  process: ChildProcess;
  ready: T;
  /** Waits for the next message that has `key`. */
  next<K extends string>(key: K): Promise<Record<K, any>>;
  stop(): Promise<void>;
}

/** Forks `script` (a .ts file, run with Node's type stripping) and resolves with its first message; `execArgv` e.g. for --cpu-prof. */
export function startChild<T>(script: URL, args: string[] = [], execArgv: string[] = []): Promise<Child<T>> {
  const child = fork(script, args, {
    execArgv: ['--disable-warning=ExperimentalWarning', ...execArgv],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${script.pathname} exited with ${code} before it was ready`)));
    child.once('message', (ready) => {
      child.removeAllListeners('exit');
      resolve({
        process: child,
        ready: ready as T,
        next: (key) =>
          new Promise((done) => {
            const listener = (message: any) => {
              if (message && key in message) {
                child.off('message', listener);
                done(message);
              }
            };
            child.on('message', listener);
          }),
        stop: () => stopProcess(child),
      });
    });
  });
}

/** Asks `child` to end (disconnect, then SIGTERM) and waits for it; SIGKILL after 10 s. */
export function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    if (child.connected) child.disconnect();
    else child.kill('SIGTERM');
  });
}

/** Resident memory of a process in MB, from /proc (Linux); NaN elsewhere. */
export function rssMb(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** A TCP port free on 127.0.0.1 right now (for a contender that takes its port as an argument). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** CPU time (user and system) a process (every thread) or one of its threads has used so far in ms, from /proc (Linux); NaN elsewhere. */
export function cpuMsOf(pid: number, thread?: number): number {
  try {
    // Fields after the command name: utime and stime are the 12th and 13th, in clock ticks (100 a second on Linux).
    const stat = readFileSync(thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`, 'utf8');
    const fields = stat.split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

/** CPU time the kernel spent for one thread of `pid` so far, in ms (stime alone, see `cpuMsOf`); NaN elsewhere than Linux. */
export function kernelMsOf(pid: number, thread: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/task/${thread}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return Number(fields[12]) * 10;
  } catch {
    return Number.NaN;
  }
}

/**
 * CPU time (user and system, ms) of each of a process's threads so far, summed by thread name (`MainThread`, `V8Worker`
 * for the garbage collector's helpers, a worker thread's name or `WorkerThread`, `libuv-worker`...), from /proc (Linux);
 * empty elsewhere. A thread that ended is no longer counted.
 */
export function threadCpuMsOf(pid: number): Map<string, number> {
  const byName = new Map<string, number>();
  try {
    for (const thread of readdirSync(`/proc/${pid}/task`)) {
      const name = readFileSync(`/proc/${pid}/task/${thread}/comm`, 'utf8').trim();
      byName.set(name, (byName.get(name) ?? 0) + cpuMsOf(pid, Number(thread)));
    }
  } catch {
    // Not Linux, or the process ended.
  }
  return byName;
}

/**
 * The context switches of each thread of `pid` so far, summed by thread name, from /proc (Linux; empty elsewhere):
 * `voluntary` when it went to sleep (waited for work: each is a wake-up later), `involuntary` when the scheduler took the
 * core from it.
 */
export function threadSwitchesOf(pid: number): Map<string, { voluntary: number; involuntary: number }> {
  const byName = new Map<string, { voluntary: number; involuntary: number }>();
  try {
    for (const thread of readdirSync(`/proc/${pid}/task`)) {
      const name = readFileSync(`/proc/${pid}/task/${thread}/comm`, 'utf8').trim();
      const status = readFileSync(`/proc/${pid}/task/${thread}/status`, 'utf8');
      const counts = byName.get(name) ?? { voluntary: 0, involuntary: 0 };
      counts.voluntary += Number(/^voluntary_ctxt_switches:\s+(\d+)/m.exec(status)?.[1] ?? 0);
      counts.involuntary += Number(/^nonvoluntary_ctxt_switches:\s+(\d+)/m.exec(status)?.[1] ?? 0);
      byName.set(name, counts);
    }
  } catch {
    // Not Linux, or the process ended.
  }
  return byName;
}

/** The read and write system calls a process has made so far, from /proc (Linux); NaN elsewhere. */
export function syscallsOf(pid: number, thread?: number): { reads: number; writes: number } {
  try {
    // The process's count covers all its threads; `/proc/PID/task/TID/io` one thread's (the main thread's id is the pid).
    const io = readFileSync(thread === undefined ? `/proc/${pid}/io` : `/proc/${pid}/task/${thread}/io`, 'utf8');
    return { reads: Number(/syscr: (\d+)/.exec(io)?.[1]), writes: Number(/syscw: (\d+)/.exec(io)?.[1]) };
  } catch {
    return { reads: Number.NaN, writes: Number.NaN };
  }
}
