// Whether a process of this machine still runs, by its id: the secrets file's lock and the listening note each tell a live holder from one that died.

/** Whether process `pid` runs (one of another user, which a signal may not reach, counts). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
