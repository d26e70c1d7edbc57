import { execFile } from 'node:child_process';

/**
 * Every program the build runtime starts gets this environment and nothing more: no
 * credentials of the worker (database, Redis, API keys) ever reach a build's commands.
 */
export const MINIMAL_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

export interface ProcessOptions {
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  /** Output beyond this many bytes (per stream) kills the process. */
  maxBuffer: number;
}

export interface ProcessResult<Output extends string | Buffer = string> {
  stdout: Output;
  stderr: Output;
  /** Null when the process was killed by a signal. */
  exitCode: number | null;
  timedOut: boolean;
  /** The process wrote more than `maxBuffer` and was killed. */
  overflowed: boolean;
}

/**
 * Runs a program without a shell and resolves with its outcome, whatever its exit status.
 * Rejects only when the program could not be started at all (e.g. not installed).
 */
export function runProcess(
  file: string,
  args: string[],
  options: ProcessOptions & { encoding: 'buffer' },
): Promise<ProcessResult<Buffer>>;
export function runProcess(
  file: string,
  args: string[],
  options: ProcessOptions,
): Promise<ProcessResult>;
export function runProcess(
  file: string,
  args: string[],
  options: ProcessOptions & { encoding?: 'buffer' },
): Promise<ProcessResult<string | Buffer>> {
  return new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      {
        cwd: options.cwd,
        env: options.env,
        timeout: options.timeoutMs,
        killSignal: 'SIGKILL',
        maxBuffer: options.maxBuffer,
        encoding: options.encoding ?? 'utf8',
        windowsHide: true,
      },
      (error, stdout, stderr) => {
        if (
          error &&
          typeof error.code === 'string' &&
          error.code !== 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER'
        ) {
          reject(new Error(`${file} could not be started: ${error.message}`, { cause: error }));
          return;
        }
        const overflowed = error?.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER';
        const exitCode = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({
          stdout,
          stderr,
          exitCode: overflowed ? null : exitCode,
          timedOut: Boolean(error?.killed) && !overflowed,
          overflowed,
        });
      },
    );
  });
}
