import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The compiled CLI as bundled, what the package runs (`npm test` builds it first): run it as `node CLI …`. */
export const CLI = fileURLToPath(new URL('../../dist/bundle/main.js', import.meta.url));

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  output(): string;
  /** SIGTERM and wait (no-op when it already exited). */
  stop(): Promise<void>;
}

/** `reviewcast serve` in its own process; resolves once it logs that it listens. */
export function spawnServe(args: string[], env: NodeJS.ProcessEnv = {}): Promise<ServerProcess> {
  return spawnCommand(process.execPath, [CLI, 'serve', '--host', '127.0.0.1', ...args], {
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
  });
}

/** Any command that runs a Reviewcast server logging JSON lines (an installed `reviewcast serve`, say); resolves once it listens. */
export async function spawnCommand(
  command: string,
  args: string[],
  options: { cwd?: string; env: NodeJS.ProcessEnv },
): Promise<ServerProcess> {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const url = await new Promise<string>((resolve, reject) => {
    // Scans only the output not yet scanned (from the last line start), and stops once listening:
    // rescanning all of it on every chunk grows with the log for as long as the process runs.
    let from = 0;
    const check = () => {
      const m = out.slice(from).match(/"url":"(http:[^"]+)"[^\n]*"reviewcast listening"/);
      if (m) {
        child.stdout!.off('data', check);
        child.off('exit', exited);
        resolve(m[1]);
      } else from = out.lastIndexOf('\n') + 1;
    };
    const exited = (code: number | null) => reject(new Error(`serve exited with ${code}:\n${out.slice(-3000)}`));
    child.stdout!.on('data', check);
    child.once('exit', exited);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    url,
    child,
    output: () => out,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
