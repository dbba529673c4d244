import { join } from 'node:path';
import { type RunningServer, startServer } from '../../src/app/index.js';
import type { ConfigInput } from '../../src/config.js';
import { tempDir } from './tmp.js';

/**
 * The real server on 127.0.0.1:0 with its own SQLite file (demo business unless told otherwise).
 * The caller closes it (`after(() => server.close())` at the top level of the test file).
 */
export async function startTestServer(
  overrides: Partial<ConfigInput> = {},
  opts: Parameters<typeof startServer>[1] = {},
): Promise<RunningServer> {
  const server = await startServer(
    {
      PORT: 0,
      HOST: '127.0.0.1',
      DATABASE_URL: join(tempDir(), 'reviewcast.db'),
      LOG_LEVEL: 'silent',
      REVIEWCAST_POLL_MS: 100,
      ...overrides,
    },
    opts,
  );
  return server;
}
