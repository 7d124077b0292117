/**
 * Running an example the way its README says: as its own Node process. The
 * script is found next to this file's folder, with this file's extension: the
 * compiled `.js` under examples/dist in `npm test`, the `.ts` source when the
 * tests run through tsx (whose loader flags the child inherits).
 */
import { spawn } from 'node:child_process';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface ScriptRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export const runExampleScript = (folder: string, env: NodeJS.ProcessEnv = process.env): Promise<ScriptRun> => {
  const ext = extname(fileURLToPath(import.meta.url));
  const script = fileURLToPath(new URL(`../../${folder}/main${ext}`, import.meta.url));
  const child = spawn(process.execPath, [...process.execArgv, script], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
};
